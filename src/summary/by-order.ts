// The summary by order keys (day, hour, weekday, register, session, cashier, table, floor): the orders and
// refunds grouped on pos.order, then the items, discounts and payment methods of each group.
// Odoo 19 groups the lines and payments through their order (`order_id.config_id`); Odoo 16-18
// cannot, and takes them from report.pos.order and the payments' own fields (before-19.ts).
import type { OdooClient } from '../core/client.js';
import { FISCAL_POSITIONS, linesAndPaymentsBefore19, reportSpec, toReportDomain } from './before-19.js';
import {
  add,
  addDay,
  addMethod,
  dayOf,
  daySpec,
  discountOf,
  Folder,
  type Found,
  foldLine,
  type Gathered,
  m2oId,
  orderSpec,
  REFUNDS,
  SALES,
  type SummaryQuery,
  zeroLines,
} from './folder.js';
import type { GroupingApi } from './grouping.js';
import { prefixDomain } from './grouping.js';
import { linesAndPaymentsPerOrder, ORDER_IDS } from './per-order.js';
import { foldShopLines } from './shop.js';

export async function byOrder(
  client: OdooClient,
  api: GroupingApi,
  q: SummaryQuery,
  found: Found,
  /** Told the orders' groups once they are in (compute.ts asks the registers' names then). */
  grouped?: (folder: Folder) => void,
): Promise<Gathered> {
  const specs = q.keys.map((k) => orderSpec(k, q));
  const folder = new Folder(q, specs, found.categories, found.floors);
  // Odoo 16-18 groups payments by session: the orders say which register each session is on,
  // and which session's change (amount_return) each group of orders gave back. Without the
  // payments (the report's tables) nothing reads the sessions.
  const sessionsToo = !api.paths && q.methods !== false && !specs.includes('session_id');
  // Odoo 16 cannot group orders by config_id (related to the session, not stored): they are
  // grouped by session, and each session's register read (one request more).
  const viaSession = !q.configStored && specs.includes('config_id');
  const bySession = [...new Set(specs.map((s) => (s === 'config_id' ? 'session_id' : s)))];
  const configOf = new Map<number, unknown>();
  // Odoo 16-18 by table or floor: each order's lines and payments are folded into its group.
  const perOrder = !api.paths && specs.includes('table_id');
  const [all, refunds] = await Promise.all([
    api.group(
      'pos.order',
      q.orderDomain,
      viaSession ? bySession : sessionsToo && !perOrder ? [...specs, 'session_id'] : specs,
      [
        '__count',
        'amount_total:sum',
        'amount_tax:sum',
        ...(api.paths ? [] : ['amount_return:sum']),
        // 16-18: whether the discounted rows need the take-away ones apart (before-19.ts).
        ...(perOrder ? [ORDER_IDS] : api.paths ? [] : [FISCAL_POSITIONS]),
      ],
    ),
    api.group('pos.order', [...q.orderDomain, ...REFUNDS], viaSession ? bySession : specs, [
      '__count',
      'amount_total:sum',
    ]),
  ]);
  if (viaSession) {
    const ids = new Set(all.map((g) => m2oId(g.values.session_id)).filter((x) => x !== undefined));
    // In id order: a report's groupings over the same orders read them once (the memo).
    const sorted = [...ids].sort((a, b) => a - b);
    for (const s of await api.byIds('pos.session', sorted, ['config_id']))
      configOf.set(s.id as number, s.config_id);
    for (const g of [...all, ...refunds])
      g.values.config_id = configOf.get(m2oId(g.values.session_id) ?? 0) ?? false;
  }
  for (const g of all) {
    const sid = m2oId(g.values.session_id);
    if (sid !== undefined && !viaSession) configOf.set(sid, g.values.config_id);
    const a = folder.at(g);
    a.orders += g.aggs.__count ?? 0;
    a.total += g.aggs['amount_total:sum'] ?? 0;
    a.tax = add(a.tax, g.aggs['amount_tax:sum'] ?? 0);
    a.net = add(a.net, (g.aggs['amount_total:sum'] ?? 0) - (g.aggs['amount_tax:sum'] ?? 0));
    if (g.domain) a.domains.push(g.domain);
  }
  for (const g of refunds) {
    const a = folder.at(g);
    a.refundCount += g.aggs.__count ?? 0;
    a.refunds += g.aggs['amount_total:sum'] ?? 0;
  }
  if (perOrder)
    return { folder, dayAnchors: await linesAndPaymentsPerOrder(client, api, q, folder, found, all) };
  const shop = foldShopLines(client, api, q, folder, {
    specs: api.paths ? specs.map((s) => `order_id.${s}`) : specs.map(reportSpec),
    reportDomain: toReportDomain,
  });
  // Told after the lines' and payments' requests are made, so that they go out first (the
  // products' taxes and the shop's fields, which later requests wait for, among them).
  if (!api.paths) {
    const lines = linesAndPaymentsBefore19(api, q, { folder, found, specs, configOf, orders: all });
    grouped?.(folder);
    return { folder, ...(await Promise.all([lines, shop]))[0] };
  }
  const lines = linesAndPaymentsByPath(api, q, folder, found, specs);
  grouped?.(folder);
  const [dayAnchors] = await Promise.all([lines, shop]);
  return { folder, dayAnchors };
}

/**
 * Odoo 19: lines and payments grouped through their order, by the same keys (the lines by their
 * order's business day too); returns each day's discount.
 */
async function linesAndPaymentsByPath(
  api: GroupingApi,
  q: SummaryQuery,
  folder: Folder,
  found: Found,
  specs: string[],
): Promise<Map<string, number>> {
  const lineSpecs = specs.map((s) => `order_id.${s}`);
  const paySpecs = specs.map((s) => `pos_order_id.${s}`);
  const day = `order_id.${daySpec(q)}`;
  const [lines, payments] = await Promise.all([
    api.group(
      'pos.order.line',
      prefixDomain([...q.orderDomain, ...SALES], 'order_id.'),
      [...new Set([...lineSpecs, day]), 'discount'],
      ['qty:sum', 'price_subtotal_incl:sum'],
    ),
    q.methods === false
      ? []
      : api.group(
          'pos.payment',
          prefixDomain(q.orderDomain, 'pos_order_id.'),
          [...paySpecs, 'payment_method_id'],
          ['amount:sum'],
        ),
  ]);
  const anchors = new Map<string, number>();
  for (const g of lines) {
    const d = dayOf(g.values[day], q);
    foldLine(folder.at(g, lineSpecs), g, d);
    if (d !== null) addDay(anchors, d, discountOf(g.values.discount, g.aggs['price_subtotal_incl:sum'] ?? 0));
  }
  // A group of refunds only has no sales line: it sold nothing.
  for (const a of folder.accs.values()) zeroLines(a);
  for (const g of payments) {
    const a = folder.at(g, paySpecs);
    a.methods = addMethod(a.methods, found.method(g.values.payment_method_id), g.aggs['amount:sum'] ?? 0);
  }
  return anchors;
}
