/** The reference data around the POS: users, categories, employees, partners, company, currency, taxes. */
import type { FieldDef, ModelDef } from '../store.js';
import { ALL, build, fd, type ModelSpec, type Version } from './define.js';

export function resUsers(_v: Version): ModelDef {
  return build({
    name: 'res.users',
    description: 'User',
    order: 'name, login',
    hasActive: true,
    acl: { manager: ALL, user: 'r', clerk: 'r' },
    readGroups: ['Internal User'],
    extraMethods: ['context_get'],
    fields: [
      // _inherits res.partner: name, tz and lang are the partner's (related, not stored in Odoo).
      fd('name', 'char', 'Name', { required: true, related: 'partner_id.name' }),
      fd('login', 'char', 'Login', { required: true }),
      fd('tz', 'selection', 'Timezone', {
        selection: [
          ['Europe/Brussels', 'Europe/Brussels'],
          ['UTC', 'UTC'],
        ],
        related: 'partner_id.tz',
      }),
      fd('lang', 'selection', 'Language', {
        selection: [['en_US', 'English (US)']],
        dflt: () => 'en_US',
        related: 'partner_id.lang',
      }),
      fd('active', 'boolean', 'Active', { dflt: () => true }),
      fd('partner_id', 'many2one', 'Related Partner', { relation: 'res.partner', required: true }),
      fd('company_id', 'many2one', 'Company', { relation: 'res.company', dflt: () => 1 }),
    ],
  });
}

/** A model every user reads and nobody but the admin writes. */
export function simple(
  name: string,
  description: string,
  fields: FieldDef[],
  order = 'id',
  extra: Partial<ModelSpec> = {},
): ModelDef {
  return build({
    name,
    description,
    order,
    acl: { manager: ALL, user: 'r', clerk: 'r' },
    readGroups: ['Internal User'],
    fields,
    ...extra,
  });
}

/** Categories (product and POS), employees (pos_hr), partners, company, currency, taxes. */
export function referenceModels({ posHr }: Version): ModelDef[] {
  return [
    productCategory(),
    posCategory(),
    ...(posHr ? [hrEmployee()] : []),
    resPartner(),
    resCompany(),
    resCurrency(),
    resLang(),
    accountTax(),
  ];
}

/** Product categories, a tree (parent_store) named by their complete name. */
function productCategory(): ModelDef {
  return simple(
    'product.category',
    'Product Category',
    [
      fd('name', 'char', 'Name', { required: true }),
      fd('complete_name', 'char', 'Complete Name'),
      fd('parent_id', 'many2one', 'Parent Category', { relation: 'product.category' }),
    ],
    'complete_name',
    { displayName: (rec) => String(rec.complete_name ?? rec.name), parentStore: true },
  );
}

/** The POS categories the register shows. */
function posCategory(): ModelDef {
  return simple(
    'pos.category',
    'Point of Sale Category',
    [
      fd('name', 'char', 'Category Name', { required: true, translate: true }),
      fd('parent_id', 'many2one', 'Parent Category', { relation: 'pos.category' }),
      fd('sequence', 'integer', 'Sequence'),
    ],
    'sequence, name',
  );
}

/** pos_hr's employees: who rings up an order. */
function hrEmployee(): ModelDef {
  return simple(
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
}

/** Contacts: customers, and the partners behind users and companies. */
function resPartner(): ModelDef {
  return simple(
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
}

/** The companies, each with its currency. */
function resCompany(): ModelDef {
  return simple(
    'res.company',
    'Companies',
    [
      fd('name', 'char', 'Company Name', { required: true, related: 'partner_id.name' }),
      fd('sequence', 'integer', 'Sequence', { dflt: () => 10 }),
      fd('currency_id', 'many2one', 'Currency', { relation: 'res.currency' }),
    ],
    'sequence, name',
  );
}

/** Currencies: their symbol, rounding and decimal places. */
function resCurrency(): ModelDef {
  return simple(
    'res.currency',
    'Currency',
    [
      fd('name', 'char', 'Currency', { required: true }),
      fd('symbol', 'char', 'Symbol'),
      fd('rounding', 'float', 'Rounding Factor', { dflt: () => 0.01, digits: [12, 6] }),
      fd('decimal_places', 'integer', 'Decimal Places', { dflt: () => 2 }),
      fd('position', 'selection', 'Symbol Position', {
        selection: [
          ['after', 'After Amount'],
          ['before', 'Before Amount'],
        ],
        dflt: () => 'after',
      }),
      fd('active', 'boolean', 'Active', { dflt: () => true }),
    ],
    'active desc, name',
  );
}

/** Languages, installed or not. */
function resLang(): ModelDef {
  return simple(
    'res.lang',
    'Languages',
    [
      fd('name', 'char', 'Name', { required: true }),
      fd('code', 'char', 'Locale Code', { required: true }),
      // Odoo keeps every language it knows, inactive until it is installed (activated).
      fd('active', 'boolean', 'Active', { dflt: () => false }),
    ],
    'active desc,name',
    { hasActive: true },
  );
}

/** Taxes: how each is computed and whether prices include it. */
function accountTax(): ModelDef {
  return simple(
    'account.tax',
    'Tax',
    [
      fd('name', 'char', 'Tax Name', { required: true }),
      fd('sequence', 'integer', 'Sequence', { dflt: () => 1 }),
      fd('amount', 'float', 'Amount', { digits: [16, 4] }),
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
}
