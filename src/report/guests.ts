// A restaurant's guests (pos_restaurant's customer_count on orders at a table) and its sales
// per guest. Odoo 16-18's report.pos.order has no table, so the orders are grouped on
// pos.order by table (one request a period), their guests and totals added up here.
import type { OdooClient } from '../core/client.js';
import type { Domain } from '../core/types.js';
import { roundAt } from '../records/normalize.js';
import { ordersDomain } from '../summary/compute.js';
import { SALES } from '../summary/folder.js';
import type { GroupingApi } from '../summary/grouping.js';
import type { Range } from '../summary/query.js';

/** The sales rung up at a table in a period: their orders, guests, total and total per guest. */
export interface Guests {
  orders: number;
  guests: number;
  sales: number;
  per_guest: number | null;
}

/**
 * The period's sales at tables (refunds apart: a refund seats no one), or null where the server
 * has no tables (pos_restaurant not installed).
 */
export async function readGuests(
  client: OdooClient,
  api: GroupingApi,
  range: Range,
  configId: number | undefined,
  digits: number,
): Promise<Guests | null> {
  const fields = await client.fieldsGet('pos.order');
  if (!('table_id' in fields) || !('customer_count' in fields)) return null;
  const dates: Domain = [];
  if (range.start) dates.push(['date_order', '>=', range.start]);
  if (range.end) dates.push(['date_order', '<', range.end]);
  const groups = await api.group(
    'pos.order',
    [...ordersDomain(dates, configId), ...SALES, ['table_id', '!=', false]],
    ['table_id'],
    ['__count', 'customer_count:sum', 'amount_total:sum'],
  );
  const out: Guests = { orders: 0, guests: 0, sales: 0, per_guest: null };
  for (const g of groups) {
    out.orders += g.aggs.__count ?? 0;
    out.guests += g.aggs['customer_count:sum'] ?? 0;
    out.sales += g.aggs['amount_total:sum'] ?? 0;
  }
  out.sales = roundAt(out.sales, digits);
  out.per_guest = out.guests > 0 ? roundAt(out.sales / out.guests, digits) : null;
  return out;
}
