// What a user writes for Odoo by hand: --domain (JSON leaves and operators, checked against
// the server's fields once they are known), --context's JSON, and comma-separated lists.
import { UsageError } from '../core/errors.js';
import { nameList, own, type Said, say } from '../core/redact.js';
import type { Domain, DomainTerm, FieldDef, FieldMap } from '../core/types.js';

/** The fields a message lists as valid (the first 60, sorted). */
export function listFields(fields: FieldMap, extra: string[] = []): Said {
  const all = [...Object.keys(fields), ...extra].sort();
  return all.length > 60 ? say`${nameList(all.slice(0, 60))}, …` : nameList(all);
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

/** A comma-separated list (--fields, --state, --company), blanks dropped. */
export function commaList(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

const ORDER_PART = /^([a-z_][a-z0-9_]*)(?:\s+(asc|desc))?$/i;

/**
 * `--sort`'s parts as "field [asc|desc]", checked without the server's fields (before any
 * request): each part's field and its direction, lower-case.
 */
export function checkSortShape(sort: string): { field: string; direction?: string }[] {
  const parts = sort
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0)
    throw new UsageError(say`--sort '${sort}' is empty`, say`use e.g. --sort "date_order desc, id"`);
  return parts.map((p) => {
    const m = ORDER_PART.exec(p);
    // `-field` and `field DESC` are other tools' ways (Django, SQL): the contract's is "field desc".
    const minus = /^-([a-z_][a-z0-9_]*)$/i.exec(p)?.[1];
    if (!m)
      throw new UsageError(
        say`--sort '${p}' is not "field [asc|desc]"`,
        minus ? say`did you mean --sort "${minus} desc"?` : say`use e.g. --sort "date_order desc, id"`,
      );
    return { field: m[1] as string, direction: m[2]?.toLowerCase() };
  });
}
