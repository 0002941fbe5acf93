/**
 * Field sets per Odoo version, as the fact sheet and the recordings give them: names, types, labels,
 * stored or computed, default `_order`, access rules. Stored fields are held on the rows; computed,
 * non-stored ones are worked out on read (and, as on the real server, cannot be searched).
 */
import { inertFields } from './catalog.js';
import type { Db, FieldDef, ModelDef } from './store.js';
import { idRange } from './store.js';
import { localDate, parseDatetime, txStamp } from './time.js';
import type { FieldType, OdooVersion, Rec, Role, Stored } from './types.js';

type Opts = Partial<Omit<FieldDef, 'name' | 'type' | 'string'>>;
const fd = (name: string, type: FieldType, string: string, opts: Opts = {}): FieldDef => ({
  name,
  type,
  string,
  store: true,
  ...opts,
});
const computed = (
  name: string,
  type: FieldType,
  string: string,
  compute: NonNullable<FieldDef['compute']>,
  opts: Opts = {},
): FieldDef => ({ name, type, string, store: false, readonly: true, compute, ...opts });

/** A related many2one that is not stored (read and searched through the relation): the one company and currency. */
const related = (name: string, string: string, relation: string): FieldDef =>
  computed(name, 'many2one', string, () => 1, { relation, searchable: true });
const relatedCurrency = (): FieldDef => related('currency_id', 'Currency', 'res.currency');

/** An inverse one2many: Odoo reports it stored (`store: true`) though it has no column. */
const inverse = (
  name: string,
  string: string,
  relation: string,
  inverseName: string,
  compute: NonNullable<FieldDef['compute']>,
): FieldDef =>
  computed(name, 'one2many', string, compute, {
    store: true,
    searchable: true,
    relation,
    inverse: inverseName,
  });

const POS_ORDER_STATES_17: [string, string][] = [
  ['draft', 'New'],
  ['cancel', 'Cancelled'],
  ['paid', 'Paid'],
  ['done', 'Posted'],
  ['invoiced', 'Invoiced'],
];
const SESSION_STATES: [string, string][] = [
  ['opening_control', 'Opening Control'],
  ['opened', 'In Progress'],
  ['closing_control', 'Closing Control'],
  ['closed', 'Closed & Posted'],
];

const num = (v: Stored): number => (typeof v === 'number' ? v : 0);
const ids = (v: Stored): number[] => (Array.isArray(v) ? v : []);

/** Amount as Odoo's formatLang shows it for EUR in en_US: `1,234.56 €`. */
export function formatAmount(amount: number): string {
  const s = Math.abs(amount)
    .toFixed(2)
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${amount < 0 ? '-' : ''}${s} €`;
}

function baseFields(model: string): FieldDef[] {
  return [
    fd('id', 'integer', 'ID', { readonly: true }),
    computed('display_name', 'char', 'Display Name', (rec, db) => db.displayName(model, rec.id), {
      searchable: true,
    }),
    fd('create_uid', 'many2one', 'Created by', { relation: 'res.users', readonly: true, dflt: () => 2 }),
    fd('create_date', 'datetime', 'Created on', { readonly: true }),
    fd('write_uid', 'many2one', 'Last Updated by', { relation: 'res.users', readonly: true, dflt: () => 2 }),
    fd('write_date', 'datetime', 'Last Updated on', { readonly: true }),
  ];
}

interface ModelSpec {
  name: string;
  description: string;
  order: string;
  hasActive?: boolean;
  fields: FieldDef[];
  displayName?: (rec: Rec, db: Db) => string;
  acl: Record<Role, string>;
  readGroups: string[];
  /** Which base fields default from which own field. */
  created?: (rec: Rec, db: Db) => Stored;
  written?: (rec: Rec, db: Db) => Stored;
  extraMethods?: string[];
  view?: ModelDef['view'];
}

function build(spec: ModelSpec): ModelDef {
  const base = baseFields(spec.name);
  const created = spec.created;
  const written = spec.written ?? spec.created;
  for (const f of base) {
    if (f.name === 'create_date' && created) f.dflt = created;
    if (f.name === 'write_date' && written) f.dflt = written;
  }
  const all = [base[0] as FieldDef, ...spec.fields, ...base.slice(1)];
  const fields = new Map(all.map((f) => [f.name, f]));
  const userRole = spec.acl.user;
  return {
    name: spec.name,
    description: spec.description,
    order: spec.order,
    hasActive: spec.hasActive ?? false,
    fields,
    displayName:
      spec.displayName ?? ((rec) => (typeof rec.name === 'string' ? rec.name : `${spec.name},${rec.id}`)),
    acl: spec.acl,
    groups: (op) => {
      if (op === 'read') return spec.readGroups;
      const letter = op === 'write' ? 'w' : op === 'create' ? 'c' : 'u';
      if (!spec.name.startsWith('pos.')) return ['Administration/Access Rights'];
      return userRole.includes(letter)
        ? ['Point of Sale/Administrator', 'Point of Sale/User']
        : ['Point of Sale/Administrator'];
    },
    extraMethods: spec.extraMethods,
    view: spec.view,
  };
}

const ALL = 'rwcu';

/** Options of the generated database: which optional modules are installed. */
export interface ModelOptions {
  /** pos_hr: orders carry the employee who rang them up (`employee_id`, `cashier`). */
  posHr?: boolean;
}

/** The cashier of an order: the session's user, or (about 2 orders in 5) the register's second cashier. */
export const CASHIER_UIDS = [8, 9, 10];
function cashierOf(rec: Rec, db: Db): number {
  const session = db.get('pos.session', rec.session_id as number);
  const own = typeof session?.user_id === 'number' ? session.user_id : 2;
  const config = typeof session?.config_id === 'number' ? session.config_id : 1;
  const second = CASHIER_UIDS[(config - 1) % CASHIER_UIDS.length] as number;
  return (Math.imul(rec.id, 2654435761) >>> 0) % 5 < 2 ? second : own;
}

export function buildModels(version: OdooVersion, opts: ModelOptions = {}): Map<string, ModelDef> {
  const v19 = version === 19;
  /** 18 and 19 share what changed in 18 (register labels, cash formula, favourites, labels). */
  const v18 = version >= 18;
  const defs: ModelDef[] = [];

  const configDisplay = (rec: Rec, db: Db): string => {
    const name = String(rec.name);
    if (v18) return name;
    // Odoo 16/17: "<name> (<user of the last session>)" while that session is not closed.
    const sid = db.sessionIdx().configSessions.get(rec.id)?.at(-1);
    const s = sid !== undefined ? db.get('pos.session', sid) : undefined;
    if (!s || s.state === 'closed') return `${name} (not used)`;
    return `${name} (${db.displayName('res.users', s.user_id as number)})`;
  };

  defs.push(
    build({
      name: 'pos.config',
      description: 'Point of Sale Configuration',
      order: 'id',
      hasActive: true,
      displayName: configDisplay,
      acl: { manager: ALL, user: 'rw', clerk: '' },
      readGroups: v19
        ? ['Point of Sale/Administrator', 'Point of Sale/User', 'Role / Administrator']
        : ['Point of Sale/Administrator', 'Point of Sale/User'],
      fields: [
        fd('name', 'char', 'Point of Sale', { required: true }),
        fd('active', 'boolean', 'Active', { dflt: () => true }),
        computed(
          'current_session_id',
          'many2one',
          'Current Session',
          (rec, db) => db.sessionIdx().currentSession.get(rec.id) ?? false,
          {
            relation: 'pos.session',
          },
        ),
        computed('current_session_state', 'char', 'Current Session State', (rec, db) => {
          const sid = db.sessionIdx().currentSession.get(rec.id);
          return sid === undefined ? false : (db.get('pos.session', sid)?.state ?? false);
        }),
        computed('last_session_closing_date', 'date', 'Last Session Closing Date', (rec, db, env) => {
          const sid = db.sessionIdx().lastClosed.get(rec.id);
          const stop = sid === undefined ? undefined : db.get('pos.session', sid)?.stop_at;
          return typeof stop === 'string' ? localDate(parseDatetime(stop), env?.tz ?? false) : false;
        }),
        computed('last_session_closing_cash', 'float', 'Last Session Closing Cash', (rec, db) => {
          const sid = db.sessionIdx().lastClosed.get(rec.id);
          return sid === undefined ? 0 : num(db.get('pos.session', sid)?.cash_register_balance_end_real);
        }),
        fd('payment_method_ids', 'many2many', 'Payment Methods', { relation: 'pos.payment.method' }),
        inverse('session_ids', 'Sessions', 'pos.session', 'config_id', (rec, db) =>
          [...(db.sessionIdx().configSessions.get(rec.id) ?? [])].reverse(),
        ),
        fd('company_id', 'many2one', 'Company', { relation: 'res.company', required: true, dflt: () => 1 }),
        // A register's currency: related on 16-18, stored on 19.
        v19
          ? fd('currency_id', 'many2one', 'Currency', {
              relation: 'res.currency',
              readonly: true,
              dflt: () => 1,
            })
          : relatedCurrency(),
      ],
    }),
  );

  defs.push(
    build({
      name: 'pos.session',
      description: 'Point of Sale Session',
      order: 'id desc',
      acl: { manager: ALL, user: 'rwc', clerk: '' },
      readGroups: ['Point of Sale/User'],
      created: (rec) => rec.start_at,
      written: (rec) => rec.stop_at || rec.start_at,
      fields: [
        fd('name', 'char', 'Session ID', { required: !v19, readonly: true }),
        fd('config_id', 'many2one', 'Point of Sale', {
          relation: 'pos.config',
          required: true,
          readonly: true,
        }),
        fd('user_id', 'many2one', 'Opened By', { relation: 'res.users', required: true, readonly: true }),
        fd('start_at', 'datetime', 'Opening Date', { readonly: true }),
        fd('stop_at', 'datetime', 'Closing Date', { readonly: true }),
        fd('state', 'selection', 'Status', { selection: SESSION_STATES, required: true, readonly: true }),
        fd('rescue', 'boolean', 'Recovery Session', { readonly: true }),
        fd('cash_register_balance_start', 'monetary', 'Starting Balance', { readonly: true }),
        fd('cash_register_balance_end_real', 'monetary', 'Ending Balance', { readonly: true }),
        computed('cash_register_balance_end', 'monetary', 'Theoretical Closing Balance', (rec, db) =>
          theoretical(rec, db, v18),
        ),
        computed(
          'cash_register_difference',
          'monetary',
          'Before Closing Difference',
          (rec, db) => num(rec.cash_register_balance_end_real) - theoretical(rec, db, v18),
        ),
        fd('cash_real_transaction', 'monetary', 'Transaction', { readonly: true }),
        // 16/17 only: 18 computes the theoretical balance from the opening one and drops the field.
        ...(v18
          ? []
          : [
              computed(
                'cash_register_total_entry_encoding',
                'monetary',
                'Total Cash Transaction',
                (rec, db) => totalCash(rec, db),
              ),
            ]),
        computed(
          'total_payments_amount',
          'float',
          'Total Payments Amount',
          (rec, db) => db.figures().session.get(rec.id)?.totalPayments ?? 0,
        ),
        computed(
          'order_count',
          'integer',
          'Order Count',
          (rec, db) => db.figures().session.get(rec.id)?.orderCount ?? 0,
        ),
        inverse(
          'order_ids',
          'Orders',
          'pos.order',
          'session_id',
          (rec, db) => db.figures().sessionOrders.get(rec.id) ?? [],
        ),
        inverse(
          'statement_line_ids',
          'Cash Lines',
          'account.bank.statement.line',
          'pos_session_id',
          (rec, db) => db.figures().sessionMoves.get(rec.id) ?? [],
        ),
        computed(
          'payment_method_ids',
          'many2many',
          'Payment Methods',
          (rec, db) => ids(db.get('pos.config', rec.config_id as number)?.payment_method_ids),
          {
            searchable: true,
            relation: 'pos.payment.method',
          },
        ),
        related('company_id', 'Company', 'res.company'),
        relatedCurrency(),
      ],
    }),
  );

  const orderFields: FieldDef[] = [
    fd('name', 'char', 'Order Ref', { required: true, readonly: true, dflt: () => '/' }),
    fd('date_order', 'datetime', 'Date', { readonly: true }),
    fd('user_id', 'many2one', v18 ? 'Employee' : 'Responsible', { relation: 'res.users', dflt: cashierOf }),
    fd('amount_tax', v19 ? 'monetary' : 'float', 'Taxes', { readonly: true, required: true }),
    fd('amount_total', v19 ? 'monetary' : 'float', 'Total', { readonly: true, required: true }),
    fd('amount_paid', v19 ? 'monetary' : 'float', 'Paid', { readonly: true, required: true }),
    fd('amount_return', v19 ? 'monetary' : 'float', 'Returned', { readonly: true, required: true }),
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
      dflt: () => 1,
    }),
    fd('partner_id', 'many2one', 'Customer', { relation: 'res.partner' }),
    fd('state', 'selection', 'Status', {
      selection: v19 ? POS_ORDER_STATES_17.slice(0, 4) : POS_ORDER_STATES_17,
      readonly: true,
      dflt: () => 'draft',
    }),
    fd('account_move', 'many2one', 'Invoice', { relation: 'account.move', readonly: true }),
    fd('session_id', 'many2one', 'Session', { relation: 'pos.session', required: !v19, readonly: false }),
    // 16: related to the session and not stored (searchable through the relation, not groupable);
    // 17/18: related and stored; 19: computed and stored.
    version === 16
      ? computed('config_id', 'many2one', 'Point of Sale', (rec, db) => sessionConfig(rec, db), {
          relation: 'pos.config',
          searchable: true,
        })
      : fd('config_id', 'many2one', 'Point of Sale', {
          relation: 'pos.config',
          readonly: true,
          dflt: sessionConfig,
        }),
    relatedCurrency(),
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
    // Computed on 16-18 (not stored), stored on 19.
    fd('tracking_number', 'char', 'Order Number', {
      store: v19,
      readonly: true,
      dflt: (rec) => (typeof rec._n === 'number' ? String(100 + (rec._n % 900)) : false),
    }),
    fd('to_invoice', 'boolean', 'To invoice', {
      dflt: (rec) => rec.state === 'invoiced' || typeof rec.account_move === 'number',
    }),
    computed('is_invoiced', 'boolean', 'Is Invoiced', (rec) => typeof rec.account_move === 'number'),
    // The order's note: 16/17 `note`, 18 `general_note`, 19 an internal and a customer note.
    ...(v19
      ? [
          fd('internal_note', 'text', 'Internal Note'),
          fd('general_customer_note', 'text', 'General Customer Note'),
        ]
      : v18
        ? [fd('general_note', 'text', 'General Note')]
        : [fd('note', 'text', 'Internal Notes')]),
    // No tips in the generated data: the fields are there, at zero, as on a shop without tipping.
    fd('tip_amount', v19 ? 'monetary' : 'float', 'Tip Amount', { readonly: true, dflt: () => 0 }),
    fd('is_tipped', 'boolean', 'Is this already tipped?', { readonly: true, dflt: () => false }),
    ...(opts.posHr
      ? [
          fd('employee_id', 'many2one', 'Employee', {
            relation: 'hr.employee',
            dflt: (rec, db) => employeeOf(db, cashierOf(rec, db)),
          }),
          fd('cashier', 'char', 'Cashier', {
            readonly: true,
            dflt: (rec, db) => {
              const e = employeeOf(db, cashierOf(rec, db));
              return e === false ? false : db.displayName('hr.employee', e);
            },
          }),
        ]
      : []),
    computed(
      'refund_orders_count',
      'integer',
      'Number of Refund Orders',
      (rec, db) => db.refunds().refundsOf.get(rec.id)?.length ?? 0,
    ),
  ];
  if (v18) {
    // 19 stores is_refund; 18 and 19 compute the refunded order (18: the lines' orders).
    if (v19) orderFields.push(fd('is_refund', 'boolean', 'Is Refund', { readonly: true }));
    orderFields.push(
      computed(
        'refunded_order_id',
        'many2one',
        'Refunded Order',
        (rec, db) => db.refunds().refundedBy.get(rec.id)?.[0] ?? false,
        {
          relation: 'pos.order',
        },
      ),
    );
  } else {
    orderFields.push(
      computed(
        'refunded_order_ids',
        'many2many',
        'Refunded Order',
        (rec, db) => db.refunds().refundedBy.get(rec.id) ?? [],
        {
          relation: 'pos.order',
        },
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
    );
  }
  defs.push(
    build({
      name: 'pos.order',
      description: 'Point of Sale Orders',
      order: 'date_order desc, name desc, id desc',
      acl: { manager: ALL, user: 'rwc', clerk: '' },
      readGroups: ['Inventory/User', 'Point of Sale/User'],
      // Created in the transaction that recorded the sale (its lines and payments with it).
      created: orderCreated,
      fields: orderFields,
    }),
  );

  const lineCreated = (rec: Rec, db: Db): Stored => createdWith(db, rec.order_id);
  defs.push(
    build({
      name: 'pos.order.line',
      description: 'Point of Sale Order Lines',
      order: 'id',
      acl: { manager: ALL, user: 'rwc', clerk: '' },
      readGroups: ['Point of Sale/User'],
      created: lineCreated,
      displayName: (rec, db) =>
        typeof rec.product_id === 'number' ? db.displayName('product.product', rec.product_id) : '',
      fields: [
        fd('order_id', 'many2one', 'Order Ref', { relation: 'pos.order', required: true }),
        fd('product_id', 'many2one', 'Product', { relation: 'product.product', required: true }),
        fd('full_product_name', 'char', 'Full Product Name', {
          dflt: (rec, db) =>
            typeof rec.product_id === 'number' ? db.displayName('product.product', rec.product_id) : false,
        }),
        fd('qty', 'float', 'Quantity', { dflt: () => 1 }),
        fd('price_unit', 'float', 'Unit Price'),
        fd('discount', 'float', 'Discount (%)'),
        fd('price_subtotal', v19 ? 'monetary' : 'float', v18 ? 'Tax Excl.' : 'Subtotal w/o Tax', {
          readonly: true,
          required: true,
        }),
        fd('price_subtotal_incl', v19 ? 'monetary' : 'float', v18 ? 'Tax Incl.' : 'Subtotal', {
          readonly: true,
          required: true,
        }),
        fd('tax_ids', 'many2many', 'Taxes', { relation: 'account.tax', readonly: true }),
        // No fiscal positions in the sandbox: the taxes after mapping are the line's taxes.
        computed('tax_ids_after_fiscal_position', 'many2many', 'Taxes to Apply', (rec) => ids(rec.tax_ids), {
          relation: 'account.tax',
        }),
        fd('refunded_orderline_id', 'many2one', 'Refunded Order Line', { relation: 'pos.order.line' }),
        inverse(
          'refund_orderline_ids',
          'Refund Order Lines',
          'pos.order.line',
          'refunded_orderline_id',
          (rec, db) => db.refunds().lineRefunds.get(rec.id) ?? [],
        ),
        computed('refunded_qty', 'float', 'Refunded Quantity', (rec, db) => {
          let q = 0;
          for (const id of db.refunds().lineRefunds.get(rec.id) ?? [])
            q -= num(db.get('pos.order.line', id)?.qty);
          return q;
        }),
        fd('company_id', 'many2one', 'Company', { relation: 'res.company', dflt: () => 1 }),
        relatedCurrency(),
      ],
    }),
  );

  defs.push(
    build({
      name: 'pos.payment',
      description: 'Point of Sale Payments',
      order: 'id desc',
      acl: { manager: ALL, user: ALL, clerk: '' },
      readGroups: ['Point of Sale/User'],
      created: (rec, db) => createdWith(db, rec.pos_order_id) || rec.payment_date,
      displayName: (rec) =>
        typeof rec.name === 'string' && rec.name
          ? `${rec.name} ${formatAmount(num(rec.amount))}`
          : formatAmount(num(rec.amount)),
      fields: [
        fd('name', 'char', 'Label', { readonly: true }),
        fd('pos_order_id', 'many2one', 'Order', { relation: 'pos.order', required: true }),
        fd('amount', 'monetary', 'Amount', { required: true, readonly: true }),
        fd('payment_method_id', 'many2one', 'Payment Method', {
          relation: 'pos.payment.method',
          required: true,
        }),
        fd('payment_date', 'datetime', 'Date', { required: true, readonly: true }),
        relatedCurrency(),
        fd('session_id', 'many2one', 'Session', {
          relation: 'pos.session',
          readonly: true,
          dflt: (rec, db) => db.get('pos.order', rec.pos_order_id as number)?.session_id ?? false,
        }),
        fd('card_type', 'char', 'Type of card used'),
        fd('transaction_id', 'char', 'Payment Transaction ID'),
        fd('is_change', 'boolean', 'Is this payment change?'),
        fd('company_id', 'many2one', 'Company', { relation: 'res.company', dflt: () => 1 }),
      ],
    }),
  );

  defs.push(
    build({
      name: 'pos.payment.method',
      description: 'Point of Sale Payment Methods',
      // 16 orders methods by id alone; 17+ by sequence first.
      order: version === 16 ? 'id asc' : 'sequence, id',
      hasActive: true,
      acl: { manager: ALL, user: 'r', clerk: '' },
      readGroups: ['Point of Sale/User'],
      fields: [
        fd('name', 'char', 'Method', { required: true, translate: true }),
        fd('sequence', 'integer', 'Sequence'),
        fd('is_cash_count', 'boolean', 'Cash', { readonly: true }),
        fd('active', 'boolean', 'Active', { dflt: () => true }),
        fd('company_id', 'many2one', 'Company', { relation: 'res.company', dflt: () => 1 }),
      ],
    }),
  );

  defs.push(
    build({
      name: 'product.template',
      description: 'Product',
      order: v18 ? 'is_favorite desc, name' : 'priority desc, name',
      hasActive: true,
      acl: { manager: ALL, user: 'r', clerk: 'r' },
      readGroups: ['Internal User'],
      fields: [
        fd('name', 'char', 'Name', { required: true, translate: true }),
        fd('default_code', 'char', 'Internal Reference'),
        fd('list_price', 'float', 'Sales Price'),
        fd('available_in_pos', 'boolean', 'Available in POS'),
        fd('active', 'boolean', 'Active', { dflt: () => true }),
        v18
          ? fd('is_favorite', 'boolean', 'Favorite')
          : fd('priority', 'selection', 'Favorite', {
              selection: [
                ['0', 'Normal'],
                ['1', 'Favorite'],
              ],
              dflt: () => '0',
            }),
        fd('taxes_id', 'many2many', v18 ? 'Sales Taxes' : 'Customer Taxes', { relation: 'account.tax' }),
        fd('categ_id', 'many2one', 'Product Category', { relation: 'product.category', required: true }),
        fd('pos_categ_ids', 'many2many', 'Point of Sale Category', { relation: 'pos.category' }),
        fd('company_id', 'many2one', 'Company', { relation: 'res.company' }),
      ],
      displayName: (rec) => (rec.default_code ? `[${rec.default_code}] ${rec.name}` : String(rec.name)),
    }),
  );

  defs.push(
    build({
      name: 'product.product',
      description: 'Product Variant',
      order: 'priority desc, default_code, name, id',
      hasActive: true,
      acl: { manager: ALL, user: 'r', clerk: 'r' },
      readGroups: ['Internal User'],
      fields: [
        fd('product_tmpl_id', 'many2one', 'Product Template', {
          relation: 'product.template',
          required: true,
        }),
        fd('name', 'char', 'Name', {
          dflt: (rec, db) => db.get('product.template', rec.product_tmpl_id as number)?.name ?? false,
        }),
        fd('default_code', 'char', 'Internal Reference', {
          dflt: (rec, db) => db.get('product.template', rec.product_tmpl_id as number)?.default_code ?? false,
        }),
        fd('lst_price', 'float', 'Sales Price', {
          dflt: (rec, db) => db.get('product.template', rec.product_tmpl_id as number)?.list_price ?? 0,
        }),
        fd('priority', 'selection', 'Favorite', {
          selection: [
            ['0', 'Normal'],
            ['1', 'Favorite'],
          ],
          dflt: () => '0',
        }),
        fd('active', 'boolean', 'Active', { dflt: () => true }),
        // _inherits product.template: inherited fields are related, not stored, searchable.
        computed(
          'categ_id',
          'many2one',
          'Product Category',
          (rec, db) => db.get('product.template', rec.product_tmpl_id as number)?.categ_id ?? false,
          { relation: 'product.category', searchable: true, readonly: false, inherited: true },
        ),
        computed(
          'pos_categ_ids',
          'many2many',
          'Point of Sale Category',
          (rec, db) => ids(db.get('product.template', rec.product_tmpl_id as number)?.pos_categ_ids),
          { relation: 'pos.category', searchable: true, readonly: false, inherited: true },
        ),
      ],
      displayName: (rec, db) => {
        const t = db.get('product.template', rec.product_tmpl_id as number);
        if (!t) return `product.product,${rec.id}`;
        return t.default_code ? `[${t.default_code}] ${t.name}` : String(t.name);
      },
    }),
  );

  defs.push(
    build({
      name: 'res.users',
      description: 'User',
      order: 'name, login',
      hasActive: true,
      acl: { manager: ALL, user: 'r', clerk: 'r' },
      readGroups: ['Internal User'],
      extraMethods: ['context_get'],
      fields: [
        fd('name', 'char', 'Name', { required: true }),
        fd('login', 'char', 'Login', { required: true }),
        fd('tz', 'selection', 'Timezone', {
          selection: [
            ['Europe/Brussels', 'Europe/Brussels'],
            ['UTC', 'UTC'],
          ],
        }),
        fd('lang', 'selection', 'Language', { selection: [['en_US', 'English (US)']], dflt: () => 'en_US' }),
        fd('active', 'boolean', 'Active', { dflt: () => true }),
        fd('partner_id', 'many2one', 'Related Partner', { relation: 'res.partner', required: true }),
        fd('company_id', 'many2one', 'Company', { relation: 'res.company', dflt: () => 1 }),
      ],
    }),
  );

  const simple = (
    name: string,
    description: string,
    fields: FieldDef[],
    order = 'id',
    extra: Partial<ModelSpec> = {},
  ): void => {
    defs.push(
      build({
        name,
        description,
        order,
        acl: { manager: ALL, user: 'r', clerk: 'r' },
        readGroups: ['Internal User'],
        fields,
        ...extra,
      }),
    );
  };
  simple(
    'product.category',
    'Product Category',
    [
      fd('name', 'char', 'Name', { required: true }),
      fd('complete_name', 'char', 'Complete Name'),
      fd('parent_id', 'many2one', 'Parent Category', { relation: 'product.category' }),
    ],
    'complete_name',
    { displayName: (rec) => String(rec.complete_name ?? rec.name) },
  );
  simple(
    'pos.category',
    'Point of Sale Category',
    [
      fd('name', 'char', 'Category Name', { required: true, translate: true }),
      fd('parent_id', 'many2one', 'Parent Category', { relation: 'pos.category' }),
      fd('sequence', 'integer', 'Sequence'),
    ],
    'sequence, name',
  );
  if (opts.posHr)
    simple(
      'hr.employee',
      'Employee',
      [
        fd('name', 'char', 'Employee Name', { required: true }),
        fd('user_id', 'many2one', 'User', { relation: 'res.users' }),
        fd('active', 'boolean', 'Active', { dflt: () => true }),
        fd('company_id', 'many2one', 'Company', { relation: 'res.company', dflt: () => 1 }),
      ],
      'name',
      { hasActive: true },
    );
  simple(
    'res.partner',
    'Contact',
    [
      fd('name', 'char', 'Name'),
      fd('complete_name', 'char', 'Complete Name', { dflt: (r) => r.name }),
      fd('active', 'boolean', 'Active', { dflt: () => true }),
    ],
    'complete_name asc, id desc',
    {
      hasActive: true,
    },
  );
  simple(
    'res.company',
    'Companies',
    [
      fd('name', 'char', 'Company Name', { required: true }),
      fd('sequence', 'integer', 'Sequence', { dflt: () => 10 }),
      fd('currency_id', 'many2one', 'Currency', { relation: 'res.currency' }),
    ],
    'sequence, name',
  );
  simple(
    'res.currency',
    'Currency',
    [
      fd('name', 'char', 'Currency', { required: true }),
      fd('symbol', 'char', 'Symbol'),
      fd('active', 'boolean', 'Active', { dflt: () => true }),
    ],
    'active desc, name',
  );
  simple(
    'account.tax',
    'Tax',
    [
      fd('name', 'char', 'Tax Name', { required: true }),
      fd('sequence', 'integer', 'Sequence', { dflt: () => 1 }),
      fd('amount', 'float', 'Amount'),
      fd('amount_type', 'selection', 'Tax Computation', {
        selection: [
          ['group', 'Group of Taxes'],
          ['fixed', 'Fixed'],
          ['percent', 'Percentage of Price'],
          ['division', 'Percentage of Price Tax Included'],
        ],
        dflt: () => 'percent',
      }),
      fd('price_include', 'boolean', 'Included in Price', { dflt: () => false }),
      fd('type_tax_use', 'selection', 'Tax Type', {
        selection: [
          ['sale', 'Sales'],
          ['purchase', 'Purchases'],
          ['none', 'None'],
        ],
      }),
    ],
    'sequence,id',
  );
  defs.push(
    build({
      name: 'account.move',
      description: 'Journal Entry',
      order: 'date desc, name desc, invoice_date desc, id desc',
      acl: { manager: ALL, user: 'r', clerk: '' },
      readGroups: ['Invoicing/Billing', 'Point of Sale/User'],
      created: (rec) => rec._at,
      fields: [
        fd('name', 'char', 'Number', { readonly: true }),
        fd('date', 'date', 'Date', { required: true }),
        fd('invoice_date', 'date', 'Invoice/Bill Date'),
        fd('move_type', 'selection', 'Type', {
          selection: [
            ['entry', 'Journal Entry'],
            ['out_invoice', 'Customer Invoice'],
          ],
          dflt: () => 'out_invoice',
        }),
        fd('state', 'selection', 'Status', {
          selection: [
            ['draft', 'Draft'],
            ['posted', 'Posted'],
            ['cancel', 'Cancelled'],
          ],
          dflt: () => 'posted',
        }),
        fd('amount_total', 'monetary', 'Total'),
        fd('currency_id', 'many2one', 'Currency', { relation: 'res.currency', dflt: () => 1 }),
      ],
    }),
  );
  // The closing of a session books one payment per bank method (combined), linked to the session.
  defs.push(
    build({
      name: 'account.payment',
      description: 'Payments',
      order: 'date desc, name desc',
      acl: { manager: 'r', user: '', clerk: '' },
      // The groups the AccessError names (19 renamed both).
      readGroups: v19
        ? ['Accounting/Invoicing', 'Show Accounting Features - Readonly']
        : ['Invoicing/Billing', 'Technical/Show Accounting Features - Readonly'],
      created: (rec) => rec._at,
      fields: [
        fd('name', 'char', 'Number', { readonly: true }),
        fd('date', 'date', 'Date', { required: true }),
        fd('amount', 'monetary', 'Amount'),
        fd('payment_type', 'selection', 'Payment Type', {
          selection: [
            ['outbound', 'Send'],
            ['inbound', 'Receive'],
          ],
          required: true,
          dflt: () => 'inbound',
        }),
        fd('pos_session_id', 'many2one', 'POS Session', { relation: 'pos.session' }),
        fd('pos_payment_method_id', 'many2one', 'POS Payment Method', { relation: 'pos.payment.method' }),
        fd('currency_id', 'many2one', 'Currency', { relation: 'res.currency', dflt: () => 1 }),
      ],
    }),
  );
  // Odoo's "Sales Details" report: an AbstractModel, no records, one public method.
  defs.push(
    build({
      name: 'report.point_of_sale.report_saledetails',
      description: 'Point of Sale Details',
      order: 'id',
      acl: { manager: ALL, user: ALL, clerk: ALL },
      readGroups: ['Internal User'],
      fields: [],
      extraMethods: ['get_sale_details'],
    }),
  );
  defs.push(
    build({
      name: 'account.bank.statement.line',
      description: 'Bank Statement Line',
      order: 'internal_index desc',
      acl: { manager: ALL, user: 'rwc', clerk: '' },
      readGroups: ['Invoicing/Billing', 'Point of Sale/User'],
      created: (rec) => rec._at,
      displayName: (rec) => String(rec.payment_ref ?? ''),
      fields: [
        fd('pos_session_id', 'many2one', 'Session', { relation: 'pos.session' }),
        fd('amount', 'monetary', 'Amount'),
        fd('payment_ref', 'char', 'Label'),
        fd('date', 'date', 'Date', { required: true }),
        fd('internal_index', 'char', 'Internal Reference', {
          dflt: (rec) => `${rec.date}${String(rec.id).padStart(10, '0')}`,
        }),
        fd('currency_id', 'many2one', 'Journal Currency', { relation: 'res.currency', dflt: () => 1 }),
        fd('company_id', 'many2one', 'Company', { relation: 'res.company', dflt: () => 1 }),
      ],
    }),
  );

  defs.push(reportPosOrder(v19, opts.posHr === true));

  // What a real server has beyond what the sandbox models: present, empty.
  for (const d of defs)
    for (const [name, type, string, stored, rel] of inertFields(d.name, version)) {
      if (d.fields.has(name)) continue;
      d.fields.set(name, {
        name,
        type,
        string,
        store: stored === 1,
        readonly: true,
        ...(typeof rel === 'string' ? { relation: rel } : rel ? { selection: rel } : {}),
      });
    }

  return new Map(defs.map((d) => [d.name, d]));
}

/** An order's create_date: the sale's transaction, at its date_order (seeded microseconds). */
function orderCreated(rec: Rec): Stored {
  return typeof rec.date_order === 'string' ? txStamp(parseDatetime(rec.date_order), rec.id) : false;
}

/** The create_date of the order a line or payment was created with (the same transaction). */
function createdWith(db: Db, orderId: Stored): Stored {
  const o = typeof orderId === 'number' ? db.get('pos.order', orderId) : undefined;
  if (!o) return false;
  return typeof o.create_date === 'string' ? o.create_date : orderCreated(o);
}

/** A record's register through its session (pos.order's config_id, related or computed). */
function sessionConfig(rec: Rec, db: Db): Stored {
  return db.get('pos.session', rec.session_id as number)?.config_id ?? false;
}

/** Cash through the session: cash payments (change included) plus cash put in or taken out. */
function totalCash(rec: Rec, db: Db): number {
  if (!hasCashMethod(rec, db)) return 0;
  const f = db.figures().session.get(rec.id);
  const cash = f?.cashPayments ?? 0;
  // 16/17 _compute_cash_balance: a closed session uses its stored cash_real_transaction.
  return rec.state === 'closed' ? num(rec.cash_real_transaction) + cash : (f?.moves ?? 0) + cash;
}

/**
 * Theoretical closing cash. 16/17: the previous session's counted cash plus this session's cash
 * transactions (not this session's opening balance). 18/19: opening balance plus cash transactions.
 */
function theoretical(rec: Rec, db: Db, v18: boolean): number {
  if (!hasCashMethod(rec, db)) return 0;
  if (v18) {
    // 18/19 _compute_cash_balance: a closed session's cash lines as counted at its closing
    // (cash_real_transaction: the closing's own lines are not in it), an open one's lines so far.
    const f = db.figures().session.get(rec.id);
    const moves = rec.state === 'closed' ? num(rec.cash_real_transaction) : (f?.moves ?? 0);
    return num(rec.cash_register_balance_start) + (f?.cashPayments ?? 0) + moves;
  }
  const prev = db.sessionIdx().prevSession.get(rec.id);
  const prevReal = prev === undefined ? 0 : num(db.get('pos.session', prev)?.cash_register_balance_end_real);
  return prevReal + totalCash(rec, db);
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

function hasCashMethod(rec: Rec, db: Db): boolean {
  const cfg = db.get('pos.config', rec.config_id as number);
  return ids(cfg?.payment_method_ids).some((m) => db.get('pos.payment.method', m)?.is_cash_count === true);
}

/**
 * Odoo's `report.pos.order` (Point of Sale › Reporting › Orders), a SQL view over order lines
 * joined to their order, product and session. Odoo 17: one row per order × product (`MIN(l.id)`
 * as id, sums over the product's lines of the order); 19: one row per line, with
 * `price_subtotal_excl`, the first POS category and the order's first payment method. As in its
 * SQL: every order state (the view does not filter), refund lines negative (their quantities
 * are), `price_total` = Σ price_subtotal_incl rounded to the currency, `price_sub_total` =
 * Σ qty × price_unit (before discount, before tax), `total_discount` = Σ qty × price_unit ×
 * discount / 100. The sandbox keeps no product costs, so `margin` is left out, and it has one
 * currency at rate 1. `product_qty` is an Integer field: read truncates it, read_group sums it raw.
 */
function reportPosOrder(v19: boolean, posHr: boolean): ModelDef {
  const m2o = (name: string, string: string, relation: string): FieldDef =>
    fd(name, 'many2one', string, { relation, readonly: true });
  // The view lists its states in its own order, cancelled last.
  const states = ['draft', 'paid', 'done', ...(v19 ? [] : ['invoiced']), 'cancel'].map(
    (k) => POS_ORDER_STATES_17.find((s) => s[0] === k) as [string, string],
  );
  const fields: FieldDef[] = [
    fd('date', 'datetime', 'Order Date', { readonly: true }),
    m2o('order_id', 'Order', 'pos.order'),
    m2o('partner_id', 'Customer', 'res.partner'),
    m2o('product_id', 'Product', 'product.product'),
    m2o('product_tmpl_id', 'Product Template', 'product.template'),
    fd('state', 'selection', 'Status', { selection: states, readonly: true }),
    m2o('user_id', 'User', 'res.users'),
    fd('price_total', 'float', 'Total Price', { readonly: true }),
    fd('price_sub_total', 'float', 'Subtotal w/o discount', { readonly: true }),
    ...(v19 ? [fd('price_subtotal_excl', 'float', 'Subtotal w/o Tax', { readonly: true })] : []),
    fd('total_discount', 'float', 'Total Discount', { readonly: true }),
    fd('average_price', 'float', 'Average Price', { readonly: true, aggregator: 'avg' }),
    m2o('company_id', 'Company', 'res.company'),
    fd('nbr_lines', 'integer', 'Sale Line Count', { readonly: true }),
    fd('product_qty', 'integer', 'Product Quantity', { readonly: true }),
    m2o('product_categ_id', 'Product Category', 'product.category'),
    ...(v19 ? [m2o('pos_categ_id', 'Point of Sale Category', 'pos.category')] : []),
    fd('invoiced', 'boolean', 'Invoiced', { readonly: true }),
    m2o('config_id', 'Point of Sale', 'pos.config'),
    m2o('session_id', 'Session', 'pos.session'),
    ...(v19 ? [m2o('payment_method_id', 'Payment Method', 'pos.payment.method')] : []),
    ...(posHr ? [m2o('employee_id', 'Employee', 'hr.employee')] : []),
  ];
  const model = build({
    name: 'report.pos.order',
    description: 'Point of Sale Orders Report',
    order: 'date desc',
    acl: { manager: 'r', user: 'r', clerk: '' },
    readGroups: ['Point of Sale/User'],
    displayName: (rec, db) =>
      typeof rec.order_id === 'number' ? db.displayName('pos.order', rec.order_id) : '',
    fields,
    view: {
      tables: [
        'pos.order',
        'pos.order.line',
        'pos.payment',
        'pos.session',
        'product.template',
        'product.product',
      ],
      rows: (db) => reportRows(db, v19, posHr),
    },
  });
  // The view has no create/write dates of its own.
  for (const f of ['create_uid', 'create_date', 'write_uid', 'write_date']) model.fields.delete(f);
  return model;
}

const fix6 = (v: number): number => Math.round(v * 1e6) / 1e6;
const round2 = (v: number): number => Math.round((v + Number.EPSILON * Math.sign(v)) * 100) / 100;

function reportRows(db: Db, v19: boolean, posHr: boolean): Rec[] {
  const om = db.models.get('pos.order') as ModelDef;
  const [fDate, fPartner, fState, fUser, fConfig, fSession, fMove, fEmployee] = [
    'date_order',
    'partner_id',
    'state',
    'user_id',
    'config_id',
    'session_id',
    'account_move',
    'employee_id',
  ].map((n) => om.fields.get(n));
  const val = (f: FieldDef | undefined, o: Rec): Stored => (f ? db.value(f, o) : false);
  const firstMethod = new Map<number, number>();
  if (v19) {
    for (const p of db.table('pos.payment').rows) {
      if (!p) continue;
      const oid = p.pos_order_id as number;
      const seen = firstMethod.get(oid);
      if (seen === undefined) firstMethod.set(oid, p.payment_method_id as number);
    }
  }
  const products = new Map<number, { tmpl: Stored; categ: Stored; posCateg: Stored }>();
  const productOf = (pid: number) => {
    let p = products.get(pid);
    if (!p) {
      const pr = db.get('product.product', pid);
      const tmpl = pr?.product_tmpl_id ?? false;
      const t = typeof tmpl === 'number' ? db.get('product.template', tmpl) : undefined;
      p = {
        tmpl,
        categ: t?.categ_id ?? false,
        posCateg: Array.isArray(t?.pos_categ_ids) ? ((t.pos_categ_ids as number[])[0] ?? false) : false,
      };
      products.set(pid, p);
    }
    return p;
  };
  const fLines = om.fields.get('lines') as FieldDef;
  const lineRows = db.table('pos.order.line').rows;
  const out: Rec[] = [];
  // One pass over the orders and their lines (the view's join); on 17 a small map per order
  // folds the lines of one product into one row.
  const byProduct = new Map<number, Rec>();
  for (const o of db.table('pos.order').rows) {
    if (!o) continue;
    const lineIds = val(fLines, o);
    if (!Array.isArray(lineIds) || lineIds.length === 0) continue;
    const date = val(fDate, o);
    const partner = val(fPartner, o);
    const state = val(fState, o);
    const user = val(fUser, o);
    const config = val(fConfig, o);
    const session = val(fSession, o);
    const invoiced = typeof val(fMove, o) === 'number';
    const employee = posHr ? val(fEmployee, o) : undefined;
    const method = v19 ? (firstMethod.get(o.id) ?? false) : undefined;
    byProduct.clear();
    for (const lid of lineIds) {
      const l = lineRows[lid];
      if (!l || l.order_id !== o.id) continue;
      const pid = l.product_id as number;
      const qty = typeof l.qty === 'number' ? l.qty : 0;
      const price = typeof l.price_unit === 'number' ? l.price_unit : 0;
      const disc = typeof l.discount === 'number' ? l.discount : 0;
      const incl = round2(typeof l.price_subtotal_incl === 'number' ? l.price_subtotal_incl : 0);
      const before = qty * price;
      const off = (before * disc) / 100;
      const seen = v19 ? undefined : byProduct.get(pid);
      if (seen) {
        seen.nbr_lines = (seen.nbr_lines as number) + 1;
        if (lid < seen.id) seen.id = lid;
        seen.product_qty = fix6((seen.product_qty as number) + qty);
        seen.price_sub_total = fix6((seen.price_sub_total as number) + before);
        seen.price_total = fix6((seen.price_total as number) + incl);
        seen.total_discount = fix6((seen.total_discount as number) + off);
        const q = seen.product_qty as number;
        seen.average_price = q === 0 ? false : fix6((seen.price_sub_total as number) / q);
        continue;
      }
      const p = productOf(pid);
      const r: Rec = {
        id: lid,
        nbr_lines: 1,
        date,
        order_id: o.id,
        partner_id: partner,
        state,
        user_id: user,
        company_id: 1,
        config_id: config,
        session_id: session,
        invoiced,
        product_id: pid,
        product_tmpl_id: p.tmpl,
        product_categ_id: p.categ,
        product_qty: qty,
        price_sub_total: fix6(before),
        price_total: incl,
        total_discount: fix6(off),
        average_price: qty === 0 ? false : price,
      };
      if (posHr) r.employee_id = employee as Stored;
      if (v19) {
        r.payment_method_id = method as Stored;
        r.price_subtotal_excl = typeof l.price_subtotal === 'number' ? l.price_subtotal : 0;
        r.pos_categ_id = p.posCateg;
      } else byProduct.set(pid, r);
      out.push(r);
    }
  }
  return out;
}
