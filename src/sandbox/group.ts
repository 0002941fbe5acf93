/**
 * Grouping as Odoo answers it: `read_group` (16-18, and 19's deprecated one) and Odoo 19's
 * `formatted_read_group`. One pass over the rows the domain selects (a date range in the domain
 * starts the scan in the sorted date index), one accumulator per group, then Odoo's ordering,
 * offset/limit, value formatting and per-group domains.
 */

import {
  datePart,
  fromLocal,
  isTimeGranularity,
  NUMBER_GRANULARITIES,
  nextLocal,
  offsetAt,
  periodLabel,
  type TimeGranularity,
  toLocal,
  truncLocal,
  validZone,
} from './calendar.js';
import { columnReader, compileDomain, type Reader } from './domain.js';
import { userError, valueError } from './errors.js';
import { rankOf, scan } from './search.js';
import type { Db, FieldDef, ModelDef } from './store.js';
import { fmtDate, fmtDatetime, parseDatetime, wholeSeconds } from './time.js';
import type { Env, Json, Stored } from './types.js';

type Key = number | string | boolean;

interface GroupSpec {
  /** As the caller wrote it (`date_order:day`, `product_id.categ_id`). */
  spec: string;
  /** The path a domain uses (`date_order`, `product_id.categ_id`). */
  path: string;
  /** A many2one path (19): the many2one and the comodel's field; its leaves go inside `any`. */
  via?: { head: string; sub: string };
  field: FieldDef;
  time?: TimeGranularity;
  /** Odoo 18+ date part (`day_of_week` ...). */
  part?: string;
  /** Keys of a record (by id): several for a many2many, `false` when empty. */
  keys: (id: number) => Key | Key[];
  tz: string | false;
}

interface AggSpec {
  /** Key in the reply. */
  out: string;
  field: FieldDef;
  fn: string;
}

const AGGREGATES = new Set([
  'sum',
  'avg',
  'max',
  'min',
  'bool_and',
  'bool_or',
  'array_agg',
  'count',
  'count_distinct',
]);
const NUMERIC = new Set(['integer', 'float', 'monetary']);

/** The aggregate a field gets when `fields` names it bare (17 group_operator, 18+ aggregator). */
export function defaultAggregator(f: FieldDef): string | undefined {
  if (f.aggregator !== undefined) return f.aggregator || undefined;
  return NUMERIC.has(f.type) && f.name !== 'id' ? 'sum' : undefined;
}

const SPEC_RE = /^(\w+)(?:\.(\w+))?(?::(\w+))?$/;

function invalidSpec(spec: string): Error {
  return valueError(
    `Invalid aggregate/groupby specification ${pyq(spec)}.\n- Valid aggregate specification looks like "<field_name>:<agg>" example: "quantity:sum".\n- Valid groupby specification looks like "<no_datish_field_name>" or "<date_field>:<granularity>" example: "date:month" or "<properties_field>.<property>:<granularity>".`,
  );
}
const pyq = (s: string): string => (s.includes("'") && !s.includes('"') ? `"${s}"` : `'${s}'`);
/**
 * A non-stored field in a groupby or an aggregate, in each version's words: 16's read_group checks
 * `groupable` first (a UserError); 17's `_field_to_sql` and 18/19's `Field.to_sql` refuse it.
 */
function notStored(db: Db, model: ModelDef, f: FieldDef, use: 'groupby' | 'aggregate'): Error {
  if (db.version === 16)
    return use === 'groupby'
      ? userError(
          `Field ${model.name}.${f.name} is not a stored field, only stored fields (regular or many2many) are valid for the 'groupby' parameter`,
        )
      : userError(`Cannot aggregate field ${pyq(f.name)}.`);
  if (db.version === 17) return valueError(`Cannot convert field ${model.name}.${f.name} to SQL`);
  return valueError(`Cannot convert ${model.name}.${f.name} to SQL because it is not stored`);
}

function groupSpec(db: Db, env: Env, model: ModelDef, spec: string, defaultMonth: boolean): GroupSpec {
  const m = SPEC_RE.exec(spec);
  if (!m) throw invalidSpec(spec);
  const [, fname = '', sub, gran] = m;
  const { first, field, get, parent } = groupedField(db, model, fname, sub);
  const path = sub ? `${fname}.${sub}` : fname;
  const dated = field.type === 'date' || field.type === 'datetime';
  if (gran && !dated) throw valueError(`Granularity set on a no-datetime field or property: ${pyq(spec)}`);
  if ((!field.store && !field.inherited) || field.type === 'one2many') {
    // 16/17 refuse it as any other non-stored field (seen on a real 17).
    if (field.type === 'many2many' && db.version >= 18)
      throw valueError(`Group by non-stored many2many field: ${pyq(spec)}`);
    throw notStored(db, db.models.get(sub ? (first.relation ?? '') : model.name) ?? model, field, 'groupby');
  }
  const tz: string | false = field.type === 'datetime' && validZone(env.groupTz) ? env.groupTz : false;
  const base = { spec, path, field, tz, ...(sub ? { via: { head: fname, sub } } : {}) };
  const make = (keyOf: (v: Stored) => Key | Key[], extra: Partial<GroupSpec> = {}): GroupSpec => ({
    ...base,
    ...extra,
    keys: parent ? throughParent(db, parent, keyOf) : (id) => keyOf(get(id)),
  });
  if (dated) {
    const g = gran ?? (defaultMonth ? 'month' : undefined);
    if (!g) throw valueError(`Granularity not set on a date(time) field: ${pyq(spec)}`);
    const numberOk = db.version >= 18 && Object.hasOwn(NUMBER_GRANULARITIES, g);
    if (!isTimeGranularity(g) && !numberOk)
      throw valueError(`Granularity specification isn't correct: ${pyq(g)}`);
    const part = NUMBER_GRANULARITIES[g];
    const fine = part === 'minute' || part === 'second';
    const { keyOf, hourKey } = dateKeys(field, g, tz);
    const extra = part ? { part: g } : { time: g as TimeGranularity };
    if (parent || field.type !== 'datetime' || fine) return make(keyOf, extra);
    // A datetime of the model's own, by period or part of an hour or more: keyed on the column of
    // hour starts, one key worked out per hour of data.
    return { ...base, ...extra, keys: byHourColumn(db.hourColumn(model.name, field), get, keyOf, hourKey) };
  }
  if (field.type === 'many2many') return make((v) => (Array.isArray(v) && v.length > 0 ? v : false));
  if (field.type === 'boolean') return make((v) => v === true);
  return make((v) => (v === undefined || v === null || v === '' ? false : (v as Key)));
}

/** A many2one path's parent: the many2one's reader and its comodel, the comodel's field's reader. */
interface ParentPath {
  outer: (id: number) => Stored;
  model: string;
  inner: (id: number) => Stored;
}

/** The field a groupby names (`fname`, or 19's `fname.sub` through a many2one) and how to read it. */
function groupedField(
  db: Db,
  model: ModelDef,
  fname: string,
  sub: string | undefined,
): { first: FieldDef; field: FieldDef; get: (id: number) => Stored; parent?: ParentPath } {
  const first = model.fields.get(fname);
  if (!first) throw valueError(`Invalid field ${pyq(fname)} on model ${pyq(model.name)}`);
  // A grouping reads every row it keeps: its fields from columns.
  const read = columnReader(db);
  const get = read(model.name, first);
  if (!sub) return { first, field: first, get };
  // 16-17 read a dot as a property name; 18+ follow a many2one.
  if (db.version !== 19 || first.type !== 'many2one')
    throw valueError(`Property name ${pyq(sub)} has to be used on a property field.`);
  if (!first.store) throw notStored(db, model, first, 'groupby');
  const comodel = db.models.get(first.relation ?? '');
  const target = comodel?.fields.get(sub);
  if (!comodel || !target)
    throw valueError(`Invalid field ${pyq(sub)} on model ${pyq(first.relation ?? '')}`);
  return {
    first,
    field: target,
    get,
    parent: { outer: get, model: comodel.name, inner: read(comodel.name, target) },
  };
}

/** A many2one path's keys: worked out once per parent record. */
function throughParent(
  db: Db,
  { outer, model, inner }: ParentPath,
  keyOf: (v: Stored) => Key | Key[],
): (id: number) => Key | Key[] {
  const cache = new Map<number, Key | Key[]>();
  return (rid) => {
    const id = outer(rid);
    if (typeof id !== 'number') return keyOf(false);
    let k = cache.get(id);
    if (k === undefined) {
      k = keyOf(db.get(model, id) ? inner(id) : false);
      cache.set(id, k);
    }
    return k;
  };
}

/**
 * A date or datetime's key by period or part (`g`), in the zone `tz`: the key of a value, and
 * the key of a whole hour that starts at a UTC second (null where the zone's offset changes
 * within it or is not whole hours: each value is then worked out on its own).
 */
function dateKeys(
  field: FieldDef,
  g: string,
  tz: string | false,
): { keyOf: (v: Stored) => Key; hourKey: (at: number) => Key | null } {
  const part = NUMBER_GRANULARITIES[g];
  const fine = part === 'minute' || part === 'second';
  const ofLocal = (l: number): Key =>
    part ? datePart(l, part) : fmtDatetime(truncLocal(l, g as TimeGranularity));
  // One computation per hour of data: periods and parts of an hour or more change only on the
  // hour wherever the zone's offset is whole hours (else per value).
  const memo = new Map<string, Key | null>();
  // The last hour's key: a scan in date order meets the same hour row after row.
  let lastHour = '';
  let lastKey: Key = false;
  const hourKey = (at: number): Key | null => {
    const off = tz ? offsetAt(at, tz) : 0;
    return off % 3600 === 0 && (!tz || offsetAt(at + 3599, tz) === off) ? ofLocal(at + off) : null;
  };
  const keyOf = (v: Stored): Key => {
    if (typeof v !== 'string' || v === '') return false;
    if (field.type === 'date') {
      let k = memo.get(v);
      if (k === undefined || k === null) {
        k = ofLocal(Date.parse(`${v}T00:00:00Z`) / 1000);
        memo.set(v, k);
      }
      return k;
    }
    if (!fine) {
      if (lastHour !== '' && v.startsWith(lastHour)) return lastKey;
      const h = v.slice(0, 13);
      let k = memo.get(h);
      if (k === undefined) {
        k = hourKey(parseDatetime(`${h}:00:00`));
        memo.set(h, k);
      }
      if (k !== null) {
        lastHour = h;
        lastKey = k;
        return k;
      }
    }
    return ofLocal(toLocal(parseDatetime(wholeSeconds(v)), tz));
  };
  return { keyOf, hourKey };
}

/** Keys read from the column of hour starts: one key worked out per hour of data. */
function byHourColumn(
  hours: (id: number) => number,
  get: (id: number) => Stored,
  keyOf: (v: Stored) => Key,
  hourKey: (at: number) => Key | null,
): (id: number) => Key {
  const byHour = new Map<number, Key | null>();
  let lastAt = Number.NaN;
  let lastAtKey: Key = false;
  return (id) => {
    const at = hours(id);
    if (at === lastAt) return lastAtKey;
    if (Number.isNaN(at)) return keyOf(get(id));
    let k = byHour.get(at);
    if (k === undefined) {
      k = hourKey(at);
      byHour.set(at, k);
    }
    if (k === null) return keyOf(get(id));
    lastAt = at;
    lastAtKey = k;
    return k;
  };
}

function aggSpec(db: Db, model: ModelDef, out: string, fname: string, fn: string, spec: string): AggSpec {
  const field = model.fields.get(fname);
  if (!field) throw valueError(`Invalid field ${pyq(fname)} on model ${pyq(model.name)}`);
  if (!AGGREGATES.has(fn)) throw valueError(`Invalid aggregate method ${pyq(fn)} for ${pyq(spec)}.`);
  if ((!field.store && !field.inherited) || field.type === 'one2many' || field.type === 'many2many')
    throw notStored(db, model, field, 'aggregate');
  return { out, field, fn };
}

// ---------------------------------------------------------------------------------------------
// The pass over the rows

interface Acc {
  keys: Key[];
  count: number;
  vals: unknown[];
  /** Each aggregate's result, worked out once the rows are in (groupRows). */
  out: Json[];
}

const SCALE = 1e6;

function startAcc(fn: string): unknown {
  switch (fn) {
    case 'sum':
    case 'avg':
      return { n: 0, cents: 0, float: 0, exact: true };
    case 'count':
      return 0;
    case 'count_distinct':
      return new Set<Stored>();
    case 'array_agg':
      return [] as [number, Stored][];
    default:
      return undefined;
  }
}

/** Adds one value (`undefined` = SQL NULL) to an accumulator. */
function addAcc(fn: string, acc: unknown, v: Stored, id: number): unknown {
  const empty = v === undefined || v === null;
  switch (fn) {
    case 'sum':
    case 'avg': {
      if (typeof v !== 'number') return acc;
      const a = acc as { n: number; cents: number; float: number; exact: boolean };
      a.n++;
      a.float += v;
      // Postgres sums numeric columns exactly: add fixed-point while that stays exact.
      if (a.exact) {
        const scaled = Math.round(v * SCALE);
        a.cents += scaled;
        if (!Number.isSafeInteger(a.cents) || Math.abs(scaled - v * SCALE) > 0.5) a.exact = false;
      }
      return a;
    }
    case 'count':
      return empty ? acc : (acc as number) + 1;
    case 'count_distinct':
      if (!empty) (acc as Set<Stored>).add(v);
      return acc;
    case 'array_agg':
      (acc as [number, Stored][]).push([id, v]);
      return acc;
    case 'max':
      return empty ? acc : acc === undefined || (v as number) > (acc as number) ? v : acc;
    case 'min':
      return empty ? acc : acc === undefined || (v as number) < (acc as number) ? v : acc;
    case 'bool_and':
      return empty ? acc : acc === undefined ? v === true : (acc as boolean) && v === true;
    case 'bool_or':
      return empty ? acc : acc === undefined ? v === true : (acc as boolean) || v === true;
    default:
      return acc;
  }
}

/**
 * An array_agg's value of a numeric column as Odoo sends it: psycopg2 hands PostgreSQL's numeric
 * to Odoo as a Decimal, which its JSON writes as text (seen on a real 17: price_subtotal's
 * "2227.47", "-147.0"; qty's "2.00"). A Float with digits (a named precision: numeric(16,2);
 * digits=0: numeric at full precision) or a Monetary is numeric; a Float without is float8.
 */
function aggItem(f: FieldDef, v: Stored): Json {
  const numeric =
    f.type === 'monetary' || (f.type === 'float' && f.digits !== undefined && f.digits !== false);
  if (typeof v !== 'number' || !numeric) return wholeSeconds(v) as Json;
  if (Array.isArray(f.digits)) return v.toFixed(f.digits[1]);
  return Number.isInteger(v) ? `${v}.0` : String(v);
}

function endAcc(fn: string, acc: unknown, f: FieldDef): Json {
  switch (fn) {
    case 'sum':
    case 'avg': {
      const a = acc as { n: number; cents: number; float: number; exact: boolean };
      // SQL SUM/AVG of no value is NULL, which _read_group_empty_value turns into False.
      if (a.n === 0) return false;
      const sum = a.exact ? a.cents / SCALE : a.float;
      return fn === 'sum' ? sum : sum / a.n;
    }
    case 'count':
      return acc as number;
    case 'count_distinct':
      return (acc as Set<Stored>).size;
    case 'array_agg':
      return (acc as [number, Stored][])
        .sort((x, y) => x[0] - y[0])
        .map(([, v]) => (v === undefined ? null : aggItem(f, v)));
    default:
      // max/min of a create/write date: stored with microseconds, sent in whole seconds.
      return acc === undefined ? false : (wholeSeconds(acc) as Json);
  }
}

/** What a grouping selects: the rows of `model` that `domain` matches, their fields read by `read`. */
interface Selection {
  db: Db;
  env: Env;
  model: ModelDef;
  domain: unknown;
  read: Reader;
}

/** Picks the scan: a date range in the domain walks that date's sorted index from its bound. */
function selectRows(sel: Selection, visit: (id: number) => void): void {
  const { db, env, model, domain, read } = sel;
  if (viaParent(sel, visit)) return;
  const compiled = compileDomain(db, model, domain, env, read);
  let order = 'id';
  for (const f of model.fields.values()) {
    if (!f.store || (f.type !== 'datetime' && f.type !== 'date') || f.compute || f.dflt) continue;
    const b = compiled.bounds(f);
    if (b.lo || b.hi) {
      order = f.name;
      break;
    }
  }
  scan([db, env, model, domain, 0, null, order], (_r, id) => visit(id), read);
}

/**
 * A domain made only of leaves through one many2one (`order_id.date_order`, `order_id.state`)
 * selects the children of the parents that match: search the parents (with their date index), then
 * take their children through the one2many that mirrors the many2one (in the parents' order:
 * grouping does not depend on it).
 */
function viaParent({ db, env, model, domain, read }: Selection, visit: (id: number) => void): boolean {
  if (!Array.isArray(domain) || domain.length === 0 || model.hasActive) return false;
  let head: string | undefined;
  const sub: unknown[] = [];
  for (const t of domain) {
    if (t === '&') continue;
    if (!Array.isArray(t) || t.length !== 3 || typeof t[0] !== 'string') return false;
    const dot = t[0].indexOf('.');
    if (dot < 0 || (head !== undefined && t[0].slice(0, dot) !== head)) return false;
    head = t[0].slice(0, dot);
    sub.push([t[0].slice(dot + 1), t[1], t[2]]);
  }
  const field = head === undefined ? undefined : model.fields.get(head);
  if (field?.type !== 'many2one' || !field.store) return false;
  const comodel = db.models.get(field.relation ?? '');
  const children =
    comodel &&
    [...comodel.fields.values()].find(
      (f) => f.type === 'one2many' && f.inverse === head && f.relation === model.name,
    );
  if (!comodel || !children) return false;
  // A parent's children are read once, off its row (a column of them would work out every one).
  const kids = db.byRow(comodel.name, children);
  const rows = db.table(model.name).rows;
  const link = read(model.name, field);
  selectRows({ db, env: { ...env, activeTest: false }, model: comodel, domain: sub, read }, (p) => {
    const v = kids(p);
    if (!Array.isArray(v)) return;
    for (const id of v) if (rows[id] !== undefined && link(id) === p) visit(id);
  });
  return true;
}

function groupRows(
  db: Db,
  env: Env,
  model: ModelDef,
  domain: unknown,
  gbs: GroupSpec[],
  aggs: AggSpec[],
): Acc[] {
  const read = columnReader(db);
  // Values as SQL sees them: an unset many2one, char or date is NULL; a boolean False is a value.
  const getters = aggs.map((a): ((id: number) => Stored) => {
    if (a.field.name === 'id') return (id) => id;
    const get = read(model.name, a.field);
    if (a.field.type === 'boolean') return (id) => get(id) === true;
    return (id) => {
      const v = get(id);
      return v === false || v === '' ? undefined : v;
    };
  });
  // Groups in nested maps, one level per groupby: no key text built per row.
  const root = new Map<Key, unknown>();
  const all: Acc[] = [];
  const last = gbs.length - 1;
  const add = (keys: Key[], id: number): void => {
    let m = root;
    for (let i = 0; i < last; i++) {
      const k = keys[i] as Key;
      let next = m.get(k) as Map<Key, unknown> | undefined;
      if (!next) {
        next = new Map();
        m.set(k, next);
      }
      m = next;
    }
    const k = last >= 0 ? (keys[last] as Key) : false;
    let g = m.get(k) as Acc | undefined;
    if (!g) {
      g = { keys: [...keys], count: 0, vals: aggs.map((a) => startAcc(a.fn)), out: [] };
      m.set(k, g);
      all.push(g);
    }
    g.count++;
    for (let i = 0; i < aggs.length; i++) {
      const a = aggs[i] as AggSpec;
      g.vals[i] = addAcc(a.fn, g.vals[i], (getters[i] as (id: number) => Stored)(id), id);
    }
  };
  const n = gbs.length;
  const keyFns = gbs.map((g) => g.keys);
  const cur: Key[] = new Array(n);
  const per: (Key | Key[])[] = new Array(n);
  const walk = (i: number, id: number): void => {
    if (i === n) {
      add(cur, id);
      return;
    }
    const k = per[i] as Key | Key[];
    if (Array.isArray(k)) {
      for (const x of k) {
        cur[i] = x;
        walk(i + 1, id);
      }
    } else {
      cur[i] = k;
      walk(i + 1, id);
    }
  };
  selectRows({ db, env, model, domain, read }, (id) => {
    // Each many2many value makes its own group (a LEFT JOIN on the relation table).
    let multi = false;
    for (let i = 0; i < n; i++) {
      const k = (keyFns[i] as (id: number) => Key | Key[])(id);
      per[i] = k;
      if (Array.isArray(k)) multi = true;
      else cur[i] = k;
    }
    if (multi) walk(0, id);
    else add(cur, id);
  });
  // Without groupby SQL still answers one row (count 0) when nothing matches.
  if (n === 0 && all.length === 0)
    all.push({ keys: [], count: 0, vals: aggs.map((a) => startAcc(a.fn)), out: [] });
  for (const g of all) g.out = aggs.map((a, i) => endAcc(a.fn, g.vals[i], a.field));
  return all;
}

// ---------------------------------------------------------------------------------------------
// Ordering

interface OrderTerm {
  /** Group key index, or -1 for the count, or the aggregate index (>= 1000). */
  at: number;
  desc: boolean;
}

function compareKeys(a: Key, b: Key, rank: Map<number, number> | undefined, desc: boolean): number {
  if (a === b) return 0;
  // NULLS LAST ascending, NULLS FIRST descending (Postgres); booleans are values, not nulls.
  const an = a === false && typeof b !== 'boolean';
  const bn = b === false && typeof a !== 'boolean';
  if (an) return desc ? -1 : 1;
  if (bn) return desc ? 1 : -1;
  let x: number | string = typeof a === 'boolean' ? Number(a) : a;
  let y: number | string = typeof b === 'boolean' ? Number(b) : b;
  if (rank && typeof x === 'number' && typeof y === 'number') {
    x = rank.get(x) ?? x;
    y = rank.get(y) ?? y;
  }
  const r = x < y ? -1 : x > y ? 1 : 0;
  return desc ? -r : r;
}

function sortGroups(
  db: Db,
  groups: Acc[],
  gbs: GroupSpec[],
  terms: OrderTerm[],
  aggVals: (g: Acc, i: number) => Json,
): void {
  // Many2one groups follow the comodel's _order (sessions newest first), with or without an
  // explicit order, as recorded from a real 17 (read_group) and 19 (formatted_read_group).
  const ranks = gbs.map((g) =>
    g.field.type === 'many2one' ? rankOf(db, g.field.relation ?? '') : undefined,
  );
  groups.sort((a, b) => {
    for (const t of terms) {
      let r: number;
      if (t.at >= 1000) {
        const x = aggVals(a, t.at - 1000);
        const y = aggVals(b, t.at - 1000);
        r = compareKeys(x as Key, y as Key, undefined, t.desc);
      } else if (t.at === -1) r = t.desc ? b.count - a.count : a.count - b.count;
      else r = compareKeys(a.keys[t.at] as Key, b.keys[t.at] as Key, ranks[t.at], t.desc);
      if (r !== 0) return r;
    }
    return 0;
  });
}

function parseOrderTerms(
  order: unknown,
  gbs: GroupSpec[],
  aggNames: string[],
  countNames: string[],
): OrderTerm[] {
  if (typeof order !== 'string' || order.trim() === '') return gbs.map((_, i) => ({ at: i, desc: false }));
  const terms: OrderTerm[] = [];
  for (const raw of order.split(',')) {
    const bits = raw.trim().split(/\s+/);
    const name = (bits[0] ?? '').replace(/"/g, '');
    const dir = (bits[1] ?? 'asc').toLowerCase();
    if (!name || (dir !== 'asc' && dir !== 'desc'))
      throw valueError(`Invalid order term ${pyq(raw.trim())} (expected "<groupby|aggregate> [asc|desc]")`);
    const desc = dir === 'desc';
    let at = gbs.findIndex((g) => g.spec === name);
    if (at < 0) at = gbs.findIndex((g) => g.path === name && !g.time && !g.part);
    if (at < 0) at = gbs.findIndex((g) => g.spec.split(':')[0] === name);
    if (at >= 0) {
      terms.push({ at, desc });
      continue;
    }
    if (countNames.includes(name)) {
      terms.push({ at: -1, desc });
      continue;
    }
    const ai = aggNames.indexOf(name);
    if (ai >= 0) {
      terms.push({ at: 1000 + ai, desc });
      continue;
    }
    throw valueError(`Order term ${pyq(raw)} is not a valid aggregate nor valid groupby`);
  }
  return terms;
}

// ---------------------------------------------------------------------------------------------
// Values and domains on the wire

/** The group value and its domain leaf(s), as _read_group_format_result / formatted_read_group build them. */
function present(
  db: Db,
  g: GroupSpec,
  k: Key,
  v19Shape: boolean,
): { value: Json; domain: Json[]; range?: { from: string; to: string } | false } {
  const shown = presentLeaves(db, g, k, v19Shape);
  // 19 writes a condition through a many2one as `[head, 'any', <condition on the comodel>]`.
  if (g.via) shown.domain = [[g.via.head, 'any', shown.domain]];
  return shown;
}

function presentLeaves(
  db: Db,
  g: GroupSpec,
  k: Key,
  v19Shape: boolean,
): { value: Json; domain: Json[]; range?: { from: string; to: string } | false } {
  const f = g.field;
  const path = g.via ? g.via.sub : g.path;
  if (g.time) {
    if (k === false) return { value: false, domain: [[path, '=', false]], range: false };
    const withTime = f.type === 'datetime';
    const startLocal = parseDatetime(k as string);
    const endLocal = nextLocal(startLocal, g.time);
    const fmt = withTime ? fmtDatetime : fmtDate;
    const from = fmt(fromLocal(startLocal, g.tz));
    const to = fmt(fromLocal(endLocal, g.tz));
    const label = periodLabel(startLocal, g.time);
    return {
      value: v19Shape ? [from, label] : label,
      domain: ['&', [path, '>=', from], [path, '<', to]],
      range: { from, to },
    };
  }
  if (g.part) return { value: k as Json, domain: [[`${path}.${g.part}`, '=', k as Json]] };
  if (f.type === 'many2one' || f.type === 'many2many') {
    if (typeof k !== 'number') {
      return {
        value: false,
        domain: [f.type === 'many2many' ? [path, 'not any', []] : [path, '=', false]],
      };
    }
    return { value: [k, db.displayName(f.relation ?? '', k)], domain: [[path, '=', k]] };
  }
  return { value: k as Json, domain: [[path, '=', k as Json]] };
}

/** odoo.osv.expression.normalize_domain: implicit '&' made explicit. */
function normalize(domain: Json[]): Json[] {
  if (domain.length === 0) return [[1, '=', 1]];
  const out: Json[] = [];
  let expected = 1;
  for (const t of domain) {
    if (expected === 0) {
      out.unshift('&');
      expected = 1;
    }
    if (Array.isArray(t)) expected -= 1;
    else expected += (t === '!' ? 1 : t === '&' || t === '|' ? 2 : 0) - 1;
    out.push(t);
  }
  return out;
}

/** expression.AND: empty domains drop out, the others are normalised and joined with '&'. */
function andDomains(domains: Json[][]): Json[] {
  const parts = domains.filter((d) => d.length > 0);
  const out: Json[] = [];
  for (const d of parts) out.push(...normalize(d));
  return parts.length > 1 ? [...Array(parts.length - 1).fill('&'), ...out] : out.length ? out : [[1, '=', 1]];
}

/**
 * 19's Domain.AND: one n-ary AND, written as n-1 '&' then its operands, nested ANDs flattened
 * (17's expression.AND nests them: `['&', '&', d1, d2, '&', r1, r2]` against 19's
 * `['&', '&', '&', d1, d2, r1, r2]`).
 */
function andFlat(domains: Json[][]): Json[] {
  const operands: Json[][] = [];
  const take = (d: Json[], at: number): number => {
    // One prefix-notation term starting at `at`: returns where it ends.
    const t = d[at];
    if (t === '!') return take(d, at + 1);
    if (t === '&' || t === '|') return take(d, take(d, at + 1));
    return at + 1;
  };
  const split = (d: Json[], at: number, end: number): void => {
    if (d[at] === '&') {
      const mid = take(d, at + 1);
      split(d, at + 1, mid);
      split(d, mid, end);
    } else operands.push(d.slice(at, end));
  };
  for (const d of domains) {
    if (d.length === 0) continue;
    const n = normalize(d);
    split(n, 0, n.length);
  }
  if (operands.length === 0) return [[1, '=', 1]];
  return [...Array(operands.length - 1).fill('&'), ...operands.flat(1)];
}

const asList = (v: unknown): unknown[] =>
  Array.isArray(v) ? v : v === undefined || v === null || v === false ? [] : [v];

function window<T>(list: T[], offset: unknown, limit: unknown): T[] {
  const o = typeof offset === 'number' && offset > 0 ? Math.floor(offset) : 0;
  const l = typeof limit === 'number' && limit > 0 ? Math.floor(limit) : undefined;
  return list.slice(o, l === undefined ? undefined : o + l);
}

// ---------------------------------------------------------------------------------------------
// read_group (16-18, and 19's deprecated one)

export function readGroup(
  db: Db,
  env: Env,
  model: ModelDef,
  args: {
    domain: unknown;
    fields: unknown;
    groupby: unknown;
    offset: unknown;
    limit: unknown;
    orderby: unknown;
    lazy: unknown;
  },
): Json {
  const groupby = (typeof args.groupby === 'string' ? [args.groupby] : asList(args.groupby)).map(String);
  const lazy = args.lazy !== false && args.lazy !== 0;
  const lazyGb = lazy ? groupby.slice(0, 1) : groupby;
  const gbs = lazyGb.map((s) => groupSpec(db, env, model, s, true));
  const countName = lazy && lazyGb.length === 1 ? `${(lazyGb[0] as string).split(':')[0]}_count` : '__count';
  const aggs: AggSpec[] = [];
  const seen = new Set<string>([countName]);
  for (const spec of asList(args.fields)) {
    if (spec === '__count') continue;
    const text = String(spec);
    const m = /^(\w+)(?::(\w+)(?:\((\w+)\))?)?/.exec(text);
    if (!m) throw valueError(`Invalid field specification ${pyq(text)}.`);
    const [, name = '', fn, fname] = m;
    let agg: AggSpec | undefined;
    if (fname) agg = aggSpec(db, model, name, fname, fn ?? '', `${fname}:${fn}`);
    else if (fn) agg = aggSpec(db, model, name, name, fn, `${name}:${fn}`);
    else {
      const field = model.fields.get(name);
      if (!field) throw valueError(`Invalid field ${pyq(name)} on model ${pyq(model.name)}`);
      const op = defaultAggregator(field);
      if (field.store && op && !lazyGb.includes(text))
        agg = aggSpec(db, model, name, name, op, `${name}:${op}`);
    }
    if (agg && !seen.has(agg.out)) {
      seen.add(agg.out);
      aggs.push(agg);
    }
  }
  const groups = groupRows(db, env, model, args.domain, gbs, aggs);
  const aggOut = (g: Acc, i: number): Json => g.out[i] as Json;
  const terms = parseOrderTerms(
    args.orderby,
    gbs,
    aggs.map((a) => a.out),
    [countName, '__count'],
  );
  sortGroups(db, groups, gbs, terms, aggOut);
  const base = asList(args.domain) as Json[];
  return window(groups, args.offset, args.limit).map((g) => {
    const o: { [k: string]: Json } = {};
    const shown = gbs.map((s, i) => present(db, s, g.keys[i] as Key, false));
    gbs.forEach((s, i) => {
      o[s.spec] = (shown[i] as { value: Json }).value;
    });
    o[countName] = g.count;
    aggs.forEach((a, i) => {
      o[a.out] = aggOut(g, i);
    });
    let dom = base;
    if (db.version === 19) dom = andFlat([base, ...shown.map((s) => s.domain)]);
    else for (const s of shown) dom = andDomains([dom, s.domain]);
    o.__domain = dom;
    if (lazyGb.length < groupby.length) o.__context = { group_by: groupby.slice(lazyGb.length) };
    shown.forEach((s, i) => {
      if (s.range === undefined) return;
      const r = (o.__range ?? {}) as { [k: string]: Json };
      r[(gbs[i] as GroupSpec).spec] = s.range;
      o.__range = r;
    });
    return o;
  });
}

// ---------------------------------------------------------------------------------------------
// formatted_read_group (19)

export function formattedReadGroup(
  db: Db,
  env: Env,
  model: ModelDef,
  args: {
    domain: unknown;
    groupby: unknown;
    aggregates: unknown;
    having: unknown;
    offset: unknown;
    limit: unknown;
    order: unknown;
  },
): Json {
  const groupby = asList(args.groupby).map(String);
  const gbs = groupby.map((s) => groupSpec(db, env, model, s, false));
  const specs = asList(args.aggregates).map(String);
  const aggs: AggSpec[] = [];
  const outOrder: (number | 'count')[] = [];
  for (const spec of specs) {
    if (spec === '__count') {
      outOrder.push('count');
      continue;
    }
    const m = SPEC_RE.exec(spec);
    if (!m) throw invalidSpec(spec);
    const [, fname = '', sub, fn] = m;
    if (sub) throw valueError(`Invalid ${pyq(spec)}, this dot notation is not supported`);
    if (!fn) throw valueError(`Aggregate method is mandatory for ${pyq(fname)}`);
    outOrder.push(aggs.length);
    aggs.push(aggSpec(db, model, spec, fname, fn, spec));
  }
  // `having` and `order` may name aggregates that are not asked for.
  const extra = (name: string): number => {
    if (name === '__count') return -1;
    const i = aggs.findIndex((a) => a.out === name);
    if (i >= 0) return i;
    const m = SPEC_RE.exec(name);
    if (!m?.[3]) throw valueError(`Order term ${pyq(name)} is not a valid aggregate nor valid groupby`);
    aggs.push(aggSpec(db, model, name, m[1] ?? '', m[3], name));
    return aggs.length - 1;
  };
  const having = asList(args.having);
  const havingTests: ((g: Acc) => boolean)[] = [];
  for (const leaf of having) {
    if (leaf === '&') continue;
    if (!Array.isArray(leaf) || leaf.length !== 3)
      throw valueError(`Invalid having clause ${JSON.stringify(leaf)}`);
    const [name, op, value] = leaf as [string, string, number];
    const i = extra(String(name));
    const cmp: Record<string, (a: number, b: number) => boolean> = {
      '=': (a, b) => a === b,
      '!=': (a, b) => a !== b,
      '<': (a, b) => a < b,
      '<=': (a, b) => a <= b,
      '>': (a, b) => a > b,
      '>=': (a, b) => a >= b,
    };
    const test = cmp[op];
    if (!test) throw valueError(`Invalid having clause ${JSON.stringify(leaf)}`);
    havingTests.push((g) => test(i < 0 ? g.count : (g.out[i] as number), value));
  }
  if (typeof args.order === 'string')
    for (const raw of args.order.split(',')) {
      const name = raw.trim().split(/\s+/)[0] ?? '';
      if (name && !gbs.some((g) => g.spec === name || g.path === name) && name.includes(':')) extra(name);
    }
  let groups = groupRows(db, env, model, args.domain, gbs, aggs);
  if (havingTests.length > 0) groups = groups.filter((g) => havingTests.every((t) => t(g)));
  const aggOut = (g: Acc, i: number): Json => g.out[i] as Json;
  const terms = parseOrderTerms(
    args.order,
    gbs,
    aggs.map((a) => a.out),
    ['__count'],
  );
  sortGroups(db, groups, gbs, terms, aggOut);
  return window(groups, args.offset, args.limit).map((g) => {
    const o: { [k: string]: Json } = {};
    const shown = gbs.map((s, i) => present(db, s, g.keys[i] as Key, true));
    gbs.forEach((s, i) => {
      o[s.spec] = (shown[i] as { value: Json }).value;
    });
    // The group's own leaves only (not the request's domain), before the aggregates.
    o.__extra_domain = shown.length === 0 ? [] : andFlat(shown.map((s) => s.domain));
    for (const x of outOrder) {
      if (x === 'count') o.__count = g.count;
      else o[(aggs[x] as AggSpec).out] = aggOut(g, x);
    }
    return o;
  });
}
