// Odoo 16-18 by a restaurant's table or floor: report.pos.order (the lines) and the payments
// know no table, and read_group follows no path before 19. So the lines, discounts and
// payments are grouped by their order, and each order's figures folded into the group its
// order is in (the orders grouped by the keys list their ids). Exact, at the price of answers
// of one row per order (per method for the payments): asked only by these keys. The shop's
// own lines (tips, gift cards, global discounts, rewards: shop.ts) come per order the same way.
import type { OdooClient } from '../core/client.js';
import { reportDiscounts, toReportDomain } from './before-19.js';
import type { Folder, Found, SummaryQuery } from './folder.js';
import { add, addDay, addMethod, m2oId, SALES, zeroLines } from './folder.js';
import { type Group, type GroupingApi, prefixDomain } from './grouping.js';
import { foldShopLines } from './shop.js';

/** The aggregate that lists a group's orders. */
export const ORDER_IDS = 'id:array_agg';

/**
 * The items, discounts and payment methods of the groups in `folder`, each order's in the group
 * `orders` put it in; returns each business day's discount.
 */
export async function linesAndPaymentsPerOrder(
  client: OdooClient,
  api: GroupingApi,
  q: SummaryQuery,
  folder: Folder,
  found: Found,
  orders: Group[],
): Promise<Map<string, number>> {
  const groupOf = new Map<number, Group>();
  for (const g of orders)
    for (const id of g.lists?.[ORDER_IDS] ?? []) if (typeof id === 'number') groupOf.set(id, g);
  /** The accumulator of the group of a row's order, or undefined for an order outside them. */
  const accOf = (row: Group, field: string) => {
    const g = groupOf.get(m2oId(row.values[field]) ?? 0);
    return g ? folder.at(g) : undefined;
  };
  const [lines, discounts, payments] = await Promise.all([
    api.group(
      'report.pos.order',
      toReportDomain([...q.orderDomain, ...SALES]),
      ['order_id'],
      ['product_qty:sum', 'price_total:sum'],
    ),
    reportDiscounts(api, q, ['order_id']),
    q.methods === false
      ? []
      : api.group(
          'pos.payment',
          prefixDomain(q.orderDomain, 'pos_order_id.'),
          ['pos_order_id', 'payment_method_id'],
          ['amount:sum'],
        ),
    foldShopLines(client, api, q, folder, {
      specs: ['order_id'],
      reportDomain: toReportDomain,
      accOf: (row) => accOf(row, 'order_id'),
    }),
  ]);
  for (const row of lines) {
    const a = accOf(row, 'order_id');
    if (!a) continue;
    a.items = add(a.items, row.aggs['product_qty:sum'] ?? 0);
    a.salesIncl = add(a.salesIncl, row.aggs['price_total:sum'] ?? 0);
  }
  for (const p of discounts.parts) {
    const a = accOf(p.group, 'order_id');
    if (!a) continue;
    a.discounts = add(a.discounts, p.discount);
    if (p.day !== null) addDay(a.dayDiscounts, p.day, p.discount);
  }
  for (const a of folder.accs.values()) zeroLines(a);
  for (const row of payments) {
    const a = accOf(row, 'pos_order_id');
    if (a)
      a.methods = addMethod(
        a.methods,
        found.method(row.values.payment_method_id),
        row.aggs['amount:sum'] ?? 0,
      );
  }
  return discounts.anchors;
}
