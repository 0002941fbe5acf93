/** pos.order.line: the lines of a sale, linked line by line to what they refund. */
import { orderCompany } from '../money.js';
import type { Db, ModelDef } from '../store.js';
import type { Rec, Stored } from '../types.js';
import { ALL, build, computed, fd, ids, inverse, num, relatedCurrency, type Version } from './define.js';
import { createdWith } from './pos-order.js';
import { loyaltyLineFields } from './shop-features.js';

export function posOrderLine({ v18, v19, loyalty }: Version): ModelDef {
  const lineCreated = (rec: Rec, db: Db): Stored => createdWith(db, rec.order_id);
  return build({
    name: 'pos.order.line',
    description: 'Point of Sale Order Lines',
    order: 'id',
    acl: { manager: ALL, user: 'rwc', clerk: '' },
    readGroups: ['Point of Sale/User'],
    // point_of_sale_security.xml rules orders, sessions, registers, payments and methods by
    // company, not the lines: a user of company 1 reads company 2's lines too (real posmc: 787).
    noCompanyRule: true,
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
      // digits='Product Unit of Measure' (19: 'Product Unit'), a decimal precision of 2 places.
      fd('qty', 'float', 'Quantity', { dflt: () => 1, digits: [16, 2] }),
      // Float(digits=0): full precision, `digits: 0` on the wire. 16-18's subtotals too; 19's are Monetary.
      fd('price_unit', 'float', 'Unit Price', { digits: 0 }),
      fd('discount', 'float', 'Discount (%)', { digits: 0 }),
      fd('price_subtotal', v19 ? 'monetary' : 'float', v18 ? 'Tax Excl.' : 'Subtotal w/o Tax', {
        readonly: true,
        required: true,
        ...(v19 ? {} : { digits: 0 }),
      }),
      fd('price_subtotal_incl', v19 ? 'monetary' : 'float', v18 ? 'Tax Incl.' : 'Subtotal', {
        readonly: true,
        required: true,
        ...(v19 ? {} : { digits: 0 }),
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
      fd('company_id', 'many2one', 'Company', {
        relation: 'res.company',
        dflt: (rec, db) => orderCompany(db, rec.order_id),
        related: 'order_id.company_id',
      }),
      relatedCurrency('order_id.currency_id', v19),
      ...(loyalty ? loyaltyLineFields() : []),
    ],
  });
}
