/**
 * The ORM methods reachable over RPC (search_read, read, search, search_count, fields_get, create,
 * write, unlink, read_group, name_search, context_get, ...), with Odoo's argument binding, access
 * rules, ordering and value encoding. Both JSON-RPC and JSON-2 end up here.
 */

import { checkAccess, checkRecordRules } from './access.js';
import {
  accessError,
  httpError,
  missingError,
  OdooError,
  typeError,
  userError,
  valueError,
} from './errors.js';
import { lieInGroups } from './faults.js';
import { formattedReadGroup, readGroup } from './group.js';
import { fieldList, fieldsGet, readRecs } from './read.js';
import { getSaleDetails } from './sale-details/index.js';
import { search, searchCount } from './search.js';
import type { Db, ModelDef } from './store.js';
import type { Env, Json, Operation, Rec } from './types.js';
import { createFromUi } from './ui.js';
import { create, unlink, write } from './write.js';

/** A call once resolved and bound: what a method's handler works with. */
interface Invocation {
  db: Db;
  env: Env;
  model: ModelDef;
  /** A record method's ids (args[0] over JSON-RPC, `ids` over JSON-2). */
  ids: number[];
  /** The bound arguments (positional and keyword), `**kwargs` for extra keywords. */
  bound: Map<string, unknown>;
  /** An argument, or its default when absent or None. */
  get: (name: string, dflt: unknown) => unknown;
}

interface MethodSpec {
  params: string[];
  required: number;
  /** Record method: takes ids first (args[0] over JSON-RPC, `ids` over JSON-2). */
  ids: boolean;
  /** The access right the dispatcher checks first; none when the method checks its own. */
  op?: Operation;
  only?: string;
  /** First Odoo version that has the method. */
  since?: number;
  /** Last Odoo version that has the method. */
  until?: number;
  /** Takes **kwargs from this version on (unknown keywords are accepted). */
  varkwSince?: number;
  run: (c: Invocation) => Json | undefined;
}

/** The arguments named in `defaults`, each at its default where absent or None (as Odoo's signature has it). */
function argsOf<K extends string>(c: Invocation, defaults: Record<K, unknown>): Record<K, unknown> {
  const out = { ...defaults };
  for (const name in out) out[name] = c.get(name, defaults[name]);
  return out;
}

/** read_group's and formatted_read_group's keywords, at the defaults of Odoo's signatures. */
const READ_GROUP = {
  domain: [],
  fields: [],
  groupby: [],
  offset: 0,
  limit: null,
  orderby: false,
  lazy: true,
};
const FORMATTED_READ_GROUP = {
  domain: [],
  groupby: [],
  aggregates: [],
  having: [],
  offset: 0,
  limit: null,
  order: null,
};

const load = (c: Invocation): boolean => c.get('load', '_classic_read') === '_classic_read';
const searched = (c: Invocation) =>
  search(
    c.db,
    c.env,
    c.model,
    c.get('domain', []),
    c.get('offset', 0),
    c.get('limit', null),
    c.get('order', null),
  );

/** The methods reachable over RPC: their Python signatures, and what each does. */
const METHODS: Record<string, MethodSpec> = {
  search_read: {
    params: ['domain', 'fields', 'offset', 'limit', 'order', 'load'],
    required: 0,
    ids: false,
    op: 'read',
    run: (c) => readFound(c, 'fields', load(c)),
  },
  read: { params: ['fields', 'load'], required: 0, ids: true, op: 'read', run: readIds },
  search: {
    params: ['domain', 'offset', 'limit', 'order'],
    required: 1,
    ids: false,
    op: 'read',
    run: (c) => searched(c).map((r) => r.id),
  },
  search_count: {
    params: ['domain', 'limit'],
    required: 1,
    ids: false,
    op: 'read',
    run: (c) => searchCount(c.db, c.env, c.model, c.get('domain', []), c.get('limit', null)),
  },
  search_fetch: {
    params: ['domain', 'field_names', 'offset', 'limit', 'order'],
    required: 2,
    ids: false,
    op: 'read',
    run: (c) => readFound(c, 'field_names', true),
  },
  fields_get: {
    params: ['allfields', 'attributes'],
    required: 0,
    ids: false,
    run: (c) => fieldsGet(c.db, c.model, c.get('allfields', null), c.get('attributes', null)),
  },
  create: {
    params: ['vals_list'],
    required: 1,
    ids: false,
    run: (c) => {
      checkAccess(c.model, c.env, 'create');
      return create(c.db, c.env, c.model, c.get('vals_list', {}));
    },
  },
  write: {
    params: ['vals'],
    required: 1,
    ids: true,
    run: (c) => {
      // A missing record is reported before the access right.
      const table = c.db.table(c.model.name);
      const missing = c.ids.filter((id) => !table.get(id));
      if (missing.length > 0) throw missingError(c.model.name, missing, c.env.uid);
      checkAccess(c.model, c.env, 'write');
      return write(c.db, c.env, c.model, c.ids, c.get('vals', {}));
    },
  },
  unlink: { params: [], required: 0, ids: true, run: (c) => unlink(c.db, c.env, c.model, c.ids) },
  read_group: {
    params: ['domain', 'fields', 'groupby', 'offset', 'limit', 'orderby', 'lazy'],
    required: 3,
    ids: false,
    op: 'read',
    run: (c) => lied(c, readGroup(c.db, c.env, c.model, argsOf(c, READ_GROUP))),
  },
  formatted_read_group: {
    params: ['domain', 'groupby', 'aggregates', 'having', 'offset', 'limit', 'order'],
    required: 0,
    ids: false,
    op: 'read',
    since: 19,
    run: (c) => lied(c, formattedReadGroup(c.db, c.env, c.model, argsOf(c, FORMATTED_READ_GROUP))),
  },
  name_search: {
    params: ['name', 'args', 'operator', 'limit'],
    required: 0,
    ids: false,
    op: 'read',
    run: nameSearch,
  },
  exists: {
    params: [],
    required: 0,
    ids: true,
    op: 'read',
    run: (c) => c.ids.filter((id) => c.db.table(c.model.name).get(id)),
  },
  check_access_rights: {
    params: ['operation', 'raise_exception'],
    required: 1,
    ids: false,
    run: checkAccessRights,
  },
  default_get: { params: ['fields_list'], required: 1, ids: false, run: () => ({}) },
  context_get: {
    params: [],
    required: 0,
    ids: false,
    only: 'res.users',
    run: (c) => {
      const u = c.db.get('res.users', c.env.uid);
      return { lang: 'en_US', tz: (u?.tz as string | false) ?? false, uid: c.env.uid };
    },
  },
  // How a register sends its orders (16-17; 18 renamed it sync_from_ui).
  create_from_ui: {
    params: ['orders', 'draft'],
    required: 1,
    ids: false,
    only: 'pos.order',
    until: 17,
    run: (c) => createFromUi(c.db, c.env, c.get('orders', []), c.get('draft', false)),
  },
  // The web client's list read (17+): records shaped by a specification, relations nested.
  web_search_read: {
    params: ['domain', 'specification', 'offset', 'limit', 'order', 'count_limit'],
    required: 2,
    ids: false,
    op: 'read',
    run: (c) => webSearchRead(c, (recs) => webRead(c.db, c.env, c.model, recs, c.get('specification', {}))),
  },
  get_sale_details: {
    params: ['date_start', 'date_stop', 'config_ids', 'session_ids'],
    required: 0,
    ids: false,
    only: 'report.point_of_sale.report_saledetails',
    // 18+ take **kwargs and hand them to _get_domain, which takes none: a TypeError (500 on JSON-2).
    varkwSince: 18,
    run: saleDetails,
  },
};

/** Odoo 16's own signatures where later versions changed them. */
const METHODS_16: Record<string, MethodSpec> = {
  // 16 reads a list of fields, as search_read does (17 made it a specification).
  web_search_read: {
    params: ['domain', 'fields', 'offset', 'limit', 'order', 'count_limit'],
    required: 0,
    ids: false,
    op: 'read',
    run: (c) =>
      webSearchRead(c, (recs) =>
        readRecs(c.db, c.env, c.model, recs, fieldList(c.db, c.model, c.get('fields', null)), true),
      ),
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
  const spec =
    db.version === 16 && Object.hasOwn(METHODS_16, call.method)
      ? METHODS_16[call.method]
      : Object.hasOwn(METHODS, call.method)
        ? METHODS[call.method]
        : undefined;
  if (
    !spec ||
    (spec.only && spec.only !== model.name) ||
    (spec.since ?? 0) > db.version ||
    (spec.until ?? 99) < db.version
  ) {
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
  const bound = bind({ ...call, args }, spec, db.version);
  const get = (k: string, d: unknown): unknown => (bound.has(k) && bound.get(k) !== null ? bound.get(k) : d);
  if (spec.op) checkAccess(model, env, spec.op);
  return spec.run({ db, env, model, ids, bound, get });
}

/** A grouping answer as --faults lie=LIE makes it. */
function lied(c: Invocation, groups: Json): Json {
  const lie = c.db.groupLie;
  if (!lie) return groups;
  const gb = c.get('groupby', []);
  return lieInGroups(
    lie,
    groups,
    (typeof gb === 'string' ? [gb] : Array.isArray(gb) ? gb : []).map(String),
  ) as Json;
}

/** search_read, search_fetch: the fields are checked before the domain, as Odoo does. */
function readFound(c: Invocation, fieldsArg: string, many2oneNames: boolean): Json {
  const fields = fieldList(c.db, c.model, c.get(fieldsArg, null));
  const found = searched(c);
  const cap = c.db.searchReadCap;
  return readRecs(
    c.db,
    c.env,
    c.model,
    cap === undefined ? found : found.slice(0, cap),
    fields,
    many2oneNames,
  );
}

/**
 * web_search_read: `{length, records}`. The length is the records' count past the offset,
 * unless a full page came back: then the domain's count, up to count_limit (Odoo's
 * _format_web_search_read_results).
 */
function webSearchRead(c: Invocation, shape: (recs: Rec[]) => Json[]): Json {
  const offset = Number(c.get('offset', 0)) || 0;
  const limit = c.get('limit', null) as number | null;
  const countLimit = c.get('count_limit', null) as number | null;
  const records = shape(searched(c));
  if (records.length === 0) return { length: 0, records: [] };
  const current = records.length + offset;
  const length =
    limit && records.length === limit && !(countLimit && countLimit <= current)
      ? searchCount(c.db, c.env, c.model, c.get('domain', []), countLimit)
      : current;
  return { length, records };
}

/**
 * web_read's shape of records (17+): the fields of the specification, a many2one as its id,
 * or with `fields` as `{id, ...}` read from its model with the user's rights; a one2many or
 * many2many as its ids, or with `fields` as a list of such objects.
 */
function webRead(db: Db, env: Env, model: ModelDef, recs: Rec[], specification: unknown): Json[] {
  const spec = (specification && typeof specification === 'object' ? specification : {}) as Record<
    string,
    { fields?: unknown } | null
  >;
  const names = Object.keys(spec);
  if (names.length === 0) return recs.map((r) => ({ id: r.id }));
  const rows = readRecs(db, env, model, recs, fieldList(db, model, names), false) as { [k: string]: Json }[];
  for (const name of names) {
    const nested = spec[name]?.fields;
    const def = model.fields.get(name);
    if (nested === undefined || !def?.relation) continue;
    const comodel = db.models.get(def.relation);
    if (!comodel) continue;
    checkAccess(comodel, env, 'read');
    const table = db.table(comodel.name);
    const wanted = new Set<number>();
    for (const row of rows) {
      const v = row[name];
      for (const id of Array.isArray(v) ? v : [v]) if (typeof id === 'number') wanted.add(id);
    }
    const found = [...wanted].map((id) => table.get(id)).filter((r): r is Rec => r !== undefined);
    const byId = new Map(webRead(db, env, comodel, found, nested).map((o) => [(o as { id: number }).id, o]));
    for (const row of rows) {
      const v = row[name];
      if (Array.isArray(v))
        row[name] = v.flatMap((id) => (byId.has(id as number) ? [byId.get(id as number) as Json] : []));
      else if (typeof v === 'number') row[name] = byId.get(v) ?? { id: v };
    }
  }
  return rows;
}

/** read: the records that exist, in the order of the ids asked for. */
function readIds(c: Invocation): Json {
  const fields = fieldList(c.db, c.model, c.get('fields', null));
  // Odoo never fetches `id`, so reading only `id` echoes missing ids too (facts §3.4).
  if (fields.length === 1 && fields[0]?.name === 'id') return c.ids.map((id) => ({ id }));
  const table = c.db.table(c.model.name);
  const recs: Rec[] = [];
  for (const id of c.ids) {
    const r = table.get(id);
    if (r) recs.push(r);
  }
  checkRecordRules(c.db, c.env, c.model, recs);
  return readRecs(c.db, c.env, c.model, recs, fields, load(c));
}

/** name_search: [id, display name] pairs of the records whose display name matches. */
function nameSearch(c: Invocation): Json {
  const name = String(c.get('name', ''));
  const op = String(c.get('operator', 'ilike'));
  const domain = [...((c.get('args', []) as unknown[]) ?? [])];
  if (name) domain.push(['display_name', op, name]);
  return search(c.db, c.env, c.model, domain, 0, c.get('limit', 100), null).map((r) => [
    r.id,
    c.model.displayName(r, c.db),
  ]);
}

/** check_access_rights: true, or false / the AccessError when `raise_exception` says so. */
function checkAccessRights(c: Invocation): Json {
  try {
    checkAccess(c.model, c.env, String(c.get('operation', 'read')) as Operation);
    return true;
  } catch (e) {
    if (c.get('raise_exception', true) === false) return false;
    throw e;
  }
}

function saleDetails(c: Invocation): Json {
  const extra = c.bound.get('**kwargs') as string[] | undefined;
  if (extra) {
    const cls = c.db.version === 19 ? 'ReportPoint_Of_SaleReport_Saledetails' : 'ReportSaleDetails';
    throw typeError(`${cls}._get_domain() got an unexpected keyword argument '${extra[0]}'`);
  }
  return getSaleDetails(c.db, c.env, {
    date_start: c.get('date_start', false),
    date_stop: c.get('date_stop', false),
    config_ids: c.get('config_ids', false),
    session_ids: c.get('session_ids', false),
  });
}
