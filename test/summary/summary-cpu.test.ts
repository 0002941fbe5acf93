// Two cuts of a summary's CPU (issue 42, the chain's summary), each held to what it replaces:
// a group's UTC period read without luxon's format parser (query/time.ts, odooUtc) gives
// the DateTime fromFormat gives, valid or not; and the range the command's options worked out
// is the one fetchSummary's checkParams takes in that zone, and worked out again in another.
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { odooUtc } from '../../src/query/time.js';
import { checkParams } from '../../src/summary/query.js';

const viaFormat = (text: string) => DateTime.fromFormat(text, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' });
const same = (text: string) => {
  const a = odooUtc(text);
  const b = viaFormat(text);
  expect(a.isValid, text).toBe(b.isValid);
  if (b.isValid) {
    expect(a.toMillis(), text).toBe(b.toMillis());
    expect(a.zoneName, text).toBe(b.zoneName);
    expect(a.toISO(), text).toBe(b.toISO());
  }
};

describe("a group's UTC period", () => {
  it('is the DateTime luxon reads with fromFormat, on the calendar, at its edges and off it', () => {
    for (const text of [
      '2026-12-02 00:00:00',
      '2024-02-29 23:59:59',
      '2023-02-29 00:00:00',
      '2026-11-31 10:00:00',
      '2026-04-30 24:00:00',
      '2026-04-30 23:60:00',
      '2026-04-30 23:59:60',
      '2026-00-10 10:00:00',
      '2026-13-10 10:00:00',
      '0000-01-01 00:00:00',
      '9999-12-31 23:59:59',
      '2026-12-02',
      '2026-12-02T00:00:00',
      '2026-12-02 00:00:00.5',
      ' 2026-12-02 00:00:00',
      '02 Dec 2026',
      '',
    ])
      same(text);
  });

  it('for any digits in the shape, and any text', () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const shaped = fc
      .tuple(fc.integer({ min: 0, max: 9999 }), two(14), two(33), two(26), two(61), two(61))
      .map(([y, mo, d, h, mi, s]) => `${String(y).padStart(4, '0')}-${mo}-${d} ${h}:${mi}:${s}`);
    fc.assert(
      fc.property(shaped, (text) => same(text)),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), (text) => same(text)),
      { numRuns: 1000 },
    );
  });
});

describe("the options' range", () => {
  it('is taken in its own zone and worked out again in another', () => {
    const worked = checkParams({ date: '2026-11-20' }, 'UTC').range;
    const given = { zone: 'UTC', range: worked };
    expect(checkParams({ date: '2026-11-20', range: given }, 'UTC').range).toBe(worked);
    const there = checkParams({ date: '2026-11-20', range: given }, 'Europe/Brussels').range;
    expect(there).toEqual(checkParams({ date: '2026-11-20' }, 'Europe/Brussels').range);
    expect(there).not.toEqual(worked);
  });
});
