// Time zones: the machine's, and an IANA name checked as Intl knows it (what luxon, which
// reads the times, accepts too). No luxon here: a command checks --tz before it loads one.
import { UsageError } from '../core/errors.js';
import { say } from '../core/redact.js';

export function machineZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function checkZone(zone: string): string {
  let valid = zone !== '';
  try {
    if (valid) new Intl.DateTimeFormat('en-US', { timeZone: zone }).format();
  } catch {
    valid = false;
  }
  if (!valid) {
    throw new UsageError(
      say`unknown time zone '${zone}'`,
      say`give an IANA zone such as Europe/Brussels or UTC`,
    );
  }
  return zone;
}
