// Odoo's grouping calls behind one shape: `read_group` (16-18, positional, lazy=False) and
// `formatted_read_group` (19, which also takes many2one paths such as
// `order_id.date_order:hour`). Dates are bucketed by the server in `context.tz`; a date
// group is known here by the UTC instant its bucket starts at, never by Odoo's label.
import type { OdooClient } from '../core/client.js';
import type { Domain } from '../core/types.js';
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
  const remember = <T>(what: unknown[], make: () => Promise<T>): Promise<T> => {
    const key = JSON.stringify([...what, client.context ?? null, zone]);
    let p = memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = make();
      memo.set(key, p);
      p.catch(() => memo.delete(key));
    }
    // Each caller gets an answer of its own: some fold values into it.
    return p.then((v) => structuredClone(v));
  };
  return {
    ...api,
    group: (model, domain, groupby, aggregates) =>
      remember(['group', model, domain, groupby, aggregates], () =>
        api.group(model, domain, groupby, aggregates),
      ),
    byIds: (model, ids, fields) =>
      remember(['read', model, ids, fields], () => api.byIds(model, ids, fields)),
  };
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
