// Odoo's grouping calls behind one shape: `read_group` (16-18, positional, lazy=False) and
// `formatted_read_group` (19, which also takes many2one paths such as
// `order_id.date_order:hour`). Dates are bucketed by the server in `context.tz`; a date
// group is known here by the UTC instant its bucket starts at, never by Odoo's label.

import type { OdooClient } from '../core/client.js';
import type { Domain } from '../core/types.js';
import { DateTime } from '../query/luxon.js';
import { type Group, readGroups } from '../read/groups.js';

export type { Group };

export interface GroupingApi {
  /** Whether groupby and aggregates may follow a many2one (`order_id.config_id`). */
  readonly paths: boolean;
  group(model: string, domain: Domain, groupby: string[], aggregates: string[]): Promise<Group[]>;
  /** The records of `domain` with these fields, archived ones too. */
  read(model: string, domain: Domain, fields: string[]): Promise<Record<string, unknown>[]>;
  /** These records by id (Odoo's `read`), with these fields. */
  byIds(model: string, ids: number[], fields: string[]): Promise<Record<string, unknown>[]>;
  /**
   * What `make` gives, asked once per connection and `key` (a report runs summary eight times
   * over the same range: what depends on the range alone is read once). A failure is not kept.
   */
  once<T>(key: string, make: () => Promise<T>): Promise<T>;
}

const onces = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * The grouping calls of several summaries made over the same data at one time (a report): a
 * call the same as one made before (model, domain, groupby, aggregates) gets that call's
 * answer instead of a request. Not for what runs again later (--watch): it would not move.
 */
export type GroupMemo = Map<string, Promise<unknown>>;

/** The API a server of this major version answers. */
export function groupingApi(client: OdooClient, major: number, zone: string, memo?: GroupMemo): GroupingApi {
  const api = makeApi(client, major, zone);
  if (!memo) return api;
  const keyOf = (what: unknown[]): string => JSON.stringify([...what, client.context ?? null, zone]);
  const remember = <T>(what: unknown[], make: () => Promise<T>): Promise<T> => {
    const key = keyOf(what);
    let p = memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = make();
      memo.set(key, p);
      p.catch(() => memo.delete(key));
    }
    return p.then(ownCopy);
  };
  return {
    ...api,
    group: (model, domain, groupby, aggregates) => {
      const call: unknown[] = ['group', model, domain, groupby, aggregates];
      // A call asked before over the same records, grouped finer, answers this one folded.
      const finer = memo.has(keyOf(call)) ? undefined : finerCall(memo, call, keyOf);
      return remember(call, () =>
        finer
          ? finer.answer.then((gs) =>
              foldGroups(gs as Group[], groupby, finer.groupby, zone, DOMAINS_READ.has(model), aggregates),
            )
          : api.group(model, domain, groupby, aggregates),
      );
    },
    byIds: (model, ids, fields) =>
      remember(['read', model, ids, fields], () => api.byIds(model, ids, fields)),
  };
}

/**
 * A caller's own copy of a memo answer (groups or records): each group's values, aggregates and
 * lists are objects of its own, which callers write into (16's config_id from the session, a
 * fold's sums); what they hold (a many2one's [id, name], a domain) is never written and is
 * shared. A whole deep copy per caller (structuredClone) was a report's largest CPU cost of its
 * own: 0.7 s of a 200,000-order month.
 */
function ownCopy<T>(answer: T): T {
  if (!Array.isArray(answer)) return structuredClone(answer);
  return answer.map((x: Record<string, unknown>) => {
    if (!isGroup(x)) return { ...x };
    const lists = x.lists && Object.fromEntries(Object.entries(x.lists).map(([a, l]) => [a, [...l]]));
    return { ...x, values: { ...x.values }, aggs: { ...x.aggs }, ...(lists ? { lists } : {}) };
  }) as T;
}

const isGroup = (x: Record<string, unknown>): x is Record<string, unknown> & Group =>
  typeof x.values === 'object' && x.values !== null && typeof x.aggs === 'object';

/**
 * The models whose groups' own domains are read (by-order.ts: 16-18's payments per cashier group
 * of the orders). A fold ORs its finer groups' domains for these alone: for every group of every
 * fold, a month's thousands of line groups by hour and product, it took a 200,000-order report's
 * peak memory from 225 to 330 MB, for domains nothing read.
 */
const DOMAINS_READ = new Set(['pos.order']);

/**
 * The aggregate an orders grouping carries to say whether any of its orders was sold under a
 * fiscal position (take-away): the range's orders answer it in the request that reads them,
 * instead of one request more.
 */
export const FISCAL_POSITIONS = 'fiscal_position_id:count_distinct';

/**
 * Aggregates read only to know whether any record of a group has a value (> 0): folded as the
 * largest, which is above 0 exactly where one of the finer groups' is.
 */
export const WHETHER_ANY = new Set<string>([FISCAL_POSITIONS]);

/** Aggregates whose finer groups fold into a coarser one's (a distinct count does not: it would count twice). */
const FOLDS = /:(sum|min|max|array_agg)$|^__count$/;

/** A date spec by the day that its hour spec answers (`date_order:day` from `date_order:hour`). */
const hourOf = (spec: string): string | undefined =>
  spec.endsWith(':day') ? `${spec.slice(0, -4)}:hour` : undefined;

/**
 * A grouping call of the memo over the same model, domain, context and zone, with every
 * aggregate of `call`'s (more are left out of the fold), whose groupby holds every spec of
 * `call`'s, or its hour for a day (the hours of a business day in the zone make that day: Odoo
 * buckets both in `context.tz`), and more: the report's groupings (register, day, hour, cashier,
 * and the range's totals products and categories add up to) are then one call folded, not one each.
 */
function finerCall(
  memo: GroupMemo,
  call: unknown[],
  keyOf: (what: unknown[]) => string,
): { answer: Promise<unknown>; groupby: string[] } | undefined {
  const [, model, domain, groupby, aggregates] = call as [string, string, Domain, string[], string[]];
  if (!aggregates.every((a) => FOLDS.test(a) || WHETHER_ANY.has(a))) return undefined;
  const wanted = keyOf(['group', model, domain, '*', '*']);
  for (const [key, answer] of memo) {
    const what = JSON.parse(key) as unknown[];
    const [kind, , , finer, has] = what;
    if (kind !== 'group' || !Array.isArray(finer) || !Array.isArray(has)) continue;
    if (JSON.stringify([...what.slice(0, 3), '*', '*', ...what.slice(5)]) !== wanted) continue;
    if (!aggregates.every((a) => has.includes(a))) continue;
    const specs = new Set(finer as string[]);
    const served = groupby.every((s) => specs.has(s) || specs.has(hourOf(s) ?? ''));
    if (served && [...specs].some((s) => !groupby.includes(s))) return { answer, groupby: finer as string[] };
  }
  return undefined;
}

/**
 * Finer groups (by `finer` specs) folded into the groups of `groupby`: a day's value is the start
 * of its hours' business day in `zone` (UTC, as Odoo gives a bucket), the aggregates summed
 * (WHETHER_ANY the largest, `:min`/`:max` the least/largest, lists joined), in the order the finer
 * groups first show each. `aggregates`: those kept (all where not given).
 */
export function foldGroups(
  groups: Group[],
  groupby: string[],
  finer: string[],
  zone: string,
  withDomains = true,
  aggregates?: string[],
): Group[] {
  // A month's thousands of finer groups fall in a few hundred hours: each hour's day made once.
  const days = new Map<string, string>();
  const cellOf = (g: Group, spec: string): unknown => {
    if (finer.includes(spec)) return g.values[spec];
    const hour = g.values[hourOf(spec) as string];
    if (typeof hour !== 'string') return hour ?? null;
    let day = days.get(hour);
    if (day === undefined) {
      const start = DateTime.fromSQL(hour, { zone: 'UTC' }).setZone(zone).startOf('day').toUTC();
      day = start.toFormat('yyyy-MM-dd HH:mm:ss');
      days.set(hour, day);
    }
    return day;
  };
  const ident = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v);
  // read_group always counts: `__count` is kept as a call of these aggregates would have it.
  const kept = <T>(o: Record<string, T>): [string, T][] =>
    Object.entries(o).filter(([a]) => !aggregates || a === '__count' || aggregates.includes(a));
  const out = new Map<string, { group: Group; domains: (Domain | undefined)[] }>();
  for (const g of groups) {
    const values = Object.fromEntries(groupby.map((s) => [s, cellOf(g, s)]));
    const key = JSON.stringify(groupby.map((s) => ident(values[s])));
    const into = out.get(key);
    if (!into) {
      const lists = g.lists && Object.fromEntries(kept(g.lists).map(([a, l]) => [a, [...l]]));
      const group = { values, aggs: Object.fromEntries(kept(g.aggs)), lists };
      out.set(key, { group, domains: [g.domain] });
      continue;
    }
    const { aggs, lists } = into.group;
    for (const [a, v] of kept(g.aggs)) {
      const had = aggs[a] ?? v;
      const largest = WHETHER_ANY.has(a) || a.endsWith(':max');
      aggs[a] = largest ? Math.max(had, v) : a.endsWith(':min') ? Math.min(had, v) : had + v;
    }
    for (const [a, l] of kept(g.lists ?? {})) if (lists) lists[a] = [...(lists[a] ?? []), ...l];
    into.domains.push(g.domain);
  }
  // Dates ascending, as Odoo gives them (a cent left by rounding goes to the first of equal
  // remainders: the order of the groups is part of the figures); the rest as they came.
  const dates = groupby.filter((s) => /:(hour|day|week|month|quarter|year)$/.test(s));
  const at = (g: Group, s: string): string => String(g.values[s] ?? '');
  const folded = [...out.values()].sort((x, y) => {
    for (const s of dates) {
      const c = at(x.group, s).localeCompare(at(y.group, s));
      if (c !== 0) return c;
    }
    return 0;
  });
  // A group's own domain (16-18's payments per cashier group) is any of its finer groups'.
  return folded.map(({ group, domains }) =>
    withDomains && domains.every((d) => d !== undefined)
      ? { ...group, domain: orDomains(domains as Domain[]) }
      : group,
  );
}

function makeApi(client: OdooClient, major: number, zone: string): GroupingApi {
  const context = { tz: zone };
  const read: GroupingApi['read'] = (model, domain, fields) =>
    client.searchRead(model, domain, { fields, context: { active_test: false } });
  const byIds: GroupingApi['byIds'] = (model, ids, fields) => client.read(model, ids, fields);
  const once = <T>(what: string, make: () => Promise<T>): Promise<T> => {
    // The same connection under another context (--company) reads other records.
    const key = JSON.stringify([what, client.context ?? null, zone]);
    const seen = onces.get(client.transport) ?? new Map<string, Promise<unknown>>();
    onces.set(client.transport, seen);
    const known = seen.get(key) as Promise<T> | undefined;
    if (known) return known;
    const p = make();
    seen.set(key, p);
    p.catch(() => seen.delete(key));
    return p;
  };
  // 19 also takes many2one paths in groupby and aggregates; its read_group is deprecated.
  const method = major >= 19 ? 'formatted_read_group' : 'read_group';
  return {
    paths: major >= 19,
    read,
    byIds,
    once,
    group: (model, domain, groupby, aggregates) =>
      readGroups(client, { model, method, domain, groupby, aggregates, context }),
  };
}

/** The domain moved onto a related model: each leaf's field behind `prefix` (`order_id.`). */
export function prefixDomain(domain: Domain, prefix: string): Domain {
  return domain.map((t) => (Array.isArray(t) ? [`${prefix}${t[0]}`, t[1], t[2]] : t));
}

/** OR of several domains (each one a whole domain in Polish notation). */
export function orDomains(domains: Domain[]): Domain {
  if (domains.length === 0) return [['id', '=', 0]];
  const out: Domain = [];
  for (let i = 1; i < domains.length; i++) out.push('|');
  for (const d of domains) out.push(...normalizeAnd(d));
  return out;
}

/** A domain with its implicit ANDs written out, so it can be one operand of an OR. */
function normalizeAnd(d: Domain): Domain {
  if (d.length === 0) return [['id', '!=', 0]];
  // Count the operands a prefix expression needs; missing ones were implicit ANDs.
  let need = 1;
  let terms = 0;
  for (const t of d) {
    if (t === '&' || t === '|') need += 1;
    else if (t === '!') need += 0;
    else need -= 1;
    terms++;
    if (need === 0 && terms < d.length) {
      need = 1;
      return ['&', ...d.slice(0, terms), ...normalizeAnd(d.slice(terms))];
    }
  }
  return d;
}
