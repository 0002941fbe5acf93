// The summary by payment method (and order keys with it): payments and refunds grouped on
// pos.payment, through their order on 19, by their own session before; the tips by the method
// that paid them (shop.ts).
import type { OdooClient } from '../core/client.js';
import type { Domain } from '../core/types.js';
import {
  addMethod,
  Folder,
  type Found,
  type Gathered,
  orderSpec,
  REFUNDS,
  type SummaryQuery,
} from './folder.js';
import { type GroupingApi, prefixDomain } from './grouping.js';
import { foldTipsByMethod } from './shop.js';

/** What a level's groups are gathered by (byOrder, byLine, byPayment take the same). */
type Gather = (client: OdooClient, api: GroupingApi, q: SummaryQuery, found: Found) => Promise<Gathered>;

export const byPayment: Gather = async (client, api, q, found) => {
  const specs = q.keys.map((k) =>
    k === 'method'
      ? 'payment_method_id'
      : k === 'session' && !api.paths
        ? 'session_id'
        : `pos_order_id.${orderSpec(k, q)}`,
  );
  const folder = new Folder(q, specs, found.categories, found.floors);
  const payDomain = (extra: Domain): Domain => prefixDomain([...q.orderDomain, ...extra], 'pos_order_id.');
  const withMethod = specs.includes('payment_method_id') ? specs : [...specs, 'payment_method_id'];
  const [all, refunds] = await Promise.all([
    api.group('pos.payment', payDomain([]), withMethod, ['amount:sum', 'pos_order_id:count_distinct']),
    api.group('pos.payment', payDomain(REFUNDS), withMethod, ['amount:sum', 'pos_order_id:count_distinct']),
    foldTipsByMethod(client, api, q, folder, specs),
  ]);
  for (const g of all) {
    const a = folder.at(g);
    const amount = g.aggs['amount:sum'] ?? 0;
    a.orders += g.aggs['pos_order_id:count_distinct'] ?? 0;
    a.total += amount;
    a.methods = addMethod(a.methods, found.method(g.values.payment_method_id), amount);
  }
  for (const g of refunds) {
    const a = folder.at(g);
    a.refundCount += g.aggs['pos_order_id:count_distinct'] ?? 0;
    a.refunds += g.aggs['amount:sum'] ?? 0;
  }
  return { folder };
};
