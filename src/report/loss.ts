// Where the money leaks: per cashier (the order's user, or its employee where pos_hr is
// installed) and per register, the refunds, cancelled orders, discounts and cash differences
// of the period, each set against the median of the others; a figure far from it is marked,
// with the orders behind it. The refunds and discounts are summary's (--by cashier, --by
// register), the cash differences reconcile's, the cancelled orders grouped by Odoo; what
// needs an order at a time (the largest discount, the refunds made soon after their sale)
// reads a few fields of the refunds and discounted lines, never their orders whole. The orders
// listed under a marked figure are read whole once the marks are known, in one request.
import type { OdooClient } from '../core/client.js';
import type { Domain, OdooRecord } from '../core/types.js';
import { majorVersion } from '../core/types.js';
import type { SessionFigures } from '../reconcile/compute.js';
import { roundAt } from '../records/normalize.js';
import { COUNTED_STATES } from '../summary/compute.js';
import { discountOf } from '../summary/folder.js';
import { groupingApi, orDomains } from '../summary/grouping.js';
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
  const [fields, version] = await Promise.all([client.fieldsGet('pos.order'), client.version()]);
  const major = majorVersion(version) || Number.parseInt(version.server_version, 10) || 17;
  // The range is UTC already: groups by relation need no zone.
  const api = groupingApi(client, major, 'UTC');
  const who = 'employee_id' in fields ? 'employee_id' : 'user_id';
  // The sale a refund gives back, computed by Odoo from the refund's lines: 16/17 name them all,
  // 19 the first. 18 assigns the lines' orders to its many2one as they are, which fails on a
  // refund of lines from two sales: there the lines are read.
  const link =
    'refunded_order_ids' in fields
      ? 'refunded_order_ids'
      : major >= 19 && 'refunded_order_id' in fields
        ? 'refunded_order_id'
        : undefined;
  // Odoo 16 relates config_id to the session without storing it: its orders group by session.
  const place = fields.config_id?.store === false ? 'session_id' : 'config_id';
  const range: Domain = [];
  if (x.range.start) range.push(['date_order', '>=', x.range.start]);
  if (x.range.end) range.push(['date_order', '<', x.range.end]);
  if (x.configId !== undefined) range.push(['config_id', '=', x.configId]);
  if (x.sessionId !== undefined) range.push(['session_id', '=', x.sessionId]);
  const counted: Domain = [['state', 'in', COUNTED_STATES], ...range];
  const onLines: Domain = counted.map((c) => [`order_id.${c[0]}`, c[1], c[2]] as Domain[number]);
  const sales: Domain = [...counted, ['amount_total', '>=', 0]];
  const uids = [...new Set(x.sessionUsers.flatMap((s) => (s.user ? [s.user[0]] : [])))];
  const [cancelledGroups, refunds, discounted, discountedGroups, employees] = await Promise.all([
    api.group(
      'pos.order',
      [['state', '=', 'cancel'], ...range],
      [who, place],
      ['__count', 'amount_total:sum'],
    ),
    // A refund's date, amount, cashier, register and the sale it refunds: no line read.
    client.searchRead('pos.order', [...counted, ['amount_total', '<', 0]], {
      fields: ['date_order', 'amount_total', who, 'config_id', ...(link ? [link] : [])],
      order: 'id',
    }),
    // Discounts are given on sales, as summary counts them: a refund's lines carry the discount back.
    client.searchRead(
      'pos.order.line',
      [...onLines, ['order_id.amount_total', '>=', 0], ['discount', '>', 0]],
      { fields: ['order_id', 'discount', 'price_subtotal_incl'], order: 'id' },
    ),
    // The discounted sales' ids per cashier and register, not the orders.
    api.group('pos.order', [...sales, ['lines.discount', '>', 0]], [who, place], ['id:array_agg']),
    who === 'employee_id' && uids.length > 0
      ? client.searchRead('hr.employee', [['user_id', 'in', uids]], { fields: ['user_id', 'name'] })
      : Promise.resolve([] as OdooRecord[]),
  ]);
  // Odoo 16: each session's register.
  const sessionIds = [...cancelledGroups, ...discountedGroups].flatMap(
    (g) => m2o(g.values[place])?.[0] ?? [],
  );
  const configOfSession = new Map<number, [number, string] | null>();
  if (place === 'session_id' && sessionIds.length > 0)
    for (const s of await client.read('pos.session', [...new Set(sessionIds)], ['config_id']))
      configOfSession.set(s.id, m2o(s.config_id));
  const registerOf = (v: unknown): [number, string] | null =>
    place === 'config_id' ? m2o(v) : (configOfSession.get(m2o(v)?.[0] ?? 0) ?? null);

  // The discount of each discounted order, and its cashier and register.
  const perOrder = new Map<number, number>();
  for (const l of discounted) {
    const o = m2o(l.order_id)?.[0];
    if (o !== undefined)
      perOrder.set(o, (perOrder.get(o) ?? 0) + discountOf(l.discount, num(l.price_subtotal_incl)));
  }
  const keysOfOrder = new Map<
    number,
    { cashier: [number, string] | null; register: [number, string] | null }
  >();
  for (const g of discountedGroups) {
    const k = { cashier: m2o(g.values[who]), register: registerOf(g.values[place]) };
    for (const id of g.lists?.['id:array_agg'] ?? []) if (typeof id === 'number') keysOfOrder.set(id, k);
  }
  const quick = await (link ? quickRefunds(client, refunds, link) : quickRefundsByLines(client, refunds));
  const employeeOf = new Map(
    employees.map((e) => [m2o(e.user_id)?.[0] as number, [e.id, String(e.name)] as const]),
  );
  const sessionOf = new Map(x.sessionUsers.map((s) => [s.id, s.user]));
  const amount = (o: OdooRecord): number => roundAt(num(o.amount_total), x.digits);

  /** The rows of one key, with what each figure needs to list the orders behind it once marked. */
  interface Built {
    rows: LossRow[];
    key: 'cashier' | 'register';
    field: string;
    refunds: Map<LossRow, OdooRecord[]>;
    discounts: Map<LossRow, number[]>;
    quick: Map<LossRow, { id: number; minutes: number }[]>;
  }
  const build = (
    summary: Record<string, unknown>[],
    key: 'cashier' | 'register',
    idKey: string,
    nameKey: string,
    keyOfSession: (s: SessionFigures) => [number, string] | null,
  ): Built => {
    const field = key === 'cashier' ? who : 'config_id';
    const out = new Map<number | null, LossRow>();
    const row = (k: [number, string] | null): LossRow => {
      const id = k?.[0] ?? null;
      let r = out.get(id);
      if (!r) {
        r = emptyRow(id, k?.[1] ?? '');
        out.set(id, r);
      }
      return r;
    };
    for (const s of summary) {
      const id = typeof s[idKey] === 'number' ? (s[idKey] as number) : null;
      const r = row(id === null ? null : [id, String(s[nameKey] ?? '')]);
      r.name = String(s[nameKey] ?? '');
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
    const refundsOf = new Map<LossRow, OdooRecord[]>();
    for (const o of refunds) {
      const r = row(m2o(o[field]));
      push(refundsOf, r, o);
    }
    for (const g of cancelledGroups) {
      const r = row(key === 'cashier' ? m2o(g.values[who]) : registerOf(g.values[place]));
      r.cancelled += g.aggs.__count ?? 0;
      r.cancelled_amount = roundAt(r.cancelled_amount + (g.aggs['amount_total:sum'] ?? 0), x.digits);
    }
    const discountsOf = new Map<LossRow, number[]>();
    for (const [id, d] of perOrder) {
      const k = keysOfOrder.get(id);
      const r = row(k ? k[key] : null);
      push(discountsOf, r, id);
      r.largest_discount = roundAt(Math.max(r.largest_discount ?? 0, d), x.digits);
    }
    const refundById = new Map(refunds.map((o) => [o.id, o]));
    const quickOf = new Map<LossRow, { id: number; minutes: number }[]>();
    for (const q of quick) {
      const o = refundById.get(q.id);
      if (!o) continue;
      const r = row(m2o(o[field]));
      r.quick_refunds++;
      push(quickOf, r, q);
    }
    for (const s of x.sessions) {
      const r = row(keyOfSession(s));
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
      r.behind.closings.sort((a, b) => a.difference - b.difference).splice(LISTED);
    }
    markRows(list);
    list.sort((a, b) => a.name.localeCompare(b.name));
    return { rows: list, key, field, refunds: refundsOf, discounts: discountsOf, quick: quickOf };
  };

  const cashierOfSession = (s: SessionFigures): [number, string] | null => {
    const u = sessionOf.get(s.sessionId) ?? null;
    if (!u || who === 'user_id') return u;
    const e = employeeOf.get(u[0]);
    return e ? [e[0], e[1]] : u;
  };
  const built = [
    x.cashier ? build(summaryRows(x.cashier), 'cashier', 'cashier_id', 'cashier', cashierOfSession) : null,
    x.register
      ? build(summaryRows(x.register), 'register', 'config_id', 'register', (s) => [s.configId, s.register])
      : null,
  ].filter((b): b is Built => b !== null);
  await listBehind(client, built, { range, who, digits: x.digits, amount, perOrder });
  return {
    cashierField: who,
    cashiers: built.find((b) => b.key === 'cashier')?.rows ?? [],
    registers: built.find((b) => b.key === 'register')?.rows ?? [],
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

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

function emptyRow(id: number | null, name: string): LossRow {
  return {
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
}

/**
 * The orders behind each marked figure, LISTED of them at most: the largest refunds (and the
 * quick ones) of a row marked for refunds, its largest discounts, its largest cancelled orders.
 * Which ones is known from what was read for the figures (the cancelled ones of the marked rows
 * in one light read); the orders listed are then read whole in one request.
 */
async function listBehind(
  client: OdooClient,
  built: {
    rows: LossRow[];
    field: string;
    refunds: Map<LossRow, OdooRecord[]>;
    discounts: Map<LossRow, number[]>;
    quick: Map<LossRow, { id: number; minutes: number }[]>;
  }[],
  c: {
    range: Domain;
    who: string;
    digits: number;
    amount: (o: OdooRecord) => number;
    perOrder: Map<number, number>;
  },
): Promise<void> {
  const marked = (m: Metric) =>
    built.flatMap((b) => b.rows.filter((r) => r.marks.includes(m)).map((r) => ({ b, r })));
  // The cancelled orders of the rows marked for them: their amounts only, to pick the largest.
  const cancelledRows = marked('cancelled_share');
  const byKey = (field: string, ids: (number | null)[]): Domain[] => {
    const set = ids.filter((i): i is number => i !== null);
    return [
      ...(set.length > 0 ? [[[field, 'in', set]] as Domain] : []),
      ...(ids.includes(null) ? [[[field, '=', false]] as Domain] : []),
    ];
  };
  const cancelled =
    cancelledRows.length === 0
      ? []
      : await client.searchRead(
          'pos.order',
          [
            ['state', '=', 'cancel'],
            ...c.range,
            ...orDomains(
              [c.who, 'config_id'].flatMap((f) =>
                byKey(
                  f,
                  cancelledRows.filter(({ b }) => b.field === f).map(({ r }) => r.id),
                ),
              ),
            ),
          ],
          { fields: ['amount_total', c.who, 'config_id'], order: 'id' },
        );
  const wanted: {
    r: LossRow;
    list: 'refunds' | 'cancelled' | 'discounts' | 'quick';
    id: number;
    detail?: number;
  }[] = [];
  const top = <T>(xs: T[], key: (x: T) => number): T[] =>
    xs
      .map((v, i) => ({ v, i, k: key(v) }))
      .sort((a, b) => a.k - b.k || a.i - b.i)
      .slice(0, LISTED)
      .map((e) => e.v);
  for (const { b, r } of marked('refund_share')) {
    for (const o of top(b.refunds.get(r) ?? [], c.amount)) wanted.push({ r, list: 'refunds', id: o.id });
    for (const q of top(b.quick.get(r) ?? [], (q) => q.minutes))
      wanted.push({ r, list: 'quick', id: q.id, detail: q.minutes });
  }
  for (const { b, r } of marked('discount_share'))
    for (const id of top(b.discounts.get(r) ?? [], (id) => -roundAt(c.perOrder.get(id) ?? 0, c.digits)))
      wanted.push({ r, list: 'discounts', id, detail: c.perOrder.get(id) ?? 0 });
  for (const { b, r } of cancelledRows)
    for (const o of top(
      cancelled.filter((o) => (m2o(o[b.field])?.[0] ?? null) === r.id),
      (o) => -c.amount(o),
    ))
      wanted.push({ r, list: 'cancelled', id: o.id });
  if (wanted.length === 0) return;
  const orders = new Map(
    (
      await client.read(
        'pos.order',
        [...new Set(wanted.map((w) => w.id))],
        ['name', 'date_order', 'amount_total', 'config_id'],
      )
    ).map((o) => [o.id, o]),
  );
  for (const w of wanted) {
    const o = orders.get(w.id);
    if (!o) continue;
    w.r.behind[w.list].push({
      id: o.id,
      ticket: String(o.name),
      time: String(o.date_order),
      amount: c.amount(o),
      register: m2o(o.config_id)?.[1] ?? '',
      ...(w.detail === undefined ? {} : { detail: roundAt(w.detail, c.digits) }),
    });
  }
}

/**
 * The refunds made within QUICK_MINUTES of the sale they refund: each refund names the sales it
 * gives back (`link`, computed by Odoo from its lines), whose time is read (one request).
 */
async function quickRefunds(
  client: OdooClient,
  refunds: OdooRecord[],
  link: string,
): Promise<{ id: number; minutes: number }[]> {
  if (refunds.length === 0) return [];
  const salesOf = (r: OdooRecord): number[] => {
    const v = r[link];
    if (Array.isArray(v))
      return typeof v[0] === 'number' && typeof v[1] === 'string' ? [v[0]] : (v as number[]);
    return [];
  };
  const sales = [...new Set(refunds.flatMap(salesOf))];
  if (sales.length === 0) return [];
  const saleTimes = new Map(
    (await client.read('pos.order', sales, ['date_order'])).map((o) => [o.id, String(o.date_order)]),
  );
  const out: { id: number; minutes: number }[] = [];
  for (const r of refunds) {
    const b = Date.parse(`${String(r.date_order).replace(' ', 'T')}Z`);
    for (const sale of salesOf(r)) {
      const a = Date.parse(`${saleTimes.get(sale)?.replace(' ', 'T')}Z`);
      const minutes = (b - a) / 60000;
      if (Number.isFinite(minutes) && minutes >= 0 && minutes <= QUICK_MINUTES) {
        out.push({ id: r.id, minutes: Math.round(minutes) });
        break;
      }
    }
  }
  return out;
}

/**
 * The same from the lines (Odoo 18): each refund's lines name the lines they give back
 * (refunded_orderline_id), whose orders carry the sale's time. Three requests.
 */
async function quickRefundsByLines(
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
