/** Odoo's wire datetimes: naive UTC `YYYY-MM-DD HH:MM:SS` strings, built fast (millions at generation). */

const pad2 = Array.from({ length: 60 }, (_, i) => (i < 10 ? `0${i}` : String(i)));
let cachedDay = Number.NaN;
let cachedPrefix = '';

/** Seconds since the epoch -> `YYYY-MM-DD HH:MM:SS`. */
export function fmtDatetime(sec: number): string {
  const s = Math.floor(sec);
  const day = Math.floor(s / 86400);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedPrefix = `${new Date(day * 86400000).toISOString().slice(0, 10)} `;
  }
  let r = s - day * 86400;
  const h = Math.floor(r / 3600);
  r -= h * 3600;
  const m = Math.floor(r / 60);
  return `${cachedPrefix}${pad2[h]}:${pad2[m]}:${pad2[r - m * 60]}`;
}

/**
 * A transaction timestamp as PostgreSQL keeps `create_date`/`write_date` (Odoo sets them with the
 * transaction's `now()`): `YYYY-MM-DD HH:MM:SS.ffffff`. Generated data takes the microseconds from
 * `salt` (never zero), so a seed gives the same stamps; every record written in one transaction
 * shares the string. Odoo reads them back cut to the second (`wholeSeconds`).
 */
export function txStamp(sec: number, salt: number): string {
  const micro = ((Math.imul(salt ^ Math.floor(sec), 2654435761) >>> 0) % 999999) + 1;
  return `${fmtDatetime(sec)}.${String(micro).padStart(6, '0')}`;
}

/** Milliseconds since the epoch (with their fraction) -> `YYYY-MM-DD HH:MM:SS.ffffff`. */
export function fmtMicros(ms: number): string {
  const sec = Math.floor(ms / 1000);
  const micro = Math.min(999999, Math.floor((ms - sec * 1000) * 1000));
  return `${fmtDatetime(sec)}.${String(micro).padStart(6, '0')}`;
}

/** A stored datetime as Odoo puts it on the wire: whole seconds (json_default drops microseconds). */
export function wholeSeconds<T>(v: T): T {
  return typeof v === 'string' && v.length > 19 && v.charCodeAt(19) === 46 ? (v.slice(0, 19) as T) : v;
}

/** `YYYY-MM-DD HH:MM:SS` (UTC) -> seconds since the epoch. */
export function parseDatetime(s: string): number {
  return Date.parse(`${s.replace(' ', 'T')}Z`) / 1000;
}

export function fmtDate(sec: number): string {
  return new Date(Math.floor(sec) * 1000).toISOString().slice(0, 10);
}

/** The calendar date of a UTC instant in a time zone (Odoo's "last closing date" is local). */
export function localDate(sec: number, tz: string | false): string {
  if (!tz) return fmtDate(sec);
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date(sec * 1000));
  } catch {
    return fmtDate(sec);
  }
}

/** Offset in seconds of a zone at an instant (local = utc + offset). */
export function tzOffset(sec: number, tz: string): number {
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(new Date(sec * 1000));
    const get = (t: string): number => Number(parts.find((p) => p.type === t)?.value ?? 0);
    const asUtc =
      Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) / 1000;
    return asUtc - Math.floor(sec);
  } catch {
    return 0;
  }
}
