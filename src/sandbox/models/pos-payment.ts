/** pos.payment and pos.payment.method: what each order was paid with. */
import { orderCompany } from '../money.js';
import type { ModelDef } from '../store.js';
import { ALL, build, fd, num, relatedCurrency, type Version } from './define.js';
import { createdWith, orderEmployee } from './pos-order.js';

/** Amount as Odoo's formatLang shows it for EUR in en_US: `1,234.56 €`. */
export function formatAmount(amount: number): string {
  const s = Math.abs(amount)
    .toFixed(2)
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${amount < 0 ? '-' : ''}${s} €`;
}

export function posPayment({ v18, v19, posHr }: Version): ModelDef {
  return build({
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
      relatedCurrency('pos_order_id.currency_id', v19),
      fd('session_id', 'many2one', 'Session', {
        relation: 'pos.session',
        readonly: true,
        related: 'pos_order_id.session_id',
        dflt: (rec, db) => db.get('pos.order', rec.pos_order_id as number)?.session_id ?? false,
      }),
      fd('card_type', 'char', 'Type of card used'),
      fd('transaction_id', 'char', 'Payment Transaction ID'),
      fd('is_change', 'boolean', 'Is this payment change?'),
      fd('company_id', 'many2one', 'Company', {
        relation: 'res.company',
        dflt: (rec, db) => orderCompany(db, rec.pos_order_id),
        related: 'pos_order_id.company_id',
      }),
      // 18 and 19's pos_hr store the order's employee on its payments (16/17 do not): a
      // payment can be grouped by the cashier who took it.
      ...(posHr && v18
        ? [
            fd('employee_id', 'many2one', 'Cashier', {
              relation: 'hr.employee',
              related: 'pos_order_id.employee_id',
              readonly: true,
              dflt: (rec, db) => orderEmployee(db, rec.pos_order_id),
            }),
          ]
        : []),
    ],
  });
}

export function posPaymentMethod({ version }: Version): ModelDef {
  return build({
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
      fd('journal_id', 'many2one', 'Journal', { relation: 'account.journal' }),
      fd('active', 'boolean', 'Active', { dflt: () => true }),
      fd('company_id', 'many2one', 'Company', { relation: 'res.company', dflt: () => 1 }),
    ],
  });
}
