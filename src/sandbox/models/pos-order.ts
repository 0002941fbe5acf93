/** pos.order: the sales, with each version's refund fields, notes and register link. */
import type { Db, FieldDef, ModelDef } from '../store.js';
import { idRange } from '../store.js';
import { parseDatetime, txStamp } from '../time.js';
import type { Rec, Stored } from '../types.js';
import {
  ALL,
  build,
  companyVia,
  computed,
  fd,
  num,
  POS_ORDER_STATES_17,
  relatedCurrency,
  type Version,
} from './define.js';
import { restaurantOrderFields } from './shop-features.js';

/** The cashier of an order: the session's user, or (about 2 orders in 5) the register's second cashier. */
export const CASHIER_UIDS = [8, 9, 10];
export function cashierOf(rec: Rec, db: Db): number {
  const session = db.get('pos.session', rec.session_id as number);
  const own = typeof session?.user_id === 'number' ? session.user_id : 2;
  const config = typeof session?.config_id === 'number' ? session.config_id : 1;
  const second = CASHIER_UIDS[(config - 1) % CASHIER_UIDS.length] as number;
  return (Math.imul(rec.id, 2654435761) >>> 0) % 5 < 2 ? second : own;
}

export function posOrder(v: Version): ModelDef {
  return build({
    name: 'pos.order',
    description: 'Point of Sale Orders',
    order: 'date_order desc, name desc, id desc',
    acl: { manager: ALL, user: 'rwc', clerk: '' },
    readGroups: ['Inventory/User', 'Point of Sale/User'],
    // Created in the transaction that recorded the sale (its lines and payments with it).
    created: orderCreated,
    fields: [...orderFields(v), ...refundFields(v)],
  });
}

/** What every version stores or computes on an order, the optional modules' fields among them. */
function orderFields({ version, v18, v19, posHr, restaurant }: Version): FieldDef[] {
  // 16-18 amounts are Float(digits=0): fields_get says `digits: 0` (full precision); 19's are
  // Monetary, which has none.
  const amountType = v19 ? 'monetary' : 'float';
  const amountDigits: Pick<FieldDef, 'digits'> = v19 ? {} : { digits: 0 };
  return [
    fd('name', 'char', 'Order Ref', { required: true, readonly: true, dflt: () => '/' }),
    fd('date_order', 'datetime', 'Date', { readonly: true }),
    fd('user_id', 'many2one', v18 ? 'Employee' : 'Responsible', { relation: 'res.users', dflt: cashierOf }),
    fd('amount_tax', amountType, 'Taxes', { readonly: true, required: true, ...amountDigits }),
    fd('amount_total', amountType, 'Total', { readonly: true, required: true, ...amountDigits }),
    fd('amount_paid', amountType, 'Paid', { readonly: true, required: true, ...amountDigits }),
    fd('amount_return', amountType, 'Returned', { readonly: true, required: true, ...amountDigits }),
    fd('lines', 'one2many', 'Order Lines', {
      relation: 'pos.order.line',
      inverse: 'order_id',
      readonly: true,
      dflt: (rec) => idRange(num(rec._l0), num(rec._ln)),
    }),
    fd('company_id', 'many2one', 'Company', {
      relation: 'res.company',
      required: true,
      readonly: true,
      dflt: (rec, db) => companyVia(db, rec, 'config_id'),
    }),
    fd('partner_id', 'many2one', 'Customer', { relation: 'res.partner' }),
    fd('state', 'selection', 'Status', {
      selection: v19 ? POS_ORDER_STATES_17.slice(0, 4) : POS_ORDER_STATES_17,
      readonly: true,
      dflt: () => 'draft',
    }),
    fd('account_move', 'many2one', 'Invoice', { relation: 'account.move', readonly: true }),
    fd('session_id', 'many2one', 'Session', { relation: 'pos.session', required: !v19, readonly: false }),
    configField(version),
    relatedCurrency('config_id.currency_id', v19),
    fd('payment_ids', 'one2many', 'Payments', {
      relation: 'pos.payment',
      inverse: 'pos_order_id',
      readonly: true,
      dflt: (rec) => idRange(num(rec._p0), num(rec._pn), true),
    }),
    fd('pos_reference', 'char', 'Receipt Number', {
      readonly: true,
      dflt: (rec) =>
        typeof rec._n === 'number'
          ? `Order ${String(rec.session_id).padStart(5, '0')}-001-${String(rec._n).padStart(4, '0')}`
          : false,
    }),
    // Computed on 16-18 (not stored), stored on 19. 17/18 search it (_search_tracking_number,
    // on pos_reference): fields_get says searchable, though the sandbox ignores such a leaf.
    fd('tracking_number', 'char', 'Order Number', {
      store: v19,
      readonly: true,
      ...(version === 17 || version === 18 ? { search: true } : {}),
      dflt: (rec) => (typeof rec._n === 'number' ? String(100 + (rec._n % 900)) : false),
    }),
    fd('to_invoice', 'boolean', 'To invoice', {
      dflt: (rec) => rec.state === 'invoiced' || typeof rec.account_move === 'number',
    }),
    computed('is_invoiced', 'boolean', 'Is Invoiced', (rec) => typeof rec.account_move === 'number'),
    ...noteFields(v18, v19),
    // Tips only in a restaurant's data (--restaurant): elsewhere the fields are there, at zero.
    fd('tip_amount', amountType, 'Tip Amount', { readonly: true, dflt: () => 0, ...amountDigits }),
    fd('is_tipped', 'boolean', 'Is this already tipped?', { readonly: true, dflt: () => false }),
    ...(posHr ? employeeFields(v18) : []),
    ...(restaurant ? restaurantOrderFields() : []),
    computed(
      'refund_orders_count',
      'integer',
      'Number of Refund Orders',
      (rec, db) => db.refunds().refundsOf.get(rec.id)?.length ?? 0,
    ),
  ];
}

/**
 * The order's register. 16: related to the session and not stored (searchable through the
 * relation, not groupable); 17/18: related and stored; 19: computed and stored.
 */
function configField(version: Version['version']): FieldDef {
  if (version === 16)
    return computed('config_id', 'many2one', 'Point of Sale', (rec, db) => sessionConfig(rec, db), {
      relation: 'pos.config',
      searchable: true,
      related: 'session_id.config_id',
    });
  return fd('config_id', 'many2one', 'Point of Sale', {
    relation: 'pos.config',
    readonly: true,
    dflt: sessionConfig,
    ...(version === 19 ? {} : { related: 'session_id.config_id' }),
  });
}

/** The order's note: 16/17 `note`, 18 `general_note`, 19 an internal and a customer note. */
function noteFields(v18: boolean, v19: boolean): FieldDef[] {
  if (v19)
    return [
      fd('internal_note', 'text', 'Internal Note'),
      fd('general_customer_note', 'text', 'General Customer Note'),
    ];
  return v18 ? [fd('general_note', 'text', 'General Note')] : [fd('note', 'text', 'Internal Notes')];
}

/**
 * pos_hr: the employee who rang the order up, and the cashier's name it shows. 16/17 leave
 * employee_id's label to its name ("Employee"); 18 and 19 call it "Cashier", and `cashier`
 * "Cashier name".
 */
function employeeFields(v18: boolean): FieldDef[] {
  return [
    fd('employee_id', 'many2one', v18 ? 'Cashier' : 'Employee', {
      relation: 'hr.employee',
      dflt: (rec, db) => employeeOf(db, cashierOf(rec, db)),
    }),
    fd('cashier', 'char', v18 ? 'Cashier name' : 'Cashier', { readonly: true, dflt: cashierName }),
  ];
}

/** An order's employee (pos_hr), stored or by its default; false without one or without pos_hr. */
export function orderEmployee(db: Db, orderId: Stored): number | false {
  const o = typeof orderId === 'number' ? db.get('pos.order', orderId) : undefined;
  const field = db.models.get('pos.order')?.fields.get('employee_id');
  if (!o || !field) return false;
  const e = db.value(field, o);
  return typeof e === 'number' ? e : false;
}

/** The employee's name; an order without one (Odoo's demo orders) names the user. */
function cashierName(rec: Rec, db: Db): Stored {
  const stored = rec.employee_id;
  const e =
    stored === undefined ? employeeOf(db, cashierOf(rec, db)) : typeof stored === 'number' ? stored : false;
  return e === false
    ? db.displayName('res.users', typeof rec.user_id === 'number' ? rec.user_id : cashierOf(rec, db))
    : db.displayName('hr.employee', e);
}

/**
 * How an order knows its refunds: 16/17 compute the refunded orders (a list) and two counts;
 * 18 and 19 compute the one refunded order (18: through the lines' orders), and 19 stores
 * is_refund.
 */
function refundFields({ v18, v19 }: Version): FieldDef[] {
  if (!v18)
    return [
      computed(
        'refunded_order_ids',
        'many2many',
        'Refunded Order',
        (rec, db) => db.refunds().refundedBy.get(rec.id) ?? [],
        { relation: 'pos.order' },
      ),
      computed(
        'is_refunded',
        'boolean',
        'Is Refunded',
        (rec, db) => (db.refunds().refundsOf.get(rec.id)?.length ?? 0) > 0,
      ),
      computed(
        'refunded_orders_count',
        'integer',
        'Refunded Orders Count',
        (rec, db) => db.refunds().refundedBy.get(rec.id)?.length ?? 0,
      ),
    ];
  return [
    ...(v19 ? [fd('is_refund', 'boolean', 'Is Refund', { readonly: true })] : []),
    computed(
      'refunded_order_id',
      'many2one',
      'Refunded Order',
      (rec, db) => db.refunds().refundedBy.get(rec.id)?.[0] ?? false,
      { relation: 'pos.order' },
    ),
  ];
}

/** An order's create_date: the sale's transaction, at its date_order (seeded microseconds). */
export function orderCreated(rec: Rec): Stored {
  return typeof rec.date_order === 'string' ? txStamp(parseDatetime(rec.date_order), rec.id) : false;
}

/** The create_date of the order a line or payment was created with (the same transaction). */
export function createdWith(db: Db, orderId: Stored): Stored {
  const o = typeof orderId === 'number' ? db.get('pos.order', orderId) : undefined;
  if (!o) return false;
  return typeof o.create_date === 'string' ? o.create_date : orderCreated(o);
}

/** A record's register through its session (pos.order's config_id, related or computed). */
function sessionConfig(rec: Rec, db: Db): Stored {
  return db.get('pos.session', rec.session_id as number)?.config_id ?? false;
}

/** The employee linked to a user (pos_hr), or false. */
function employeeOf(db: Db, uid: number): number | false {
  const found = db.memo('employee-of-user', () => {
    const m = new Map<number, number>();
    for (const e of db.table('hr.employee').rows)
      if (e && typeof e.user_id === 'number') m.set(e.user_id, e.id);
    return m;
  });
  return found.get(uid) ?? false;
}
