// `posdata summary`: flags → the summary computed by Odoo's grouping calls → table, json,
// ndjson or csv on a sink; --check-odoo compares the totals with Odoo's own Sales Details.
import type { ConnectionOptions } from '../cli/connection.js';
import { openSession } from '../cli/connection.js';
import type { IO } from '../cli/io.js';
import { onInterrupt } from '../cli/live.js';
import { chooseFormat, makeRenderer, openSink } from '../cli/output.js';
import { UsageError } from '../core/errors.js';
import type { FieldMap } from '../core/types.js';
import { checkZone, machineZone } from '../query/time.js';
import { KEY_COLUMNS, MONEY_KEYS, type SummaryRow, toRow } from './compute.js';
import { checkParams, fetchSummary, type SummaryParams, type SummaryResult } from './query.js';

export interface SummaryOptions extends ConnectionOptions, SummaryParams {
  tz?: string;
  checkOdoo?: boolean;
  format?: string;
  output?: string;
  excel?: boolean;
  delimiter?: string;
  decimal?: string;
}

/** The cash keys a session's row carries (reconcile's), after the method columns. */
export const CASH_KEYS = [
  'report',
  'opening_cash',
  'cash_taken',
  'cash_moves',
  'expected_cash',
  'counted_cash',
  'difference',
] as const;

/** The rows as json, ndjson and csv carry them; with a session, its cash figures too. */
export function summaryRows(r: SummaryResult): SummaryRow[] {
  const rows = r.shown.map((g) => toRow(g, r.summary));
  const c = r.cash;
  // The cash section belongs to the session as a whole: on its row when the rows are the session's.
  if (c && rows.length === 1 && (r.summary.keys[0] === 'register' || r.summary.keys[0] === 'session')) {
    const row = rows[0] as SummaryRow;
    const f = c.figures;
    row.report = c.report;
    row.opening_cash = f.openingCash;
    row.cash_taken = f.cashTaken;
    row.cash_moves = f.cashMoves;
    row.expected_cash = f.expectedCash;
    row.counted_cash = c.report === 'Z' ? f.countedCash : null;
    row.difference = c.report === 'Z' ? f.difference : null;
  }
  return rows;
}

export function summaryFields(r: SummaryResult, rows: SummaryRow[]): { fields: string[]; defs: FieldMap } {
  const fields = [
    ...r.summary.keys.flatMap((k) => KEY_COLUMNS[k]),
    'orders',
    'items',
    'gross',
    'discounts',
    'refund_count',
    'refunds',
    'net',
    'tax',
    'total',
    'average_ticket',
    ...r.summary.methodKeys,
    ...(rows[0] && 'report' in rows[0] ? CASH_KEYS : []),
  ];
  const defs: FieldMap = {};
  for (const f of fields) {
    defs[f] = {
      type:
        MONEY_KEYS.includes(f) || f.startsWith('method:') || (CASH_KEYS as readonly string[]).includes(f)
          ? f === 'report'
            ? 'char'
            : 'monetary'
          : f.endsWith('_id') || f === 'orders' || f === 'refund_count' || f === 'hour'
            ? 'integer'
            : f === 'items'
              ? 'float'
              : 'char',
    };
  }
  return { fields, defs };
}

export async function runSummary(o: SummaryOptions, io: IO): Promise<void> {
  // Everything that can be checked without the server is checked first.
  const format = chooseFormat(o.format, o.output, io);
  if (o.tz) checkZone(o.tz);
  checkParams(o, o.tz ?? 'UTC');
  if (o.decimal !== undefined && o.decimal !== '.' && o.decimal !== ',') {
    throw new UsageError(
      `--decimal '${o.decimal}' is not '.' or ','`,
      "use --decimal ',' with --delimiter ';'",
    );
  }

  const session = await openSession(o, io);
  const { client } = session;
  // The business day is the shop's: --tz, else the Odoo user's zone, else this machine's.
  const zone = o.tz ?? session.profile.tz ?? machineZone();
  const r = await fetchSummary(client, o, zone);
  if (!io.quiet) for (const n of r.summary.notes) io.err(`posdata: note: ${n}`);
  const requests = client.requestCount;

  const toFile = o.output !== undefined && o.output !== '-';
  const sink = await openSink(o.output);
  const release = onInterrupt(() => sink.abort());
  try {
    if (format === 'table') {
      const { renderSummaryTable } = await import('./table.js');
      await sink.write(
        renderSummaryTable(r, {
          columns: toFile ? 200 : io.columns,
          color: io.color && !toFile,
          bars: io.stdoutTTY && !toFile,
        }),
      );
    } else {
      const rows = summaryRows(r);
      const { fields, defs } = summaryFields(r, rows);
      const renderer = await makeRenderer({
        format,
        sink,
        fields,
        defs,
        excel: o.excel,
        delimiter: o.delimiter,
        decimal: o.decimal as '.' | ',' | undefined,
        io,
        tz: zone,
        preferred: fields,
        noun: 'groups',
        toFile,
      });
      await renderer.begin();
      await renderer.page(rows);
      await renderer.end();
    }
    await sink.commit();
  } catch (err) {
    await sink.abort();
    throw err;
  } finally {
    release();
  }
  if (io.debug) io.err(`posdata: summary made ${requests} requests`);
  if (toFile && !io.quiet && io.stderrTTY) io.err(`posdata: wrote ${r.shown.length} groups to ${o.output}`);
  if (o.checkOdoo) {
    const { checkOdoo } = await import('./check.js');
    for (const line of await checkOdoo(client, r, o)) io.err(`posdata: check-odoo: ${line}`);
  }
  await client.close();
}
