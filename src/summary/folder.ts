// What the summary's levels share: the query, a group's key values, and the accumulator
// each group of --by keys folds its figures into; with what is found on the way (the payment
// methods' names, the products' categories, notes for stderr).

import type { Said } from '../core/redact.js';
import type { Domain } from '../core/types.js';
import type { DateTime } from '../query/luxon.js';
import { odooUtc } from '../query/time.js';
import type { Group } from './grouping.js';
import { businessDay, KEY_COLUMNS, type Key, WEEKDAYS } from './keys.js';

export type Cell = string | number | null;

export interface KeyValue {
  /** The key's columns (KEY_COLUMNS) and their values. */
  cells: Record<string, Cell>;
  /** What tells groups apart: the id of a relation, else the value. */
  ident: Cell;
  /** Sorts the rows of one key. */
  sort: string | number;
}

export interface SummaryQuery {
  keys: Key[];
  zone: string;
  /** Minutes after midnight at which the business day starts. */
  dayStarts: number;
  /** The counted orders of the range, as a pos.order domain. */
  orderDomain: Domain;
  /** The order's cashier field: `employee_id` where pos_hr is installed, else `user_id`. */
  cashierField: string;
  /** Whether pos.payment stores the cashier too (18's pos_hr: `employee_id`), to group payments by. */
  paymentCashier?: boolean;
  /** Whether pos.order stores `config_id` (16 relates it to the session without storing it). */
  configStored: boolean;
  /** The decimals of the company's currency (read while the groups are): money is rounded to them. */
  digits: Promise<number>;
  /** false: the payment methods are not asked for (by an order or line key; --by method needs them). */
  methods?: boolean;
  /**
   * false: the shop's part columns (tips, gift cards, rewards...: shop.ts) are not asked for;
   * 'beside': asked, and left out of `discounts` (gross and discounts as Odoo's Sales Details
   * counts them: the report, which shows the parts in a table of their own).
   */
  shop?: boolean | 'beside';
  /**
   * A summary run only to fill a memo that others fold from (a report's first grouping): its
   * figures are not read, so the lines by product are asked at the grain the folds need (the
   * day, not the hour: before-19.ts) and not folded into it.
   */
  seed?: boolean;
}

export const SALES: Domain = [['amount_total', '>=', 0]];
export const REFUNDS: Domain = [['amount_total', '<', 0]];

/** The groupby spec of an order key on pos.order. */
export function orderSpec(k: Key, q: SummaryQuery): string {
  switch (k) {
    case 'day':
      // With a day that starts at 03:00, hours are folded into days here (DST-correct: the
      // server buckets the hours in the zone).
      return q.dayStarts === 0 ? 'date_order:day' : 'date_order:hour';
    case 'hour':
    case 'weekday':
      return 'date_order:hour';
    case 'register':
      return 'config_id';
    case 'session':
      return 'session_id';
    case 'cashier':
      return q.cashierField;
    // pos_restaurant's table; a floor is its table's (the tables are read once, and the groups
    // by table folded by floor here: Odoo before 19 groups by no path).
    case 'table':
    case 'floor':
      return 'table_id';
    default:
      throw new Error(`not an order key: ${k}`);
  }
}

export const LINE_SPEC: Partial<Record<Key, string>> = {
  product: 'product_id',
  category: 'product_id',
  tax: 'tax_ids',
};

/**
 * Odoo's UTC text of a group's period, read once: the same few hundred days and hours come back
 * in every grouping of a summary (and a report runs eight), and luxon's format parser takes
 * ~0.1 ms a value. DateTime is immutable, so one value serves every caller.
 */
const utcTimes = new Map<string, DateTime>();
function utcTime(text: string): DateTime {
  let t = utcTimes.get(text);
  if (t === undefined) {
    if (utcTimes.size >= 10_000) utcTimes.clear();
    t = odooUtc(text);
    utcTimes.set(text, t);
  }
  return t;
}

/** A period's local hour, business day and weekday in a zone, with the day starting at `dayStarts`. */
interface LocalPeriod {
  hour: number;
  day: string;
  weekday: number;
}

/**
 * A period's local figures, worked out once per zone and day start: every grouping of a
 * summary names the same days and hours again (each a zone change and a business day in
 * luxon, the summary's most costly lines per group), and a chain's servers do it for every
 * server's groups on one thread.
 */
const localPeriods = new Map<string, LocalPeriod>();
function localPeriod(text: string, zone: string, dayStarts: number): LocalPeriod {
  const key = `${zone} ${dayStarts} ${text}`;
  let p = localPeriods.get(key);
  if (p === undefined) {
    if (localPeriods.size >= 10_000) localPeriods.clear();
    const local = utcTime(text).setZone(zone);
    const business = businessDay(local, dayStarts);
    p = { hour: local.hour, day: business.toISODate() ?? '', weekday: business.weekday };
    localPeriods.set(key, p);
  }
  return p;
}

/** Turns a group's value for `key` into the key's cells. */
export function keyValue(
  k: Key,
  v: unknown,
  q: SummaryQuery,
  names: Map<number, [number, string]>,
): KeyValue {
  if (k === 'day' || k === 'hour' || k === 'weekday') {
    if (typeof v !== 'string') return { cells: { [k]: null }, ident: null, sort: '' };
    const local = localPeriod(v.slice(0, 19), q.zone, q.dayStarts);
    // Hours in the order of the business day: with --day-starts 03:00, 01:00 comes last.
    if (k === 'hour')
      return {
        cells: { hour: local.hour },
        ident: local.hour,
        sort: (local.hour * 60 - q.dayStarts + 1440) % 1440,
      };
    if (k === 'day') return { cells: { day: local.day }, ident: local.day, sort: local.day };
    const weekday = WEEKDAYS[local.weekday - 1] ?? '';
    return { cells: { weekday }, ident: weekday, sort: local.weekday };
  }
  const [idCol, nameCol] = KEY_COLUMNS[k] as [string, string];
  let id: number | null = null;
  let name: string | null = null;
  if (Array.isArray(v) && typeof v[0] === 'number') {
    id = v[0];
    name = typeof v[1] === 'string' ? v[1] : String(v[0]);
  } else if (typeof v === 'number') id = v;
  // Odoo 16-18 group lines by product; the product's category is looked up here. (On 19 the
  // server groups by product_id.categ_id itself and the value is the category.) A table's
  // floor is looked up the same way.
  if (id !== null && ((k === 'category' && names.size > 0) || k === 'floor')) {
    const c = names.get(id);
    id = c ? c[0] : null;
    name = c ? c[1] : null;
  }
  return { cells: { [idCol]: id, [nameCol]: name }, ident: id, sort: name ?? '\uffff' };
}

/** The figures a group's accumulator and its summary (compute.ts's Figures) both hold. */
export interface Totals {
  orders: number;
  items: number | null;
  discounts: number | null;
  refundCount: number;
  refunds: number;
  net: number | null;
  tax: number | null;
  total: number;
}

export interface Acc extends Totals {
  keys: KeyValue[];
  salesIncl: number | null;
  methods: Map<number, number> | null;
  /** The discounts by business day (ISO date), where the lines were grouped by their order's day. */
  dayDiscounts: Map<string, number>;
  /** read_group's own domains of the groups folded into this one (Odoo 16-18 fallback). */
  domains: Domain[];
  /** The shop's special lines by column (shop.ts), positive; by an order key only. */
  parts?: Map<string, number>;
}

export class Folder {
  readonly accs = new Map<string, Acc>();
  constructor(
    private readonly q: SummaryQuery,
    private readonly specs: string[],
    private readonly names: Map<number, [number, string]>,
    /** Each table's floor, where the groups are by floor. */
    private readonly floors: Map<number, [number, string]> = new Map(),
  ) {}

  /** The accumulator of a group, by its values for the key specs (in --by order). */
  at(g: Group, specs: string[] = this.specs): Acc {
    const keys = this.q.keys.map((k, i) =>
      keyValue(k, g.values[specs[i] as string], this.q, k === 'floor' ? this.floors : this.names),
    );
    const id = JSON.stringify(keys.map((k) => k.ident));
    let a = this.accs.get(id);
    if (!a) {
      a = {
        keys,
        orders: 0,
        items: null,
        salesIncl: null,
        discounts: null,
        refundCount: 0,
        refunds: 0,
        net: null,
        tax: null,
        total: 0,
        methods: null,
        dayDiscounts: new Map(),
        domains: [],
      };
      this.accs.set(id, a);
    }
    return a;
  }
}

export const add = (a: number | null, b: number): number => (a ?? 0) + b;
export const m2oId = (v: unknown): number | undefined =>
  Array.isArray(v) && typeof v[0] === 'number' ? v[0] : typeof v === 'number' ? v : undefined;

/** The line figures of a group that had no sales line: nothing sold. */
export function zeroLines(a: Acc): void {
  a.items ??= 0;
  a.salesIncl ??= 0;
  a.discounts ??= 0;
}

/**
 * Lines grouped by discount rate (and their order's business day `day`): the quantity, the
 * amount, and the discount it carried.
 */
export function foldLine(a: Acc, g: Group, day: string | null): void {
  const incl = g.aggs['price_subtotal_incl:sum'] ?? 0;
  const d = discountOf(g.values.discount, incl);
  a.items = add(a.items, g.aggs['qty:sum'] ?? 0);
  a.salesIncl = add(a.salesIncl, incl);
  a.discounts = add(a.discounts, d);
  if (day !== null) addDay(a.dayDiscounts, day, d);
}

/** Adds `amount` to `day` of a figure by business day. */
export function addDay(days: Map<string, number>, day: string, amount: number): void {
  days.set(day, (days.get(day) ?? 0) + amount);
}

/**
 * The groupby spec of the business day on pos.order: by day, or by hour where the day starts
 * at another time than midnight (the hours are folded into business days here).
 */
export const daySpec = (q: SummaryQuery): string => orderSpec('day', q);

/** The business day (ISO date) of a group's value for `daySpec`; null for a group without date. */
export function dayOf(v: unknown, q: SummaryQuery): string | null {
  const k = keyValue('day', v, q, new Map());
  return typeof k.ident === 'string' && k.ident !== '' ? k.ident : null;
}

/**
 * What lines discounted by d% gave away, tax included: their amount before the discount less
 * their amount. A 100% discount leaves nothing to scale: Odoo stores no undiscounted amount.
 */
export function discountOf(rate: unknown, incl: number): number {
  const d = typeof rate === 'number' ? rate : 0;
  return d > 0 && d < 100 ? (incl * d) / (100 - d) : 0;
}

/** What a level finds besides its groups: method and category names, notes. */
export class Found {
  readonly methodNames = new Map<number, string>();
  /** A product's category (Odoo 16-18 groups lines by product only). */
  readonly categories = new Map<number, [number, string]>();
  /** A table's floor (pos_restaurant), read before the groups by floor are folded. */
  readonly floors = new Map<number, [number, string]>();
  readonly notes: Said[] = [];

  /** The id of a payment method of a group's value, its name kept. */
  method(v: unknown): number | undefined {
    if (Array.isArray(v) && typeof v[0] === 'number') {
      this.methodNames.set(v[0], typeof v[1] === 'string' ? v[1] : `#${v[0]}`);
      return v[0];
    }
    return undefined;
  }
}

/** Adds `amount` to method `id` of a group's amounts per method. */
export function addMethod(
  a: Map<number, number> | null,
  id: number | undefined,
  amount: number,
): Map<number, number> {
  const m = a ?? new Map<number, number>();
  if (id !== undefined) m.set(id, (m.get(id) ?? 0) + amount);
  return m;
}

/** What the orders of the range add up to: the figures line groups are brought to. */
export interface OrderTotals {
  total: number;
  refunds: number;
  tax: number;
}

/**
 * A level's groups; each business day's discounts (`dayAnchors`, each rounded once: the groups
 * of a day split its cents); and for line keys the orders' own totals (`orders`).
 */
export interface Gathered {
  folder: Folder;
  dayAnchors?: Map<string, number>;
  orders?: OrderTotals;
}
