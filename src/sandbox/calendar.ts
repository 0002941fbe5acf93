/**
 * Calendar arithmetic for grouping by date: UTC <-> local time in an IANA zone (pytz's rules,
 * `localize(is_dst=False)`), Postgres-style truncation and date parts, and the en_US labels Odoo's
 * babel formats give (`READ_GROUP_DISPLAY_FORMAT`). Times are seconds; "local" seconds are the
 * local wall clock read as if it were UTC, so plain UTC date functions apply to them.
 */

const DAY = 86400;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const zoneOk = new Map<string, boolean>();
/** A zone pytz knows (Intl's IANA database stands in for pytz.all_timezones_set). */
export function validZone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || tz === '') return false;
  let ok = zoneOk.get(tz);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      ok = true;
    } catch {
      ok = false;
    }
    zoneOk.set(tz, ok);
  }
  return ok;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, number>>();

/** Offset in seconds (local = utc + offset) of a zone at a UTC instant; cached per quarter hour. */
export function offsetAt(sec: number, tz: string): number {
  let cache = offsets.get(tz);
  if (!cache) {
    cache = new Map();
    offsets.set(tz, cache);
  }
  const bucket = Math.floor(sec / 900);
  let off = cache.get(bucket);
  if (off === undefined) {
    let f = formatters.get(tz);
    if (!f) {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
      formatters.set(tz, f);
    }
    const at = bucket * 900;
    const p: Record<string, number> = {};
    for (const part of f.formatToParts(new Date(at * 1000))) p[part.type] = Number(part.value);
    off =
      Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0) /
        1000 -
      at;
    cache.set(bucket, off);
  }
  return off;
}

/** UTC seconds -> local wall-clock seconds (identity without a zone). */
export function toLocal(sec: number, tz: string | false): number {
  return tz ? sec + offsetAt(sec, tz) : sec;
}

/**
 * Local wall-clock seconds -> UTC, as pytz's `localize(dt, is_dst=False)`: an ambiguous time (the
 * repeated hour in autumn) takes standard time, a time in the spring gap the standard offset.
 */
export function fromLocal(local: number, tz: string | false): number {
  if (!tz) return local;
  const a = offsetAt(local - 50400, tz);
  const b = offsetAt(local + 50400, tz);
  const valid = [a, b].filter((o) => offsetAt(local - o, tz) === o);
  const off = valid.length > 0 ? Math.min(...valid) : Math.min(a, b);
  return local - off;
}

/** Odoo's en_US week starts on Sunday (babel first_week_day 6, res.lang week_start 7). */
const WEEK_START = 0; // getUTCDay() of the first day of the week

const TIME_GRANULARITIES = ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type TimeGranularity = (typeof TIME_GRANULARITIES)[number];
export const isTimeGranularity = (g: string): g is TimeGranularity =>
  (TIME_GRANULARITIES as readonly string[]).includes(g);

/** Odoo 18+ READ_GROUP_NUMBER_GRANULARITY: name -> Postgres date_part field. */
export const NUMBER_GRANULARITIES: Record<string, string> = {
  year_number: 'year',
  quarter_number: 'quarter',
  month_number: 'month',
  iso_week_number: 'week',
  day_of_year: 'doy',
  day_of_month: 'day',
  day_of_week: 'dow',
  hour_number: 'hour',
  minute_number: 'minute',
  second_number: 'second',
};

/** Start of the period holding a local time (Postgres date_trunc, weeks from the locale's first day). */
export function truncLocal(local: number, g: TimeGranularity): number {
  switch (g) {
    case 'hour':
      return Math.floor(local / 3600) * 3600;
    case 'day':
      return Math.floor(local / DAY) * DAY;
    case 'week': {
      const day = Math.floor(local / DAY) * DAY;
      const dow = new Date(day * 1000).getUTCDay();
      return day - ((dow - WEEK_START + 7) % 7) * DAY;
    }
    default: {
      const d = new Date(local * 1000);
      const y = d.getUTCFullYear();
      const m = g === 'year' ? 0 : g === 'quarter' ? Math.floor(d.getUTCMonth() / 3) * 3 : d.getUTCMonth();
      return Date.UTC(y, m, 1) / 1000;
    }
  }
}

/** The local start of the next period (relativedelta / timedelta(days=7) on the naive value). */
export function nextLocal(start: number, g: TimeGranularity): number {
  switch (g) {
    case 'hour':
      return start + 3600;
    case 'day':
      return start + DAY;
    case 'week':
      return start + 7 * DAY;
    default: {
      const d = new Date(start * 1000);
      const add = g === 'month' ? 1 : g === 'quarter' ? 3 : 12;
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, d.getUTCDate()) / 1000;
    }
  }
}

/** Postgres date_part on a local time. `dow` counts from Sunday = 0; `week` is the ISO week. */
export function datePart(local: number, part: string): number {
  const d = new Date(local * 1000);
  switch (part) {
    case 'year':
      return d.getUTCFullYear();
    case 'quarter':
      return Math.floor(d.getUTCMonth() / 3) + 1;
    case 'month':
      return d.getUTCMonth() + 1;
    case 'week':
      return isoWeek(d)[1];
    case 'doy':
      return Math.floor((local - Date.UTC(d.getUTCFullYear(), 0, 1) / 1000) / DAY) + 1;
    case 'day':
      return d.getUTCDate();
    case 'dow':
      return d.getUTCDay();
    case 'hour':
      return d.getUTCHours();
    case 'minute':
      return d.getUTCMinutes();
    default:
      return d.getUTCSeconds();
  }
}

function isoWeek(d: Date): [number, number] {
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const dow = (new Date(day).getUTCDay() + 6) % 7; // Monday = 0
  const thursday = new Date(day + (3 - dow) * DAY * 1000);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY * 1000)) + 1;
  return [year, week];
}

/**
 * odoo.tools.date_utils.weeknumber for en_US (first day Sunday, min_week_days 1): the first week
 * is the one holding January 1st, and the days of December in it belong to the next year.
 */
function weekNumber(local: number): [number, number] {
  const d = new Date(Math.floor(local / DAY) * DAY * 1000);
  const y = d.getUTCFullYear();
  const firstOfWeek = (t: number): number => {
    const dow = new Date(t).getUTCDay();
    return t - ((dow - WEEK_START + 7) % 7) * DAY * 1000;
  };
  const fdny = firstOfWeek(Date.UTC(y + 1, 0, 1));
  if (d.getTime() >= fdny) return [y + 1, 1];
  const fdow = firstOfWeek(Date.UTC(y, 0, 1));
  return [y, Math.floor((d.getTime() - fdow) / (DAY * 1000) / 7) + 1];
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** The group label Odoo gives (babel, en_US, READ_GROUP_DISPLAY_FORMAT) for a period's local start. */
export function periodLabel(local: number, g: TimeGranularity): string {
  const d = new Date(local * 1000);
  const y = pad(d.getUTCFullYear(), 4);
  const mon = MONTHS[d.getUTCMonth()] as string;
  switch (g) {
    case 'hour': {
      const h = d.getUTCHours() % 12 || 12; // 'hh': 12-hour clock, no AM/PM
      return `${pad(h)}:00 ${pad(d.getUTCDate())} ${mon.slice(0, 3)}`;
    }
    case 'day':
      return `${pad(d.getUTCDate())} ${mon.slice(0, 3)} ${y}`;
    case 'week': {
      const [wy, w] = weekNumber(local);
      return `W${w} ${pad(wy, 4)}`;
    }
    case 'month':
      return `${mon} ${y}`;
    case 'quarter':
      return `Q${Math.floor(d.getUTCMonth() / 3) + 1} ${y}`;
    default:
      return y;
  }
}
