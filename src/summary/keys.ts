// The summary's group keys and its other inputs that need no server: which keys exist, at
// which level each one groups (order, line or payment), `--top`, `--day-starts`. Messages
// name the command's flags; serve turns them into its parameter names.
import type { DateTime } from 'luxon';
import { UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import { closest } from '../core/suggest.js';

export const KEYS = [
  'day',
  'hour',
  'weekday',
  'register',
  'session',
  'cashier',
  'table',
  'floor',
  'product',
  'category',
  'method',
  'tax',
] as const;

export type Key = (typeof KEYS)[number];

/** Keys only an order line has. */
export const LINE_KEYS: readonly Key[] = ['product', 'category', 'tax'];

/**
 * Where the figures of a grouping come from: `order` (orders, with their lines and payments
 * folded in), `line` (a product or tax is a property of a line, not of an order) or
 * `payment` (a payment method is a property of a payment).
 */
export type Level = 'order' | 'line' | 'payment';

export function parseKeys(raw: string | undefined): Key[] {
  if (raw === undefined) return ['register'];
  const keys = raw
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  if (keys.length === 0)
    throw new UsageError(say`--by is empty`, say`give one or more of ${own(KEYS.join(', '))}`);
  for (const k of keys) {
    if (!(KEYS as readonly string[]).includes(k)) {
      const guess = closest(k, KEYS);
      throw new UsageError(
        say`--by '${k}' is not a summary key`,
        guess
          ? say`did you mean ${own(guess)}? use one or more of ${own(KEYS.join(', '))}`
          : say`use one or more of ${own(KEYS.join(', '))}`,
      );
    }
  }
  if (new Set(keys).size !== keys.length) {
    throw new UsageError(say`--by '${raw}' names a key twice`, say`give each key once`);
  }
  const k = keys as Key[];
  if (k.includes('table') && k.includes('floor')) {
    throw new UsageError(
      say`--by ${raw}: a table is on one floor`,
      say`group by table or by floor, not both`,
    );
  }
  if (k.includes('method') && k.some((x) => LINE_KEYS.includes(x))) {
    throw new UsageError(
      say`--by ${raw}: a payment is not split by product, category or tax`,
      say`group by method or by product, category or tax, not both`,
    );
  }
  return k;
}

export function levelOf(keys: readonly Key[]): Level {
  if (keys.includes('method')) return 'payment';
  if (keys.some((k) => LINE_KEYS.includes(k))) return 'line';
  return 'order';
}

/** `--day-starts HH:MM` as minutes after midnight. */
export function parseDayStarts(raw: string | undefined): number {
  if (raw === undefined) return 0;
  const m = /^(\d{1,2}):(\d{2})$/.exec(raw.trim());
  const h = m ? Number(m[1]) : Number.NaN;
  const min = m ? Number(m[2]) : Number.NaN;
  if (!m || h > 23 || min > 59) {
    throw new UsageError(
      say`--day-starts '${raw}' is not a time of day`,
      say`use HH:MM, e.g. --day-starts 03:00`,
    );
  }
  if (min !== 0) {
    // Odoo buckets by the hour at the finest; a cut inside an hour would split a bucket.
    throw new UsageError(
      say`--day-starts '${raw}' is not on the hour`,
      say`use a whole hour, e.g. --day-starts 03:00`,
    );
  }
  return h * 60;
}

/**
 * The instant a business day starts: `day` (any time of that date, in the zone) at the wall
 * clock's `dayStarts`. Set on the clock, never added as elapsed minutes: on a DST day the
 * clock's 03:00 is not 180 minutes after midnight. A cut inside the hour the clocks skip is
 * the first instant after it (luxon moves a time that does not exist forward).
 */
export function dayCut(day: DateTime, dayStarts: number): DateTime {
  return day.set({ hour: Math.floor(dayStarts / 60), minute: dayStarts % 60, second: 0, millisecond: 0 });
}

/**
 * The business day of a local time: its date, or the day before when the wall clock reads
 * earlier than `dayStarts` (an hour repeated when the clocks go back is earlier both times).
 */
export function businessDay(local: DateTime, dayStarts: number): DateTime {
  const day = local.startOf('day');
  return local.hour * 60 + local.minute < dayStarts ? day.minus({ days: 1 }) : day;
}

export function checkTop(top: number | undefined): number | undefined {
  if (top === undefined) return undefined;
  if (!Number.isInteger(top) || top < 1) {
    throw new UsageError(say`--top '${top}' is not a whole number of 1 or more`, say`use e.g. --top 20`);
  }
  return top;
}

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The output columns of each key: an id and a name for relations, a value otherwise. */
export const KEY_COLUMNS: Record<Key, string[]> = {
  day: ['day'],
  hour: ['hour'],
  weekday: ['weekday'],
  register: ['config_id', 'register'],
  session: ['session_id', 'session'],
  cashier: ['cashier_id', 'cashier'],
  table: ['table_id', 'table'],
  floor: ['floor_id', 'floor'],
  product: ['product_id', 'product'],
  category: ['category_id', 'category'],
  method: ['method_id', 'method'],
  tax: ['tax_id', 'tax_name'],
};
