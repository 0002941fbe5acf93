/** The accounting side a POS touches: invoices, the closing's payments, cash lines, the Sales Details report. */
import { currencyOf, sessionCompany } from '../money.js';
import type { ModelDef } from '../store.js';
import { ALL, build, fd, type Version } from './define.js';

export function accountMove(_v: Version): ModelDef {
  return build({
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
  });
}

// The closing of a session books one payment per bank method (combined), linked to the session.
export function accountPayment({ v18, v19 }: Version): ModelDef {
  // 16/17: a payment _inherits its account.move, whose number and date it shows (related);
  // 18 made it a model of its own with a stored name and date.
  const fromMove = (path: string) => (v18 ? {} : { related: path });
  return build({
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
      fd('name', 'char', 'Number', { readonly: true, ...fromMove('move_id.name') }),
      fd('date', 'date', 'Date', { required: true, ...fromMove('move_id.date') }),
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
      fd('currency_id', 'many2one', 'Currency', {
        relation: 'res.currency',
        dflt: (rec, db) => currencyOf(db, sessionCompany(db, rec.pos_session_id)),
      }),
    ],
  });
}

// Odoo's "Sales Details" report: an AbstractModel, no records, one public method.
export function saleDetailsReport(_v: Version): ModelDef {
  return build({
    name: 'report.point_of_sale.report_saledetails',
    description: 'Point of Sale Details',
    order: 'id',
    acl: { manager: ALL, user: ALL, clerk: ALL },
    readGroups: ['Internal User'],
    fields: [],
    extraMethods: ['get_sale_details'],
  });
}

export function bankStatementLine(_v: Version): ModelDef {
  return build({
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
      // _inherits account.move: its date and company are the entry's.
      fd('date', 'date', 'Date', { required: true, related: 'move_id.date' }),
      fd('internal_index', 'char', 'Internal Reference', {
        dflt: (rec) => `${rec.date}${String(rec.id).padStart(10, '0')}`,
      }),
      fd('currency_id', 'many2one', 'Journal Currency', {
        relation: 'res.currency',
        dflt: (rec, db) => currencyOf(db, sessionCompany(db, rec.pos_session_id)),
      }),
      fd('company_id', 'many2one', 'Company', {
        relation: 'res.company',
        dflt: (rec, db) => sessionCompany(db, rec.pos_session_id),
        related: 'move_id.company_id',
      }),
    ],
  });
}
