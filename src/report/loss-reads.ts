// What the loss figures read from Odoo, apart from what they make of it (loss.ts): the fields
// and version that choose how (who sold, which field links a refund to its sale, where the
// register is), then the five reads of the period at once, and the sales of the refunds. Only
// the few fields a figure needs; the orders listed under a mark are read later (loss-behind.ts).
import type { OdooClient } from '../core/client.js';
import { say } from '../core/redact.js';
import type { Domain, OdooRecord } from '../core/types.js';
import { majorVersion } from '../core/types.js';
import { listsInStep } from '../read/groups.js';
import { readWhole } from '../read/whole.js';
import { COUNTED_STATES } from '../summary/compute.js';
import { discountOf } from '../summary/folder.js';
import { type Group, groupingApi } from '../summary/grouping.js';
import type { Range } from '../summary/query.js';

/** A refund within this many minutes of its sale is a quick refund. */
export const QUICK_MINUTES = 30;

export const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
/** A many2one's id, as a record names it ([id, name]) or an array_agg does (id). */
const idOf = (v: unknown): number | undefined => (typeof v === 'number' ? v : m2o(v)?.[0]);
export const m2o = (v: unknown): [number, string] | null =>
  Array.isArray(v) && typeof v[0] === 'number' ? [v[0], String(v[1] ?? '')] : null;

/** How this server stores what the figures group by. */
interface Shape {
  major: number;
  /** The order's cashier: its employee where pos_hr is installed, else its user. */
  who: 'employee_id' | 'user_id';
  /** The field naming the sale a refund gives back, where one can be trusted. */
  link: string | undefined;
  /** Odoo 16 relates config_id to the session without storing it: its orders group by session. */
  place: 'config_id' | 'session_id';
}

export interface LossReads {
  who: string;
  /** The orders of the period (date, register, session), as a domain. */
  range: Domain;
  cancelledGroups: Group[];
  /** The period's refunds: date, amount, cashier, register (and the sale they give back). */
  refunds: OdooRecord[];
  /** The discount of each discounted sale. */
  perOrder: Map<number, number>;
  /** The cashier and register of each discounted sale. */
  keysOfOrder: Map<number, { cashier: [number, string] | null; register: [number, string] | null }>;
  quick: { id: number; minutes: number }[];
  /** Who counted each session's cash, where the cashier is an employee (sessionCashiers). */
  sessionCashier: Map<number, [number, string]>;
  /** A group's register, from its config_id (or its session's, Odoo 16). */
  registerOf: (v: unknown) => [number, string] | null;
  /** The register key of a group (config_id, or session_id on Odoo 16). */
  place: string;
}

export interface LossScope {
  range: Range;
  configId?: number;
  sessionId?: number;
  sessionUsers: { id: number; user: [number, string] | null }[];
}

async function shapeOf(client: OdooClient): Promise<Shape> {
  const [fields, version] = await Promise.all([client.fieldsGet('pos.order'), client.version()]);
  const major = majorVersion(version) || Number.parseInt(version.server_version, 10) || 17;
  // The sale a refund gives back, computed by Odoo from the refund's lines: 16/17 name them all,
  // 19 the first. 18 assigns the lines' orders to its many2one as they are, which fails on a
  // refund of lines from two sales: there the lines are read.
  const link =
    'refunded_order_ids' in fields
      ? 'refunded_order_ids'
      : major >= 19 && 'refunded_order_id' in fields
        ? 'refunded_order_id'
        : undefined;
  return {
    major,
    who: 'employee_id' in fields ? 'employee_id' : 'user_id',
    link,
    place: fields.config_id?.store === false ? 'session_id' : 'config_id',
  };
}

/** The period as a domain on pos.order. */
function rangeDomain(x: LossScope): Domain {
  const range: Domain = [];
  if (x.range.start) range.push(['date_order', '>=', x.range.start]);
  if (x.range.end) range.push(['date_order', '<', x.range.end]);
  if (x.configId !== undefined) range.push(['config_id', '=', x.configId]);
  if (x.sessionId !== undefined) range.push(['session_id', '=', x.sessionId]);
  return range;
}

/** Everything the loss figures read, the orders behind a mark aside. */
export async function readLoss(client: OdooClient, x: LossScope): Promise<LossReads> {
  const { major, who, link, place } = await shapeOf(client);
  // The range is UTC already: groups by relation need no zone.
  const api = groupingApi(client, major, 'UTC');
  const range = rangeDomain(x);
  const counted: Domain = [['state', 'in', COUNTED_STATES], ...range];
  const onLines: Domain = counted.map((c) => [`order_id.${c[0]}`, c[1], c[2]] as Domain[number]);
  const sales: Domain = [...counted, ['amount_total', '>=', 0]];
  const [cancelledGroups, refunds, discounted, discountedGroups, sessionCashier] = await Promise.all([
    api.group(
      'pos.order',
      [['state', '=', 'cancel'], ...range],
      [who, place],
      ['__count', 'amount_total:sum'],
    ),
    // A refund's date, amount, cashier, register and the sale it refunds: no line read. Whole
    // behind a server that caps search_read: its count is asked beside it.
    readWhole(client, 'pos.order', [...counted, ['amount_total', '<', 0]], {
      fields: ['date_order', 'amount_total', who, 'config_id', ...(link ? [link] : [])],
    }),
    // Discounts are given on sales, as summary counts them: a refund's lines carry the discount back.
    api.group(
      'pos.order.line',
      [...onLines, ['order_id.amount_total', '>=', 0], ['discount', '>', 0]],
      ['company_id'],
      DISCOUNTED_LINES,
    ),
    // The discounted sales' ids per cashier and register, not the orders.
    api.group('pos.order', [...sales, ['lines.discount', '>', 0]], [who, place], ['id:array_agg']),
    who === 'employee_id'
      ? sessionCashiers(
          client,
          api,
          x.sessionUsers.map((s) => s.id),
        )
      : Promise.resolve(new Map<number, [number, string]>()),
  ]);
  const registerOf = await registers(client, place, [...cancelledGroups, ...discountedGroups]);
  const keysOfOrder: LossReads['keysOfOrder'] = new Map();
  for (const g of discountedGroups) {
    const k = { cashier: m2o(g.values[who]), register: registerOf(g.values[place]) };
    for (const id of g.lists?.['id:array_agg'] ?? []) if (typeof id === 'number') keysOfOrder.set(id, k);
  }
  const quick = await (link
    ? quickRefunds(client, refunds, link)
    : quickRefundsByLines(client, api, refunds));
  return {
    who,
    range,
    cancelledGroups,
    refunds,
    perOrder: discountPerOrder(discounted),
    keysOfOrder,
    quick,
    sessionCashier,
    registerOf,
    place,
  };
}

/**
 * Who was at each session's register when its cash was counted, where the cashier is an employee
 * (pos_hr): the session's own `employee_id` where the server has one (18 and 19's pos_hr: the
 * employee logged in at the register, tracked as it changes), else the employee who rang the
 * session's last order (16 and 17 record the employee on orders only). Not the employee of the
 * session's user: pos_hr's employees need not be users, and on a real shop one user opens every
 * session.
 */
async function sessionCashiers(
  client: OdooClient,
  api: ReturnType<typeof groupingApi>,
  ids: number[],
): Promise<Map<number, [number, string]>> {
  const out = new Map<number, [number, string]>();
  if (ids.length === 0) return out;
  if ('employee_id' in (await client.fieldsGet('pos.session'))) {
    // By ids: a read answers each one (a search_read behind a cap would answer some).
    const rows = await client.read('pos.session', ids, ['employee_id']);
    for (const r of rows) {
      const e = m2o(r.employee_id);
      if (e) out.set(r.id, e);
    }
  }
  const rest = ids.filter((id) => !out.has(id));
  if (rest.length === 0) return out;
  const groups = await api.group(
    'pos.order',
    [
      ['session_id', 'in', rest],
      ['employee_id', '!=', false],
    ],
    ['session_id', 'employee_id'],
    ['id:max'],
  );
  const last = new Map<number, number>();
  for (const g of groups) {
    const session = m2o(g.values.session_id);
    const employee = m2o(g.values.employee_id);
    const at = g.aggs['id:max'];
    if (!session || !employee || at === undefined || (last.get(session[0]) ?? -1) > at) continue;
    last.set(session[0], at);
    out.set(session[0], employee);
  }
  return out;
}

/** A group's register: its config_id, or on Odoo 16 its session's (read once). */
async function registers(
  client: OdooClient,
  place: Shape['place'],
  groups: Group[],
): Promise<(v: unknown) => [number, string] | null> {
  if (place === 'config_id') return m2o;
  const sessionIds = groups.flatMap((g) => m2o(g.values[place])?.[0] ?? []);
  const configOfSession = new Map<number, [number, string] | null>();
  if (sessionIds.length > 0)
    for (const s of await client.read('pos.session', [...new Set(sessionIds)], ['config_id']))
      configOfSession.set(s.id, m2o(s.config_id));
  return (v) => configOfSession.get(m2o(v)?.[0] ?? 0) ?? null;
}

/** The discount of each discounted order, from its lines. */
function discountPerOrder(groups: Group[]): Map<number, number> {
  const perOrder = new Map<number, number>();
  for (const g of groups) {
    const [orders = [], rates = [], amounts = []] = listsInStep(
      g,
      DISCOUNTED_LINES,
      say`the discounted lines' orders, discounts and totals`,
    );
    for (const [i, o] of orders.entries())
      if (typeof o === 'number')
        perOrder.set(o, (perOrder.get(o) ?? 0) + discountOf(rates[i], num(amounts[i])));
  }
  return perOrder;
}

/**
 * The discounted sales' lines as three arrays of one group per company, in step (one row feeds
 * every aggregate in turn): each line's order, discount and taxed total, without the records'
 * keys and the orders' names a read of the lines sends (3.6 MB of a 200,000-order month, 0.8 as
 * arrays).
 */
const DISCOUNTED_LINES = ['order_id:array_agg', 'discount:array_agg', 'price_subtotal_incl:array_agg'];

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

/** The refunds' lines that give a line back, as arrays in step: their ids, orders and the lines. */
const REFUND_LINES = ['id:array_agg', 'order_id:array_agg', 'refunded_orderline_id:array_agg'];

/**
 * The same from the lines (Odoo 18): each refund's lines name the lines they give back
 * (refunded_orderline_id), whose orders carry the sale's time. Three requests; the refunds'
 * lines grouped (one group per company), whole however a server caps search_read.
 */
async function quickRefundsByLines(
  client: OdooClient,
  api: ReturnType<typeof groupingApi>,
  refunds: OdooRecord[],
): Promise<{ id: number; minutes: number }[]> {
  if (refunds.length === 0) return [];
  const groups = await api.group(
    'pos.order.line',
    [
      ['order_id', 'in', refunds.map((r) => r.id)],
      ['refunded_orderline_id', '!=', false],
    ],
    ['company_id'],
    REFUND_LINES,
  );
  const lines = groups
    .flatMap((g) => {
      const [ids = [], orders = [], origins = []] = listsInStep(
        g,
        REFUND_LINES,
        say`the refunds' lines, their orders and the lines they give back`,
      );
      return ids.map((id, i) => ({ id: num(id), order_id: orders[i], refunded_orderline_id: origins[i] }));
    })
    .sort((a, b) => a.id - b.id);
  const originLines = [...new Set(lines.flatMap((l) => idOf(l.refunded_orderline_id) ?? []))];
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
    const refund = idOf(l.order_id);
    const sale = orderOfLine.get(idOf(l.refunded_orderline_id) as number);
    if (refund === undefined || sale === undefined || seen.has(refund)) continue;
    const a = Date.parse(`${saleTimes.get(sale)?.replace(' ', 'T')}Z`);
    const b = Date.parse(`${refundTime.get(refund)?.replace(' ', 'T')}Z`);
    const minutes = (b - a) / 60000;
    if (Number.isFinite(minutes) && minutes >= 0 && minutes <= QUICK_MINUTES)
      seen.set(refund, Math.round(minutes));
  }
  return [...seen].map(([id, minutes]) => ({ id, minutes }));
}
