// `posdata summary` of one currency: the table, or one record per group in json, ndjson or
// csv; then, with --check-odoo, the totals against Odoo's own Sales Details on stderr.
import { writeOutput } from '../../cli/output.js';
import { own, say } from '../../core/redact.js';
import { summaryFields, summaryRows } from '../rows.js';
import { failOnDifference, type SummaryRun, summaryLook, writeRecords } from './options.js';

export async function runPlain({ o, ctx, client, zone, r }: SummaryRun): Promise<void> {
  const { io } = ctx;
  const requests = client.requestCount;
  const { format, file } = o.output;
  await writeOutput(ctx, o.output.path, async (sink) => {
    if (format === 'table') {
      const { renderSummaryTable } = await import('../table.js');
      await sink.write(renderSummaryTable(r, summaryLook(o, io)));
    } else {
      const rows = summaryRows(r);
      await writeRecords(o, io, sink, { ...summaryFields(r, rows), zone, noun: 'groups' }, rows);
    }
    return undefined;
  });
  if (io.debug) io.err.line(say`posdata: summary made ${own(String(requests))} requests`);
  if (file !== undefined && !io.quiet && io.err.isTTY)
    io.err.line(say`posdata: wrote ${r.shown.length} groups to ${file}`);
  let differ = 0;
  if (o.checkOdoo) {
    const { checkOdoo } = await import('../check.js');
    const check = await checkOdoo(client, r, o);
    // The check's report is the point of --check-odoo; with --quiet only a difference is
    // (a cron line that mails what it prints would otherwise mail every morning).
    differ = check.differ;
    if (!io.quiet || differ > 0)
      for (const line of check.lines) io.err.line(say`posdata: check-odoo: ${line}`);
  }
  failOnDifference(o, differ);
}
