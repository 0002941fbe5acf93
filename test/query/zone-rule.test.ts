// The one rule of which zone a value uses (src/query/zone.ts zoneFor), which list, summary,
// reconcile, doctor and serve all ask: ranges and tables in --tz, else the Odoo user's zone,
// else the machine's; times written as data in UTC (Odoo's own strings) unless --tz is given.
import { describe, expect, it } from 'vitest';
import { machineZone, zoneFor } from '../../src/query/zone.js';

describe('zoneFor', () => {
  it.each([
    ['range', 'Asia/Tokyo', 'Europe/Brussels', 'Asia/Tokyo'],
    ['range', undefined, 'Europe/Brussels', 'Europe/Brussels'],
    ['range', undefined, null, machineZone()],
    ['table', undefined, 'America/New_York', 'America/New_York'],
    ['table', 'UTC', 'America/New_York', 'UTC'],
  ] as const)('%s with --tz %s and the user in %s: %s', (what, tz, user, want) => {
    expect(zoneFor(what, tz, user)).toBe(want);
  });

  it('writes data in UTC as Odoo keeps it, unless --tz is given', () => {
    expect(zoneFor('data', undefined)).toBeUndefined();
    expect(zoneFor('data', 'Europe/Brussels')).toBe('Europe/Brussels');
  });
});
