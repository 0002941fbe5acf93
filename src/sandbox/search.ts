/**
 * Search and ordering: a domain over id-indexed rows, sorted indexes per order spec (cached until
 * the table changes), a range the domain implies on the first sort key, offset and limit.
 */
import {
  type Bound,
  companyRule,
  compileDomain,
  type Predicate,
  type Reader,
  rowReader,
  ruled,
} from './domain.js';
import { userError, valueError } from './errors.js';
import type { Db, FieldDef, ModelDef, Table } from './store.js';
import type { Env, Rec } from './types.js';

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
    const get = db.rowGetter(t.field);
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
  inner: Predicate | undefined,
  read: Reader,
): Predicate | undefined {
  const rule = companyRule(db, env, model, read);
  const pred = inner ? ruled(rule, inner) : rule;
  if (!model.hasActive || !env.activeTest) return pred;
  const mentions = Array.isArray(domain) && domain.some((l) => Array.isArray(l) && l[0] === 'active');
  if (mentions) return pred;
  const active = read(model.name, model.fields.get('active') as FieldDef);
  return pred ? (id) => active(id) !== false && pred(id) : (id) => active(id) !== false;
}

function asLimit(v: unknown): number {
  return typeof v === 'number' && v > 0 ? Math.floor(v) : Number.POSITIVE_INFINITY;
}

/** What a search is given: the store, the caller's env, the model, domain, offset, limit, order. */
export type SearchArgs = [
  db: Db,
  env: Env,
  model: ModelDef,
  domain: unknown,
  offset: unknown,
  limit: unknown,
  order: unknown,
];

export function search(...args: SearchArgs): Rec[] {
  const out: Rec[] = [];
  scan(args, (r) => {
    out.push(r);
  });
  return out;
}

/**
 * The records `search` finds, in its order, each given to `visit` (with its id) as it is found,
 * rather than gathered into one array first (grouping hundreds of thousands of rows keeps none
 * of them). `read` is how the domain reads fields: off the rows unless the caller visits every
 * row (a grouping reads columns).
 */
export function scan(
  [db, env, model, domain, offsetArg, limitArg, order]: SearchArgs,
  visit: (r: Rec, id: number) => void,
  read: Reader = rowReader(db),
): void {
  const compiled = compileDomain(db, model, domain, env, read);
  const terms = parseOrder(db, model, order);
  let pred = withActive(db, env, model, domain, compiled.pred, read);
  const table = db.table(model.name);
  const rows = table.rows;
  let skip = typeof offsetArg === 'number' && offsetArg > 0 ? Math.floor(offsetArg) : 0;
  const limit = asLimit(limitArg);
  if (limit === 0) return;
  let found = 0;
  const lo = Math.max(1, compiled.idLo);
  const hi = Math.min(rows.length - 1, compiled.idHi);
  // `rows[id] === undefined`, not `!row`: a truth test reads the row's header, a trip to memory
  // that a column scan does not otherwise make.
  const take = (id: number): boolean => {
    const r = rows[id];
    if (r === undefined || (pred && !pred(id))) return false;
    if (skip > 0) {
      skip--;
      return false;
    }
    visit(r, id);
    return ++found >= limit;
  };
  const first = terms[0];
  if (terms.length === 0 || (terms.length === 1 && first?.field.name === 'id')) {
    // Id order: a plain loop over the id-indexed rows, starting at the id bound, stopping at the limit.
    // With no filter and no holes in the ids, an offset is a jump, not a walk (offset paging stays O(page)).
    if (!pred && table.live === rows.length - 1 && skip > 0) {
      const jump = Math.min(skip, Math.max(0, hi - lo + 1));
      skip -= jump;
      if (first?.desc) {
        for (let id = hi - jump; id >= lo; id--) if (take(id)) break;
      } else {
        for (let id = lo + jump; id <= hi; id++) if (take(id)) break;
      }
      return;
    }
    if (first?.desc) {
      for (let id = hi; id >= lo; id--) if (take(id)) break;
    } else {
      for (let id = lo; id <= hi; id++) if (take(id)) break;
    }
    return;
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
  // A scan between two text bounds (a date range) meets only keys inside them: an empty value
  // sorts last, past any bound, so the leaves that made the bounds need no test of their own.
  if (from && stop && typeof from[0] === 'string' && typeof stop[0] === 'string' && compiled.inIndex)
    pred = withActive(db, env, model, domain, compiled.inIndex(lead.field), read);
  // Nothing to filter: an offset is a jump into the sorted ids, not a walk.
  if (!pred && !stop && lo <= 1 && hi >= rows.length - 1) {
    start += skip;
    skip = 0;
  }
  // Where the range ends, found the way its start is (not by comparing each row's key on the way).
  let end = ids.length;
  if (stop) {
    let a = start;
    let b = ids.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (beyond(keyAt(mid), stop)) b = mid;
      else a = mid + 1;
    }
    end = a;
  }
  for (let i = start; i < end; i++) {
    const id = ids[i] as number;
    if (id < lo || id > hi) continue;
    if (take(id)) break;
  }
}

export function searchCount(db: Db, env: Env, model: ModelDef, domain: unknown, limitArg: unknown): number {
  const compiled = compileDomain(db, model, domain, env);
  const pred = withActive(db, env, model, domain, compiled.pred, rowReader(db));
  const table = db.table(model.name);
  const limit = asLimit(limitArg);
  if (!pred && compiled.idLo <= 1 && compiled.idHi >= table.rows.length - 1)
    return Math.min(table.live, limit);
  const rows = table.rows;
  let n = 0;
  const hi = Math.min(rows.length - 1, compiled.idHi);
  for (let id = Math.max(1, compiled.idLo); id <= hi; id++) {
    if (rows[id] !== undefined && (!pred || pred(id))) {
      n++;
      if (n >= limit) break;
    }
  }
  return n;
}
