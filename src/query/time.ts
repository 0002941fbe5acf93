// Time ranges: WHEN values read in an IANA zone and sent to Odoo as naive UTC strings
// (`YYYY-MM-DD HH:MM:SS`), which every Odoo version reads as UTC. Date-only strings are
// never sent: Odoo 19 would read them in the user's zone, 16-18 in UTC.

import { UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import { DateTime } from './luxon.js';

export const ODOO_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/** A bound: the instant, and whether it was a whole day (so `--to` covers all of it). */
export interface Bound {
  at: DateTime;
  wholeDay: boolean;
}

const SPAN = /^(\d+)\s*(s|m|min|h|d|w)$/i;

export function parseWhen(raw: string, zone: string, flag: string, now: DateTime = DateTime.now()): Bound {
  const s = raw.trim();
  const local = now.setZone(zone);
  if (/^today$/i.test(s)) return { at: local.startOf('day'), wholeDay: true };
  if (/^yesterday$/i.test(s)) return { at: local.minus({ days: 1 }).startOf('day'), wholeDay: true };
  if (/^now$/i.test(s)) return { at: local, wholeDay: false };
  const span = SPAN.exec(s);
  if (span) {
    const n = Number(span[1]);
    const unit = span[2].toLowerCase();
    const dur =
      unit === 's'
        ? { seconds: n }
        : unit === 'm' || unit === 'min'
          ? { minutes: n }
          : unit === 'h'
            ? { hours: n }
            : unit === 'd'
              ? { days: n }
              : { weeks: n };
    const at = local.minus(dur);
    // A span past luxon's range (or before year 1) is no date Odoo can take.
    if (!at.isValid || at.year < 1)
      throw new UsageError(
        say`${own(flag)} '${raw}' reaches back before year 1`,
        say`give a shorter span or a date`,
      );
    return { at, wholeDay: false };
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) {
    const d = DateTime.fromISO(s, { zone });
    if (!d.isValid) throw badWhen(raw, flag);
    return { at: d.startOf('day'), wholeDay: true };
  }
  // `YYYY-MM-DD HH:MM[:SS]` in the zone, or ISO 8601 (with or without an offset).
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(s);
  if (m) {
    // Real offsets run from -12:00 to +14:00; luxon would take +25:00 as it is.
    const off = m[3] ? /^[+-](\d{2}):?(\d{2})?$/.exec(m[3]) : null;
    if (off && (Number(off[1]) > 14 || Number(off[2] ?? 0) > 59)) throw badWhen(raw, flag);
    const d = m[3]
      ? DateTime.fromISO(`${m[1]}T${m[2]}${m[3]}`, { setZone: true })
      : DateTime.fromISO(`${m[1]}T${m[2]}`, { zone });
    if (!d.isValid) throw badWhen(raw, flag);
    return { at: d, wholeDay: false };
  }
  throw badWhen(raw, flag);
}

/**
 * A whole day (`--date`): `YYYY-MM-DD`, today or yesterday, as its first instant in `zone`.
 * Anything else, a time, a span or no date at all, gets the one hint of what a day is.
 */
export function parseDay(raw: string, zone: string, flag: string, now?: DateTime): DateTime {
  let b: Bound | undefined;
  try {
    b = parseWhen(raw, zone, flag, now);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
  }
  if (!b?.wholeDay)
    throw new UsageError(say`${own(flag)} '${raw}' is not a day`, say`use YYYY-MM-DD, today or yesterday`);
  return b.at;
}

function badWhen(raw: string, flag: string): UsageError {
  return new UsageError(
    say`${own(flag)} '${raw}' is not a date or time`,
    say`use YYYY-MM-DD, "YYYY-MM-DD HH:MM", ISO 8601, today, yesterday or a span such as 2h or 7d`,
  );
}

/** 0000-01-01 and 10000-01-01 UTC: the instants whose ISO text has a four-digit year. */
const FOUR_DIGIT_YEARS = [-62_167_219_200_000, 253_402_300_800_000] as const;

/**
 * Odoo's UTC text of an instant (`2026-12-01 23:00:00`). Date's ISO text, not luxon's format
 * parser (~60 µs a call on its first uses): a range is checked again for each server of a chain,
 * before its first request. The same text as luxon's for every instant of a four-digit year
 * (test/query/time.test.ts); luxon's for any other.
 */
export function toOdoo(d: DateTime): string {
  const ms = d.toMillis();
  if (!(ms >= FOUR_DIGIT_YEARS[0] && ms < FOUR_DIGIT_YEARS[1])) return d.toUTC().toFormat(ODOO_FORMAT);
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/**
 * A local time the clocks skip in `zone` (the hour of a spring-forward: 02:30 on 2026-03-29 in
 * Europe/Brussels), read as PostgreSQL reads it (`'2026-03-29 02:30'::timestamptz` is 03:30+02,
 * as luxon's and Odoo's): what to tell the user, or undefined for a time that exists.
 */
function skippedTime(raw: string | undefined, zone: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?$/.exec(raw?.trim() ?? '');
  if (!m) return undefined;
  const d = DateTime.fromISO(`${m[1]}T${m[2]}${m[3] ?? ''}`, { zone });
  if (!d.isValid || d.toFormat('yyyy-MM-dd HH:mm') === `${m[1]} ${m[2]}`) return undefined;
  return `${m[2]} does not exist on ${m[1]} in ${zone} (the clocks skip it) and is read as ${d.toFormat('HH:mm')}, as PostgreSQL reads it`;
}

/** The domain leaves for `--from`/`--to` on `field`. */
export function rangeDomain(
  field: string,
  from: string | undefined,
  to: string | undefined,
  zone: string,
  now?: DateTime,
): [string, string, string][] {
  const leaves: [string, string, string][] = [];
  const f = from !== undefined ? parseWhen(from, zone, '--from', now) : undefined;
  const t = to !== undefined ? parseWhen(to, zone, '--to', now) : undefined;
  // A whole-day --to covers that day: everything before the next local midnight.
  const end = t ? (t.wholeDay ? t.at.plus({ days: 1 }).startOf('day') : t.at) : undefined;
  if (f && end && f.at >= end) {
    const skipped = [from, to].flatMap((raw) => skippedTime(raw, zone) ?? []);
    if (skipped.length > 0)
      throw new UsageError(
        say`--from ${from} is not before --to ${to}: ${skipped.join('; ')}`,
        say`give a time the clocks show that day, or widen the range`,
      );
    throw new UsageError(say`--from ${from} is not before --to ${to}`, say`swap them or widen the range`);
  }
  if (f) leaves.push([field, '>=', toOdoo(f.at)]);
  if (t && end) leaves.push(t.wholeDay ? [field, '<', toOdoo(end)] : [field, '<=', toOdoo(end)]);
  return leaves;
}

/**
 * `--from`/`--to` checked before any request: each is a time (in any zone), and where the zone
 * is known (--tz) the range is not empty. Without --tz the zone is the Odoo user's, known once
 * the session is open, and the order is checked then (rangeDomain).
 */
export function checkRange(from: string | undefined, to: string | undefined, zone: string | undefined): void {
  if (zone !== undefined) {
    rangeDomain('', from, to, zone);
    return;
  }
  if (from !== undefined) parseWhen(from, 'UTC', '--from');
  if (to !== undefined) parseWhen(to, 'UTC', '--to');
}

/** Odoo's UTC `YYYY-MM-DD HH:MM:SS` shown in a zone, as ISO 8601 with the offset. */
export function utcToZoneIso(value: string, zone: string): string {
  const c = clockOf(zone);
  if (c.wall(value) !== undefined) return c.isoOfLast(value);
  // No real time, or an hour whose offset changes: luxon's, whole.
  const d = DateTime.fromFormat(value, ODOO_FORMAT, { zone: 'UTC' });
  return d.isValid ? (d.setZone(zone).toISO({ suppressMilliseconds: true }) ?? value) : value;
}

/** Odoo's UTC string shown in a zone for a person: `YYYY-MM-DD HH:MM`. */
export function utcToZoneShort(value: string, zone: string): string {
  const ms = odooUtcMillis(value);
  const at = ms === undefined ? undefined : clockOf(zone).at(ms);
  if (ms === undefined || !at) {
    const d = DateTime.fromFormat(value, ODOO_FORMAT, { zone: 'UTC' });
    return d.isValid ? d.setZone(zone).toFormat('yyyy-MM-dd HH:mm') : value;
  }
  return localText(ms, at).slice(0, 16);
}

/**
 * A datetime as a spreadsheet reads it (`--excel`): the wall-clock time in `zone`,
 * `YYYY-MM-DD HH:MM:SS`, no offset. From Odoo's UTC string or from ISO 8601 with an offset
 * (a value already moved to a zone); anything else stays as it is.
 */
export function wallClock(value: string, zone: string): string {
  const fast = clockOf(zone).wall(value);
  if (fast !== undefined) return fast;
  const ms = ODOO_TEXT.test(value) ? odooUtcMillis(value) : isoMillis(value);
  const at = ms === undefined ? undefined : clockOf(zone).at(ms);
  if (ms === undefined || !at) {
    const d = ODOO_TEXT.test(value)
      ? DateTime.fromFormat(value, ODOO_FORMAT, { zone: 'UTC' })
      : DateTime.fromISO(value, { setZone: true });
    return d.isValid ? d.setZone(zone).toFormat('yyyy-MM-dd HH:mm:ss') : value;
  }
  return localText(ms, at);
}

const ODOO_TEXT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

// A --tz export shows every datetime in the zone. luxon reads and writes one in ~140 µs
// (its format parser builds its token expressions again on every call), most of such an
// export's time; so the zone's offset is asked of luxon once per UTC hour, and the values of
// that hour are moved and written with Date's UTC arithmetic. An hour in which the offset
// changes (a zone whose clocks move off the hour), or one past year 9999, is left to luxon
// whole. test/query/zone-clock.test.ts holds these to luxon's own answers.

const ODOO_PARTS = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const ISO_PARTS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z|[+-]\d{2}:\d{2})$/;
const HOUR = 3_600_000;

/** The instant of Y-M-D h:m:s in UTC, or undefined where it is no real time (02-30, 24:00). */
function utcMillis(m: RegExpExecArray): number | undefined {
  const [y, mo, d, h, mi, sec] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  const t = new Date(0);
  t.setUTCFullYear(y as number, (mo as number) - 1, d);
  t.setUTCHours(h as number, mi, sec, 0);
  const real =
    t.getUTCFullYear() === y &&
    t.getUTCMonth() === (mo as number) - 1 &&
    t.getUTCDate() === d &&
    t.getUTCHours() === h &&
    t.getUTCMinutes() === mi &&
    t.getUTCSeconds() === sec;
  return real && y !== 0 ? t.getTime() : undefined;
}

/** Odoo's UTC text as its instant; undefined where luxon is to read it (and refuse it). */
function odooUtcMillis(value: string): number | undefined {
  const m = ODOO_PARTS.exec(value);
  return m ? utcMillis(m) : undefined;
}

/**
 * Odoo's UTC text as the DateTime luxon's fromFormat reads (the same instant, zone and
 * validity), without building its format parser where the text is a real time: a process's
 * first fromFormat costs ~3 ms of CPU (its tokens, regexes and locale), on the path of a
 * summary's first replies. Anything else is fromFormat's, to be refused the same way.
 */
export function odooUtc(value: string): DateTime {
  const ms = odooUtcMillis(value);
  return ms === undefined
    ? DateTime.fromFormat(value, ODOO_FORMAT, { zone: 'UTC' })
    : DateTime.fromMillis(ms, { zone: 'UTC' });
}

/** ISO 8601 to the second with its offset, as utcToZoneIso writes it; anything else is luxon's. */
function isoMillis(value: string): number | undefined {
  const m = ISO_PARTS.exec(value);
  if (!m) return undefined;
  const wall = utcMillis(m);
  const off = m[7] === 'Z' || m[7] === undefined ? 0 : offsetMinutes(m[7]);
  return wall === undefined || off === undefined ? undefined : wall - off * 60_000;
}

function offsetMinutes(text: string): number | undefined {
  const h = Number(text.slice(1, 3));
  const mi = Number(text.slice(4, 6));
  if (h > 14 || mi > 59) return undefined;
  return (text[0] === '-' ? -1 : 1) * (h * 60 + mi);
}

/** A zone through one UTC hour: its offset in minutes and how ISO 8601 writes it (`+01:00`, `Z`). */
interface HourOffset {
  offset: number;
  suffix: string;
}

/** A zone's offsets, asked of luxon once per UTC hour. */
class ZoneClock {
  private readonly hours = new Map<number, HourOffset | null>();
  /**
   * The hour (`YYYY-MM-DD HH` of Odoo's UTC text) `wall` last wrote where the offset is whole
   * hours, else its minute (`YYYY-MM-DD HH:MM`); none at first.
   */
  private lastKey = '\0';
  /** That hour or minute on this clock, as `wall` and as `isoOfLast` write it, and its offset. */
  private lastWall = '';
  private lastIso = '';
  private lastSuffix = '';
  constructor(private readonly zone: string) {}

  /**
   * Odoo's UTC text on this clock, `YYYY-MM-DD HH:MM:SS`; undefined where luxon is to say it
   * (no real time, an hour whose offset changes). An offset is whole minutes, so a value in the
   * minute of the one before is that minute's text and its own seconds, without the Dates of a
   * new one; where it is whole hours (most zones, UTC), a value in the hour of the one before
   * (an export's records come in id order: mostly several an hour) is that hour's text and its
   * own minutes and seconds.
   */
  wall(value: string): string | undefined {
    if (value.length === 19 && value.startsWith(this.lastKey) && realMinutes(value))
      return this.lastWall + value.slice(this.lastKey.length);
    const ms = odooUtcMillis(value);
    const at = ms === undefined ? null : this.at(ms);
    if (ms === undefined || !at) return undefined;
    const text = localText(ms, at);
    const kept = at.offset % 60 === 0 ? 13 : 16;
    this.lastKey = value.slice(0, kept);
    this.lastWall = text.slice(0, kept);
    this.lastIso = `${text.slice(0, 10)}T${text.slice(11, kept)}`;
    this.lastSuffix = at.suffix;
    return text;
  }

  /** ISO 8601 with the offset of the value `wall` has just written. */
  isoOfLast(value: string): string {
    return this.lastIso + value.slice(this.lastKey.length) + this.lastSuffix;
  }

  /** The offset through the hour of `ms`; null where it changes inside that hour or luxon cannot say. */
  at(ms: number): HourOffset | null {
    const h = Math.floor(ms / HOUR);
    let e = this.hours.get(h);
    if (e === undefined) {
      e = this.ask(h * HOUR);
      this.hours.set(h, e);
    }
    return e;
  }

  private ask(start: number): HourOffset | null {
    const a = DateTime.fromMillis(start, { zone: this.zone });
    const b = DateTime.fromMillis(start + HOUR - 1, { zone: this.zone });
    if (!a.isValid || a.offset !== b.offset || !Number.isInteger(a.offset)) return null;
    if (a.year < 1 || b.year > 9999) return null;
    const iso = a.toISO({ suppressMilliseconds: true });
    return iso ? { offset: a.offset, suffix: iso.slice(19) } : null;
  }
}

const clocks = new Map<string, ZoneClock>();

function clockOf(zone: string): ZoneClock {
  let c = clocks.get(zone);
  if (!c) {
    c = new ZoneClock(zone);
    clocks.set(zone, c);
  }
  return c;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** `:MM:SS` of a real minute and second (00-59), as the Date round trip of utcMillis would take them. */
function realMinutes(value: string): boolean {
  return sixty(value, 13) && sixty(value, 16);
}

/** `:NN` at `i`, NN from 00 to 59. */
function sixty(value: string, i: number): boolean {
  const a = value.charCodeAt(i + 1);
  const b = value.charCodeAt(i + 2);
  return value.charCodeAt(i) === 58 && a >= 48 && a <= 53 && b >= 48 && b <= 57;
}

/** `YYYY-MM-DD HH:MM:SS` of the instant on the zone's clock. */
function localText(ms: number, at: HourOffset): string {
  const t = new Date(ms + at.offset * 60_000);
  return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`;
}
