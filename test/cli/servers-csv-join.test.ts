// The CSV join over several servers: a server whose columns are the joined header's has its
// records copied as they are, the profile's cell put before each (servers-join.ts addAsIs). That
// path must write exactly what the cell-by-cell one (csv-parse's records, csv-stringify's lines)
// does for what a posdata run writes: random cells (separators, quotes, line breaks, a BOM, both
// line ends), servers with no rows or no file, a last record with no line ending, records across
// the read's 64 KiB chunks, and servers whose columns differ. A run that wrote its records led by
// the profile's cell and kept its header (CsvLead) joins to the same bytes, copied or cell by cell.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Flags } from '../../src/cli/flags.js';
import { csvLeadOf, type Joined, makeJoiner } from '../../src/cli/servers-join.js';

const dir = mkdtempSync(join(tmpdir(), 'posdata-join-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** One server's file as its run wrote it (undefined: a failed server, no file), and its header if it kept it. */
type Written = { name: string; text: string | undefined; header?: string[] };

/** The joined output of these servers' files, both paths. */
async function joined(
  servers: Written[],
  delimiter: string,
  excel = false,
): Promise<{ asIs: string; slow: string }> {
  const files = servers.map(({ name, text, header }) => {
    if (text === undefined) return { name, file: undefined };
    const file = join(dir, `${n++}.csv`);
    writeFileSync(file, text);
    return { name, file, header };
  });
  const run = async (slow: boolean): Promise<string> => {
    let out = '';
    const sink = {
      write: async (s: string | Uint8Array) => {
        out += typeof s === 'string' ? s : Buffer.from(s).toString('utf8');
      },
    };
    const joiner = makeJoiner('csv', { delimiter, excel } as Flags, sink, { slow });
    const healthy = files.flatMap((f): Joined[] => (f.file ? [{ ...f, file: f.file }] : []));
    await joiner.prepare?.(healthy);
    for (const f of healthy) await joiner.add(f);
    await joiner.end();
    return out;
  };
  return { asIs: await run(false), slow: await run(true) };
}

const cell = fc.oneof(
  fc.string({
    unit: fc.constantFrom(
      'a',
      'é',
      '€',
      ' ',
      ',',
      ';',
      '|',
      '\t',
      '"',
      '""',
      '\n',
      '\r',
      '\r\n',
      '=',
      '\uFEFF',
    ),
    maxLength: 8,
  }),
  fc.integer({ min: -1000, max: 1000 }),
  fc.constant(''),
);

const DELIMITERS = [',', ';', '\t', '|', '::'];

describe('the CSV join, a server at a time', () => {
  it('copies records as they are exactly where taking them cell by cell gives the same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...DELIMITERS),
        fc.boolean(),
        fc.array(
          fc.record({
            name: fc.constantFrom('shop-1', 'shop,2', 'shop "3"', 'shop;4', 'shop\t5', 'x|y'),
            rows: fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { maxLength: 12 }),
            // Some servers have another column, some none (a failed one), some write nothing.
            shape: fc.constantFrom('same', 'same', 'same', 'other', 'failed', 'empty'),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        async (delimiter, excel, servers, led) => {
          const opts = {
            delimiter,
            record_delimiter: excel ? 'windows' : 'unix',
            quoted_match: excel ? /[\r\n]/ : /\r/,
            escape_formulas: excel,
          } as const;
          const header = (s: (typeof servers)[number]) =>
            s.shape === 'other' ? ['id', 'name', 'extra'] : ['id', 'name', 'amount'];
          const text = (s: (typeof servers)[number]): string | undefined => {
            if (s.shape === 'failed') return undefined;
            if (s.shape === 'empty') return '';
            const body = stringify([header(s), ...s.rows], opts);
            return excel ? `\uFEFF${body}` : body;
          };
          // As a run led by the profile's cell writes it: each record after that cell, no header.
          const ledText = (s: (typeof servers)[number]): Written => {
            if (s.shape === 'failed' || s.shape === 'empty') return { name: s.name, text: text(s) };
            const lead = csvLeadOf(s.name, { delimiter, excel } as Flags).cell;
            const body = s.rows.map((r) => lead + stringify([r], opts)).join('');
            return { name: s.name, text: body, header: header(s) };
          };
          const plain = await joined(
            servers.map((s) => ({ name: s.name, text: text(s) })),
            delimiter,
            excel,
          );
          expect(plain.asIs).toBe(plain.slow);
          // Some servers led, some not (a command whose CSV is not written by the renderer).
          const mixed = await joined(
            servers.map((s, i) => (led[i] ? ledText(s) : { name: s.name, text: text(s) })),
            delimiter,
            excel,
          );
          expect(mixed.asIs).toBe(plain.slow);
          expect(mixed.slow).toBe(plain.slow);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a record across the 64 KiB reads, a quoted line break across them, a last record with no line ending', async () => {
    const long = `"${'x'.repeat((1 << 16) - 30)}\n""y"""`;
    const a = `id,name\n1,${long}\n2,"a\nb"\n3,${'z'.repeat(1 << 20)}\n4,""""`;
    const b = 'id,name\n5,c\n6,"d,e"';
    const got = await joined(
      [
        { name: 'a', text: a },
        { name: 'b', text: b },
        { name: 'c', text: 'id,name\n' },
        { name: 'd', text: '' },
      ],
      ',',
    );
    expect(got.asIs).toBe(got.slow);
    expect(got.asIs.startsWith(`profile,id,name\na,1,${long}\na,2,"a\nb"\n`)).toBe(true);
    expect(got.asIs.endsWith('\nb,5,c\nb,6,"d,e"\n')).toBe(true);
  });

  it('with --excel: one BOM, CRLF, a quoted CRLF kept in its field', async () => {
    const a = '\uFEFFid;name\r\n1;"a\r\nb"\r\n2;c\r\n';
    const got = await joined(
      [
        { name: 'a', text: a },
        { name: 'b', text: '\uFEFFid;name\r\n3;d\r\n' },
      ],
      ';',
      true,
    );
    expect(got.asIs).toBe(got.slow);
    expect(got.asIs).toBe('\uFEFFprofile;id;name\r\na;1;"a\r\nb"\r\na;2;c\r\nb;3;d\r\n');
  });
});
