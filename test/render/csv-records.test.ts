// A CSV export from Odoo's records writes each common line in one pass (RecordLines) and every
// other the long way (the converters, the cells, PlainLines or csv-stringify). The two must
// be the same bytes, and the same refusal: random records of every field type, with common,
// empty and odd values, through both, under random CSV options.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldMap, OdooRecord } from '../../src/core/types.js';
import { inCurrency, Normalizer } from '../../src/records/normalize.js';
import {
  type CsvOptions,
  CsvRenderer,
  csvColumns,
  csvWriters,
  RecordLines,
} from '../../src/render/formats.js';
import type { Sink } from '../../src/sink/sink.js';

const DEFS: FieldMap = inCurrency(
  {
    id: { type: 'integer' },
    name: { type: 'char' },
    date_order: { type: 'datetime' },
    day: { type: 'date' },
    amount_total: { type: 'monetary' },
    qty: { type: 'float', digits: [16, 3] },
    ratio: { type: 'float' },
    state: { type: 'selection' },
    to_invoice: { type: 'boolean' },
    config_id: { type: 'many2one', relation: 'pos.config' },
    payment_ids: { type: 'one2many', relation: 'pos.payment' },
    note: { type: 'text' },
  },
  2,
);
const FIELDS = [...Object.keys(DEFS), 'no_such_field'];

const text = fc.oneof(
  fc.string({
    unit: fc.constantFrom('a', 'B', ' ', ',', ';', '"', '\n', '\r', '=', '-', ':', '1', '.', 'é', '|'),
  }),
  fc.constantFrom('', 'Shop/0001', 'POS/000001', 'paid', 'Café, "Le Bar"', '=SUM(A1)', '-3'),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: text },
  { weight: 3, arbitrary: fc.integer({ min: -100_000, max: 100_000 }) },
  { weight: 2, arbitrary: fc.double({ min: -1e7, max: 1e7, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0.1 + 0.2, -14.540000000000001, 1e21, Number.NaN, -0, 2 ** 60) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '2026-11-16 07:02:04',
      '2026-02-30 10:00:00',
      '2026-11-16',
      '2026-11-16T07:02:04Z',
    ),
  },
  { weight: 3, arbitrary: fc.constantFrom(false, null, undefined, true) },
  { weight: 2, arbitrary: fc.tuple(fc.integer({ min: 1, max: 99 }), text) },
  { weight: 1, arbitrary: fc.constantFrom([7], [7, 8, 9], [], [1, 'x'], ['a;b'], { id: 1 }) },
);
const record: fc.Arbitrary<OdooRecord> = fc.record(
  Object.fromEntries(FIELDS.map((f) => [f, f === 'id' ? fc.integer({ min: 1, max: 1e6 }) : value])),
  { requiredKeys: ['id'] },
) as fc.Arbitrary<OdooRecord>;
const options: fc.Arbitrary<CsvOptions> = fc.record(
  {
    excel: fc.boolean(),
    delimiter: fc.constantFrom(',', ';', '\t', '|', '::', '.', '1', '-', ':', ' ', 'e'),
    decimal: fc.constantFrom('.' as const, ',' as const),
  },
  { requiredKeys: [] },
);
/** Mostly the options an export runs with, so that most lines take the one-pass path. */
const usual: fc.Arbitrary<CsvOptions> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: options },
);

function collect(): Sink & { text: string } {
  const s = {
    text: '',
    async write(chunk: string) {
      s.text += chunk;
    },
  };
  return s as unknown as Sink & { text: string };
}

/** The page written from the records (one pass where it can) and from normalised rows. */
async function bothWays(fields: string[], csv: CsvOptions, recs: OdooRecord[], tz?: string) {
  const normalizer = new Normalizer(fields, DEFS, { tz });
  const outcome = async (write: (r: CsvRenderer) => Promise<void>, sink: Sink & { text: string }) => {
    try {
      await write(new CsvRenderer(sink, fields, DEFS, csv, normalizer));
      return { text: sink.text };
    } catch (err) {
      return { error: (err as Error).message };
    }
  };
  const fromRecords = await outcome(
    (r) => (r.pageRecords as (x: OdooRecord[]) => Promise<void>)(recs),
    collect(),
  );
  const fromRows = await outcome((r) => r.page(recs.map((x) => normalizer.row(x))), collect());
  return { fromRecords, fromRows };
}

describe('CSV lines from records', () => {
  it('are the bytes, or the refusal, of the long way, for any values and options', async () => {
    let onePass = 0;
    let lines = 0;
    await fc.assert(
      fc.asyncProperty(
        usual,
        fc.subarray(FIELDS, { minLength: 1 }),
        fc.array(record, { minLength: 1, maxLength: 4 }),
        async (csv, fields, recs) => {
          const { fromRecords, fromRows } = await bothWays(fields, csv, recs);
          expect(fromRecords).toEqual(fromRows);
          const c = csvColumns(fields, DEFS);
          const fast = RecordLines.for(
            csvWriters(csv, c.places).plain,
            c.columns,
            DEFS,
            new Normalizer(fields, DEFS),
          );
          for (const r of recs) {
            lines++;
            if (fast?.line(r) !== undefined) onePass++;
          }
        },
      ),
      { numRuns: 3000 },
    );
    // Not vacuous: a good part of the lines take the one-pass path, and not all of them.
    expect(onePass).toBeGreaterThan(lines / 20);
    expect(onePass).toBeLessThan(lines);
  });

  it('take the one-pass path for a sale as Odoo sends it, and the long way where it must', () => {
    const fields = ['id', 'name', 'date_order', 'amount_total', 'state', 'config_id', 'payment_ids'];
    const sale = {
      id: 7,
      name: 'Shop/0007',
      date_order: '2026-11-16 07:02:04',
      amount_total: 14.540000000000001,
      state: 'paid',
      config_id: [1, 'Shop'],
      payment_ids: [3, 2],
    };
    const c = csvColumns(fields, DEFS);
    const fast = (csv: CsvOptions, tz?: string) =>
      RecordLines.for(csvWriters(csv, c.places).plain, c.columns, DEFS, new Normalizer(fields, DEFS, { tz }));
    expect(fast({})?.line(sale)).toBe('7,Shop/0007,2026-11-16 07:02:04,14.54,paid,1,Shop,3;2\n');
    expect(fast({ delimiter: ';' })?.line(sale)).toBeUndefined(); // the ids' own separator
    expect(fast({ delimiter: ':' })?.line(sale)).toBeUndefined(); // the time holds it
    expect(fast({})?.line({ ...sale, config_id: [1, 'Shop, Bar'] })).toBeUndefined();
    expect(fast({})?.line({ ...sale, amount_total: '14.54' })).toBeUndefined();
    expect(fast({})?.line({ ...sale, config_id: false, payment_ids: false, state: false })).toBe(
      '7,Shop/0007,2026-11-16 07:02:04,14.54,,,,\n',
    );
    // Where the long way moves times or quotes numbers, it writes every line.
    expect(fast({ excel: true })).toBeUndefined();
    expect(fast({ decimal: ',' })).toBeUndefined();
    expect(fast({ delimiter: '::' })).toBeUndefined();
    expect(fast({}, 'Europe/Brussels')).toBeUndefined();
  });

  it('write a zone-moved page the long way, the same as rows', async () => {
    const recs = [{ id: 1, date_order: '2026-03-29 01:30:00', amount_total: 1.005 }] as OdooRecord[];
    const { fromRecords, fromRows } = await bothWays(
      ['id', 'date_order', 'amount_total'],
      {},
      recs,
      'Europe/Brussels',
    );
    expect(fromRecords).toEqual(fromRows);
    expect(fromRecords.text).toContain('2026-03-29T03:30:00+02:00,1.01');
  });
});
