// The summary of companies in several currencies (or --by company/currency): one table per
// currency (or company), each with its own total; json, ndjson and csv rows led by currency
// (and company); --check-odoo per part, against Odoo's report for those companies alone.
import type { Context } from '../../cli/context.js';
import { writeOutput } from '../../cli/output.js';
import { own, say } from '../../core/redact.js';
import type { FieldMap } from '../../core/types.js';
import { type SplitSummary, splitNote, splitRows } from '../split.js';
import { failOnDifference, type SummaryOptions, summaryLook, writeRecords } from './options.js';

export async function runSplit(
  o: SummaryOptions,
  ctx: Context,
  split: SplitSummary,
  zone: string,
): Promise<void> {
  const { io } = ctx;
  if (!io.quiet) {
    io.err.line(say`posdata: note: ${splitNote(split)}`);
    for (const part of split.parts)
      for (const n of part.result.summary.notes) io.err.line(say`posdata: note: ${own(part.label)}: ${n}`);
  }
  await writeOutput(ctx, o.output.path, async (sink) => {
    if (o.output.format === 'table') {
      const { renderSummaryTable } = await import('../table.js');
      for (const [i, part] of split.parts.entries()) {
        await sink.write(`${i > 0 ? '\n' : ''}${part.label}\n`);
        await sink.write(renderSummaryTable(part.result, summaryLook(o, io)));
      }
    } else {
      const { rows, fields, defs } = splitRows(split);
      await writeRecords(o, io, sink, { fields, defs: defs as FieldMap, zone, noun: 'groups' }, rows);
    }
    return undefined;
  });
  let differ = 0;
  if (o.checkOdoo) {
    const { checkOdoo } = await import('../check.js');
    for (const part of split.parts) {
      const check = await checkOdoo(part.client, part.result, o);
      for (const line of check.lines) io.err.line(say`posdata: check-odoo: ${own(part.label)}: ${line}`);
      differ += check.differ;
    }
  }
  failOnDifference(o, differ);
}
