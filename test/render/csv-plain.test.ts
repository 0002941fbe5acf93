// The plain-line path of the CSV renderer writes exactly what csv-stringify would, or hands the
// line to it: random cells (separators, quotes, line breaks, formula starts, money columns, the
// decimal comma, both line ends) compared with csv-stringify's own output for the same options.
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Value } from '../../src/records/normalize.js';
import { type CsvOptions, csvWriters } from '../../src/render/formats.js';

const cell: fc.Arbitrary<Value> = fc.oneof(
  fc.string({
    unit: fc.constantFrom(
      'a',
      'b',
      ' ',
      ',',
      ';',
      '"',
      '\n',
      '\r',
      '=',
      '+',
      '-',
      '@',
      '\t',
      '.',
      '1',
      'é',
      '\uFF1D',
    ),
  }),
  fc.string(),
  fc.double({ noNaN: false }),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.constantFrom(0, -0, 0.1 + 0.2, -14.540000000000001, 1e21, 5e-7),
  fc.constant(''),
  fc.constant(null),
  fc.boolean(),
);
const options: fc.Arbitrary<CsvOptions> = fc.record(
  {
    excel: fc.boolean(),
    delimiter: fc.constantFrom(',', ';', '\t', '|', '::', '.', '1', '-', 'e'),
    decimal: fc.constantFrom('.' as const, ',' as const),
  },
  { requiredKeys: [] },
);

describe('CSV lines', () => {
  it('are written by the plain path only where csv-stringify writes the same bytes', () => {
    let plain = 0;
    fc.assert(
      fc.property(
        options,
        fc.array(cell, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 4 }),
        (o, cells, money) => {
          const places = cells.map((_, i) => (i < money ? ([2, 0, 3][i % 3] ?? null) : null));
          const { opts, plain: lines } = csvWriters(o, places);
          const ours = lines.line(cells);
          if (ours !== undefined) {
            plain++;
            expect(ours).toBe(stringify([cells], opts));
          }
        },
      ),
      { numRuns: 5000 },
    );
    // The property is not vacuous: most lines take the plain path.
    expect(plain).toBeGreaterThan(1000);
  });

  it('keeps the common line of an export on the plain path and gives the others to csv-stringify', () => {
    const { opts, plain } = csvWriters({}, [null, null, 2]);
    expect(plain.line([7, 'Shop/0007', 14.5])).toBe('7,Shop/0007,14.50\n');
    expect(plain.line([7, 'a, "b"', 14.5])).toBeUndefined();
    expect(stringify([[7, 'a, "b"', 14.5]], opts)).toBe('7,"a, ""b""",14.50\n');
    const excel = csvWriters({ excel: true, delimiter: ';', decimal: ',' }, [2]);
    expect(excel.plain.line([-3.5, 'x'])).toBe('-3,50;x\r\n');
    expect(excel.plain.line([1, '=SUM(A1)'])).toBeUndefined();
  });
});
