/** product.template and product.product (a variant inherits its template's fields). */
import type { ModelDef } from '../store.js';
import { ALL, build, computed, fd, ids, type Version } from './define.js';

/**
 * A product's prices: digits='Product Price' (2 places) on 16-18, so fields_get says [16, 2];
 * 19 gives them only `min_display_digits`, and `digits: false`.
 */
const priceDigits = (v19: boolean): [number, number] | false => (v19 ? false : [16, 2]);

export function productTemplate({ v18, v19 }: Version): ModelDef {
  return build({
    name: 'product.template',
    description: 'Product',
    order: v18 ? 'is_favorite desc, name' : 'priority desc, name',
    hasActive: true,
    acl: { manager: ALL, user: 'r', clerk: 'r' },
    readGroups: ['Internal User'],
    fields: [
      fd('name', 'char', 'Name', { required: true, translate: true }),
      fd('default_code', 'char', 'Internal Reference'),
      fd('list_price', 'float', 'Sales Price', { digits: priceDigits(v19) }),
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
  });
}

export function productProduct({ v18, v19 }: Version): ModelDef {
  return build({
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
      // _inherits product.template: Odoo's name is related (not stored); the sandbox keeps it on the row.
      fd('name', 'char', 'Name', {
        dflt: (rec, db) => db.get('product.template', rec.product_tmpl_id as number)?.name ?? false,
        related: 'product_tmpl_id.name',
      }),
      fd('default_code', 'char', 'Internal Reference', {
        dflt: (rec, db) => db.get('product.template', rec.product_tmpl_id as number)?.default_code ?? false,
      }),
      // The template's price (plus variant extras, none here), computed and not stored, with no
      // search method: Odoo can neither search, sort nor group it.
      computed(
        'lst_price',
        'float',
        'Sales Price',
        (rec, db) => db.get('product.template', rec.product_tmpl_id as number)?.list_price ?? 0,
        { readonly: false, digits: priceDigits(v19) },
      ),
      fd('priority', 'selection', 'Favorite', {
        selection: [
          ['0', 'Normal'],
          ['1', 'Favorite'],
        ],
        dflt: () => '0',
        ...(v18 ? {} : { related: 'product_tmpl_id.priority' }),
      }),
      fd('active', 'boolean', 'Active', { dflt: () => true }),
      // _inherits product.template: inherited fields are related, not stored, searchable.
      computed(
        'categ_id',
        'many2one',
        'Product Category',
        (rec, db) => db.get('product.template', rec.product_tmpl_id as number)?.categ_id ?? false,
        {
          relation: 'product.category',
          searchable: true,
          readonly: false,
          inherited: true,
          related: 'product_tmpl_id.categ_id',
        },
      ),
      computed(
        'pos_categ_ids',
        'many2many',
        'Point of Sale Category',
        (rec, db) => ids(db.get('product.template', rec.product_tmpl_id as number)?.pos_categ_ids),
        {
          relation: 'pos.category',
          searchable: true,
          readonly: false,
          inherited: true,
          related: 'product_tmpl_id.pos_categ_ids',
        },
      ),
      computed(
        'taxes_id',
        'many2many',
        v18 ? 'Sales Taxes' : 'Customer Taxes',
        (rec, db) => ids(db.get('product.template', rec.product_tmpl_id as number)?.taxes_id),
        {
          relation: 'account.tax',
          searchable: true,
          readonly: false,
          inherited: true,
          related: 'product_tmpl_id.taxes_id',
        },
      ),
    ],
    displayName: (rec, db) => {
      const t = db.get('product.template', rec.product_tmpl_id as number);
      if (!t) return `product.product,${rec.id}`;
      return t.default_code ? `[${t.default_code}] ${t.name}` : String(t.name);
    },
  });
}
