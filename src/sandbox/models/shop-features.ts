/**
 * The optional POS modules a real shop turns on, as a real 17 with them installed answers
 * (fields_get of the bundled real Odoo 17's `posshop`): pos_restaurant (floors, tables, guests,
 * tips, the take-away fiscal position), pos_loyalty (programmes, rewards, cards: points and gift
 * cards) and pos_discount (a product; its lines are ordinary lines). Each model or field exists
 * only where its module is installed, as on a server without it.
 */
import type { FieldDef, ModelDef } from '../store.js';
import { ALL, fd, type ModelSpec, type Version } from './define.js';
import { simple } from './reference.js';

/** A model every POS user reads and the POS manager writes (clerks have no POS rights). */
function posReadable(
  name: string,
  description: string,
  order: string,
  fields: FieldDef[],
  displayName?: ModelSpec['displayName'],
): ModelDef {
  return simple(name, description, fields, order, {
    acl: { manager: ALL, user: 'r', clerk: '' },
    readGroups: ['Point of Sale/User'],
    ...(displayName ? { displayName } : {}),
  });
}

export function shopFeatureModels({ restaurant, loyalty }: Version): ModelDef[] {
  const defs: ModelDef[] = [];
  if (restaurant)
    defs.push(
      posReadable('restaurant.floor', 'Restaurant Floor', 'sequence, name', [
        fd('name', 'char', 'Floor Name', { required: true }),
        fd('pos_config_ids', 'many2many', 'Point of Sales', { relation: 'pos.config' }),
        fd('table_ids', 'one2many', 'Tables', { relation: 'restaurant.table', inverse: 'floor_id' }),
        fd('sequence', 'integer', 'Sequence', { dflt: () => 1 }),
      ]),
      posReadable('restaurant.table', 'Restaurant Table', 'name', [
        fd('name', 'char', 'Table Name', { required: true }),
        fd('floor_id', 'many2one', 'Floor', { relation: 'restaurant.floor' }),
        fd('seats', 'integer', 'Seats', { dflt: () => 1 }),
        fd('active', 'boolean', 'Active', { dflt: () => true }),
      ]),
    );
  // The take-away fiscal position is the restaurant's (account is always there; the sandbox
  // models the model only where a register uses it).
  if (restaurant)
    defs.push(
      posReadable('account.fiscal.position', 'Fiscal Position', 'sequence', [
        fd('name', 'char', 'Fiscal Position', { required: true }),
        fd('sequence', 'integer', 'Sequence', { dflt: () => 1 }),
        fd('company_id', 'many2one', 'Company', { relation: 'res.company', required: true, dflt: () => 1 }),
      ]),
    );
  if (loyalty)
    defs.push(
      posReadable('loyalty.program', 'Loyalty Program', 'sequence', [
        fd('name', 'char', 'Program Name', { required: true }),
        fd('active', 'boolean', 'Active', { dflt: () => true }),
        fd('program_type', 'selection', 'Program Type', {
          required: true,
          selection: [
            ['coupons', 'Coupons'],
            ['gift_card', 'Gift Card'],
            ['loyalty', 'Loyalty Cards'],
            ['promotion', 'Promotions'],
            ['ewallet', 'eWallet'],
            ['promo_code', 'Discount Code'],
            ['buy_x_get_y', 'Buy X Get Y'],
            ['next_order_coupons', 'Next Order Coupons'],
          ],
        }),
        fd('pos_ok', 'boolean', 'Point of Sale', { dflt: () => true }),
        // A gift card programme's card product: selling it makes a card (related to its rules).
        fd('trigger_product_ids', 'many2many', 'Trigger Product', { relation: 'product.product' }),
        fd('sequence', 'integer', 'Sequence', { dflt: () => 10 }),
      ]),
      posReadable(
        'loyalty.reward',
        'Loyalty Reward',
        'id',
        [
          fd('program_id', 'many2one', 'Program', { relation: 'loyalty.program', required: true }),
          fd('description', 'char', 'Description'),
          fd('reward_type', 'selection', 'Reward Type', {
            required: true,
            selection: [
              ['product', 'Free Product'],
              ['discount', 'Discount'],
            ],
          }),
          fd('discount_line_product_id', 'many2one', 'Discount Line Product', {
            relation: 'product.product',
          }),
        ],
        // Odoo's display name: "<programme> - <description>".
        (rec, db) =>
          `${db.displayName('loyalty.program', rec.program_id as number)} - ${String(rec.description)}`,
      ),
      posReadable(
        'loyalty.card',
        'Loyalty Coupon',
        'id',
        [
          fd('program_id', 'many2one', 'Program', { relation: 'loyalty.program' }),
          fd('partner_id', 'many2one', 'Partner', { relation: 'res.partner' }),
          fd('points', 'float', 'Points'),
          fd('code', 'char', 'Code', { required: true }),
          fd('source_pos_order_id', 'many2one', 'PoS Order Reference', { relation: 'pos.order' }),
        ],
        // Odoo's display name: "<programme>: <code>" (a gift card's code is what spends it).
        (rec, db) => `${db.displayName('loyalty.program', rec.program_id as number)}: ${String(rec.code)}`,
      ),
    );
  return defs;
}

/** pos.order's fields from pos_restaurant (and pos_self_order's take_away beside them). */
export function restaurantOrderFields(): FieldDef[] {
  return [
    fd('table_id', 'many2one', 'Table', { relation: 'restaurant.table', readonly: true }),
    fd('customer_count', 'integer', 'Guests', { readonly: true, dflt: () => 0 }),
    fd('take_away', 'boolean', 'Take Away', { dflt: () => false }),
  ];
}

/** pos.order.line's fields from pos_loyalty: a reward line, its reward, the card it used. */
export function loyaltyLineFields(): FieldDef[] {
  return [
    fd('is_reward_line', 'boolean', 'Is Reward Line', { dflt: () => false }),
    fd('reward_id', 'many2one', 'Reward', { relation: 'loyalty.reward' }),
    fd('coupon_id', 'many2one', 'Coupon', { relation: 'loyalty.card' }),
    fd('reward_identifier_code', 'char', 'Reward Identifier Code'),
    fd('points_cost', 'float', 'Points Cost'),
  ];
}
