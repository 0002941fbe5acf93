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
import { type Group, type GroupingApi, orDomains, prefixDomain } from './grouping.js';

/** An order groupby on report.pos.order: its date is `date`; register, session and cashier keep their names. */
const reportSpec = (spec: string): string => spec.replace(/^date_order(?=:|$)/, 'date');

/** An order groupby on pos.payment (Odoo 16-18): its own payment_date, its session (a register through it). */
const paymentSpec = (spec: string): string =>
  spec.startsWith('date_order') ? spec.replace(/^date_order/, 'payment_date') : 'session_id';

/** The order fields report.pos.order carries under the same name; others through `order_id`. */
const REPORT_FIELDS = new Set(['state', 'config_id', 'session_id', 'user_id', 'employee_id', 'partner_id']);

/** A pos.order domain on report.pos.order (whose rows carry their order's state, date, register...). */
function toReportDomain(domain: Domain): Domain {
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

/**
 * The products of `ids` that carry the most common set of taxes: their lines have one rate and
 * count together. Taken from the products' taxes, not from their rows' figures, so that a day's
 * discount is the same in whatever range it is asked (a product whose rows are few in one range
 * would be told apart in it and not in another). Where fiscal positions give a product's lines
 * other taxes, its rows mix rates as they did per product.
 */
async function commonTaxes(api: GroupingApi, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const products = await api.read('product.product', [['id', 'in', ids]], ['taxes_id']);
  const bySet = new Map<string, number[]>();
  for (const p of products) {
    const taxes = Array.isArray(p.taxes_id) ? (p.taxes_id as number[]).toSorted((a, b) => a - b) : [];
    const key = JSON.stringify(taxes);
    bySet.set(key, [...(bySet.get(key) ?? []), p.id as number]);
  }
  let best: number[] = [];
  for (const members of bySet.values()) if (members.length > best.length) best = members;
  return new Set(best);
}

/** Adds a group's money aggregates to a running sum. */
function addAggs(to: Group, from: Group, money: string[], sign = 1): void {
  for (const m of money) to.aggs[m] = (to.aggs[m] ?? 0) + sign * (from.aggs[m] ?? 0);
}

/**
 * The discounted sales rows of report.pos.order grouped by `reportSpecs` and the order's
 * business day, each group's discount tax included; and each day's discount (`anchors`): the
 * same whatever the grouping and whatever range holds the day. A group's discount needs its
 * tax rate, which report.pos.order does not carry: the products of the most common taxes
 * (the discounted products of the range, then their taxes) count together, the others each
 * apart, each order's product alone, as are the rows of orders under a fiscal position (a
 * take-away order's product has another rate than the same product eaten in). Four requests,
 * the first two at once, where one by day and product for every product sent a row with its
 * domain per day and product (0.6 MB for a month of the sandbox).
 */
export async function reportDiscounts(
  api: GroupingApi,
  q: SummaryQuery,
  reportSpecs: string[],
): Promise<{ parts: ReportPart[]; anchors: Map<string, number> }> {
  const discountedDomain: Domain = [
    ...toReportDomain([...q.orderDomain, ...SALES]),
    ['total_discount', '>', 0],
  ];
  const money = ['price_total:sum', 'price_sub_total:sum', 'total_discount:sum'];
  const day = reportSpec(daySpec(q));
  const specs = [...new Set([...reportSpecs, day])];
  const [common, all] = await Promise.all([
    api.once(JSON.stringify(['commonTaxes', discountedDomain]), () =>
      api.group('report.pos.order', discountedDomain, ['product_id'], ['total_discount:sum']).then((gs) =>
        commonTaxes(
          api,
          gs.map((g) => m2oId(g.values.product_id)).filter((id) => id !== undefined),
        ),
      ),
    ),
    api.group('report.pos.order', discountedDomain, specs, money),
  ]);
  // A fiscal position (take-away) gives a product's lines other taxes on some orders: rows of
  // such orders are taken one by one (a row is one order's product, so one rate), in the same
  // request as the other products' rows (a report runs eight summaries within --rate).
  const apart: Domain =
    common.size > 0
      ? [
          '|',
          ['product_id', 'not in', [...common].sort((a, b) => a - b)],
          ['order_id.fiscal_position_id', '!=', false],
        ]
      : [];
  const perProduct = await api.group(
    'report.pos.order',
    [...discountedDomain, ...apart],
    [...specs, 'product_id', 'order_id'],
    money,
  );
  // The common rate's rows of a group: the group's rows less those of the other products
  // (to a millionth, what the subtraction leaves of nothing is nothing).
  const keyOf = (g: Group): string => JSON.stringify(specs.map((s) => g.values[s] ?? null));
  const rest = new Map<string, Group>();
  if (common.size > 0) {
    for (const g of all) {
      const r: Group = { values: g.values, aggs: {} };
      addAggs(r, g, money);
      rest.set(keyOf(g), r);
    }
    for (const g of perProduct) {
      const r = rest.get(keyOf(g));
      if (r) addAggs(r, g, money, -1);
    }
    for (const [k, r] of rest) {
      for (const m of money) r.aggs[m] = Math.round((r.aggs[m] ?? 0) * 1e6) / 1e6;
      if (r.aggs['total_discount:sum'] === 0) rest.delete(k);
    }
  }
  const parts: ReportPart[] = [];
  // A day's rows of one product at one tax rate, or of the common rate: their sums, whatever
  // the grouping. A product's rows come one per order; those of one rate are summed (each row's
  // ratio carries its amount's rounding), those of another (take-away) apart.
  const sums = new Map<string, { day: string; ratio: number; group: Group }[]>();
  const take = (g: Group, product: number | null): void => {
    const d = dayOf(g.values[day], q);
    parts.push({ group: g, day: d, discount: reportDiscount(g) });
    if (d === null) return;
    const key = JSON.stringify([d, product]);
    const after = (g.aggs['price_sub_total:sum'] ?? 0) - (g.aggs['total_discount:sum'] ?? 0);
    const ratio = Math.abs(after) < 1e-9 ? 0 : (g.aggs['price_total:sum'] ?? 0) / after;
    const near = 0.006 / Math.max(Math.abs(after), 1e-9) + 0.002;
    const clusters = sums.get(key) ?? [];
    let c = clusters.find((x) => Math.abs(x.ratio - ratio) <= near);
    if (!c) {
      c = { day: d, ratio, group: { values: {}, aggs: {} } };
      clusters.push(c);
      sums.set(key, clusters);
    }
    addAggs(c.group, g, money);
  };
  for (const g of rest.values()) take(g, null);
  for (const g of perProduct) take(g, m2oId(g.values.product_id) ?? null);
  const anchors = new Map<string, number>();
  for (const clusters of sums.values())
    for (const { day: d, group } of clusters) addDay(anchors, d, reportDiscount(group));
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
        reportDiscounts(api, q, reportSpecs),
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
  const cashier = q.keys.includes('cashier');
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
  const paySpecs = specs.map(paymentSpec);
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
