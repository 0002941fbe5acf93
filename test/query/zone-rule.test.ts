// The one rule of which zone a value uses (src/query/zone.ts zoneFor), which list, summary,
// reconcile, doctor and serve all ask: ranges and tables in --tz, else the Odoo user's zone,
// else the machine's; times written as data in UTC (Odoo's own strings) unless --tz is given.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { checkZone, machineZone, zoneFor } from '../../src/query/zone.js';

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

describe('checkZone', () => {
  it('asks ICU once per zone a run names, however often it is checked', () => {
    // A chain checks --tz for each server's run, twice: each ICU formatter is ~1 ms.
    const Real = Intl.DateTimeFormat;
    let made = 0;
    Intl.DateTimeFormat = new Proxy(Real, {
      construct(target, args) {
        made++;
        return Reflect.construct(target, args);
      },
    });
    try {
      for (let i = 0; i < 40; i++) expect(checkZone('America/Paramaribo')).toBe('America/Paramaribo');
      expect(made).toBe(1);
      for (let i = 0; i < 2; i++) expect(() => checkZone('Nope/Nowhere')).toThrow(UsageError);
      expect(() => checkZone('')).toThrow(UsageError);
    } finally {
      Intl.DateTimeFormat = Real;
    }
  });
});
