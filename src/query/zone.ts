// Time zones: the machine's, and an IANA name checked as Intl knows it (what luxon, which
// reads the times, accepts too). No luxon here: a command checks --tz before it loads one.
import { UsageError } from '../core/errors.js';
import { say } from '../core/redact.js';

export function machineZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * Which zone a value uses, the one rule: a range (--from/--to, --date, a business day) and a
 * table for a person are in --tz, else the profile's zone (the shop's, `login --tz`, else the
 * Odoo user's), else this
 * machine's; times written as data (CSV, JSON, NDJSON, Parquet) are UTC, as Odoo keeps them,
 * unless --tz is given. --tz's help says so (TZ_HELP).
 */
export function zoneFor(
  what: 'range' | 'table',
  tz: string | undefined,
  userTz: string | null | undefined,
): string;
/** Data: undefined is Odoo's own UTC strings, kept as they are. */
export function zoneFor(what: 'data', tz: string | undefined): string | undefined;
export function zoneFor(
  what: 'range' | 'table' | 'data',
  tz: string | undefined,
  userTz?: string | null,
): string | undefined {
  if (tz !== undefined || what === 'data') return tz;
  return userTz ?? machineZone();
}

/** --tz's help, the rule of zoneFor in a line: `range` is what the command's range is. */
export function tzHelp(range?: string): string {
  return `IANA zone of ${range ? `${range} and of ` : ''}a table's times (default: the profile's, login --tz, else the Odoo user's zone); times in CSV, JSON and Parquet are UTC unless --tz is given`;
}

/** Zones found valid in this process: a chain checks --tz twice a server, ~1 ms of ICU each. */
const validZones = new Set<string>();

export function checkZone(zone: string): string {
  // UTC is every ICU's: no DateTimeFormat made for it (ICU's first costs ~20 ms of CPU, and with
  // luxon's locale set (query/luxon.ts) a run in UTC makes none before its first request).
  if (zone === 'UTC' || validZones.has(zone)) return zone;
  let valid = zone !== '';
  try {
    if (valid) new Intl.DateTimeFormat('en-US', { timeZone: zone }).format();
  } catch {
    valid = false;
  }
  if (valid) validZones.add(zone);
  if (!valid) {
    throw new UsageError(
      say`unknown time zone '${zone}'`,
      say`give an IANA zone such as Europe/Brussels or UTC`,
    );
  }
  return zone;
}
