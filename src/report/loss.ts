// Where the money leaks: per cashier (the order's user, or its employee where pos_hr is
// installed) and per register, the refunds, cancelled orders, discounts and cash differences
// of the period, each set against the median of the others; a figure far from it is marked,
// with the orders behind it. The refunds and discounts are summary's (--by cashier, --by
// register), the cash differences reconcile's, the cancelled orders grouped by Odoo; what
// needs an order at a time (the largest discount, the refunds made soon after their sale)
// reads a few fields of the refunds and discounted lines, never their orders whole. The orders
// listed under a marked figure are read whole once the marks are known, in one request.
import type { OdooClient } from '../core/client.js';
import type { OdooRecord } from '../core/types.js';
import type { SessionFigures } from '../reconcile/compute.js';
import { roundAt } from '../records/normalize.js';
import type { SummaryResult } from '../summary/query.js';
import { summaryRows } from '../summary/rows.js';
import { type Built, LISTED, listBehind } from './loss-behind.js';
import { type LossReads, type LossScope, m2o, num, QUICK_MINUTES, readLoss } from './loss-reads.js';
import { emptyRow, type LossRow, METRICS, type Metric } from './loss-rows.js';

/** Fewer orders than this are too few to set against the others. */
export const MIN_ORDERS = 20;

export interface LossSection {
  cashierField: string;
  cashiers: LossRow[];
  registers: LossRow[];
  quickMinutes: number;
  minOrders: number;
  /** What Odoo does not store, said in the report. */
  unknown: string[];
}

export interface LossInputs extends LossScope {
  /** summary --by cashier and --by register of the period; a view leaves out the one it does not show. */
  cashier?: SummaryResult;
  register?: SummaryResult;
  sessions: SessionFigures[];
  digits: number;
  /** The registers' own names by id, where the caller read them (the report's sections). */
  registerNames?: Map<number, string>;
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** Above twice the median of the others and by more than the floor (a share, or money per closing). */
const FLOOR: Record<Metric, number> = {
  refund_share: 0.05,
  // One quick refund in a hundred orders above the others': most cashiers have none.
  quick_share: 0.01,
  cancelled_share: 0.05,
  discount_share: 0.05,
  cash_short: 1,
};

function markRows(rows: LossRow[]): void {
  for (const m of METRICS) {
    for (const r of rows) {
      const others = rows.filter(
        (o) => o !== r && o[m] !== null && (m === 'cash_short' || o.orders >= MIN_ORDERS),
      );
      const med = median(others.map((o) => o[m] as number));
      r.median[m] = med === null ? null : roundAt(med, 4);
      const v = r[m];
      if (v === null || med === null) continue;
      if (m !== 'cash_short' && r.orders < MIN_ORDERS) continue;
      if (v > 2 * Math.max(med, 0) && v - med >= FLOOR[m]) r.marks.push(m);
    }
  }
}

export async function lossSection(client: OdooClient, x: LossInputs): Promise<LossSection> {
  const reads = await readLoss(client, x);
  const { who } = reads;
  const sessionOf = new Map(x.sessionUsers.map((s) => [s.id, s.user]));
  // With pos_hr the rows are employees: a session no employee rang an order in goes with the
  // orders rung by none, not to its user, whose res.users id names another employee's row
  // (posshop: user 2 is Mitchell Admin, employee 2 Jeffrey Kelly).
  const cashierOfSession = (s: SessionFigures): [number, string] | null =>
    who === 'user_id'
      ? (sessionOf.get(s.sessionId) ?? null)
      : (reads.sessionCashier.get(s.sessionId) ?? null);
  const names = registerNames(x);
  const built = [
    x.cashier
      ? buildRows(
          reads,
          x,
          { key: 'cashier', id: 'cashier_id', name: 'cashier', ofSession: cashierOfSession, named: (k) => k },
          x.cashier,
        )
      : null,
    x.register
      ? buildRows(
          reads,
          x,
          {
            key: 'register',
            id: 'config_id',
            name: 'register',
            ofSession: (s) => [s.configId, s.register],
            named: (k) => (k && names.has(k[0]) ? [k[0], names.get(k[0]) as string] : k),
          },
          x.register,
        )
      : null,
  ].filter((b): b is Built => b !== null);
  const amount = (o: OdooRecord): number => roundAt(num(o.amount_total), x.digits);
  await listBehind(client, built, {
    range: reads.range,
    who,
    digits: x.digits,
    amount,
    perOrder: reads.perOrder,
    registerName: (v) => {
      const k = m2o(v);
      return k ? (names.get(k[0]) ?? k[1]) : '';
    },
  });
  return {
    cashierField: who,
    cashiers: built.find((b) => b.key === 'cashier')?.rows ?? [],
    registers: built.find((b) => b.key === 'register')?.rows ?? [],
    quickMinutes: QUICK_MINUTES,
    minOrders: MIN_ORDERS,
    unknown: [
      'Lines removed or reduced on the register before payment: Odoo keeps only the lines that were paid.',
      'Why an order was refunded, cancelled or discounted: Odoo stores no reason for it.',
      who === 'employee_id'
        ? "Who counted the cash: Odoo records no counter; a closing is set against the employee at the register then (the session's employee on Odoo 18 and 19, else the one who rang the session's last order)."
        : 'Who counted the cash: a closing is set against the user who opened the session.',
      'A cancelled order is an order left unpaid and cancelled; its amount is what it held then.',
    ],
  };
}

/** The key the rows are made by: cashier or register, its columns in summary's rows, and a session's. */
interface Key {
  key: 'cashier' | 'register';
  id: string;
  name: string;
  ofSession: (s: SessionFigures) => [number, string] | null;
  /** The key with its own name: a register's, not Odoo 16/17's label of it. */
  named: (k: [number, string] | null) => [number, string] | null;
}

/**
 * Each register's own name: Odoo 16/17's label of a register carries the user of its open
 * session (`Shop (Mitchell Admin)`) or says `(not used)`, so the orders' config_id cannot name
 * it. The caller's, else those reconcile and summary read.
 */
function registerNames(x: LossInputs): Map<number, string> {
  const names = new Map(x.registerNames);
  for (const s of x.sessions) if (!names.has(s.configId)) names.set(s.configId, s.register);
  for (const r of x.register ? summaryRows(x.register) : [])
    if (typeof r.config_id === 'number' && !names.has(r.config_id))
      names.set(r.config_id, String(r.register));
  return names;
}

/** The rows of one key by its id, each made when a figure first names it. */
class Rows {
  readonly byId = new Map<number | null, LossRow>();
  row(k: [number, string] | null): LossRow {
    const id = k?.[0] ?? null;
    let r = this.byId.get(id);
    if (!r) {
      r = emptyRow(id, k?.[1] ?? '');
      this.byId.set(id, r);
    }
    return r;
  }
}

/** The rows of one key, with what each figure needs to list the orders behind it once marked. */
function buildRows(reads: LossReads, x: LossInputs, key: Key, summary: SummaryResult): Built {
  const field = key.key === 'cashier' ? reads.who : 'config_id';
  const rows = new Rows();
  summaryFigures(rows, summaryRows(summary), key, x.digits);
  const refunds = new Map<LossRow, OdooRecord[]>();
  for (const o of reads.refunds) push(refunds, rows.row(key.named(m2o(o[field]))), o);
  for (const g of reads.cancelledGroups) {
    const r = rows.row(
      key.key === 'cashier' ? m2o(g.values[reads.who]) : key.named(reads.registerOf(g.values[reads.place])),
    );
    r.cancelled += g.aggs.__count ?? 0;
    r.cancelled_amount = roundAt(r.cancelled_amount + (g.aggs['amount_total:sum'] ?? 0), x.digits);
  }
  const discounts = new Map<LossRow, number[]>();
  for (const [id, d] of reads.perOrder) {
    const k = reads.keysOfOrder.get(id);
    const r = rows.row(key.named(k ? k[key.key] : null));
    push(discounts, r, id);
    r.largest_discount = roundAt(Math.max(r.largest_discount ?? 0, d), x.digits);
  }
  const refundById = new Map(reads.refunds.map((o) => [o.id, o]));
  const quick = new Map<LossRow, { id: number; minutes: number }[]>();
  for (const q of reads.quick) {
    const o = refundById.get(q.id);
    if (!o) continue;
    const r = rows.row(key.named(m2o(o[field])));
    r.quick_refunds++;
    push(quick, r, q);
  }
  closingFigures(rows, x, key);
  const list = [...rows.byId.values()];
  for (const r of list) {
    r.cancelled_share =
      r.orders + r.cancelled > 0 ? roundAt(r.cancelled / (r.orders + r.cancelled), 4) : null;
    r.cash_short = r.closings > 0 ? roundAt(-(r.cash_difference ?? 0) / r.closings, x.digits) : null;
    r.quick_share = r.orders > 0 ? roundAt(r.quick_refunds / r.orders, 4) : null;
    r.behind.closings.sort((a, b) => a.difference - b.difference).splice(LISTED);
  }
  markRows(list);
  list.sort((a, b) => a.name.localeCompare(b.name));
  return { rows: list, key: key.key, field, refunds, discounts, quick };
}

/** Summary's figures of each row: orders, sales, refunds, discounts and their shares. */
function summaryFigures(rows: Rows, summary: Record<string, unknown>[], key: Key, digits: number): void {
  for (const s of summary) {
    const id = typeof s[key.id] === 'number' ? (s[key.id] as number) : null;
    const r = rows.row(id === null ? null : [id, String(s[key.name] ?? '')]);
    r.name = String(s[key.name] ?? '');
    r.orders = num(s.orders);
    r.refund_count = num(s.refund_count);
    r.refunds = num(s.refunds);
    r.sales = roundAt(num(s.total) - num(s.refunds), digits);
    r.discounts = typeof s.discounts === 'number' ? s.discounts : null;
    r.refund_share = r.sales > 0 ? roundAt(-r.refunds / r.sales, 4) : null;
    r.discount_share =
      r.discounts !== null && typeof s.gross === 'number' && s.gross > 0
        ? roundAt(r.discounts / s.gross, 4)
        : null;
  }
}

/** Reconcile's closings of each row: their count, summed difference and the closings behind them. */
function closingFigures(rows: Rows, x: LossInputs, key: Key): void {
  for (const s of x.sessions) {
    const r = rows.row(key.ofSession(s));
    r.closings++;
    r.cash_difference = roundAt((r.cash_difference ?? 0) + s.difference, x.digits);
    r.behind.closings.push({
      session_id: s.sessionId,
      session: s.session,
      register: s.register,
      closed: s.closedUtc,
      difference: s.difference,
    });
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
