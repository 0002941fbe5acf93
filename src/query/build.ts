// Flags → a query (domain, fields, order, limit), checked against the fields the server
// actually has (fields_get), never against a version number.
import { UsageError } from '../core/errors.js';
import { nameList, own, type Said, say } from '../core/redact.js';
import type { Domain, DomainTerm, FieldDef, FieldMap } from '../core/types.js';
import { type Resource, VIRTUAL_FIELDS } from './resources.js';
import { rangeDomain } from './time.js';

export interface QueryFlags {
  configId?: number;
  sessionId?: number;
  state?: string[];
  from?: string;
  to?: string;
  tz: string;
  fields?: string[];
  limit?: number;
  offset?: number;
  sort?: string;
  domain?: Domain;
}

export interface BuiltQuery {
  model: string;
  domain: Domain;
  /** Output fields, in the order asked for. */
  fields: string[];
  /** Fields requested from the server (virtual ones replaced by what fills them). */
  fetchFields: string[];
  order: string;
  limit?: number;
  /** Field definitions for the output fields (virtual ones included). */
  defs: FieldMap;
}

function listFields(fields: FieldMap, extra: string[] = []): Said {
  const all = [...Object.keys(fields), ...extra].sort();
  return all.length > 60 ? say`${nameList(all.slice(0, 60))}, …` : nameList(all);
}

export function checkFields(resource: Resource, fields: FieldMap, wanted: string[]): void {
  const virtual = Object.keys(VIRTUAL_FIELDS[resource.name] ?? {});
  const unknown = wanted.filter((f) => !(f in fields) && !virtual.includes(f));
  if (unknown.length > 0) {
    throw new UsageError(
      say`unknown field${unknown.length > 1 ? own('s') : ''} ${unknown.map((u) => `'${u}'`).join(', ')} on ${own(resource.model)}`,
      say`valid fields: ${listFields(fields, virtual)}`,
    );
  }
}

const ORDER_PART = /^([a-z_][a-z0-9_]*)(?:\s+(asc|desc))?$/i;

export function checkSort(sort: string, fields: FieldMap, model: string): string {
  const parts = sort
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0)
    throw new UsageError(say`--sort '${sort}' is empty`, say`use e.g. --sort "date_order desc, id"`);
  const out: string[] = [];
  for (const p of parts) {
    const m = ORDER_PART.exec(p);
    if (!m)
      throw new UsageError(
        say`--sort '${p}' is not "field [asc|desc]"`,
        say`use e.g. --sort "date_order desc, id"`,
      );
    const f = fields[m[1]];
    if (!f && m[1] !== 'id') {
      throw new UsageError(
        say`cannot sort on unknown field '${m[1]}' of ${own(model)}`,
        say`valid fields: ${listFields(fields)}`,
      );
    }
    if (f && f.store === false) {
      throw new UsageError(
        say`cannot sort on '${m[1]}': Odoo does not store it`,
        say`sort on a stored field`,
      );
    }
    out.push(m[2] ? `${m[1]} ${m[2].toLowerCase()}` : m[1]);
  }
  return out.join(', ');
}

const OPERATORS = new Set([
  '=',
  '!=',
  '<>',
  '<',
  '<=',
  '>',
  '>=',
  '=?',
  'in',
  'not in',
  'like',
  'not like',
  'ilike',
  'not ilike',
  '=like',
  '=ilike',
  'not =like',
  'not =ilike',
  'child_of',
  'parent_of',
  'any',
  'not any',
]);

/** Parses --domain: JSON, a list of `[field, operator, value]` leaves and `&` `|` `!`. */
export function parseDomain(raw: string, fields?: FieldMap, model?: string): Domain {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new UsageError(
      say`--domain is not JSON: ${raw.length > 60 ? say`${raw.slice(0, 60)}…` : raw}`,
      say`write it as JSON, e.g. --domain '[["amount_total", ">", 100]]'`,
    );
  }
  return checkDomain(v, fields, model);
}

/** How deep JSON may nest in --domain and --context: Odoo's own `any` sub-domains go a few levels. */
const MAX_JSON_DEPTH = 32;

/**
 * What is wrong with a parsed JSON value that posdata would pass on: null when nothing;
 * 'deep' when lists or objects nest deeper than `max` (counted without recursion);
 * 'number' when a number is out of range (`1e400` parses to Infinity, sent as null).
 */
function jsonTrouble(v: unknown, max = MAX_JSON_DEPTH): 'deep' | 'number' | null {
  const stack: [unknown, number][] = [[v, 0]];
  while (stack.length > 0) {
    const [x, depth] = stack.pop() as [unknown, number];
    if (typeof x === 'number' && !Number.isFinite(x)) return 'number';
    if (x === null || typeof x !== 'object') continue;
    if (depth + 1 > max) return 'deep';
    for (const y of Array.isArray(x) ? x : Object.values(x)) stack.push([y, depth + 1]);
  }
  return null;
}

/** The usage error for a --domain or --context value that jsonTrouble finds fault with. */
export function checkJsonValue(v: unknown, flag: string, example: string): void {
  const trouble = jsonTrouble(v);
  if (trouble === 'deep')
    throw new UsageError(
      say`${own(flag)} nests lists or objects more than ${MAX_JSON_DEPTH} deep`,
      say`write ${example}`,
    );
  if (trouble === 'number')
    throw new UsageError(
      say`${own(flag)} holds a number out of range (such as 1e400), which JSON would send as null`,
      say`give numbers between -1.7e308 and 1.7e308`,
    );
}

/** A term as JSON for a message: short, and safe on any value. */
function shown(t: unknown): string {
  const text = JSON.stringify(t) ?? String(t);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/**
 * Checks a domain's shape (leaves, operators, Polish notation) and, given the model's
 * fields, that every leaf names a field Odoo can search.
 */
export function checkDomain(v: unknown, fields?: FieldMap, model?: string): Domain {
  // Deeper than any real domain, and every later step (the query hash, the request) would
  // run out of stack on it.
  checkJsonValue(v, '--domain', 'a flat domain: [["field", "operator", value], ...] with & | ! in front');
  if (!Array.isArray(v))
    throw new UsageError(
      say`--domain is not a list`,
      say`write it as a JSON list, e.g. [["state", "=", "paid"]]`,
    );
  let need = 1; // expressions still expected, Polish notation
  for (const t of v as unknown[]) {
    if (need === 0) need = 1; // implicit AND between consecutive expressions
    if (t === '&' || t === '|') {
      need += 1;
      continue;
    }
    if (t === '!') continue;
    if (!Array.isArray(t) || t.length !== 3 || typeof t[0] !== 'string' || typeof t[1] !== 'string') {
      throw new UsageError(
        say`--domain term ${shown(t)} is not [field, operator, value]`,
        say`see Odoo domains: [["state", "=", "paid"]]`,
      );
    }
    if (!OPERATORS.has(t[1].toLowerCase())) {
      throw new UsageError(
        say`--domain operator '${t[1]}' is not an Odoo operator`,
        say`use one of ${own([...OPERATORS].join(' '))}`,
      );
    }
    const head = t[0].split('.')[0];
    if (fields && !(head in fields) && head !== 'id') {
      throw new UsageError(
        say`--domain names unknown field '${head}' of ${own(String(model))}`,
        say`valid fields: ${listFields(fields)}`,
      );
    }
    // Odoo 16-18 silently drop a leaf on a field they cannot search (matching everything),
    // 19 refuses it: either way the filter would not do what it says.
    const def = fields?.[head];
    if (def && !canSearch(def)) {
      throw new UsageError(
        say`--domain cannot filter on '${head}': Odoo computes it without storing it`,
        say`filter on a stored field instead`,
      );
    }
    need -= 1;
  }
  if (need > 0 && (v as unknown[]).length > 0) {
    throw new UsageError(
      say`--domain is incomplete: an operator lacks its operands`,
      say`each & and | takes two terms, ! one`,
    );
  }
  return v as DomainTerm[] as Domain;
}

function canSearch(def: FieldDef): boolean {
  if (def.searchable !== undefined) return def.searchable;
  return def.store !== false || Boolean(def.related);
}

/** The whole query for one resource. `fixed` is the resource's own extra filter (lines' order). */
export function buildQuery(
  resource: Resource,
  fields: FieldMap,
  flags: QueryFlags,
  fixed: Domain = [],
): BuiltQuery {
  const out = flags.fields && flags.fields.length > 0 ? flags.fields : defaultFieldsFor(resource, fields);
  checkFields(resource, fields, out);
  const virtual = VIRTUAL_FIELDS[resource.name] ?? {};
  const defs: FieldMap = {};
  const fetch = new Set<string>();
  for (const f of out) {
    if (f in fields) {
      defs[f] = fields[f];
      fetch.add(f);
    } else if (f in virtual) {
      defs[f] = virtual[f] as FieldDef;
      // refunded_order_id on 16/17 is filled from refunded_order_ids (lines' link).
      if (f === 'refunded_order_id' && 'refunded_order_ids' in fields) fetch.add('refunded_order_ids');
    }
  }
  const domain: Domain = [...resource.fixedDomain(fields), ...fixed];
  const ff = resource.filterFields;
  if (flags.configId !== undefined) {
    if (!ff.config)
      throw new UsageError(say`--config-id does not apply to ${own(resource.name)}`, say`remove it`);
    domain.push([ff.config, '=', flags.configId]);
  }
  if (flags.sessionId !== undefined) {
    if (!ff.session)
      throw new UsageError(say`--session-id does not apply to ${own(resource.name)}`, say`remove it`);
    domain.push([ff.session, '=', flags.sessionId]);
  }
  if (flags.state && flags.state.length > 0) {
    if (!ff.state) throw new UsageError(say`--state does not apply to ${own(resource.name)}`, say`remove it`);
    const sel = fields[ff.state]?.selection?.map((s) => s[0]);
    const bad = sel ? flags.state.filter((s) => !sel.includes(s)) : [];
    if (bad.length > 0) {
      throw new UsageError(say`unknown state '${bad[0]}'`, say`this server's states: ${nameList(sel ?? [])}`);
    }
    domain.push([ff.state, 'in', flags.state]);
  }
  if (flags.from !== undefined || flags.to !== undefined) {
    if (!ff.time)
      throw new UsageError(say`--from/--to do not apply to ${own(resource.name)}`, say`remove them`);
    domain.push(...rangeDomain(ff.time, flags.from, flags.to, flags.tz));
  }
  if (flags.domain) {
    checkDomain(flags.domain, fields, resource.model);
    domain.push(...flags.domain);
  }
  const order = flags.sort ? withIdTieBreak(checkSort(flags.sort, fields, resource.model)) : 'id';
  return {
    model: resource.model,
    domain,
    fields: out,
    fetchFields: [...fetch],
    order,
    limit: flags.limit,
    defs,
  };
}

/** A sort that ends on id gives the same order on every call (pages do not overlap). */
function withIdTieBreak(order: string): string {
  return /(^|,\s*)id(\s+(asc|desc))?$/i.test(order) ? order : `${order}, id`;
}

export function defaultFieldsFor(resource: Resource, fields: FieldMap): string[] {
  // Odoo 16 has no stored config_id on orders, 19 no invoiced state: fields the server
  // lacks (and posdata cannot fill) are left out rather than failing the default view.
  const virtual = VIRTUAL_FIELDS[resource.name] ?? {};
  return resource.defaultFields.filter((f) => f in fields || f in virtual);
}
