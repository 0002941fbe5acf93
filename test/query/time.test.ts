import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { ODOO_FORMAT, parseWhen, rangeDomain, toOdoo } from '../../src/query/time.js';

const now = DateTime.fromISO('2026-11-21T18:30:00Z');

describe('--from/--to', () => {
  it('a date-only day in a zone far east of UTC becomes that local day in UTC', () => {
    expect(rangeDomain('date_order', '2026-11-21', '2026-11-21', 'Pacific/Kiritimati', now)).toEqual([
      ['date_order', '>=', '2026-11-20 10:00:00'],
      ['date_order', '<', '2026-11-21 10:00:00'],
    ]);
  });

  it('and far west', () => {
    expect(rangeDomain('date_order', '2026-11-21', '2026-11-21', 'Pacific/Honolulu', now)).toEqual([
      ['date_order', '>=', '2026-11-21 10:00:00'],
      ['date_order', '<', '2026-11-22 10:00:00'],
    ]);
  });

  it('a day with a DST change is 23 or 25 hours long', () => {
    expect(rangeDomain('date_order', '2026-03-29', '2026-03-29', 'Europe/Brussels', now)).toEqual([
      ['date_order', '>=', '2026-03-28 23:00:00'],
      ['date_order', '<', '2026-03-29 22:00:00'],
    ]);
    expect(rangeDomain('date_order', '2026-10-25', '2026-10-25', 'Europe/Brussels', now)).toEqual([
      ['date_order', '>=', '2026-10-24 22:00:00'],
      ['date_order', '<', '2026-10-25 23:00:00'],
    ]);
  });

  it('today, yesterday, spans and explicit times', () => {
    expect(rangeDomain('stop_at', 'yesterday', 'yesterday', 'UTC', now)).toEqual([
      ['stop_at', '>=', '2026-11-20 00:00:00'],
      ['stop_at', '<', '2026-11-21 00:00:00'],
    ]);
    expect(rangeDomain('stop_at', '2h', undefined, 'UTC', now)).toEqual([
      ['stop_at', '>=', '2026-11-21 16:30:00'],
    ]);
    expect(
      rangeDomain('stop_at', '2026-11-21 09:15', '2026-11-21T12:00:00+01:00', 'Europe/Brussels', now),
    ).toEqual([
      ['stop_at', '>=', '2026-11-21 08:15:00'],
      ['stop_at', '<=', '2026-11-21 11:00:00'],
    ]);
    expect(parseWhen('today', 'Asia/Tokyo', '--from', now).at.toISO()).toBe('2026-11-22T00:00:00.000+09:00');
  });

  it('refuses what is not a time, and --from after --to', () => {
    for (const bad of ['tomorrowish', '2026-13-01', '2026-02-30', '12/01/2026', '5 parsecs', '']) {
      expect(() => rangeDomain('date_order', bad, undefined, 'UTC', now)).toThrow(UsageError);
    }
    expect(() => rangeDomain('date_order', '2026-11-22', '2026-11-21', 'UTC', now)).toThrow(/is not before/);
  });
});

describe("Odoo's UTC text of an instant", () => {
  it("is luxon's format of it in UTC, whatever the zone it is held in, to the second", () => {
    const zones = ['UTC', 'Europe/Brussels', 'Pacific/Kiritimati', 'America/St_Johns', 'Australia/Lord_Howe'];
    fc.assert(
      fc.property(
        fc.integer({ min: -62_167_219_200_000 - 86_400_000, max: 253_402_300_800_000 + 86_400_000 }),
        fc.constantFrom(...zones),
        (ms, zone) => {
          const d = DateTime.fromMillis(ms, { zone });
          expect(toOdoo(d)).toBe(d.toUTC().toFormat(ODOO_FORMAT));
        },
      ),
      { numRuns: 5000 },
    );
    for (const ms of [
      0, -1, 999, -62_167_219_200_000, -62_167_219_200_001, 253_402_300_799_999, 253_402_300_800_000,
    ]) {
      const d = DateTime.fromMillis(ms, { zone: 'Europe/Brussels' });
      expect(toOdoo(d)).toBe(d.toUTC().toFormat(ODOO_FORMAT));
    }
    const invalid = DateTime.fromISO('2026-02-30');
    expect(toOdoo(invalid)).toBe(invalid.toUTC().toFormat(ODOO_FORMAT));
  });
});
