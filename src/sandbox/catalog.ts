/**
 * The fields a real Odoo 17 and 19 report for the POS models that the sandbox does not model
 * (portal, stock, accounting, mail, images...), listed in catalog.json (data, as Odoo gives it):
 * taken from the recorded `fields_get` of a real 17 and 19
 * (`test/sandbox/wire17|19/t3_*fields_get_*.json`). They answer fields_get as there and
 * read as empty values (false, 0, []), so a client sees the same field set as on a real server.
 * 16 takes 17's set, 18 the fields both 17 and 19 have (with 19's attributes): neither was run.
 */
import catalogFile from './catalog.json' with { type: 'json' };
import { FIELD_TYPES, type FieldType, type OdooVersion } from './types.js';

/** [name, type, label, stored (1) or not (0), relation or selection] */
export type InertField = [string, FieldType, string, 0 | 1, (string | [string, string][])?];

interface ModelCatalog {
  /** Alike on 17 and 19. */
  both: InertField[];
  /** 17 only, or 17's attributes where 19's differ. */
  v17: InertField[];
  /** 19 only, or 19's attributes where 17's differ. */
  v19: InertField[];
}

/** The catalog's file: each model's lists; a name in a list stands for that mixin's fields. */
interface CatalogFile {
  mixins: Record<string, unknown[]>;
  models: Record<string, Record<keyof ModelCatalog, unknown[]>>;
}

const FIELD_TYPE_NAMES: ReadonlySet<string> = new Set(FIELD_TYPES);

function isFieldType(t: unknown): t is FieldType {
  return typeof t === 'string' && FIELD_TYPE_NAMES.has(t);
}

function isSelection(v: unknown): v is [string, string][] {
  return (
    Array.isArray(v) &&
    v.every((o) => Array.isArray(o) && o.length === 2 && o.every((s) => typeof s === 'string'))
  );
}

/** A tuple of the file as a field: the JSON's types are wider than the tuple's, so each is checked. */
function inertField(entry: unknown[]): InertField {
  const [name, type, label, stored, rel] = entry;
  if (
    typeof name !== 'string' ||
    !isFieldType(type) ||
    typeof label !== 'string' ||
    (stored !== 0 && stored !== 1) ||
    !(rel === undefined || typeof rel === 'string' || isSelection(rel))
  )
    throw new Error(
      `sandbox/catalog.json: ${JSON.stringify(entry)} is not [name, type, label, 0|1, relation?]`,
    );
  return rel === undefined ? [name, type, label, stored] : [name, type, label, stored, rel];
}

/** A list of the file as fields, each mixin named in it spread where it stands. */
function inertList(file: CatalogFile, list: unknown[]): InertField[] {
  return list.flatMap((entry) => {
    if (Array.isArray(entry)) return [inertField(entry)];
    const mixin = typeof entry === 'string' ? file.mixins[entry] : undefined;
    if (!mixin) throw new Error(`sandbox/catalog.json: no mixin ${JSON.stringify(entry)}`);
    return inertList(file, mixin);
  });
}

/** The catalog per model, read from its file (data: a real Odoo's fields_get, not code). */
const FILE: CatalogFile = catalogFile;
const CATALOG: Record<string, ModelCatalog> = Object.fromEntries(
  Object.entries(FILE.models).map(([model, lists]) => [
    model,
    { both: inertList(FILE, lists.both), v17: inertList(FILE, lists.v17), v19: inertList(FILE, lists.v19) },
  ]),
);

/**
 * What fields_get says of an inert field beyond its tuple, where Odoo says anything: `digits`,
 * the `related` path, and `search` where Odoo can search a field it does not store (a search
 * method of its own, or a related field's `_search_related`). Taken from the real 17's
 * fields_get; 16 and 18 take 17's (their point_of_sale sources define these fields alike), 19
 * what its sources show (`v19`), the rest of 19's product fields left undescribed.
 */
export interface Described {
  digits?: [number, number] | 0 | false;
  related?: string;
  search?: boolean;
}
type Descriptions = Record<string, Described>;

/** mail.activity.mixin's: computed with search methods, or related to the activities. */
const ACTIVITIES_DESCRIBED: Descriptions = {
  activity_state: { search: true },
  activity_user_id: { search: true },
  activity_type_id: { related: 'activity_ids.activity_type_id', search: true },
  activity_type_icon: { related: 'activity_ids.icon', search: true },
  activity_date_deadline: { search: true },
  my_activity_date_deadline: { search: true },
  activity_summary: { related: 'activity_ids.summary', search: true },
  activity_exception_decoration: { search: true },
};

/** mail.thread's computed fields with search methods. */
const MAIL_THREAD_DESCRIBED: Descriptions = Object.fromEntries(
  [
    'message_is_follower',
    'message_partner_ids',
    'has_message',
    'message_needaction',
    'message_has_error',
    'message_has_sms_error',
  ].map((f) => [f, { search: true }]),
);

/** Quantities of stock (digits 'Product Unit of Measure'), computed with search methods. */
const STOCK_QTY: Described = { digits: [16, 2], search: true };

const DESCRIBED: Record<string, { both: Descriptions; v17: Descriptions; v19: Descriptions }> = {
  'pos.order': {
    both: {
      ...MAIL_THREAD_DESCRIBED,
      margin_percent: { digits: [12, 4] },
      country_code: { related: 'company_id.account_fiscal_country_id.code', search: true },
      currency_rate: { digits: 0 },
      picking_type_id: { related: 'session_id.config_id.picking_type_id', search: true },
      sale_journal: { related: 'session_id.config_id.journal_id' },
      session_move_id: { related: 'session_id.move_id', search: true },
      next_online_payment_amount: { digits: 0 },
    },
    v17: {},
    v19: {
      order_edit_tracking: { related: 'config_id.order_edit_tracking', search: true },
      available_payment_method_ids: { related: 'config_id.payment_method_ids', search: true },
    },
  },
  'pos.order.line': {
    both: {
      margin_percent: { digits: [12, 4] },
      product_uom_id: { related: 'product_id.uom_id', search: true },
    },
    // digits='Product Price'; 19 gives it only min_display_digits.
    v17: { total_cost: { digits: [16, 2] } },
    v19: { total_cost: { digits: false } },
  },
  'pos.payment': {
    both: {
      currency_rate: { digits: 0, related: 'pos_order_id.currency_rate', search: true },
      partner_id: { related: 'pos_order_id.partner_id', search: true },
    },
    v17: {},
    v19: { user_id: { related: 'session_id.user_id', search: true } },
  },
  'pos.session': { both: { ...ACTIVITIES_DESCRIBED, ...MAIL_THREAD_DESCRIBED }, v17: {}, v19: {} },
  'product.template': {
    both: {
      ...ACTIVITIES_DESCRIBED,
      ...MAIL_THREAD_DESCRIBED,
      image_1024: { related: 'image_1920' },
      image_512: { related: 'image_1920' },
      image_256: { related: 'image_1920' },
      image_128: { related: 'image_1920' },
      barcode: { search: true },
      uom_name: { related: 'uom_id.name', search: true },
    },
    v17: {
      standard_price: { digits: [16, 2], search: true },
      volume: { digits: [16, 2] },
      weight: { digits: [16, 2] },
      qty_available: STOCK_QTY,
      virtual_available: STOCK_QTY,
      incoming_qty: STOCK_QTY,
      outgoing_qty: STOCK_QTY,
      route_from_categ_ids: { related: 'categ_id.total_route_ids' },
      // company_dependent: searchable through their properties.
      property_account_income_id: { search: true },
      property_account_expense_id: { search: true },
      responsible_id: { search: true },
      property_stock_production: { search: true },
      property_stock_inventory: { search: true },
      cost_method: { related: 'categ_id.property_cost_method', search: true },
      valuation: { related: 'categ_id.property_valuation', search: true },
    },
    v19: { standard_price: { digits: false, search: true } },
  },
};

/** What fields_get says of the inert fields of a model on a version, beyond their tuples. */
export function describedFields(model: string, version: OdooVersion): Descriptions {
  const d = DESCRIBED[model];
  if (!d) return {};
  return { ...d.both, ...(version === 19 ? d.v19 : d.v17) };
}

/** The inert fields of a model on a version. */
export function inertFields(model: string, version: OdooVersion): InertField[] {
  const c = CATALOG[model];
  if (!c) return [];
  if (version <= 17) return [...c.both, ...c.v17];
  if (version === 19) return [...c.both, ...c.v19];
  const in17 = new Set(c.v17.map((f) => f[0]));
  return [...c.both, ...c.v19.filter((f) => in17.has(f[0]))];
}
