// Odoo's UTC text read without luxon's format parser gives the same DateTime as luxon's
// `fromFormat(value, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' })`: the same instant where it is a
// real time, invalid where it is not (month 13, 02-30, 24:00, a year below 100 kept as it is).
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { fromOdooUtc, ODOO_FORMAT } from '../../src/query/time.js';

const two = (n: number) => String(n).padStart(2, '0');

describe("Odoo's UTC text", () => {
  it('reads as luxon reads it, valid or not', () => {
    const text = fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 0, max: 61 }),
        fc.integer({ min: 0, max: 61 }),
      )
      .map(
        ([y, mo, d, h, mi, s]) =>
          `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)} ${two(h)}:${two(mi)}:${two(s)}`,
      );
    let valid = 0;
    fc.assert(
      fc.property(fc.oneof(text, fc.string()), (v) => {
        const ours = fromOdooUtc(v);
        const luxon = DateTime.fromFormat(v, ODOO_FORMAT, { zone: 'UTC' });
        expect(ours.isValid).toBe(luxon.isValid);
        if (luxon.isValid) {
          valid++;
          expect(ours.toMillis()).toBe(luxon.toMillis());
          expect(ours.setZone('Europe/Brussels').toISO()).toBe(luxon.setZone('Europe/Brussels').toISO());
        }
      }),
      { numRuns: 5000 },
    );
    expect(valid).toBeGreaterThan(500);
  });

  it('keeps the edges: a leap day, the last second of a year, a year below 100', () => {
    for (const v of [
      '2024-02-29 23:59:59',
      '2026-12-31 23:59:59',
      '0042-01-01 00:00:00',
      '1970-01-01 00:00:00',
    ])
      expect(fromOdooUtc(v).toMillis()).toBe(DateTime.fromFormat(v, ODOO_FORMAT, { zone: 'UTC' }).toMillis());
    for (const v of [
      '2025-02-29 10:00:00',
      '2026-11-31 10:00:00',
      '2026-11-30 24:00:00',
      '2026-11-30 10:60:00',
    ])
      expect(fromOdooUtc(v).isValid).toBe(false);
  });
});
