/**
 * The ORM methods reachable over RPC (search_read, read, search, search_count, fields_get, create,
 * write, unlink, read_group, name_search, context_get, ...), with Odoo's argument binding, access
 * rules, ordering and value encoding. Both JSON-RPC and JSON-2 end up here.
 */

import { type Bound, compileDomain, getter, type Predicate } from './domain.js';
import {
  accessError,
  httpError,
  missingError,
  OdooError,
  typeError,
  userError,
  valueError,
} from './errors.js';
import { defaultAggregator, formattedReadGroup, readGroup } from './group.js';
import type { FieldDef, ModelDef } from './models.js';
import { getSaleDetails } from './sale-details/index.js';
import type { Db, Table } from './store.js';
import { wholeSeconds } from './time.js';
import type { Env, Json, Operation, Rec, Stored } from './types.js';

interface MethodSpec {
  params: string[];
  required: number;
  /** Record method: takes ids first (args[0] over JSON-RPC, `ids` over JSON-2). */
  ids: boolean;
  op?: Operation;
  only?: string;
  /** First Odoo version that has the method. */
  since?: number;
  /** Takes **kwargs from this version on (unknown keywords are accepted). */
  varkwSince?: number;
}

const METHODS: Record<string, MethodSpec> = {
  search_read: {
    params: ['domain', 'fields', 'offset', 'limit', 'order', 'load'],
    required: 0,
    ids: false,
    op: 'read',
  },
  read: { params: ['fields', 'load'], required: 0, ids: true, op: 'read' },
  search: { params: ['domain', 'offset', 'limit', 'order'], required: 1, ids: false, op: 'read' },
  search_count: { params: ['domain', 'limit'], required: 1, ids: false, op: 'read' },
  search_fetch: {
    params: ['domain', 'field_names', 'offset', 'limit', 'order'],
    required: 2,
    ids: false,
    op: 'read',
  },
  fields_get: { params: ['allfields', 'attributes'], required: 0, ids: false },
  create: { params: ['vals_list'], required: 1, ids: false, op: 'create' },
  write: { params: ['vals'], required: 1, ids: true, op: 'write' },
  unlink: { params: [], required: 0, ids: true, op: 'unlink' },
  read_group: {
    params: ['domain', 'fields', 'groupby', 'offset', 'limit', 'orderby', 'lazy'],
    required: 3,
    ids: false,
    op: 'read',
  },
  formatted_read_group: {
    params: ['domain', 'groupby', 'aggregates', 'having', 'offset', 'limit', 'order'],
    required: 0,
    ids: false,
    op: 'read',
    since: 19,
  },
  name_search: { params: ['name', 'args', 'operator', 'limit'], required: 0, ids: false, op: 'read' },
  exists: { params: [], required: 0, ids: true, op: 'read' },
  check_access_rights: { params: ['operation', 'raise_exception'], required: 1, ids: false },
  default_get: { params: ['fields_list'], required: 1, ids: false },
  context_get: { params: [], required: 0, ids: false, only: 'res.users' },
  get_sale_details: {
    params: ['date_start', 'date_stop', 'config_ids', 'session_ids'],
    required: 0,
    ids: false,
    only: 'report.point_of_sale.report_saledetails',
    // 18+ take **kwargs and hand them to _get_domain, which takes none: a TypeError (500 on JSON-2).
    varkwSince: 18,
  },
};

export interface Call {
  model: string;
  method: string;
  ids?: unknown;
  args: unknown[];
  kwargs: Record<string, unknown>;
  /** JSON-2 reports argument errors as 422 with inspect.signature's wording. */
  json2?: boolean;
}

export interface UserInfo {
  uid: number;
  tz: string | false;
  lang: string;
}

/** Model existence and method lookup, in Odoo's order: model, private method, unknown method. */
export function resolve(db: Db, call: Call): { model: ModelDef; spec: MethodSpec } {
  const v19 = db.version === 19;
  const model = db.models.get(call.model);
  if (!model) {
    if (call.json2) throw httpError(404, `the model '${call.model}' does not exist`);
    throw userError(`Object ${call.model} doesn't exist`);
  }
  if (call.method.startsWith('_')) {
    throw accessError(
      v19 || call.json2
        ? `Private methods (such as '${call.model}.${call.method}') cannot be called remotely.`
        : `Private methods (such as ${call.method}) cannot be called remotely.`,
    );
  }
  const spec = Object.hasOwn(METHODS, call.method) ? METHODS[call.method] : undefined;
  if (!spec || (spec.only && spec.only !== model.name) || (spec.since ?? 0) > db.version) {
    if (call.json2) throw httpError(404, `The method '${call.model}.${call.method}' does not exist`);
    throw new OdooError(
      'builtins.AttributeError',
      v19
        ? `The method '${call.model}.${call.method}' does not exist`
        : `The method '${call.method}' does not exist on the model '${call.model}'`,
    );
  }
  return { model, spec };
}

export function checkAccess(model: ModelDef, env: Env, op: Operation): void {
  const letter = op === 'read' ? 'r' : op === 'write' ? 'w' : op === 'create' ? 'c' : 'u';
  if (model.acl[env.role].includes(letter)) return;
  const verb = op === 'read' ? 'access' : op === 'write' ? 'modify' : op === 'create' ? 'create' : 'delete';
  const groups = model
    .groups(op)
    .map((g) => `\t- ${g}`)
    .join('\n');
  throw accessError(
    `You are not allowed to ${verb} '${model.description}' (${model.name}) records.\n\nThis operation is allowed for the following groups:\n${groups}\n\nContact your administrator to request access if necessary.`,
  );
}

/** Bind positional and keyword arguments as Python would, with Python's (or JSON-2's) errors. */
function bind(call: Call, spec: MethodSpec, version: number): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const name = `BaseModel.${call.method}()`;
  const extra = new Set(['context']);
  if (call.args.length > spec.params.length) {
    const base = spec.ids ? 2 : 1;
    throw typeError(
      `${name} takes from ${base} to ${base + spec.params.length} positional arguments but ${base + call.args.length} were given`,
    );
  }
  for (const [i, a] of call.args.entries()) out.set(spec.params[i] as string, a);
  const unknown: string[] = [];
  const varkw: string[] = [];
  for (const [k, v] of Object.entries(call.kwargs)) {
    if (extra.has(k)) continue;
    if (!spec.params.includes(k)) {
      if ((spec.varkwSince ?? 99) <= version) varkw.push(k);
      else unknown.push(k);
      continue;
    }
    if (out.has(k)) {
      if (call.json2) throw httpError(422, `multiple values for argument '${k}'`);
      throw typeError(`${name} got multiple values for argument '${k}'`);
    }
    out.set(k, v);
  }
  // A Python call reports an unexpected keyword first; inspect.signature().bind (JSON-2) reports
  // a missing argument first.
  if (unknown.length > 0 && !call.json2)
    throw typeError(`${name} got an unexpected keyword argument '${unknown[0]}'`);
  for (let i = 0; i < spec.required; i++) {
    const p = spec.params[i] as string;
    if (!out.has(p)) {
      if (call.json2) throw httpError(422, `missing a required argument: '${p}'`);
      throw typeError(`${name} missing 1 required positional argument: '${p}'`);
    }
  }
  if (unknown.length > 0) throw httpError(422, `got an unexpected keyword argument '${unknown[0]}'`);
  if (varkw.length > 0) out.set('**kwargs', varkw);
  return out;
}

function toIds(v: unknown): number[] {
  if (typeof v === 'number') return [v];
  if (Array.isArray(v)) return v.filter((x): x is number => typeof x === 'number' && Number.isInteger(x));
  if (v === false || v === null || v === undefined) return [];
  throw valueError(`Invalid ids ${JSON.stringify(v)}`);
}

export function execute(db: Db, env: Env, call: Call): Json | undefined {
  const { model, spec } = resolve(db, call);
  let ids: number[] = [];
  let args = call.args;
  if (spec.ids) {
    if (call.json2) ids = toIds(call.ids ?? []);
    else {
      if (args.length === 0)
        throw typeError(`BaseModel.${call.method}() missing 1 required positional argument: 'ids'`);
      ids = toIds(args[0]);
      args = args.slice(1);
    }
  } else if (call.json2 && Array.isArray(call.ids) && call.ids.length > 0) {
    throw httpError(422, `cannot call ${model.name}.${call.method} with ids`);
  }
  const a = bind({ ...call, args }, spec, db.version);
  const get = <T>(k: string, d: T): unknown => (a.has(k) && a.get(k) !== null ? a.get(k) : d);
  const table = db.table(model.name);

  switch (call.method) {
    case 'unlink':
      return unlink(db, env, model, ids);
    case 'write': {
      const missing = ids.filter((id) => !table.get(id));
      if (missing.length > 0) throw missingError(model.name, missing, env.uid);
      checkAccess(model, env, 'write');
      return write(db, env, model, ids, get('vals', {}));
    }
    case 'create':
      checkAccess(model, env, 'create');
      return create(db, env, model, get('vals_list', {}));
    case 'fields_get':
      return fieldsGet(db, model, get('allfields', null), get('attributes', null));
    case 'context_get': {
      const u = db.get('res.users', env.uid);
      return { lang: 'en_US', tz: (u?.tz as string | false) ?? false, uid: env.uid };
    }
    case 'check_access_rights': {
      const op = String(get('operation', 'read')) as Operation;
      try {
        checkAccess(model, env, op);
        return true;
      } catch (e) {
        if (get('raise_exception', true) === false) return false;
        throw e;
      }
    }
    case 'default_get':
      return {};
  }
  if (spec.op) checkAccess(model, env, spec.op);
  switch (call.method) {
    case 'search_read': {
      const fields = fieldList(db, model, get('fields', null));
      const found = search(
        db,
        env,
        model,
        get('domain', []),
        get('offset', 0),
        get('limit', null),
        get('order', null),
      );
      return readRecs(db, env, model, found, fields, get('load', '_classic_read') === '_classic_read');
    }
    case 'search_fetch': {
      const fields = fieldList(db, model, get('field_names', null));
      const found = search(
        db,
        env,
        model,
        get('domain', []),
        get('offset', 0),
        get('limit', null),
        get('order', null),
      );
      return readRecs(db, env, model, found, fields, true);
    }
    case 'read': {
      const fields = fieldList(db, model, get('fields', null));
      // Odoo never fetches `id`, so reading only `id` echoes missing ids too (facts §3.4).
      if (fields.length === 1 && fields[0]?.name === 'id') return ids.map((id) => ({ id }));
      const recs: Rec[] = [];
      for (const id of ids) {
        const r = table.get(id);
        if (r) recs.push(r);
      }
      return readRecs(db, env, model, recs, fields, get('load', '_classic_read') === '_classic_read');
    }
    case 'search':
      return search(
        db,
        env,
        model,
        get('domain', []),
        get('offset', 0),
        get('limit', null),
        get('order', null),
      ).map((r) => r.id);
    case 'search_count':
      return searchCount(db, env, model, get('domain', []), get('limit', null));
    case 'exists':
      return ids.filter((id) => table.get(id));
    case 'read_group':
      return readGroup(db, env, model, {
        domain: get('domain', []),
        fields: get('fields', []),
        groupby: get('groupby', []),
        offset: get('offset', 0),
        limit: get('limit', null),
        orderby: get('orderby', false),
        lazy: get('lazy', true),
      });
    case 'formatted_read_group':
      return formattedReadGroup(db, env, model, {
        domain: get('domain', []),
        groupby: get('groupby', []),
        aggregates: get('aggregates', []),
        having: get('having', []),
        offset: get('offset', 0),
        limit: get('limit', null),
        order: get('order', null),
      });
    case 'get_sale_details': {
      const extra = a.get('**kwargs') as string[] | undefined;
      if (extra) {
        const cls = db.version === 19 ? 'ReportPoint_Of_SaleReport_Saledetails' : 'ReportSaleDetails';
        throw typeError(`${cls}._get_domain() got an unexpected keyword argument '${extra[0]}'`);
      }
      return getSaleDetails(db, env, {
        date_start: get('date_start', false),
        date_stop: get('date_stop', false),
        config_ids: get('config_ids', false),
        session_ids: get('session_ids', false),
      });
    }
    case 'name_search': {
      const name = String(get('name', ''));
      const op = String(get('operator', 'ilike'));
      const limit = get('limit', 100);
      const domain = [...((get('args', []) as unknown[]) ?? [])];
      if (name) domain.push(['display_name', op, name]);
      return search(db, env, model, domain, 0, limit, null).map((r) => [r.id, model.displayName(r, db)]);
    }
  }
  throw new OdooError(
    'builtins.AttributeError',
    `The method '${call.method}' does not exist on the model '${model.name}'`,
  );
}

// ---------------------------------------------------------------------------------------------
// Fields and values

function invalidField(db: Db, model: ModelDef, name: unknown): OdooError {
  return valueError(
    db.version === 19
      ? `Invalid field ${pyStr(name)} on '${model.name}'`
      : `Invalid field ${pyStr(name)} on model '${model.name}'`,
  );
}
const pyStr = (v: unknown): string => (typeof v === 'string' ? `'${v}'` : String(v));

function fieldList(db: Db, model: ModelDef, fields: unknown): FieldDef[] {
  if (!Array.isArray(fields) || fields.length === 0) return [...model.fields.values()];
  const out: FieldDef[] = [];
  const seen = new Set<string>();
  for (const f of fields) {
    const def = typeof f === 'string' ? model.fields.get(f) : undefined;
    if (!def) throw invalidField(db, model, f);
    if (!seen.has(def.name)) {
      seen.add(def.name);
      out.push(def);
    }
  }
  return out;
}

export function readRecs(
  db: Db,
  env: Env,
  _model: ModelDef,
  recs: Rec[],
  fields: FieldDef[],
  load: boolean,
): Json[] {
  const cols = fields.filter((f) => f.name !== 'id');
  const getters = cols.map((f) => (f.compute ? (r: Rec) => f.compute?.(r, db, env) : getter(db, f)));
  const m2o = cols.map((f) => (f.type === 'many2one' && load ? (f.relation ?? '') : ''));
  // An Integer field reads as int(value): a view's SUM of float quantities is truncated.
  const isInt = cols.map((f) => f.type === 'integer');
  // A datetime goes out in whole seconds, whatever microseconds it is stored with.
  const isDatetime = cols.map((f) => f.type === 'datetime');
  const names = new Map<string, Map<number, string>>();
  const label = (rel: string, id: number): string => {
    let m = names.get(rel);
    if (!m) {
      m = new Map();
      names.set(rel, m);
    }
    let s = m.get(id);
    if (s === undefined) {
      s = db.displayName(rel, id);
      m.set(id, s);
    }
    return s;
  };
  const out: Json[] = new Array(recs.length);
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i] as Rec;
    const o: { [k: string]: Json } = { id: r.id };
    for (let c = 0; c < cols.length; c++) {
      const raw = (getters[c] as (r: Rec) => Stored)(r);
      const v = isDatetime[c] ? wholeSeconds(raw) : raw;
      const rel = m2o[c] as string;
      o[(cols[c] as FieldDef).name] =
        rel && typeof v === 'number'
          ? [v, label(rel, v)]
          : v === undefined
            ? false
            : isInt[c] && typeof v === 'number'
              ? Math.trunc(v)
              : v;
    }
    out[i] = o;
  }
  return out;
}

const ATTRS_DEFAULT = [
  'aggregator',
  'change_default',
  'company_dependent',
  'context',
  'depends',
  'digits',
  'domain',
  'exportable',
  'groupable',
  'group_operator',
  'help',
  'manual',
  'name',
  'readonly',
  'related',
  'relation',
  'required',
  'searchable',
  'selection',
  'sortable',
  'store',
  'string',
  'translate',
  'type',
];

function fieldsGet(db: Db, model: ModelDef, allfields: unknown, attributes: unknown): Json {
  // 16-17 describe the default aggregate as group_operator, 18+ as aggregator.
  const aggKey = db.version >= 18 ? 'aggregator' : 'group_operator';
  const want = Array.isArray(allfields) && allfields.length > 0 ? new Set(allfields.map(String)) : undefined;
  const attrs = Array.isArray(attributes) && attributes.length > 0 ? attributes.map(String) : ATTRS_DEFAULT;
  const out: { [k: string]: Json } = {};
  for (const f of model.fields.values()) {
    if (want && !want.has(f.name)) continue;
    const d: Record<string, Json> = {
      change_default: false,
      company_dependent: false,
      context: {},
      depends: [],
      exportable: true,
      // A one2many is "stored" for Odoo (the comodel holds the column) but neither groupable nor sortable.
      groupable: f.store && f.type !== 'one2many',
      manual: false,
      name: f.name,
      readonly: f.readonly ?? false,
      required: f.required ?? false,
      searchable: f.store || f.searchable === true,
      sortable: f.store && f.type !== 'one2many' && f.type !== 'many2many',
      store: f.store,
      string: f.string,
      type: f.type,
    };
    if (f.relation) {
      d.relation = f.relation;
      d.domain = [];
    }
    if (f.selection) d.selection = f.selection;
    const agg = defaultAggregator(f);
    if (agg) d[aggKey] = agg;
    if (f.type === 'char' || f.type === 'text') d.translate = f.translate ?? false;
    const sel: Record<string, Json> = {};
    for (const k of [...attrs].sort()) if (Object.hasOwn(d, k)) sel[k] = d[k] as Json;
    out[f.name] = sel;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Search and ordering

interface OrderTerm {
  field: FieldDef;
  desc: boolean;
}

const ORDER_RE =
  /^(\s*("?[a-z0-9_]+"?)(\.[a-z0-9_]+)?(:[a-z_]+)?(\s+(desc|asc))?(\s+(nulls first|nulls last))?\s*(,|$))+(?<!,)$/i;

export function parseOrder(_db: Db, model: ModelDef, order: unknown): OrderTerm[] {
  const text = typeof order === 'string' && order.trim() ? order : model.order;
  if (!ORDER_RE.test(text)) {
    throw userError(
      `Invalid "order" specified (${text}). A valid "order" specification is a comma-separated list of valid field names (optionally followed by asc/desc for the direction)`,
    );
  }
  const terms: OrderTerm[] = [];
  for (const part of text.split(',')) {
    const bits = part.trim().split(/\s+/);
    const name = (bits[0] as string).replace(/"/g, '').split(/[.:]/)[0] as string;
    const field = model.fields.get(name);
    if (!field) throw valueError(`Invalid field '${name}' on model '${model.name}'`);
    // 16-18: ordering by a non-stored field is ignored (with a warning in the server log).
    if (!field.store) continue;
    if (field.type === 'one2many' || field.type === 'many2many') continue;
    terms.push({ field, desc: (bits[1] ?? '').toLowerCase() === 'desc' });
  }
  return terms;
}

/** Rank of each record of a model in that model's default order (many2one columns sort this way). */
export function rankOf(db: Db, model: string): Map<number, number> {
  const m = db.models.get(model);
  const ranks = new Map<number, number>();
  if (!m) return ranks;
  const { ids } = sortedIds(db, db.table(model), parseOrder(db, m, null));
  for (const [i, id] of ids.entries()) ranks.set(id, i);
  return ranks;
}

/**
 * Builds the sorted indexes a date-range search or grouping starts from, as a database has its
 * B-tree indexes on date_order and payment_date before the first query.
 */
export function warmIndexes(db: Db): void {
  // report.pos.order too: its rows (the view) and their date index are there before the first
  // query, as a database has its indexes; they are rebuilt on first use after a change.
  for (const [model, field] of [
    ['pos.order', 'date_order'],
    ['pos.payment', 'payment_date'],
    ['report.pos.order', 'date'],
  ] as const) {
    const m = db.models.get(model);
    if (m) sortedIds(db, db.table(model), parseOrder(db, m, field));
  }
}

interface Sorted {
  ids: Int32Array;
  /** The first sort key per id (indexed by id); empty values are the greatest key. */
  first: Float64Array | string[] | undefined;
}

function sortedIds(db: Db, table: Table, terms: OrderTerm[]): Sorted {
  const key = terms.map((t) => `${t.field.name}${t.desc ? '-' : '+'}`).join(',');
  const cached = table.sortCache.get(key);
  if (cached && cached.stamp === table.stamp) return cached;
  const rows = table.rows;
  const ids = new Int32Array(table.live);
  let n = 0;
  for (let id = 1; id < rows.length; id++) if (rows[id]) ids[n++] = id;
  // One key column per term. Empty values sort as the greatest (Postgres: NULLS LAST ascending,
  // NULLS FIRST descending). Ties end on id.
  const columns: (Float64Array | string[])[] = terms.map((t) => {
    const get = getter(db, t.field);
    if (t.field.type === 'many2one') {
      const rank = rankOf(db, t.field.relation ?? '');
      const col = new Float64Array(rows.length);
      for (let i = 0; i < n; i++) {
        const id = ids[i] as number;
        const v = get(rows[id] as Rec);
        col[id] = typeof v === 'number' ? (rank.get(v) ?? v) : Number.POSITIVE_INFINITY;
      }
      return col;
    }
    if (['integer', 'float', 'monetary', 'boolean'].includes(t.field.type)) {
      const col = new Float64Array(rows.length);
      for (let i = 0; i < n; i++) {
        const id = ids[i] as number;
        const v = get(rows[id] as Rec);
        col[id] = typeof v === 'number' ? v : v === true ? 1 : 0;
      }
      return col;
    }
    const col: string[] = new Array(rows.length);
    for (let i = 0; i < n; i++) {
      const id = ids[i] as number;
      const v = get(rows[id] as Rec);
      col[id] = typeof v === 'string' && v !== '' ? v : '\uffff';
    }
    return col;
  });
  const desc = terms.map((t) => t.desc);
  ids.sort((a, b) => {
    for (let c = 0; c < columns.length; c++) {
      const col = columns[c] as Float64Array | string[];
      const x = col[a] as number | string;
      const y = col[b] as number | string;
      if (x === y) continue;
      const r = x < y ? -1 : 1;
      return desc[c] ? -r : r;
    }
    return a - b;
  });
  const sorted = { ids, first: columns[0] };
  table.sortCache.set(key, { stamp: table.stamp, ...sorted });
  return sorted;
}

function withActive(
  db: Db,
  env: Env,
  model: ModelDef,
  domain: unknown,
  pred: Predicate | undefined,
): Predicate | undefined {
  if (!model.hasActive || !env.activeTest) return pred;
  const mentions = Array.isArray(domain) && domain.some((l) => Array.isArray(l) && l[0] === 'active');
  if (mentions) return pred;
  const active = getter(db, model.fields.get('active') as FieldDef);
  return pred ? (r) => active(r) !== false && pred(r) : (r) => active(r) !== false;
}

function asLimit(v: unknown): number {
  return typeof v === 'number' && v > 0 ? Math.floor(v) : Number.POSITIVE_INFINITY;
}

export function search(
  db: Db,
  env: Env,
  model: ModelDef,
  domain: unknown,
  offsetArg: unknown,
  limitArg: unknown,
  order: unknown,
): Rec[] {
  const compiled = compileDomain(db, model, domain, env);
  const terms = parseOrder(db, model, order);
  const pred = withActive(db, env, model, domain, compiled.pred);
  const table = db.table(model.name);
  const rows = table.rows;
  let skip = typeof offsetArg === 'number' && offsetArg > 0 ? Math.floor(offsetArg) : 0;
  const limit = asLimit(limitArg);
  const out: Rec[] = [];
  if (limit === 0) return out;
  const lo = Math.max(1, compiled.idLo);
  const hi = Math.min(rows.length - 1, compiled.idHi);
  const take = (r: Rec | undefined): boolean => {
    if (!r || (pred && !pred(r))) return false;
    if (skip > 0) {
      skip--;
      return false;
    }
    out.push(r);
    return out.length >= limit;
  };
  const first = terms[0];
  if (terms.length === 0 || (terms.length === 1 && first?.field.name === 'id')) {
    // Id order: a plain loop over the id-indexed rows, starting at the id bound, stopping at the limit.
    // With no filter and no holes in the ids, an offset is a jump, not a walk (offset paging stays O(page)).
    if (!pred && table.live === rows.length - 1 && skip > 0) {
      const jump = Math.min(skip, Math.max(0, hi - lo + 1));
      skip -= jump;
      if (first?.desc) {
        for (let id = hi - jump; id >= lo; id--) if (take(rows[id])) break;
      } else {
        for (let id = lo + jump; id <= hi; id++) if (take(rows[id])) break;
      }
      return out;
    }
    if (first?.desc) {
      for (let id = hi; id >= lo; id--) if (take(rows[id])) break;
    } else {
      for (let id = lo; id <= hi; id++) if (take(rows[id])) break;
    }
    return out;
  }
  const { ids, first: keys } = sortedIds(db, table, terms);
  // When the domain bounds the first sort key (a date range, a keyset page on write_date), start
  // at the first sorted position inside the range (binary search) and stop once past it.
  const lead = first as OrderTerm;
  const range = keys && lead.field.type !== 'many2one' ? compiled.bounds(lead.field) : {};
  const [from, past] = lead.desc ? [range.hi, range.lo] : [range.lo, range.hi];
  const before = (k: number | string, b: Bound): boolean =>
    lead.desc ? k > b[0] || (k === b[0] && !b[1]) : k < b[0] || (k === b[0] && !b[1]);
  const beyond = (k: number | string, b: Bound): boolean =>
    lead.desc ? k < b[0] || (k === b[0] && !b[1]) : k > b[0] || (k === b[0] && !b[1]);
  const keyAt = (i: number): number | string =>
    (keys as (number | string)[])[ids[i] as number] as number | string;
  let start = 0;
  if (from && keys && typeof keyAt(0) === typeof from[0]) {
    let a = 0;
    let b = ids.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (before(keyAt(mid), from)) a = mid + 1;
      else b = mid;
    }
    start = a;
  }
  const stop = past && keys && ids.length > 0 && typeof keyAt(0) === typeof past[0] ? past : undefined;
  // Nothing to filter: an offset is a jump into the sorted ids, not a walk.
  if (!pred && !stop && lo <= 1 && hi >= rows.length - 1) {
    start += skip;
    skip = 0;
  }
  for (let i = start; i < ids.length; i++) {
    const id = ids[i] as number;
    if (stop && beyond(keyAt(i), stop)) break;
    if (id < lo || id > hi) continue;
    if (take(rows[id])) break;
  }
  return out;
}

export function searchCount(db: Db, env: Env, model: ModelDef, domain: unknown, limitArg: unknown): number {
  const compiled = compileDomain(db, model, domain, env);
  const pred = withActive(db, env, model, domain, compiled.pred);
  const table = db.table(model.name);
  const limit = asLimit(limitArg);
  if (!pred && compiled.idLo <= 1 && compiled.idHi >= table.rows.length - 1)
    return Math.min(table.live, limit);
  const rows = table.rows;
  let n = 0;
  const hi = Math.min(rows.length - 1, compiled.idHi);
  for (let id = Math.max(1, compiled.idLo); id <= hi; id++) {
    const r = rows[id];
    if (r && (!pred || pred(r))) {
      n++;
      if (n >= limit) break;
    }
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// create / write / unlink

function convertValue(_db: Db, field: FieldDef, v: unknown): Stored {
  if (v === null || v === undefined) return false;
  switch (field.type) {
    case 'many2one':
      if (Array.isArray(v)) return typeof v[0] === 'number' ? v[0] : false;
      return typeof v === 'number' ? v : false;
    case 'one2many':
    case 'many2many':
      return commandsToIds(v);
    case 'integer':
    case 'float':
    case 'monetary':
      return typeof v === 'number' ? v : Number(v) || 0;
    case 'boolean':
      return v === true || v === 1;
    default:
      return typeof v === 'string' || typeof v === 'number' ? v : v === false ? false : String(v);
  }
}

/** x2many write commands: a plain id list, (6, 0, ids), (4, id), (3, id), (5,); (0, 0, vals) is handled by the caller. */
function commandsToIds(v: unknown, current: number[] = []): number[] {
  if (!Array.isArray(v)) return current;
  if (v.every((x) => typeof x === 'number')) return v as number[];
  let ids = [...current];
  for (const c of v) {
    if (!Array.isArray(c)) continue;
    const [cmd, id, arg] = c as [number, number, unknown];
    if (cmd === 6 && Array.isArray(arg)) ids = arg.filter((x): x is number => typeof x === 'number');
    else if (cmd === 4 && !ids.includes(id)) ids.push(id);
    else if (cmd === 3 || cmd === 2) ids = ids.filter((x) => x !== id);
    else if (cmd === 5) ids = [];
  }
  return ids;
}

/** Keep the parent's x2many list in step when a child points at it. */
function attachToParent(
  db: Db,
  parentModel: string,
  parentId: unknown,
  field: string,
  childId: number,
): void {
  if (typeof parentId !== 'number') return;
  const parent = db.get(parentModel, parentId);
  if (!parent) return;
  const def = db.models.get(parentModel)?.fields.get(field);
  const list = def ? (db.value(def, parent) as number[]) : [];
  const next = field === 'payment_ids' ? [childId, ...list] : [...list, childId];
  parent[field] = next;
  db.changed(parentModel);
}

function round2(x: number): number {
  return Math.round((x + (x >= 0 ? 1e-9 : -1e-9)) * 100) / 100;
}

function create(db: Db, env: Env, model: ModelDef, valsArg: unknown): Json {
  const single = !Array.isArray(valsArg);
  const list = (single ? [valsArg] : (valsArg as unknown[])) as unknown[];
  const table = db.table(model.name);
  const now = env.now();
  const stamp = env.txNow();
  const created: number[] = [];
  for (const raw of list) {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      const py =
        raw === null || raw === undefined
          ? 'NoneType'
          : Array.isArray(raw)
            ? 'list'
            : typeof raw === 'string'
              ? 'str'
              : typeof raw === 'number'
                ? 'int'
                : 'bool';
      throw new OdooError('builtins.AttributeError', `'${py}' object has no attribute 'items'`);
    }
    const vals = raw as Record<string, unknown>;
    const rec: Rec = { id: table.nextId };
    const children: { field: FieldDef; vals: Record<string, unknown> }[] = [];
    for (const [k, v] of Object.entries(vals)) {
      const f = model.fields.get(k);
      if (!f) throw invalidField(db, model, k);
      if (f.name === 'id' || (f.compute && !f.searchable)) continue;
      if (f.type === 'one2many' && Array.isArray(v)) {
        for (const c of v)
          if (Array.isArray(c) && c[0] === 0 && c[2] && typeof c[2] === 'object')
            children.push({ field: f, vals: c[2] as Record<string, unknown> });
      }
      if (f.compute) continue;
      rec[k] = convertValue(db, f, v);
    }
    rec.create_date = stamp;
    rec.write_date = stamp;
    rec.create_uid = env.uid;
    rec.write_uid = env.uid;
    if (model.name === 'pos.order') {
      rec.date_order ??= now;
      rec.state ??= 'draft';
      rec.name ??= '/';
      rec.lines ??= [];
      rec.payment_ids ??= [];
      for (const k of ['amount_total', 'amount_tax', 'amount_paid', 'amount_return']) rec[k] ??= 0;
      if (rec.session_id !== undefined && rec.config_id === undefined) {
        rec.config_id = db.get('pos.session', rec.session_id as number)?.config_id ?? false;
      }
    } else if (model.name === 'pos.payment') {
      rec.payment_date ??= now;
      rec.session_id ??= db.get('pos.order', rec.pos_order_id as number)?.session_id ?? false;
      rec.is_change ??= false;
    } else if (model.name === 'pos.order.line') {
      const qty = typeof rec.qty === 'number' ? rec.qty : 1;
      const price = typeof rec.price_unit === 'number' ? rec.price_unit : 0;
      const disc = typeof rec.discount === 'number' ? rec.discount : 0;
      rec.qty = qty;
      rec.price_subtotal ??= round2(qty * price * (1 - disc / 100));
      rec.price_subtotal_incl ??= rec.price_subtotal;
    } else if (model.name === 'pos.session') {
      rec.state ??= 'opening_control';
      rec.name ??= `POS/${String(rec.id).padStart(5, '0')}`;
      rec.user_id ??= env.uid;
      rec.start_at ??= false;
    } else if (model.name === 'pos.config') {
      rec.payment_method_ids ??= [];
      rec.active ??= true;
    }
    table.insert(rec);
    created.push(rec.id);
    db.changed(model.name);
    if (model.name === 'pos.order.line') attachToParent(db, 'pos.order', rec.order_id, 'lines', rec.id);
    if (model.name === 'pos.payment')
      attachToParent(db, 'pos.order', rec.pos_order_id, 'payment_ids', rec.id);
    for (const c of children) {
      const childModel = db.models.get(c.field.relation ?? '');
      if (childModel && c.field.inverse)
        create(db, env, childModel, { ...c.vals, [c.field.inverse]: rec.id });
    }
  }
  return single ? (created[0] as number) : created;
}

function write(db: Db, env: Env, model: ModelDef, ids: number[], valsArg: unknown): Json {
  const vals = (valsArg && typeof valsArg === 'object' ? valsArg : {}) as Record<string, unknown>;
  for (const k of Object.keys(vals)) if (!model.fields.has(k)) throw invalidField(db, model, k);
  const stamp = env.txNow();
  const table = db.table(model.name);
  for (const id of ids) {
    const rec = table.get(id) as Rec;
    for (const [k, v] of Object.entries(vals)) {
      const f = model.fields.get(k) as FieldDef;
      if (f.name === 'id' || f.compute) continue;
      rec[k] =
        f.type === 'one2many' || f.type === 'many2many'
          ? commandsToIds(v, db.value(f, rec) as number[])
          : convertValue(db, f, v);
    }
    // config_id is stored but related to the session (17) or computed from it (19).
    if (model.name === 'pos.order' && 'session_id' in vals && !('config_id' in vals)) {
      rec.config_id = db.get('pos.session', rec.session_id as number)?.config_id ?? false;
    }
    rec.write_date = stamp;
    rec.write_uid = env.uid;
  }
  db.changed(model.name);
  return true;
}

function unlink(db: Db, env: Env, model: ModelDef, ids: number[]): Json {
  const table = db.table(model.name);
  const missing = ids.filter((id) => !table.get(id));
  if (missing.length > 0) throw missingError(model.name, missing, env.uid);
  checkAccess(model, env, 'unlink');
  if (model.name === 'pos.order') {
    for (const id of ids) {
      const state = table.get(id)?.state;
      if (state !== 'draft' && state !== 'cancel')
        throw userError('In order to delete a sale, it must be new or cancelled.');
    }
  }
  for (const id of ids) {
    const rec = table.get(id) as Rec;
    if (model.name === 'pos.order') {
      const f = model.fields;
      for (const l of db.value(f.get('lines') as FieldDef, rec) as number[])
        db.table('pos.order.line').remove(l);
      for (const p of db.value(f.get('payment_ids') as FieldDef, rec) as number[])
        db.table('pos.payment').remove(p);
      db.changed('pos.order.line');
      db.changed('pos.payment');
    }
    table.remove(id);
  }
  db.changed(model.name);
  return true;
}
