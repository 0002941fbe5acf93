// What `posdata sync` loads: one table per resource, as data. Parents come before their
// children, so a warehouse query that joins them after a sync finds both. Only stored
// fields: a computed field that Odoo does not store changes without moving write_date, so
// an incremental sync could not keep it current.
import type { FieldMap } from '../core/types.js';

export type SyncName =
  | 'configs'
  | 'payment_methods'
  | 'sessions'
  | 'sales'
  | 'lines'
  | 'payments'
  | 'products';

export interface SyncResource {
  name: SyncName;
  model: string;
  /** Columns by default (those the server has); `--fields` adds more. */
  defaultFields: string[];
}

const STAMPS = ['create_date', 'write_date'];

export const SYNC_RESOURCES: SyncResource[] = [
  {
    name: 'configs',
    model: 'pos.config',
    defaultFields: ['id', 'name', 'active', 'payment_method_ids', 'company_id', 'currency_id', ...STAMPS],
  },
  {
    name: 'payment_methods',
    model: 'pos.payment.method',
    defaultFields: ['id', 'name', 'is_cash_count', 'active', 'company_id', ...STAMPS],
  },
  {
    name: 'sessions',
    model: 'pos.session',
    defaultFields: [
      'id',
      'name',
      'config_id',
      'user_id',
      'state',
      'start_at',
      'stop_at',
      'cash_register_balance_start',
      'cash_register_balance_end_real',
      'cash_real_transaction',
      'company_id',
      'currency_id',
      ...STAMPS,
    ],
  },
  {
    name: 'sales',
    model: 'pos.order',
    defaultFields: [
      'id',
      'name',
      'pos_reference',
      'date_order',
      'state',
      'amount_total',
      'amount_paid',
      'amount_tax',
      'amount_return',
      'config_id',
      'session_id',
      'user_id',
      'partner_id',
      'payment_ids',
      'company_id',
      'currency_id',
      ...STAMPS,
    ],
  },
  {
    name: 'lines',
    model: 'pos.order.line',
    defaultFields: [
      'id',
      'order_id',
      'product_id',
      'full_product_name',
      'qty',
      'price_unit',
      'discount',
      'price_subtotal',
      'price_subtotal_incl',
      'refunded_orderline_id',
      ...STAMPS,
    ],
  },
  {
    name: 'payments',
    model: 'pos.payment',
    defaultFields: [
      'id',
      'amount',
      'payment_method_id',
      'payment_date',
      'pos_order_id',
      'session_id',
      'is_change',
      ...STAMPS,
    ],
  },
  {
    name: 'products',
    model: 'product.template',
    defaultFields: ['id', 'name', 'default_code', 'list_price', 'available_in_pos', 'active', ...STAMPS],
  },
];

export const SYNC_NAMES = SYNC_RESOURCES.map((r) => r.name);

export function isStored(fields: FieldMap, f: string): boolean {
  const def = fields[f];
  return def !== undefined && def.store !== false;
}

/** The default fields this server has and stores. */
export function defaultSyncFields(r: SyncResource, fields: FieldMap): string[] {
  return r.defaultFields.filter((f) => f === 'id' || isStored(fields, f));
}
