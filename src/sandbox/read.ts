/**
 * Reading records as Odoo sends them (`read`, `search_read`: many2one pairs, whole-second datetimes,
 * truncated integers) and describing fields (`fields_get`).
 */

import { type OdooError, valueError } from './errors.js';
import { defaultAggregator } from './group.js';
import type { Db, FieldDef, ModelDef } from './store.js';
import { wholeSeconds } from './time.js';
import type { Env, Json, Rec, Stored } from './types.js';

export function invalidField(db: Db, model: ModelDef, name: unknown): OdooError {
  return valueError(
    db.version === 19
      ? `Invalid field ${pyStr(name)} on '${model.name}'`
      : `Invalid field ${pyStr(name)} on model '${model.name}'`,
  );
}
const pyStr = (v: unknown): string => (typeof v === 'string' ? `'${v}'` : String(v));

export function fieldList(db: Db, model: ModelDef, fields: unknown): FieldDef[] {
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
  const getters = cols.map((f) => (f.compute ? (r: Rec) => f.compute?.(r, db, env) : db.rowGetter(f)));
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

export function fieldsGet(db: Db, model: ModelDef, allfields: unknown, attributes: unknown): Json {
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
      searchable: f.store || (f.search ?? f.searchable === true),
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
    if (f.digits !== undefined) d.digits = f.digits;
    if (f.related) d.related = f.related;
    const agg = defaultAggregator(f);
    if (agg) d[aggKey] = agg;
    if (f.type === 'char' || f.type === 'text') d.translate = f.translate ?? false;
    const sel: Record<string, Json> = {};
    for (const k of [...attrs].sort()) if (Object.hasOwn(d, k)) sel[k] = d[k] as Json;
    out[f.name] = sel;
  }
  return out;
}
