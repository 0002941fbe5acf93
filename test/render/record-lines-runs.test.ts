// RecordLines' shortcuts for the values of an export (formats.ts): an amount rounded and written
// in one step (roundedFixed), a many2one value met on the line before, a list of ids. Each must
// give what the long way gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldMap } from '../../src/core/types.js';
import { fixedDecimals, Normalizer, roundAt, roundedFixed } from '../../src/records/normalize.js';
import { csvColumns, csvWriters, RecordLines } from '../../src/render/formats.js';

describe('roundedFixed', () => {
  it('is fixedDecimals(roundAt(v, d), d) for any double', () => {
    const digits = fc.integer({ min: 0, max: 6 });
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), digits, (v, d) => {
        expect(roundedFixed(v, d)).toBe(fixedDecimals(roundAt(v, d), d));
      }),
      { numRuns: 20000 },
    );
  });

  it('is fixedDecimals(roundAt(v, d), d) for amounts, their binary noise and halves', () => {
    const amount = fc
      .tuple(
        fc.integer({ min: -3e9, max: 3e9 }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom(0, 1, -1, 2, -2, 5),
      )
      .map(([n, d, ulp]) => {
        let v = n / 10 ** d;
        // A few ulps off the amount: the noise of Odoo's sums (12.580000000000002).
        for (let i = 0; i < Math.abs(ulp); i++) v = nextAfter(v, ulp > 0);
        return [v, d] as const;
      });
    fc.assert(
      fc.property(amount, fc.integer({ min: 0, max: 3 }), ([v, d], extra) => {
        for (const at of [d, d + extra, Math.max(0, d - 1)])
          expect(roundedFixed(v, at)).toBe(fixedDecimals(roundAt(v, at), at));
      }),
      { numRuns: 20000 },
    );
    for (const [v, d] of [
      [2.675, 2],
      [-2.675, 2],
      [1.005, 2],
      [-0.001, 2],
      [-0, 2],
      [-0, 0],
      [0.285, 2],
      [12.580000000000002, 2],
      [-14.540000000000001, 2],
      [21474836.47, 2],
      [21474836.48, 2],
      [-21474836.475, 2],
      [9.995, 2],
      [-0.5, 0],
      [1e21, 2],
      [22500000000000.01, 2],
    ] as const)
      expect(roundedFixed(v, d)).toBe(fixedDecimals(roundAt(v, d), d));
  });
});

/** The double next to `v`, up or down. */
function nextAfter(v: number, up: boolean): number {
  const b = new DataView(new ArrayBuffer(8));
  if (v === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  b.setFloat64(0, v);
  const bits = b.getBigUint64(0);
  b.setBigUint64(0, up === v > 0 ? bits + 1n : bits - 1n);
  return b.getFloat64(0);
}

describe('RecordLines over runs of values', () => {
  const defs: FieldMap = {
    id: { type: 'integer' },
    date_order: { type: 'datetime' },
    amount_total: { type: 'float' },
    config_id: { type: 'many2one', relation: 'pos.config' },
    payment_ids: { type: 'one2many', relation: 'pos.payment' },
  };
  const fields = Object.keys(defs);
  const lines = (csv: Parameters<typeof csvWriters>[0]) => {
    const c = csvColumns(fields, defs, csv.zone);
    return RecordLines.for(
      csvWriters(csv, c.places).plain,
      c.columns,
      defs,
      new Normalizer(fields, defs),
      csv.zone,
    );
  };
  it('writes a shared pair, and a pair whose name changes, each as it is', () => {
    const fast = lines({}) as RecordLines;
    const shop: [number, string] = [1, 'Shop'];
    const rec = (config_id: unknown, payment_ids: unknown = [3]) => ({
      id: 7,
      date_order: '2026-11-16 07:02:04',
      amount_total: 14.540000000000001,
      config_id,
      payment_ids,
    });
    expect(fast.line(rec(shop))).toBe('7,2026-11-16 07:02:04,14.54,1,Shop,3\n');
    expect(fast.line(rec(shop, [3, -2]))).toBe('7,2026-11-16 07:02:04,14.54,1,Shop,3;-2\n');
    expect(fast.line(rec([1, 'Shop, Bar']))).toBeUndefined();
    expect(fast.line(rec([1, 'Shop, Bar']))).toBeUndefined();
    expect(fast.line(rec([2, 'Shop']))).toBe('7,2026-11-16 07:02:04,14.54,2,Shop,3\n');
    expect(fast.line(rec(shop, []))).toBe('7,2026-11-16 07:02:04,14.54,1,Shop,\n');
    expect(fast.line(rec(shop, ['a,b']))).toBeUndefined();
    expect(fast.line(rec(shop, ['a', 2]))).toBe('7,2026-11-16 07:02:04,14.54,1,Shop,a;2\n');
    const excel = lines({ excel: true }) as RecordLines;
    expect(excel.line(rec(shop, [-3, 2]))).toBeUndefined(); // a formula's start: the long way
    expect(excel.line(rec(shop, [3, -2]))).toBe('7,2026-11-16 07:02:04,14.54,1,Shop,3;-2\r\n');
    expect(lines({ delimiter: ';' })?.line(rec(shop, [3, 2]))).toBe(
      '7;2026-11-16 07:02:04;14.54;1;Shop;"3;2"\n',
    );
    expect(lines({ delimiter: ';', excel: true })?.line(rec(shop, [3, -2]))).toBe(
      '7;2026-11-16 07:02:04;14.54;1;Shop;"3;-2"\r\n',
    );
    expect(lines({ delimiter: ';', excel: true })?.line(rec(shop, [-3, 2]))).toBeUndefined();
    expect(lines({ delimiter: ';' })?.line(rec(shop, ['3;2']))).toBeUndefined();
    expect(lines({ delimiter: ';' })?.line(rec(shop, [3]))).toBe('7;2026-11-16 07:02:04;14.54;1;Shop;3\n');
  });
});
