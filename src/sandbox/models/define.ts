/**
 * How a model is written down: field constructors (stored, computed, related, inverse one2many),
 * the fields every model has, and `build`, which turns a spec into a ModelDef.
 */
import { configCompany, currencyOf, multiCompany, orderCompany, sessionCompany } from '../money.js';
import type { Db, FieldDef, ModelDef } from '../store.js';
import type { FieldType, OdooVersion, Rec, Role, Stored } from '../types.js';

/** The version a model is built for, and the optional modules installed. */
export interface Version {
  version: OdooVersion;
  /** 18 and 19 share what changed in 18 (register labels, cash formula, favourites, labels). */
  v18: boolean;
  v19: boolean;
  /** pos_hr: orders carry the employee who rang them up (`employee_id`, `cashier`). */
  posHr: boolean;
  /** pos_restaurant: floors, tables, guests, tips, the take-away fiscal position. */
  restaurant: boolean;
  /** pos_loyalty: loyalty programmes, rewards and cards (points and gift cards). */
  loyalty: boolean;
  /** pos_discount: the registers' discount product (`pos.config.discount_product_id`). */
  globalDiscount: boolean;
}

type Opts = Partial<Omit<FieldDef, 'name' | 'type' | 'string'>>;
export const fd = (name: string, type: FieldType, string: string, opts: Opts = {}): FieldDef => ({
  name,
  type,
  string,
  store: true,
  ...opts,
});
export const computed = (
  name: string,
  type: FieldType,
  string: string,
  compute: NonNullable<FieldDef['compute']>,
  opts: Opts = {},
): FieldDef => ({ name, type, string, store: false, readonly: true, compute, ...opts });

/**
 * A related many2one that is not stored, read and searched here through the relation (the one
 * company and currency). `path` is Odoo's `related`; `search` whether Odoo can search it
 * (`_search_related`, which it has when the field at the end of the path is searchable).
 */
export const related = (
  name: string,
  string: string,
  relation: string,
  path: string,
  search = true,
): FieldDef => {
  const hop = path.split('.')[0] ?? '';
  const currency = path.endsWith('currency_id');
  const compute = (rec: Rec, db: Db): Stored => {
    if (!multiCompany(db)) return 1;
    const company = companyVia(db, rec, hop);
    return currency ? currencyOf(db, company) : company;
  };
  return computed(name, 'many2one', string, compute, { relation, searchable: true, related: path, search });
};

/** The company a record reaches through its first hop (a register, an order or a session). */
export function companyVia(db: Db, rec: Rec, hop: string): number {
  const v = rec[hop];
  switch (hop) {
    case 'config_id':
      return typeof v === 'number' ? configCompany(db, v) : sessionCompany(db, rec.session_id);
    case 'order_id':
    case 'pos_order_id':
      return orderCompany(db, v);
    case 'session_id':
    case 'pos_session_id':
      return sessionCompany(db, v);
  }
  return 1;
}
/**
 * A POS record's currency, related along `path` to its register's. The register's is computed
 * and not stored on 16-18 (pos.config `_compute_currency`), so Odoo cannot search these there
 * (fields_get: searchable false); 19 stores it, and they are searchable.
 */
export const relatedCurrency = (path: string, v19: boolean): FieldDef =>
  related('currency_id', 'Currency', 'res.currency', path, v19);

/** An inverse one2many: Odoo reports it stored (`store: true`) though it has no column. */
export const inverse = (
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

export const POS_ORDER_STATES_17: [string, string][] = [
  ['draft', 'New'],
  ['cancel', 'Cancelled'],
  ['paid', 'Paid'],
  ['done', 'Posted'],
  ['invoiced', 'Invoiced'],
];
export const SESSION_STATES: [string, string][] = [
  ['opening_control', 'Opening Control'],
  ['opened', 'In Progress'],
  ['closing_control', 'Closing Control'],
  ['closed', 'Closed & Posted'],
];

export const num = (v: Stored): number => (typeof v === 'number' ? v : 0);
export const ids = (v: Stored): number[] => (Array.isArray(v) ? v : []);

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

export interface ModelSpec {
  name: string;
  description: string;
  order: string;
  hasActive?: boolean;
  parentStore?: boolean;
  /** Odoo keeps no multi-company record rule on it (ModelDef.noCompanyRule). */
  noCompanyRule?: boolean;
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

export function build(spec: ModelSpec): ModelDef {
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
    ...(spec.parentStore ? { parentStore: true } : {}),
    ...(spec.noCompanyRule ? { noCompanyRule: true } : {}),
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

export const ALL = 'rwcu';
