// `posdata summary`: flags → the summary computed by Odoo's grouping calls → table, json,
// ndjson or csv on a sink; --check-odoo compares the totals with Odoo's own Sales Details.
import type { ConnectionOptions } from '../cli/connection.js';
import { openSession } from '../cli/connection.js';
import type { IO } from '../cli/io.js';
import { onInterrupt } from '../cli/live.js';
import { checkOutput, chooseFormat, makeRenderer, openSink } from '../cli/output.js';
import { DifferenceError, UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import { checkZone, machineZone } from '../query/time.js';
import { checkParams, fetchSummary, type SummaryParams } from './query.js';
import { summaryFields, summaryRows } from './rows.js';

export interface SummaryOptions extends ConnectionOptions, SummaryParams {
  tz?: string;
  checkOdoo?: boolean;
  failOnDifference?: boolean;
  format?: string;
  output?: string;
  excel?: boolean;
  delimiter?: string;
  decimal?: string;
}

export async function runSummary(o: SummaryOptions, io: IO): Promise<void> {
  // Everything that can be checked without the server is checked first.
  const format = chooseFormat(o.format, o.output, io);
  if (o.tz) checkZone(o.tz);
  checkParams(o, o.tz ?? 'UTC');
  checkOutput(o);
  if (o.failOnDifference && !o.checkOdoo)
    throw new UsageError(
      say`--fail-on-difference needs --check-odoo: it fails on a difference from Odoo's Sales Details`,
      say`add --check-odoo`,
    );

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
  let differ = 0;
  if (o.checkOdoo) {
    const { checkOdoo } = await import('./check.js');
    const check = await checkOdoo(client, r, o);
    // The check's report is the point of --check-odoo: printed also with --quiet.
    for (const line of check.lines) io.err(`posdata: check-odoo: ${line}`);
    differ = check.differ;
  }
  await client.close();
  if (o.failOnDifference && differ > 0) {
    throw new DifferenceError(
      say`${own(String(differ))} figure${own(differ === 1 ? '' : 's')} ${own(differ === 1 ? 'differs' : 'differ')} from Odoo's Sales Details`,
      say`see the check-odoo lines above`,
    );
  }
}
