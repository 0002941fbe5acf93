// What `posdata summary` runs with, as its command reads the flags (src/commands/summary.ts),
// and what each way of running it (plain.ts, split.ts, loss.ts, watch.ts) shares in writing:
// the renderer in the output's format, the table's look, and the exit of --fail-on-difference.
import type { Context } from '../../cli/context.js';
import type { IO } from '../../cli/io.js';
import { tableLook } from '../../cli/output.js';
import type { PeriodOptions } from '../../cli/period.js';
import type { OdooClient } from '../../core/client.js';
import { DifferenceError } from '../../core/errors.js';
import { own, say } from '../../core/redact.js';
import type { FieldMap } from '../../core/types.js';
import type { Row } from '../../records/normalize.js';
import { makeRenderer } from '../../render/renderer.js';
import type { Sink } from '../../sink/sink.js';
import type { SummaryParams, SummaryResult } from '../query.js';

/**
 * One run of the summary, as each way of running it takes it: the options, the command's
 * context, the Odoo client, the zone of the business day and what was read.
 */
export interface SummaryRun {
  o: SummaryOptions;
  ctx: Context;
  client: OdooClient;
  zone: string;
  r: SummaryResult;
}

export interface SummaryOptions extends SummaryParams, PeriodOptions {
  checkOdoo: boolean;
  /** --watch: seconds between refreshes. */
  watch?: number;
  /** --times: refreshes before it ends by itself. */
  times?: number;
  /** --loss: with --by cashier or register, the loss-prevention figures (report's). */
  loss: boolean;
}

/** Where and how the summary's records go: their columns, the zone of their times, what a record is called. */
export interface RecordsOut {
  fields: string[];
  defs: FieldMap;
  zone: string;
  noun: string;
}

/** The renderer of the summary's records in the output's format and csv dialect. */
export function rendererFor(o: SummaryOptions, io: IO, sink: Sink, out: RecordsOut) {
  return makeRenderer({
    format: o.output.format,
    sink,
    fields: out.fields,
    defs: out.defs,
    excel: o.output.excel,
    delimiter: o.output.delimiter,
    decimal: o.output.decimal,
    ...tableLook(io, o.output.file !== undefined),
    tz: out.zone,
    preferred: out.fields,
    noun: out.noun,
  });
}

/** Records written whole, one page between the renderer's begin and end. */
export async function writeRecords(
  o: SummaryOptions,
  io: IO,
  sink: Sink,
  out: RecordsOut,
  rows: Row[],
): Promise<void> {
  const renderer = await rendererFor(o, io, sink, out);
  await renderer.begin();
  await renderer.page(rows);
  await renderer.end();
}

/** The summary table's look: bars where it is drawn on a terminal. */
export function summaryLook(o: SummaryOptions, io: IO) {
  const { file } = o.output;
  return { ...tableLook(io, file !== undefined), bars: io.out.isTTY && file === undefined };
}

/** --fail-on-difference: exit 7 when --check-odoo found a figure differing from Odoo's. */
export function failOnDifference(o: SummaryOptions, differ: number): void {
  if (o.failOnDifference && differ > 0) {
    throw new DifferenceError(
      say`${own(String(differ))} figure${own(differ === 1 ? '' : 's')} ${own(differ === 1 ? 'differs' : 'differ')} from Odoo's Sales Details`,
      say`see the check-odoo lines above`,
    );
  }
}
