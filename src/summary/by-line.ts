// The summary by line keys (product, category, tax): sales, discounted and refund lines
// grouped on pos.order.line. On 19 a category is grouped through the product; before 19 the
// products' categories are read (one request) and the groups folded by them.
import type { OdooClient } from '../core/client.js';
import type { Domain } from '../core/types.js';
import { reportDiscounts } from './before-19.js';
import {
  add,
  addDay,
  dayOf,
  daySpec,
  discountOf,
  Folder,
  type Found,
  type Gathered,
  LINE_SPEC,
  type OrderTotals,
  orderSpec,
  REFUNDS,
  SALES,
  type SummaryQuery,
  zeroLines,
} from './folder.js';
import { type Group, type GroupingApi, prefixDomain } from './grouping.js';

export async function byLine(
  client: OdooClient,
  api: GroupingApi,
  q: SummaryQuery,
  found: Found,
): Promise<Gathered> {
  // On 19 a category is grouped through the product, so an order with two products of one
  // category counts once; before 19 `orders` per category sums each product's orders.
  const specs = q.keys.map((k) =>
    k === 'category' && api.paths ? 'product_id.categ_id' : (LINE_SPEC[k] ?? `order_id.${orderSpec(k, q)}`),
  );
  const lineDomain = (extra: Domain): Domain => prefixDomain([...q.orderDomain, ...extra], 'order_id.');
  const [sales, discounted, refunds, orders, dayAnchors] = await Promise.all([
    api.group('pos.order.line', lineDomain(SALES), specs, [
      'qty:sum',
      'price_subtotal:sum',
      'price_subtotal_incl:sum',
      'order_id:count_distinct',
    ]),
    api.group(
      'pos.order.line',
      [...lineDomain(SALES), ['discount', '>', 0]],
      [...specs, 'discount'],
      ['price_subtotal_incl:sum'],
    ),
    api.group('pos.order.line', lineDomain(REFUNDS), specs, [
      'price_subtotal:sum',
      'price_subtotal_incl:sum',
      'order_id:count_distinct',
    ]),
    orderTotals(api, q),
    lineDayAnchors(api, q),
  ]);
  if (q.keys.includes('category') && !api.paths) {
    // A product's category is read once for the products seen (one request).
    const ids = new Set<number>();
    for (const g of [...sales, ...refunds]) {
      const v = g.values.product_id;
      if (Array.isArray(v) && typeof v[0] === 'number') ids.add(v[0]);
    }
    const products = await client.read('product.product', [...ids], ['categ_id']);
    for (const p of products) {
      const c = p.categ_id;
      if (Array.isArray(c) && typeof c[0] === 'number') found.categories.set(p.id, [c[0], String(c[1])]);
    }
  }
  const folder = new Folder(q, specs, found.categories, found.floors);
  for (const g of sales) {
    const a = folder.at(g);
    const incl = g.aggs['price_subtotal_incl:sum'] ?? 0;
    const excl = g.aggs['price_subtotal:sum'] ?? 0;
    a.orders += g.aggs['order_id:count_distinct'] ?? 0;
    a.items = add(a.items, g.aggs['qty:sum'] ?? 0);
    a.salesIncl = add(a.salesIncl, incl);
    a.discounts ??= 0;
    a.total += incl;
    a.net = add(a.net, excl);
    a.tax = add(a.tax, incl - excl);
  }
  for (const g of discounted) {
    const a = folder.at(g);
    a.discounts = add(a.discounts, discountOf(g.values.discount, g.aggs['price_subtotal_incl:sum'] ?? 0));
  }
  for (const g of refunds) {
    const a = folder.at(g);
    const incl = g.aggs['price_subtotal_incl:sum'] ?? 0;
    const excl = g.aggs['price_subtotal:sum'] ?? 0;
    const n = g.aggs['order_id:count_distinct'] ?? 0;
    a.orders += n;
    a.refundCount += n;
    a.refunds += incl;
    a.total += incl;
    a.net = add(a.net, excl);
    a.tax = add(a.tax, incl - excl);
    zeroLines(a);
  }
  return { folder, orders, dayAnchors };
}

/** What the orders of the range add up to (Odoo rounds each order): two requests. */
async function orderTotals(api: GroupingApi, q: SummaryQuery): Promise<OrderTotals> {
  const [all, refunds] = await Promise.all([
    api.group('pos.order', q.orderDomain, [], ['amount_total:sum', 'amount_tax:sum']),
    api.group('pos.order', [...q.orderDomain, ...REFUNDS], [], ['amount_total:sum']),
  ]);
  const sum = (gs: Group[], agg: string): number => gs.reduce((a, g) => a + (g.aggs[agg] ?? 0), 0);
  return {
    total: sum(all, 'amount_total:sum'),
    refunds: sum(refunds, 'amount_total:sum'),
    tax: sum(all, 'amount_tax:sum'),
  };
}

/** Each business day's discount, as the views by an order key count it (one request; 16-18 one per tax rate). */
async function lineDayAnchors(api: GroupingApi, q: SummaryQuery): Promise<Map<string, number>> {
  if (!api.paths) return (await reportDiscounts(api, q, [])).anchors;
  const day = `order_id.${daySpec(q)}`;
  const lines = await api.group(
    'pos.order.line',
    [...prefixDomain([...q.orderDomain, ...SALES], 'order_id.'), ['discount', '>', 0]],
    [day, 'discount'],
    ['price_subtotal_incl:sum'],
  );
  const anchors = new Map<string, number>();
  for (const g of lines) {
    const d = dayOf(g.values[day], q);
    if (d !== null) addDay(anchors, d, discountOf(g.values.discount, g.aggs['price_subtotal_incl:sum'] ?? 0));
  }
  return anchors;
}
