// Odoo's grouping calls, asked and checked in one place: `read_group` (16-18, positional,
// lazy=False) and `formatted_read_group` (19). Every grouped figure of summary, report, serve,
// reconcile and books comes through here, so an answer Odoo would never give (a sum as text, a
// count below zero or with a fraction, a sum a double cannot carry, a day that is no day) stops
// the run here (exit 6, as the lists refuse such values), instead of being read as 0 or folding
// days into one row.
import type { OdooClient } from '../core/client.js';
import { ProtocolError } from '../core/errors.js';
import { own, type Said, say } from '../core/redact.js';
import type { Domain } from '../core/types.js';
import { amountBound, notA, odooDate, odooDatetime } from '../records/normalize.js';

export interface Group {
  /** The group's value per groupby spec: a many2one as [id, label], a date as its UTC start. */
  values: Record<string, unknown>;
  /** Aggregates by their spec (`amount_total:sum`, `order_id:count_distinct`); `__count` too. */
  aggs: Record<string, number>;
  /**
   * The `:array_agg` aggregates by their spec: `id:array_agg` the group's record ids; another
   * field's the value of each record (null for none), in the same order as every other array
   * of the group (one row feeds each aggregate in turn).
   */
  lists?: Record<string, unknown[]>;
  /** The group's own domain (read_group's `__domain`), where the server gives one. */
  domain?: Domain;
}

export interface GroupCall {
  model: string;
  /** `formatted_read_group` on 19; `read_group` before (and where a caller keeps to it). */
  method: 'read_group' | 'formatted_read_group';
  domain: Domain;
  groupby: string[];
  /** Aggregate specs (`amount:sum`, `__count`); read_group always counts. */
  aggregates: string[];
  context?: Record<string, unknown>;
}

const DATE_SPEC = /:(hour|day|week|month|quarter|year)$/;
const ARRAY = /:array_agg$/;
const COUNT = /^__count$|:count(_distinct)?$/;

/**
 * The most decimals a grouped figure is read at: a currency's (three: KWD, BHD, TND) and a
 * quantity's (Odoo's "Product Unit of Measure"). A sum is not known to its currency's decimals
 * unless it is below the bound of these (2^43, 8.8 trillion): the callers round later, at
 * decimals not known here.
 */
const FIGURE_DIGITS = 3;
const BOUND = amountBound(FIGURE_DIGITS);

/** The groups of one call, each value checked for what Odoo sends. */
export async function readGroups(client: OdooClient, call: GroupCall): Promise<Group[]> {
  const { model, method, domain, groupby, aggregates, context } = call;
  const formatted = method === 'formatted_read_group';
  const fields = aggregates.filter((a) => a !== '__count');
  const raw = formatted
    ? await client.executeKw(model, method, [domain, groupby, aggregates], context ? { context } : {})
    : await client.executeKw(model, method, [domain, fields, groupby], {
        lazy: false,
        ...(context ? { context } : {}),
      });
  if (!Array.isArray(raw) || raw.some((g) => typeof g !== 'object' || g === null || Array.isArray(g)))
    throw new ProtocolError(
      say`the server's reply to ${own(model)}.${own(method)} is not a list of groups`,
      say`check that --url points at Odoo itself`,
    );
  // How each spec is read, decided once per call rather than once per group (a month's report
  // reads thousands of groups; a chain, every server's on one thread).
  const what = (spec: string): string => `${spec} of a ${model} group`;
  const keys = groupby.map((spec) => ({
    spec,
    field: spec.split(':')[0] as string,
    date: DATE_SPEC.test(spec),
    label: what(spec),
  }));
  const figures = (formatted ? aggregates : fields).map((a) => ({
    spec: a,
    field: a.split(':')[0] as string,
    list: ARRAY.test(a) ? (a.startsWith('id:') ? idList : valueList) : undefined,
    count: COUNT.test(a),
    label: what(a),
  }));
  const countLabel = what('__count');
  return (raw as Record<string, unknown>[]).map((g) => {
    const values: Record<string, unknown> = {};
    for (const { spec, field, date, label } of keys) {
      if (!date) values[spec] = formatted ? g[spec] : (g[spec] ?? g[field]);
      else values[spec] = checkedDate(label, formatted ? dateOf19(g[spec]) : dateStart(g, spec, field));
    }
    const aggs: Record<string, number> = formatted ? {} : { __count: figure(countLabel, true, g.__count) };
    const lists: Record<string, unknown[]> = {};
    for (const { spec, field, list, count, label } of figures) {
      const v = formatted ? g[spec] : (g[spec] ?? g[field]);
      if (list) lists[spec] = list(label, v);
      else aggs[spec] = figure(label, count, v);
    }
    return formatted
      ? { values, aggs, lists }
      : { values, aggs, lists, domain: Array.isArray(g.__domain) ? (g.__domain as Domain) : undefined };
  });
}

/**
 * A group's `:array_agg` lists of `specs`, which one row feeds in turn and so come in step: lists
 * of different lengths are a server that is not Odoo, and set figures against the wrong records
 * (exit 6, one line naming the lengths). `what`: the lists, as the line names them.
 */
export function listsInStep(g: Group, specs: readonly string[], what: Said): unknown[][] {
  const lists = specs.map((a) => g.lists?.[a] ?? []);
  const lengths = lists.map((l) => l.length);
  if (lengths.some((n) => n !== lengths[0]))
    throw new ProtocolError(
      say`the server sent arrays of ${lengths.slice(0, -1).join(', ')} and ${lengths.at(-1)} figures for ${what} of one group, where each line gives one of each`,
      say`check that --url points at Odoo itself`,
    );
  return lists;
}

/**
 * An aggregate as a number: a count a whole number not below zero, a sum a finite number
 * below the bound; none (SQL's NULL, which Odoo sends as false or null) is 0.
 */
function figure(what: string, count: boolean, v: unknown): number {
  if (v === false || v === null || v === undefined) return 0;
  if (count) {
    if (Number.isSafeInteger(v) && (v as number) >= 0) return v as number;
    return notA(what, 'count (a whole number, not below zero)', v);
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) return notA(what, 'number', v);
  if (!(v < BOUND && v > -BOUND))
    throw new ProtocolError(
      say`the server sent ${v} for ${what}: a figure of up to ${own(String(FIGURE_DIGITS))} decimals is carried exactly only below ${own(BOUND.toLocaleString('en-US'))} (2^${own(String(Math.log2(BOUND)))})`,
      say`correct the records behind it in Odoo, or read a narrower range (--date, --from/--to)`,
    );
  return v;
}

/** An `:array_agg` of ids: a list of record ids. */
function idList(what: string, v: unknown): unknown[] {
  if (v === false || v === null || v === undefined) return [];
  if (Array.isArray(v) && v.every((x) => Number.isSafeInteger(x) && (x as number) > 0)) return v;
  return notA(what, 'list of ids', v);
}

/**
 * An `:array_agg` of another field: ids (a many2one) or figures, numbers or, from a numeric
 * column, the text Odoo writes for its Decimal ("2227.47", "-147.0"), read as numbers.
 */
function valueList(what: string, v: unknown): (number | null)[] {
  if (v === false || v === null || v === undefined) return [];
  if (!Array.isArray(v)) return notA(what, 'list', v);
  return v.map((x) => {
    if (x === null || x === false) return null;
    const n = typeof x === 'string' && DECIMAL.test(x) ? Number(x) : x;
    return typeof n === 'number' && Number.isFinite(n) ? n : notA(what, 'list of numbers', v);
  });
}
const DECIMAL = /^-?\d+(\.\d+)?(E[+-]?\d+)?$/i;

/** 19 gives a date group as [utc_start, label], and a group of no date as false. */
function dateOf19(v: unknown): unknown {
  return Array.isArray(v) ? v[0] : v || null;
}

/** A date group's start: Odoo's UTC datetime (a datetime field) or date (a date field), or none. */
function checkedDate(what: string, v: unknown): string | null {
  if (v === null || v === false) return null;
  return odooDatetime(v) || odooDate(v) ? v : notA(what, 'date or datetime', v);
}

/**
 * The UTC start of a read_group date bucket: `__range` (16+, keyed by the spec or the field),
 * else the `>=` leaf of its `__domain`. The label (`'09:00 24 Nov'`) is locale text: never parsed.
 */
function dateStart(g: Record<string, unknown>, spec: string, field: string): unknown {
  const range = g.__range as Record<string, { from?: unknown } | undefined> | undefined;
  const from = range?.[spec]?.from ?? range?.[field]?.from;
  if (from !== undefined) return from;
  if (Array.isArray(g.__domain)) {
    for (const leaf of g.__domain as unknown[]) {
      if (Array.isArray(leaf) && leaf[0] === field && leaf[1] === '>=' && typeof leaf[2] === 'string')
        return leaf[2];
    }
  }
  return null;
}
