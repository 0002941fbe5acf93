// Odoo 16-18: what Odoo 19 groups through an order's fields, taken another way. The lines'
// figures come from report.pos.order, Odoo's SQL view of the lines with their order's date,
// register, session and cashier (the lines, and the discounted rows by day and product); the payments by their own payment_date (an order's POS payments carry
// its time; the change given back with its orders) and session, or per cashier group where a
// payment cannot know its order's cashier.

import { say } from '../core/redact.js';
import type { Domain } from '../core/types.js';
import {
  add,
  addDay,
  addMethod,
  dayOf,
  daySpec,
  type Folder,
  type Found,
  m2oId,
  SALES,
  type SummaryQuery,
  zeroLines,
} from './folder.js';
import { FISCAL_POSITIONS, type Group, type GroupingApi, orDomains, prefixDomain } from './grouping.js';

/** An order groupby on report.pos.order: its date is `date`; register, session and cashier keep their names. */
export const reportSpec = (spec: string): string => spec.replace(/^date_order(?=:|$)/, 'date');

/**
 * An order groupby on pos.payment (Odoo 16-18): its own payment_date, its session (a register
 * through it), and on 18 with pos_hr the employee it stores.
 */
const paymentSpec = (spec: string, q: SummaryQuery): string =>
  spec.startsWith('date_order')
    ? spec.replace(/^date_order/, 'payment_date')
    : q.paymentCashier && spec === q.cashierField
      ? spec
      : 'session_id';

/** The order fields report.pos.order carries under the same name; others through `order_id`. */
const REPORT_FIELDS = new Set(['state', 'config_id', 'session_id', 'user_id', 'employee_id', 'partner_id']);

/** A pos.order domain on report.pos.order (whose rows carry their order's state, date, register...). */
export function toReportDomain(domain: Domain): Domain {
  return domain.map((t) => {
    if (!Array.isArray(t)) return t;
    const f = String(t[0]);
    if (f === 'date_order') return ['date', t[1], t[2]];
    return [REPORT_FIELDS.has(f) ? f : `order_id.${f}`, t[1], t[2]];
  });
}

/**
 * The discount of report.pos.order rows, tax included as the summary counts it. The view's
 * `total_discount` is Σ qty × price_unit × d / 100 (before tax); scaled by the rows' own ratio
 * price_total / (price_sub_total − total_discount), which is 1 + the tax rate of the rows (one
 * product, one rate), it is Σ price_subtotal_incl × d / (100 − d) to the rounding of each line's
 * amount. Rows of a 100 % discount have no amount to scale and count 0, as in the definition.
 */
function reportDiscount(g: Group): number {
  const total = g.aggs['price_total:sum'] ?? 0;
  const before = g.aggs['price_sub_total:sum'] ?? 0;
  const discount = g.aggs['total_discount:sum'] ?? 0;
  const after = before - discount;
  return Math.abs(after) < 1e-9 ? 0 : (discount * total) / after;
}

/** Groups of more than this many make the per-group fallback of Odoo 16-18 too costly. */
export const FALLBACK_GROUPS = 6;

/** The discount of a group of report.pos.order rows on one business day. */
export interface ReportPart {
  group: Group;
  day: string | null;
  discount: number;
}

/** The path from a report.pos.order row to its product's taxes. */
const TAXES = 'product_tmpl_id.taxes_id';

/**
 * The report.pos.order rows of the products outside the most common taxes (one tax, or none):
 * the others count each apart, those of the common tax together. Taken from the products'
 * taxes, one grouping of the templates by tax (a row per tax, whatever the catalogue), not
 * from the range's rows, so that a day's discount is the same in whatever range it is asked;
 * and as a domain on the taxes, not a list of products, since every row of the view's answer
 * repeats it. `null`: no product to tell apart by (every product counts apart).
 */
async function otherTaxes(api: GroupingApi): Promise<Domain | null> {
  const groups = await api.once('otherTaxes', () =>
    api.group('product.template', [], ['taxes_id'], ['__count']),
  );
  let best: Group | undefined;
  for (const g of groups) if (!best || (g.aggs.__count ?? 0) > (best.aggs.__count ?? 0)) best = g;
  if (!best) return null;
  const common = m2oId(best.values.taxes_id);
  // Untaxed products the most common: the others are those with any tax.
  if (common === undefined) return [[TAXES, '!=', false]];
  const others = groups
    .map((g) => m2oId(g.values.taxes_id))
    .filter((id): id is number => id !== undefined && id !== common)
    .sort((a, b) => a - b);
  // A product with the common tax and another one has another rate too.
  return others.length > 0
    ? ['|', [TAXES, 'not in', [common]], [TAXES, 'in', others]]
    : [[TAXES, 'not in', [common]]];
}

export { FISCAL_POSITIONS };

/** Whether any of these order groups (read with FISCAL_POSITIONS) holds a take-away order. */
export const underFiscalPosition = (orders: Group[]): boolean =>
  orders.some((g) => (g.aggs[FISCAL_POSITIONS] ?? 0) > 0);

/**
 * Whether any order was ever sold under a fiscal position (take-away), for a caller that read
 * no orders: asked once per connection, whatever the range, so a shop without them sends no
 * take-away rows' request per summary (a month's report on Odoo 16 made 62 requests, over the
 * 60 of the default --rate).
 */
function anyFiscalPosition(api: GroupingApi): Promise<boolean> {
  return api.once('anyFiscalPosition', async () => {
    const groups = await api.group(
      'pos.order',
      [['fiscal_position_id', '!=', false]],
      ['fiscal_position_id'],
      ['__count'],
    );
    return groups.some((g) => (g.aggs.__count ?? 0) > 0);
  });
}

/** Adds a group's money aggregates to a running sum. */
function addAggs(to: Group, from: Group, money: string[], sign = 1): void {
  for (const m of money) to.aggs[m] = (to.aggs[m] ?? 0) + sign * (from.aggs[m] ?? 0);
}

/** Groups keyed by their values of `specs`, each a copy its parts can be taken from. */
function byKey(groups: Group[], key: (g: Group) => string, money: string[]): Map<string, Group> {
  const out = new Map<string, Group>();
  for (const g of groups) {
    const r: Group = { values: g.values, aggs: {} };
    addAggs(r, g, money);
    out.set(key(g), r);
  }
  return out;
}

/** What the subtractions left of each group, to a millionth; nothing discounted left: dropped. */
function settle(groups: Map<string, Group>, money: string[]): Group[] {
  const out: Group[] = [];
  for (const r of groups.values()) {
    for (const m of money) r.aggs[m] = Math.round((r.aggs[m] ?? 0) * 1e6) / 1e6;
    if (r.aggs['total_discount:sum'] !== 0) out.push(r);
  }
  return out;
}

/**
 * The discounted sales rows of report.pos.order grouped by `reportSpecs` and the order's
 * business day, each group's discount tax included; and each day's discount (`anchors`): the
 * same whatever the grouping and whatever range holds the day. A group's discount needs its
 * tax rate, which report.pos.order does not carry, so rows are taken at one rate each: those
 * of orders under a fiscal position (take-away: a product taxed at another rate than the same
 * product eaten in) by order and product, the other products' by product, and the rest (the
 * products of the most common tax) together, what all the rows less those leave. Four
 * requests, at once but for the products' taxes (asked first, once per connection); a row per
 * order only where a fiscal position is (a row per order and product for all sent 24 MB for a
 * month of the sandbox, where these send 0.4). `fiscal`: whether the range's orders hold any
 * under a fiscal position, where the caller read them (FISCAL_POSITIONS); else asked.
 */
export async function reportDiscounts(
  api: GroupingApi,
  q: SummaryQuery,
  reportSpecs: string[],
  fiscal?: boolean,
): Promise<{ parts: ReportPart[]; anchors: Map<string, number> }> {
  const discountedDomain: Domain = [
    ...toReportDomain([...q.orderDomain, ...SALES]),
    ['total_discount', '>', 0],
  ];
  const money = ['price_total:sum', 'price_sub_total:sum', 'total_discount:sum'];
  const day = reportSpec(daySpec(q));
  const specs = [...new Set([...reportSpecs, day])];
  // A seed's lines by product are folded into the others' groupings, not its own: by its keys
  // but the hour (register, cashier, day). By the hour too, a month's register x cashier x hour x
  // product came to 9,000 groups (10 MB of the 200,000-order sandbox's 18): the hours ask their own.
  const productSpecs = q.seed ? specs.filter((s) => s === day || !s.endsWith(':hour')) : specs;
  // The other products' rows are asked as soon as the products' taxes are known (once per
  // connection), beside the rest, not after them.
  const [all, takeAway, perProduct] = await Promise.all([
    api.group('report.pos.order', discountedDomain, specs, money),
    (fiscal === undefined ? anyFiscalPosition(api) : Promise.resolve(fiscal)).then((any) =>
      any
        ? api.group(
            'report.pos.order',
            [...discountedDomain, ['order_id.fiscal_position_id', '!=', false]],
            [...specs, 'product_id', 'order_id'],
            money,
          )
        : [],
    ),
    otherTaxes(api).then((others) =>
      api.group(
        'report.pos.order',
        [...discountedDomain, ...(others ?? [])],
        [...productSpecs, 'product_id'],
        money,
      ),
    ),
  ]);
  if (q.seed) return { parts: [], anchors: new Map() };
  const keyOf = (g: Group): string => JSON.stringify(specs.map((s) => g.values[s] ?? null));
  const productKey = (g: Group): string => JSON.stringify([keyOf(g), m2oId(g.values.product_id) ?? null]);
  // The common rate's rows: all the rows less the other products' (whose rows hold their
  // take-away ones); each product's rows less its take-away ones, or the common rate's.
  const rest = byKey(all, keyOf, money);
  const own = byKey(perProduct, productKey, money);
  for (const g of perProduct) {
    const r = rest.get(keyOf(g));
    if (r) addAggs(r, g, money, -1);
  }
  for (const g of takeAway) {
    const r = own.get(productKey(g)) ?? rest.get(keyOf(g));
    if (r) addAggs(r, g, money, -1);
  }
  return dayParts(q, day, money, [
    ...settle(rest, money).map((g) => ({ g, product: null })),
    ...[...settle(own, money), ...takeAway].map((g) => ({ g, product: m2oId(g.values.product_id) ?? null })),
  ]);
}

/**
 * Each group's discount, and each day's (`anchors`): a day's rows of one product at one tax
 * rate, or of the common rate, summed first (each row's ratio carries its amount's rounding),
 * those of another rate (take-away) apart.
 */
function dayParts(
  q: SummaryQuery,
  day: string,
  money: string[],
  rows: { g: Group; product: number | null }[],
): { parts: ReportPart[]; anchors: Map<string, number> } {
  const parts: ReportPart[] = [];
  const sums = new Map<string, { ratio: number; group: Group }[]>();
  for (const { g, product } of rows) {
    const d = dayOf(g.values[day], q);
    parts.push({ group: g, day: d, discount: reportDiscount(g) });
    if (d === null) continue;
    const key = JSON.stringify([d, product]);
    const after = (g.aggs['price_sub_total:sum'] ?? 0) - (g.aggs['total_discount:sum'] ?? 0);
    const ratio = Math.abs(after) < 1e-9 ? 0 : (g.aggs['price_total:sum'] ?? 0) / after;
    const near = 0.006 / Math.max(Math.abs(after), 1e-9) + 0.002;
    const clusters = sums.get(key) ?? [];
    let c = clusters.find((x) => Math.abs(x.ratio - ratio) <= near);
    if (!c) {
      c = { ratio, group: { values: { day: d }, aggs: {} } };
      clusters.push(c);
      sums.set(key, clusters);
    }
    addAggs(c.group, g, money);
  }
  const anchors = new Map<string, number>();
  for (const clusters of sums.values())
    for (const { group } of clusters) addDay(anchors, String(group.values.day), reportDiscount(group));
  return { parts, anchors };
}

/** The order groups of a summary before 19, and what their payments are folded with. */
export interface OrderGroups {
  folder: Folder;
  found: Found;
  specs: string[];
  /** Each session's register (Odoo 16 reads them; 17-18 group the orders by session too). */
  configOf: Map<number, unknown>;
  /** The orders grouped by `specs` and session, with their change given back (`amount_return:sum`). */
  orders: Group[];
}

/**
 * The items, discounts and payment methods of the order groups in `folder`; returns each
 * business day's discount, which the groups of that day are brought to.
 */
export async function linesAndPaymentsBefore19(
  api: GroupingApi,
  q: SummaryQuery,
  og: OrderGroups,
): Promise<{ dayAnchors: Map<string, number> }> {
  const { folder, found, specs } = og;
  const out = { dayAnchors: new Map<string, number>() };
  const reportSpecs = specs.map(reportSpec);
  const reportDomain = toReportDomain([...q.orderDomain, ...SALES]);
  const work: Promise<void>[] = [
    (async () => {
      const [lines, discounts] = await Promise.all([
        api.group('report.pos.order', reportDomain, reportSpecs, ['product_qty:sum', 'price_total:sum']),
        reportDiscounts(api, q, reportSpecs, underFiscalPosition(og.orders)),
      ]);
      for (const g of lines) {
        const a = folder.at(g, reportSpecs);
        a.items = add(a.items, g.aggs['product_qty:sum'] ?? 0);
        a.salesIncl = add(a.salesIncl, g.aggs['price_total:sum'] ?? 0);
      }
      for (const p of discounts.parts) {
        const a = folder.at(p.group, reportSpecs);
        a.discounts = add(a.discounts, p.discount);
        if (p.day !== null) addDay(a.dayDiscounts, p.day, p.discount);
      }
      out.dayAnchors = discounts.anchors;
      for (const a of folder.accs.values()) zeroLines(a);
    })(),
  ];
  // 18's payments carry the employee (paymentCashier): then they group as by any other key.
  const cashier = q.keys.includes('cashier') && !q.paymentCashier;
  if (q.methods === false) {
    // Not asked for: no payment request.
  } else if (!cashier) {
    work.push(paymentsBefore19(api, q, og));
  } else {
    // A payment does not know its order's cashier: one request per cashier group, for a few.
    const accs = [...folder.accs.values()];
    if (accs.length > FALLBACK_GROUPS) {
      found.notes.push(
        say`the payment methods are left empty: Odoo before 19 cannot group payments by their order's cashier, and ${accs.length} groups would cost ${accs.length} more requests; group by cashier alone, use a shorter range, or Odoo 19`,
      );
    } else {
      work.push(
        ...accs.map(async (a) => {
          const payments = await api.group(
            'pos.payment',
            prefixDomain(orDomains(a.domains), 'pos_order_id.'),
            ['payment_method_id'],
            ['amount:sum'],
          );
          a.methods = new Map();
          for (const g of payments)
            a.methods = addMethod(
              a.methods,
              found.method(g.values.payment_method_id),
              g.aggs['amount:sum'] ?? 0,
            );
        }),
      );
    }
  }
  await Promise.all(work);
  return out;
}

/**
 * The payments of the order groups, by method. A payment is bucketed by its own payment_date,
 * which is its order's time, except the change given back (`is_change`): Odoo dates that row
 * when the register synced, the next morning for a tablet that was offline in the evening. So
 * a session's change is placed in its orders' own groups from their `amount_return` (the
 * change rows are its negative), by the session's change method; a session whose change rows
 * do not add up to its orders' (nothing seen so far) keeps them at their own date.
 */
async function paymentsBefore19(api: GroupingApi, q: SummaryQuery, og: OrderGroups): Promise<void> {
  const { folder, found, specs, configOf } = og;
  const paySpecs = specs.map((spec) => paymentSpec(spec, q));
  const groupby = [...new Set([...paySpecs, 'session_id']), 'payment_method_id', 'is_change'];
  const payments = await api.group('pos.payment', prefixDomain(q.orderDomain, 'pos_order_id.'), groupby, [
    'amount:sum',
  ]);
  const place = (g: Group, amount: number): void => {
    const values: Record<string, unknown> = {};
    specs.forEach((spec, i) => {
      const ps = paySpecs[i] as string;
      values[spec] = spec === 'config_id' ? configOf.get(m2oId(g.values.session_id) ?? 0) : g.values[ps];
    });
    const a = folder.at({ values, aggs: g.aggs });
    a.methods = addMethod(a.methods, found.method(g.values.payment_method_id), amount);
  };
  // Each session's change rows by method, and its orders' change given back.
  const change = new Map<number, { rows: Group[]; paid: number; returned: number }>();
  const ofSession = (sid: number) => {
    let c = change.get(sid);
    if (!c) {
      c = { rows: [], paid: 0, returned: 0 };
      change.set(sid, c);
    }
    return c;
  };
  for (const g of payments) {
    const sid = m2oId(g.values.session_id);
    if (g.values.is_change !== true || sid === undefined) place(g, g.aggs['amount:sum'] ?? 0);
    else {
      const c = ofSession(sid);
      c.rows.push(g);
      c.paid += g.aggs['amount:sum'] ?? 0;
    }
  }
  for (const o of og.orders) {
    const sid = m2oId(o.values.session_id);
    if (sid !== undefined) ofSession(sid).returned += o.aggs['amount_return:sum'] ?? 0;
  }
  for (const [sid, c] of change) {
    if (c.rows.length === 0) continue;
    if (Math.abs(c.paid + c.returned) >= 0.005 || Math.abs(c.paid) < 1e-9) {
      for (const g of c.rows) place(g, g.aggs['amount:sum'] ?? 0);
      continue;
    }
    // The session's change, shared among its methods as its rows are (one cash method in practice).
    for (const o of og.orders) {
      const returned = o.aggs['amount_return:sum'] ?? 0;
      if (m2oId(o.values.session_id) !== sid || returned === 0) continue;
      const a = folder.at(o);
      for (const g of c.rows)
        a.methods = addMethod(
          a.methods,
          found.method(g.values.payment_method_id),
          (-returned * (g.aggs['amount:sum'] ?? 0)) / c.paid,
        );
    }
  }
}
