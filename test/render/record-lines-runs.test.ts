// RecordLines' shortcuts for the values of an export (formats.ts): an amount rounded and written
// in one step (roundedFixed), a many2one value met on the line before, a list of ids,
// --with-payments' cell. Each must give what the long way gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldMap, OdooRecord } from '../../src/core/types.js';
import type { BareNames } from '../../src/read/names.js';
import { fixedDecimals, Normalizer, roundAt, roundedFixed } from '../../src/records/normalize.js';
import { CsvRenderer, csvColumns, csvWriters, RecordLines } from '../../src/render/formats.js';
import { MemorySink } from '../../src/sink/sink.js';

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
    // A bare id, its name given by the reader: in the one pass; one without a name, the long way.
    fast.named({ pairs: new Map([['config_id', new Map([[1, shop]])]]), name: () => undefined });
    expect(fast.line(rec(1))).toBe('7,2026-11-16 07:02:04,14.54,1,Shop,3\n');
    expect(fast.line(rec(2))).toBeUndefined();
    fast.named(undefined);
    expect(fast.line(rec(1))).toBeUndefined();
  });

  it('writes bare ids with the names the reader gives (BareNames) as it writes their pairs', async () => {
    const name = fc.constantFrom('Shop', 'Bar', 'Shop, Bar', '"Q"', '=1', 'a;b', '');
    const value = fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constant(false));
    await fc.assert(
      fc.asyncProperty(
        fc.array(name, { minLength: 3, maxLength: 3 }),
        fc.array(value, { maxLength: 6 }),
        fc.boolean(),
        fc.constantFrom(',', ';'),
        async (names, values, excel, delimiter) => {
          // Ids 1-3 named, 4 not (a bare id without a name goes the long way, as before).
          const pairs = new Map(names.map((n, i) => [i + 1, [i + 1, n] as [number, string]]));
          const bare: BareNames = {
            pairs: new Map([['config_id', pairs]]),
            name: (r) => {
              const v = r.config_id;
              if (typeof v === 'number' && pairs.has(v)) r.config_id = pairs.get(v);
            },
          };
          const sale = (config_id: unknown) =>
            ({
              id: 7,
              date_order: '2026-11-16 07:02:04',
              amount_total: 1.5,
              config_id,
              payment_ids: [3],
            }) as unknown as OdooRecord;
          const normalizer = new Normalizer(fields, defs);
          const csv = { excel, delimiter };
          const named = new MemorySink();
          const paired = new MemorySink();
          await new CsvRenderer(named, fields, defs, csv, normalizer).pageRecords?.(
            values.map((v) => sale(v)),
            bare,
          );
          await new CsvRenderer(paired, fields, defs, csv, normalizer).pageRecords?.(
            values.map((v) => sale(typeof v === 'number' ? (pairs.get(v) ?? v) : v)),
          );
          expect(named.text()).toBe(paired.text());
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('--with-payments in the one pass', () => {
  // The sales' defs as src/read/stream.ts makes them: payments is json, written by its own cell.
  const defs: FieldMap = {
    id: { type: 'integer' },
    amount_total: { type: 'float' },
    payment_ids: { type: 'one2many', relation: 'pos.payment' },
    payments: { type: 'json' },
  };
  const fields = Object.keys(defs);
  const text = fc.string({
    unit: fc.constantFrom('a', ' ', ',', ';', '"', '\n', '\r', '=', '-', '+', ':', '1', 'é'),
  });
  const payment = fc.oneof(
    fc.record({
      payment_method_id: fc.oneof(
        fc.tuple(fc.integer({ min: 1, max: 9 }), fc.oneof(text, fc.constant('Cash'))),
        fc.constant(false),
      ),
      amount: fc.oneof(fc.double({ noNaN: true }), fc.integer({ min: -500, max: 500 })),
    }),
    fc.record({ amount: fc.integer() }),
  );
  const value = fc.oneof(
    fc.array(payment, { maxLength: 3 }),
    fc.constant(false),
    fc.constant(null),
    fc.constant('x'),
  );
  const rec = fc.record({
    id: fc.integer({ min: 1, max: 1e6 }),
    amount_total: fc.double({ min: -1e4, max: 1e4, noNaN: true }),
    payment_ids: fc.array(fc.integer({ min: 1, max: 99 }), { maxLength: 2 }),
    payments: value,
  });
  it('writes what the normalised rows give', async () => {
    let onePass = 0;
    let lines = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(rec, { maxLength: 5 }),
        fc.boolean(),
        fc.constantFrom(',', ';', '\t', ':'),
        async (recs, excel, delimiter) => {
          const normalizer = new Normalizer(fields, defs);
          const csv = { excel, delimiter };
          const c = csvColumns(fields, defs);
          const fast = RecordLines.for(csvWriters(csv, c.places).plain, c.columns, defs, normalizer);
          for (const r of recs) {
            lines++;
            if (fast?.line(r) !== undefined) onePass++;
          }
          const direct = new MemorySink();
          const viaRows = new MemorySink();
          await new CsvRenderer(direct, fields, defs, csv, normalizer).pageRecords?.(
            recs as unknown as OdooRecord[],
          );
          await new CsvRenderer(viaRows, fields, defs, csv).page(
            recs.map((r) => normalizer.row(r as unknown as OdooRecord)),
          );
          expect(direct.text()).toBe(viaRows.text());
        },
      ),
      { numRuns: 3000 },
    );
    expect(onePass).toBeGreaterThan(lines / 20);
  });

  it('takes the one pass for a sale and its payments as Odoo sends them', () => {
    const c = csvColumns(fields, defs);
    const fast = RecordLines.for(
      csvWriters({}, c.places).plain,
      c.columns,
      defs,
      new Normalizer(fields, defs),
    );
    const sale = {
      id: 7,
      amount_total: 14.54,
      payment_ids: [3, 2],
      payments: [
        { payment_method_id: [1, 'Cash'], amount: 10 },
        { payment_method_id: [2, 'Card'], amount: 4.54 },
      ],
    };
    expect(fast?.line(sale)).toBe('7,14.54,3;2,Cash:10;Card:4.54\n');
    expect(fast?.line({ ...sale, payments: false })).toBe('7,14.54,3;2,\n');
    expect(
      fast?.line({ ...sale, payments: [{ payment_method_id: [2, 'Card, Visa'], amount: 1 }] }),
    ).toBeUndefined();
  });
});
