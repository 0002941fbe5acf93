/** The accounting side a POS touches: invoices, the closing's payments, cash lines, the Sales Details report. */
import { currencyOf, sessionCompany } from '../money.js';
import type { ModelDef } from '../store.js';
import { ALL, build, computed, fd, num, type Version } from './define.js';

export function accountMove(_v: Version): ModelDef {
  return build({
    name: 'account.move',
    description: 'Journal Entry',
    // A move with a reference shows it (_get_move_display_name(show_ref=True)): an entry
    // "POSS/2026/11/0003 (POS/00003)", a POS invoice "INV/2026/00005 (Shop/0008)" as posshop's.
    displayName: (rec) => (rec.ref ? `${String(rec.name)} (${String(rec.ref)})` : String(rec.name ?? '')),
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
      // An entry's total is its debits, an invoice's its amount: signed in the company's currency.
      computed('amount_total_signed', 'monetary', 'Total Signed', (rec) => num(rec.amount_total), {
        searchable: true,
      }),
      fd('payment_state', 'selection', 'Payment Status', {
        selection: [
          ['not_paid', 'Not Paid'],
          ['in_payment', 'In Payment'],
          ['paid', 'Paid'],
          ['partial', 'Partially Paid'],
          ['reversed', 'Reversed'],
          ['invoicing_legacy', 'Invoicing App Legacy'],
        ],
        dflt: (rec) => (rec.move_type === 'entry' ? 'not_paid' : 'paid'),
      }),
      fd('ref', 'char', 'Reference'),
      fd('journal_id', 'many2one', 'Journal', { relation: 'account.journal', required: true }),
      fd('company_id', 'many2one', 'Company', { relation: 'res.company', dflt: () => 1 }),
      fd('currency_id', 'many2one', 'Currency', {
        relation: 'res.currency',
        dflt: (rec, db) => currencyOf(db, num(rec.company_id) || 1),
      }),
    ],
  });
}

/**
 * A journal entry's lines (account.move.line): what books groups by entry, account, tax and label.
 * A Point of Sale user may not read them: Odoo's AccessError names the accounting groups.
 */
export function accountMoveLine(_v: Version): ModelDef {
  return build({
    name: 'account.move.line',
    description: 'Journal Item',
    order: 'date desc, move_name desc, id',
    acl: { manager: 'r', user: '', clerk: '' },
    readGroups: [
      'Invoicing/Billing',
      'Invoicing/Billing Administrator',
      'Technical/Show Accounting Features - Readonly',
      'User types/Portal',
    ],
    created: (rec, db) => db.get('account.move', num(rec.move_id))?._at,
    fields: [
      fd('move_id', 'many2one', 'Journal Entry', { relation: 'account.move', required: true }),
      fd('move_name', 'char', 'Number'),
      fd('name', 'char', 'Label'),
      fd('date', 'date', 'Date'),
      fd('account_id', 'many2one', 'Account', { relation: 'account.account' }),
      fd('journal_id', 'many2one', 'Journal', { relation: 'account.journal' }),
      fd('company_id', 'many2one', 'Company', { relation: 'res.company', dflt: () => 1 }),
      fd('tax_line_id', 'many2one', 'Originator Tax', { relation: 'account.tax' }),
      fd('tax_ids', 'many2many', 'Taxes', { relation: 'account.tax' }),
      fd('balance', 'monetary', 'Balance'),
      fd('reconciled', 'boolean', 'Reconciled'),
      computed('debit', 'monetary', 'Debit', (rec) => Math.max(0, num(rec.balance)), { searchable: true }),
      computed('credit', 'monetary', 'Credit', (rec) => Math.max(0, -num(rec.balance)), { searchable: true }),
      fd('parent_state', 'selection', 'Status', {
        selection: [
          ['draft', 'Draft'],
          ['posted', 'Posted'],
          ['cancel', 'Cancelled'],
        ],
      }),
    ],
  });
}

// Accounts and journals: a Point of Sale user reads them (a real 17's cashier does), writes none.
const READ_BY_EVERY_USER = { acl: { manager: 'r', user: 'r', clerk: '' }, readGroups: ['Internal User'] };

/** The chart of accounts the closings post to, per company (Odoo 17's account_type). */
export function accountAccount(_v: Version): ModelDef {
  return build({
    name: 'account.account',
    description: 'Account',
    order: 'code, company_id',
    ...READ_BY_EVERY_USER,
    displayName: (rec) => `${String(rec.code)} ${String(rec.name)}`,
    fields: [
      fd('name', 'char', 'Account Name', { required: true }),
      fd('code', 'char', 'Code', { required: true }),
      fd('account_type', 'selection', 'Type', {
        selection: ACCOUNT_TYPES.map((t) => [t, t]),
        required: true,
      }),
      fd('company_id', 'many2one', 'Company', { relation: 'res.company', dflt: () => 1 }),
    ],
  });
}

export const ACCOUNT_TYPES = [
  'asset_receivable',
  'asset_cash',
  'asset_current',
  'liability_current',
  'income',
  'income_other',
  'expense',
] as const;

/** Journals: the POS's entries, invoices, bank, and one cash journal per cash method. */
export function accountJournal(_v: Version): ModelDef {
  return build({
    name: 'account.journal',
    description: 'Journal',
    order: 'sequence, type, code',
    hasActive: true,
    ...READ_BY_EVERY_USER,
    fields: [
      fd('name', 'char', 'Journal Name', { required: true }),
      fd('code', 'char', 'Short Code', { required: true }),
      fd('type', 'selection', 'Type', {
        selection: [
          ['sale', 'Sales'],
          ['purchase', 'Purchase'],
          ['cash', 'Cash'],
          ['bank', 'Bank'],
          ['general', 'Miscellaneous'],
        ],
        required: true,
      }),
      fd('sequence', 'integer', 'Sequence'),
      fd('active', 'boolean', 'Active', { dflt: () => true }),
      fd('default_account_id', 'many2one', 'Default Account', { relation: 'account.account' }),
      fd('profit_account_id', 'many2one', 'Profit Account', { relation: 'account.account' }),
      fd('loss_account_id', 'many2one', 'Loss Account', { relation: 'account.account' }),
      fd('company_id', 'many2one', 'Company', { relation: 'res.company', dflt: () => 1 }),
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
      fd('move_id', 'many2one', 'Journal Entry', { relation: 'account.move', required: true }),
      fd('journal_id', 'many2one', 'Journal', { relation: 'account.journal', related: 'move_id.journal_id' }),
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
