// Time ranges: WHEN values read in an IANA zone and sent to Odoo as naive UTC strings
// (`YYYY-MM-DD HH:MM:SS`), which every Odoo version reads as UTC. Date-only strings are
// never sent: Odoo 19 would read them in the user's zone, 16-18 in UTC.
import { DateTime } from 'luxon';
import { UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';

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

export function toOdoo(d: DateTime): string {
  return d.toUTC().toFormat(ODOO_FORMAT);
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
  const d = DateTime.fromFormat(value, ODOO_FORMAT, { zone: 'UTC' });
  return d.isValid ? (d.setZone(zone).toISO({ suppressMilliseconds: true }) ?? value) : value;
}

/** Odoo's UTC string shown in a zone for a person: `YYYY-MM-DD HH:MM`. */
export function utcToZoneShort(value: string, zone: string): string {
  const d = DateTime.fromFormat(value, ODOO_FORMAT, { zone: 'UTC' });
  return d.isValid ? d.setZone(zone).toFormat('yyyy-MM-dd HH:mm') : value;
}

/**
 * A datetime as a spreadsheet reads it (`--excel`): the wall-clock time in `zone`,
 * `YYYY-MM-DD HH:MM:SS`, no offset. From Odoo's UTC string or from ISO 8601 with an offset
 * (a value already moved to a zone); anything else stays as it is.
 */
export function wallClock(value: string, zone: string): string {
  const d = ODOO_TEXT.test(value)
    ? DateTime.fromFormat(value, ODOO_FORMAT, { zone: 'UTC' })
    : DateTime.fromISO(value, { setZone: true });
  return d.isValid ? d.setZone(zone).toFormat('yyyy-MM-dd HH:mm:ss') : value;
}

const ODOO_TEXT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
