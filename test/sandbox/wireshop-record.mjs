// Records the requests wireshop.test.ts replays from the bundled real Odoo 17's `posshop`
// (shared/odoo17: `start DIR "" posshop` prints its URL), one file per request under wireshop/:
// node test/sandbox/wireshop-record.mjs http://127.0.0.1:PORT
import { join } from 'node:path';
import { recordRequests } from './record.mjs';

const url = process.argv[2];
if (!url) throw new Error('usage: node test/sandbox/wireshop-record.mjs http://127.0.0.1:PORT');
const dir = join(import.meta.dirname, 'wireshop');
const sr = (model, domain, fields, limit) => [
  model,
  'search_read',
  [domain],
  { fields, ...(limit ? { limit } : {}) },
];
const REQUESTS = {
  pos_order_restaurant: sr(
    'pos.order',
    [
      ['table_id', '!=', false],
      ['state', '!=', 'cancel'],
    ],
    [
      'name',
      'date_order',
      'user_id',
      'employee_id',
      'cashier',
      'table_id',
      'customer_count',
      'is_tipped',
      'tip_amount',
      'fiscal_position_id',
      'take_away',
      'amount_total',
      'partner_id',
    ],
    5,
  ),
  pos_order_tipped: sr(
    'pos.order',
    [['is_tipped', '=', true]],
    ['name', 'tip_amount', 'is_tipped', 'amount_total', 'amount_paid', 'payment_ids', 'lines'],
    5,
  ),
  pos_order_takeaway: sr(
    'pos.order',
    [['fiscal_position_id', '!=', false]],
    ['name', 'fiscal_position_id', 'amount_tax', 'amount_total'],
    5,
  ),
  pos_order_line_reward: sr(
    'pos.order.line',
    [['is_reward_line', '=', true]],
    [
      'order_id',
      'product_id',
      'full_product_name',
      'qty',
      'price_unit',
      'price_subtotal',
      'price_subtotal_incl',
      'tax_ids',
      'tax_ids_after_fiscal_position',
      'is_reward_line',
      'reward_id',
      'coupon_id',
      'points_cost',
      'reward_identifier_code',
    ],
    5,
  ),
  pos_order_line_takeaway: sr(
    'pos.order.line',
    [['order_id.fiscal_position_id', '!=', false]],
    [
      'order_id',
      'product_id',
      'tax_ids',
      'tax_ids_after_fiscal_position',
      'price_subtotal',
      'price_subtotal_incl',
    ],
    5,
  ),
  pos_payment_change: sr(
    'pos.payment',
    [['is_change', '=', true]],
    ['pos_order_id', 'payment_date', 'amount', 'name', 'payment_method_id', 'is_change'],
    5,
  ),
  restaurant_floor: sr('restaurant.floor', [], ['name', 'pos_config_ids', 'table_ids', 'sequence']),
  restaurant_table: sr(
    'restaurant.table',
    [['floor_id', '!=', false]],
    ['name', 'floor_id', 'seats', 'active', 'display_name'],
    5,
  ),
  hr_employee: sr('hr.employee', [], ['name', 'user_id', 'active', 'company_id', 'display_name'], 5),
  loyalty_program: sr('loyalty.program', [], ['name', 'program_type', 'active', 'pos_ok']),
  loyalty_reward: sr(
    'loyalty.reward',
    [],
    ['program_id', 'description', 'reward_type', 'discount_line_product_id', 'display_name'],
    5,
  ),
  loyalty_card: sr(
    'loyalty.card',
    [],
    ['code', 'program_id', 'points', 'partner_id', 'source_pos_order_id', 'display_name'],
    5,
  ),
  fiscal_position: sr('account.fiscal.position', [], ['name', 'company_id']),
  read_group_orders_by_employee: [
    'pos.order',
    'read_group',
    [[['state', 'in', ['paid', 'done', 'invoiced']]], ['amount_total:sum'], ['employee_id']],
    {},
  ],
  read_group_orders_by_table: [
    'pos.order',
    'read_group',
    [[['table_id', '!=', false]], ['amount_total:sum', 'customer_count:sum'], ['table_id']],
    {},
  ],
  fields_get_pos_order_shop: [
    'pos.order',
    'fields_get',
    [
      [
        'employee_id',
        'cashier',
        'table_id',
        'customer_count',
        'take_away',
        'fiscal_position_id',
        'is_tipped',
        'tip_amount',
      ],
    ],
    { attributes: ['type', 'string', 'relation', 'store'] },
  ],
  // What the summary's shop columns read first (src/summary/shop.ts): the registers' special
  // products, and the loyalty programmes' products.
  fields_get_pos_config_shop: [
    'pos.config',
    'fields_get',
    [],
    {
      allfields: ['iface_tipproduct', 'tip_product_id', 'discount_product_id', 'gift_card_settings'],
      attributes: ['type'],
    },
  ],
  pos_config_shop: sr(
    'pos.config',
    [],
    ['name', 'iface_tipproduct', 'tip_product_id', 'discount_product_id'],
  ),
  loyalty_program_products: sr('loyalty.program', [], ['name', 'program_type', 'trigger_product_ids']),
  // The tipped orders' payments, the first of each order (foldTipsByMethod).
  read_group_payments_tipped: [
    'pos.payment',
    'read_group',
    [
      [
        ['pos_order_id.tip_amount', '>', 0],
        ['is_change', '=', false],
      ],
      ['id:min'],
      ['payment_method_id'],
    ],
    {},
  ],
  // 16-18's lines by cashier: report.pos.order grouped by pos_hr's employee.
  read_group_report_by_employee: [
    'report.pos.order',
    'read_group',
    [
      [['state', 'in', ['paid', 'done', 'invoiced']]],
      ['product_qty:sum', 'price_total:sum'],
      ['employee_id'],
    ],
    {},
  ],
  // 17's pos_hr puts the employee on orders only: its sessions and payments have none (18 and 19 add both).
  fields_get_session_payment_employee: [
    'pos.session',
    'fields_get',
    [['employee_id', 'user_id']],
    { attributes: ['type', 'relation'] },
  ],
  fields_get_payment_employee: [
    'pos.payment',
    'fields_get',
    [['employee_id', 'session_id']],
    { attributes: ['type', 'relation'] },
  ],
  fields_get_pos_order_line_loyalty: [
    'pos.order.line',
    'fields_get',
    [['is_reward_line', 'reward_id', 'coupon_id', 'points_cost', 'reward_identifier_code']],
    { attributes: ['type', 'string', 'relation', 'store'] },
  ],
};
await recordRequests(url, 'posshop', dir, REQUESTS);
