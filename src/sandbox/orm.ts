/**
 * The ORM methods reachable over RPC (search_read, read, search, search_count, fields_get, create,
 * write, unlink, read_group, name_search, context_get, ...), with Odoo's argument binding, access
 * rules, ordering and value encoding. Both JSON-RPC and JSON-2 end up here.
 */

import { checkAccess } from './access.js';
import {
  accessError,
  httpError,
  missingError,
  OdooError,
  typeError,
  userError,
  valueError,
} from './errors.js';
import { formattedReadGroup, readGroup } from './group.js';
import { fieldList, fieldsGet, readRecs } from './read.js';
import { getSaleDetails } from './sale-details/index.js';
import { search, searchCount } from './search.js';
import type { Db, ModelDef } from './store.js';
import type { Env, Json, Operation, Rec } from './types.js';
import { create, unlink, write } from './write.js';

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
