// Where the money leaks: per cashier (the order's user, or its employee where pos_hr is
// installed) and per register, the refunds, cancelled orders, discounts and cash differences
// of the period, each set against the median of the others; a figure far from it is marked,
// with the orders behind it. The refunds and discounts are summary's (--by cashier, --by
// register), the cash differences reconcile's; the orders behind them are read in a few
// batched calls.
import type { OdooClient } from '../core/client.js';
import type { Domain, OdooRecord } from '../core/types.js';
import type { SessionFigures } from '../reconcile/compute.js';
import { roundAt } from '../records/normalize.js';
import { COUNTED_STATES } from '../summary/compute.js';
import { discountOf } from '../summary/folder.js';
import type { Range, SummaryResult } from '../summary/query.js';
import { summaryRows } from '../summary/rows.js';

/** A refund within this many minutes of its sale is a quick refund. */
export const QUICK_MINUTES = 30;
/** Fewer orders than this are too few to set against the others. */
export const MIN_ORDERS = 20;
/** How many orders a marked figure lists. */
const LISTED = 25;

export interface OrderRef {
  id: number;
  ticket: string;
  /** Odoo's UTC `YYYY-MM-DD HH:MM:SS`. */
  time: string;
  amount: number;
  register: string;
  /** A discount: what it gave away; a quick refund: minutes after the sale. */
  detail?: number;
}

export interface ClosingRef {
  session_id: number;
  session: string;
  register: string;
  closed: string | null;
  difference: number;
}

export const METRICS = ['refund_share', 'cancelled_share', 'discount_share', 'cash_short'] as const;
export type Metric = (typeof METRICS)[number];

export interface LossRow {
  id: number | null;
  name: string;
  orders: number;
  /** What was sold (tax included), refunds left out: total − refunds. */
  sales: number;
  refund_count: number;
  refunds: number;
  refund_share: number | null;
  cancelled: number;
  cancelled_amount: number;
  cancelled_share: number | null;
  discounts: number | null;
  discount_share: number | null;
  largest_discount: number | null;
  closings: number;
  cash_difference: number | null;
  /** The average shortage per closing (a positive number is cash missing); null without closings. */
  cash_short: number | null;
  quick_refunds: number;
  /** Per metric: the median of the others. */
  median: Record<Metric, number | null>;
  marks: Metric[];
  behind: {
    refunds: OrderRef[];
    cancelled: OrderRef[];
    discounts: OrderRef[];
    quick: OrderRef[];
    closings: ClosingRef[];
  };
}

export interface LossSection {
  cashierField: string;
  cashiers: LossRow[];
  registers: LossRow[];
  quickMinutes: number;
  minOrders: number;
  /** What Odoo does not store, said in the report. */
  unknown: string[];
}

export interface LossInputs {
  range: Range;
  configId?: number;
  sessionId?: number;
  /** summary --by cashier and --by register of the period; a view leaves out the one it does not show. */
  cashier?: SummaryResult;
  register?: SummaryResult;
  sessions: SessionFigures[];
  sessionUsers: { id: number; user: [number, string] | null }[];
  digits: number;
}

const m2o = (v: unknown): [number, string] | null =>
  Array.isArray(v) && typeof v[0] === 'number' ? [v[0], String(v[1] ?? '')] : null;
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** Above twice the median of the others and by more than the floor (a share, or money per closing). */
const FLOOR: Record<Metric, number> = {
  refund_share: 0.05,
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
  const fields = await client.fieldsGet('pos.order');
  const who = 'employee_id' in fields ? 'employee_id' : 'user_id';
  const range: Domain = [];
  if (x.range.start) range.push(['date_order', '>=', x.range.start]);
  if (x.range.end) range.push(['date_order', '<', x.range.end]);
  if (x.configId !== undefined) range.push(['config_id', '=', x.configId]);
  if (x.sessionId !== undefined) range.push(['session_id', '=', x.sessionId]);
  const orderFields = ['name', 'date_order', 'amount_total', who, 'config_id'];
  const counted: Domain = [['state', 'in', COUNTED_STATES], ...range];
  const onLines: Domain = counted.map((c) => [`order_id.${c[0]}`, c[1], c[2]] as Domain[number]);
  const uids = [...new Set(x.sessionUsers.flatMap((s) => (s.user ? [s.user[0]] : [])))];
  const [refunds, cancelled, discounted, employees] = await Promise.all([
    client.searchRead('pos.order', [...counted, ['amount_total', '<', 0]], {
      fields: orderFields,
      order: 'id',
    }),
    client.searchRead('pos.order', [['state', '=', 'cancel'], ...range], {
      fields: orderFields,
      order: 'id',
    }),
    // Discounts are given on sales, as summary counts them: a refund's lines carry the discount back.
    client.searchRead(
      'pos.order.line',
      [...onLines, ['order_id.amount_total', '>=', 0], ['discount', '>', 0]],
      {
        fields: ['order_id', 'discount', 'price_subtotal_incl'],
        order: 'id',
      },
    ),
    who === 'employee_id' && uids.length > 0
      ? client.searchRead('hr.employee', [['user_id', 'in', uids]], { fields: ['user_id', 'name'] })
      : Promise.resolve([] as OdooRecord[]),
  ]);
  // The discount of each discounted order, and those orders (their cashier, ticket, time).
  const perOrder = new Map<number, number>();
  for (const l of discounted) {
    const o = m2o(l.order_id)?.[0];
    if (o !== undefined)
      perOrder.set(o, (perOrder.get(o) ?? 0) + discountOf(l.discount, num(l.price_subtotal_incl)));
  }
  const [discountOrders, quick] = await Promise.all([
    perOrder.size > 0 ? client.read('pos.order', [...perOrder.keys()], orderFields) : Promise.resolve([]),
    quickRefunds(client, refunds),
  ]);
  const ref = (o: OdooRecord, detail?: number): OrderRef => ({
    id: o.id,
    ticket: String(o.name),
    time: String(o.date_order),
    amount: roundAt(num(o.amount_total), x.digits),
    register: m2o(o.config_id)?.[1] ?? '',
    ...(detail === undefined ? {} : { detail: roundAt(detail, x.digits) }),
  });
  const employeeOf = new Map(
    employees.map((e) => [m2o(e.user_id)?.[0] as number, [e.id, String(e.name)] as const]),
  );
  const sessionOf = new Map(x.sessionUsers.map((s) => [s.id, s.user]));

  const build = (
    rows: Record<string, unknown>[],
    idKey: string,
    nameKey: string,
    keyOfOrder: (o: OdooRecord) => number | null,
    keyOfSession: (s: SessionFigures) => [number, string] | null,
  ): LossRow[] => {
    const out = new Map<number | null, LossRow>();
    const row = (id: number | null, name: string): LossRow => {
      let r = out.get(id);
      if (!r) {
        r = {
          id,
          name,
          orders: 0,
          sales: 0,
          refund_count: 0,
          refunds: 0,
          refund_share: null,
          cancelled: 0,
          cancelled_amount: 0,
          cancelled_share: null,
          discounts: null,
          discount_share: null,
          largest_discount: null,
          closings: 0,
          cash_difference: null,
          cash_short: null,
          quick_refunds: 0,
          median: { refund_share: null, cancelled_share: null, discount_share: null, cash_short: null },
          marks: [],
          behind: { refunds: [], cancelled: [], discounts: [], quick: [], closings: [] },
        };
        out.set(id, r);
      }
      return r;
    };
    for (const s of rows) {
      const r = row(typeof s[idKey] === 'number' ? (s[idKey] as number) : null, String(s[nameKey] ?? ''));
      r.orders = num(s.orders);
      r.refund_count = num(s.refund_count);
      r.refunds = num(s.refunds);
      r.sales = roundAt(num(s.total) - num(s.refunds), x.digits);
      r.discounts = typeof s.discounts === 'number' ? s.discounts : null;
      r.refund_share = r.sales > 0 ? roundAt(-r.refunds / r.sales, 4) : null;
      r.discount_share =
        r.discounts !== null && typeof s.gross === 'number' && s.gross > 0
          ? roundAt(r.discounts / s.gross, 4)
          : null;
    }
    const nameOf = (o: OdooRecord): string =>
      (idKey === 'config_id' ? m2o(o.config_id) : m2o(o[who]))?.[1] ?? '';
    for (const o of refunds) row(keyOfOrder(o), nameOf(o)).behind.refunds.push(ref(o));
    for (const o of cancelled) {
      const r = row(keyOfOrder(o), nameOf(o));
      r.cancelled++;
      r.cancelled_amount = roundAt(r.cancelled_amount + num(o.amount_total), x.digits);
      r.behind.cancelled.push(ref(o));
    }
    for (const o of discountOrders) {
      const r = row(keyOfOrder(o), nameOf(o));
      const d = perOrder.get(o.id) ?? 0;
      r.behind.discounts.push(ref(o, d));
      r.largest_discount = roundAt(Math.max(r.largest_discount ?? 0, d), x.digits);
    }
    const refundById = new Map(refunds.map((o) => [o.id, o]));
    for (const q of quick) {
      const o = refundById.get(q.id);
      if (!o) continue;
      const r = row(keyOfOrder(o), nameOf(o));
      r.quick_refunds++;
      r.behind.quick.push(ref(o, q.minutes));
    }
    for (const s of x.sessions) {
      const k = keyOfSession(s);
      const r = row(k?.[0] ?? null, k?.[1] ?? '');
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
    const list = [...out.values()];
    for (const r of list) {
      r.cancelled_share =
        r.orders + r.cancelled > 0 ? roundAt(r.cancelled / (r.orders + r.cancelled), 4) : null;
      r.cash_short = r.closings > 0 ? roundAt(-(r.cash_difference ?? 0) / r.closings, x.digits) : null;
      r.behind.refunds.sort((a, b) => a.amount - b.amount).splice(LISTED);
      r.behind.cancelled.sort((a, b) => b.amount - a.amount).splice(LISTED);
      r.behind.discounts.sort((a, b) => (b.detail ?? 0) - (a.detail ?? 0)).splice(LISTED);
      r.behind.quick.sort((a, b) => (a.detail ?? 0) - (b.detail ?? 0)).splice(LISTED);
      r.behind.closings.sort((a, b) => a.difference - b.difference).splice(LISTED);
    }
    markRows(list);
    return list.sort((a, b) => a.name.localeCompare(b.name));
  };

  const cashierOfSession = (s: SessionFigures): [number, string] | null => {
    const u = sessionOf.get(s.sessionId) ?? null;
    if (!u || who === 'user_id') return u;
    const e = employeeOf.get(u[0]);
    return e ? [e[0], e[1]] : u;
  };
  return {
    cashierField: who,
    cashiers: x.cashier
      ? build(
          summaryRows(x.cashier),
          'cashier_id',
          'cashier',
          (o) => m2o(o[who])?.[0] ?? null,
          cashierOfSession,
        )
      : [],
    registers: x.register
      ? build(
          summaryRows(x.register),
          'config_id',
          'register',
          (o) => m2o(o.config_id)?.[0] ?? null,
          (s) => [s.configId, s.register],
        )
      : [],
    quickMinutes: QUICK_MINUTES,
    minOrders: MIN_ORDERS,
    unknown: [
      'Lines removed or reduced on the register before payment: Odoo keeps only the lines that were paid.',
      'Why an order was refunded, cancelled or discounted: Odoo stores no reason for it.',
      'Who counted the cash: a closing is set against the user who opened the session.',
      'A cancelled order is an order left unpaid and cancelled; its amount is what it held then.',
    ],
  };
}

/**
 * The refunds made within QUICK_MINUTES of the sale they refund: each refund's lines name the
 * lines they give back (refunded_orderline_id), whose orders carry the sale's time.
 */
async function quickRefunds(
  client: OdooClient,
  refunds: OdooRecord[],
): Promise<{ id: number; minutes: number }[]> {
  if (refunds.length === 0) return [];
  const lines = await client.searchRead(
    'pos.order.line',
    [
      ['order_id', 'in', refunds.map((r) => r.id)],
      ['refunded_orderline_id', '!=', false],
    ],
    { fields: ['order_id', 'refunded_orderline_id'] },
  );
  const originLines = [...new Set(lines.flatMap((l) => m2o(l.refunded_orderline_id)?.[0] ?? []))];
  if (originLines.length === 0) return [];
  const origins = await client.read('pos.order.line', originLines, ['order_id']);
  const orderOfLine = new Map(origins.map((l) => [l.id, m2o(l.order_id)?.[0]]));
  const sales = [...new Set([...orderOfLine.values()].filter((v): v is number => v !== undefined))];
  const saleTimes = new Map(
    (await client.read('pos.order', sales, ['date_order'])).map((o) => [o.id, String(o.date_order)]),
  );
  const refundTime = new Map(refunds.map((r) => [r.id, String(r.date_order)]));
  const seen = new Map<number, number>();
  for (const l of lines) {
    const refund = m2o(l.order_id)?.[0];
    const sale = orderOfLine.get(m2o(l.refunded_orderline_id)?.[0] as number);
    if (refund === undefined || sale === undefined || seen.has(refund)) continue;
    const a = Date.parse(`${saleTimes.get(sale)?.replace(' ', 'T')}Z`);
    const b = Date.parse(`${refundTime.get(refund)?.replace(' ', 'T')}Z`);
    const minutes = (b - a) / 60000;
    if (Number.isFinite(minutes) && minutes >= 0 && minutes <= QUICK_MINUTES)
      seen.set(refund, Math.round(minutes));
  }
  return [...seen].map(([id, minutes]) => ({ id, minutes }));
}

/** The columns of `summary --by cashier --loss` (or register), in order. */
export const LOSS_COLUMNS = [
  'orders',
  'sales',
  'refund_count',
  'refunds',
  'refund_share',
  'cancelled',
  'cancelled_share',
  'discounts',
  'discount_share',
  'largest_discount',
  'closings',
  'cash_difference',
  'cash_short',
  'quick_refunds',
  'marks',
] as const;

/** A loss row as json, ndjson and csv carry it: the key's id and name, the figures, the marks. */
export function lossRecord(r: LossRow, id: string, name: string): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = { [id]: r.id, [name]: r.name };
  for (const k of LOSS_COLUMNS) out[k] = k === 'marks' ? r.marks.join(' ') : (r[k] as number | null);
  return out;
}
