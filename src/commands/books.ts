// `posdata books`: flags → the closed sessions of a range → each session's POS figures beside
// its journal entry, line by line → table, json, ndjson or csv on a sink → exit 7 with
// --fail-on-difference. Its own command, not a mode of reconcile: reconcile answers the
// cashier's question (is the cash right?), books the accountant's (does the journal say what
// the tills took?), with rows of another shape.
import { command } from '../cli/command.js';
import { COMPANY, group } from '../cli/flags.js';
import { tableLook, writeOutput } from '../cli/output.js';
import * as period from '../cli/period.js';
import { number } from '../cli/values.js';
import { DifferenceError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import { zoneFor } from '../query/zone.js';
import type { SessionRange } from '../reconcile/compute.js';
import { signed } from '../records/normalize.js';
import type { Sink } from '../sink/sink.js';

export interface BooksOptions extends SessionRange, period.PeriodOptions {
  tolerance: number;
  posOnly: boolean;
}

export const books = command({
  name: 'books',
  flags: [
    group('own', [
      ...period.SESSION_RANGE,
      COMPANY,
      period.BUSINESS_TZ,
      {
        spec: '--tolerance <amount>',
        description: 'differences up to this agree (default 0: to the cent)',
        parse: number('--tolerance', 0),
        default: 0,
      },
      { spec: '--fail-on-difference', description: 'exit 7 when a line of the books differs from the POS' },
      { spec: '--pos-only', description: 'the POS side alone, for a user without accounting rights' },
    ]),
    ...period.REPORT_FLAGS,
  ],
  examples: [
    'posdata books --date yesterday',
    'posdata books --from 2026-11-01 --to 2026-11-30 --format csv -o november-books.csv',
    'posdata books --from 2026-11-01 --to 2026-11-30 --fail-on-difference --quiet || echo "the journal differs"',
  ],
  options(f, _args, { io }): BooksOptions {
    return period.checkedRange({
      ...period.periodOptions(f, io),
      tolerance: f.tolerance,
      posOnly: f.posOnly === true,
    });
  },
  async run(o, ctx) {
    const { io } = ctx;
    // The shop's business day: the sessions it closed.
    const { session, zone, domain } = await period.sessionsAndZone(o, ctx);
    const [{ readBooks }, { BOOK_KEYS, BOOK_DEFS }] = await Promise.all([
      import('../books/books.js'),
      import('../books/rows.js'),
    ]);
    const books = await readBooks(session.client, domain, {
      posOnly: o.posOnly,
      tz: zoneFor('data', o.tz),
      tolerance: o.tolerance,
    });
    const { rows } = books;
    if (books.sessions === 0) await (await import('../read/exists.js')).mustExist(session.client, o);
    const { format, file } = o.output;
    const render = async (sink: Sink): Promise<undefined> => {
      if (format === 'table') {
        const { renderBooksTable } = await import('../books/table.js');
        // One table per company and currency: no figure adds two currencies.
        const parts = new Map<string, typeof rows>();
        for (const r of rows) {
          const k = `${r.company ?? ''} (${r.currency ?? ''})`;
          parts.set(k, [...(parts.get(k) ?? []), r]);
        }
        if (parts.size === 0) parts.set('', []);
        let i = 0;
        for (const [k, part] of parts) {
          if (parts.size > 1) await sink.write(`${i++ > 0 ? '\n' : ''}${k}\n`);
          await sink.write(
            renderBooksTable(part, {
              ...tableLook(io, file !== undefined),
              tz: zone,
              digits: books.digits,
            }),
          );
        }
        return undefined;
      }
      const fields = [...BOOK_KEYS];
      await period.writeReportRows(
        io,
        o.output,
        sink,
        { fields, defs: BOOK_DEFS, zone, noun: 'lines' },
        rows.map((r) => ({ ...r })),
      );
      return undefined;
    };
    await writeOutput(ctx, o.output.path, render, format === 'table');
    if (file !== undefined && !io.quiet && io.err.isTTY)
      io.err.line(say`posdata: wrote ${rows.length} lines of ${books.sessions} sessions to ${file}`);
    if (o.failOnDifference) {
      const off = rows.filter((r) => !r.agrees);
      if (off.length > 0) {
        const worst = off.reduce((a, b) =>
          Math.abs(b.difference ?? 0) > Math.abs(a.difference ?? 0) ? b : a,
        );
        const n = new Set(off.map((r) => r.session_id)).size;
        const what =
          worst.difference === null
            ? say`${worst.line}: ${worst.note ?? ''}`
            : say`${worst.line} ${signed(worst.difference, books.digits(worst.currency))} ${worst.currency ?? ''}`;
        throw new DifferenceError(
          say`the books differ from the POS in ${n} of ${books.sessions} session${own(books.sessions === 1 ? '' : 's')} (largest: ${what} in ${worst.session})`,
          say`see posdata books for those sessions (docs/books.md says what each line compares)`,
        );
      }
    }
  },
});
