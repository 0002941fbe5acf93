// summary --watch: the summary again every so many seconds until Ctrl-C (or --times), redrawn
// in place on a terminal, else one record (or text line) per refresh.
import type { Context } from '../../cli/context.js';
import { tableLook, writeOutput } from '../../cli/output.js';
import type { OdooClient } from '../../core/client.js';
import { isPosdataError, UsageError } from '../../core/errors.js';
import { own, say } from '../../core/redact.js';
import { zoneFor } from '../../query/zone.js';
import type { makeRenderer } from '../../render/renderer.js';
import { fetchSummary, type SummaryResult } from '../query.js';
import { rendererFor, type SummaryOptions } from './options.js';

/** --watch and --times with the flags they can go with. */
export function checkWatch(o: SummaryOptions): void {
  if (o.watch === undefined) {
    if (o.times !== undefined)
      throw new UsageError(say`--times counts the refreshes of --watch`, say`add --watch SECONDS`);
    return;
  }
  const { format, file } = o.output;
  if (file !== undefined)
    throw new UsageError(
      say`--watch writes to standard output, refresh after refresh, not to -o`,
      say`leave out -o, or redirect: posdata summary --watch 60 --format csv >> day.csv`,
    );
  if (format === 'json' || format === 'parquet')
    throw new UsageError(
      say`--watch gives one record per refresh, which --format ${own(format)} cannot carry`,
      say`use --format ndjson or csv`,
    );
  if (o.checkOdoo)
    throw new UsageError(
      say`--check-odoo compares one summary with Odoo's report, not every refresh of --watch`,
      say`run it without --watch`,
    );
}

/**
 * summary --watch: on a terminal with the table format, the summary redrawn in place under a
 * heading with the refresh time; otherwise one record per refresh (csv: one header, again
 * where the payment methods change; ndjson: one object; table: one line of text).
 */
export async function runWatch(o: SummaryOptions, every: number, ctx: Context): Promise<void> {
  const { io } = ctx;
  const { watch, Screen } = await import('../../cli/watch.js');
  const { liveFields, liveHeading, liveLine, liveRow, coverage } = await import('../live.js');
  const redraw = o.output.format === 'table' && io.out.isTTY;
  const screen = new Screen(io);
  let zone = zoneFor('range', o.tz, undefined);
  let last: { frame: string; at: Date; what: string } | undefined;
  /** A line on stderr; on a terminal it is below the block, which the next redraw covers. */
  const tell = (line: string): void => {
    if (redraw) screen.saidBelow(line);
    io.err.write(line);
  };
  const loop = async (show: (r: SummaryResult, at: Date) => Promise<void> | void): Promise<void> => {
    let client: OdooClient | undefined;
    let noted = false;
    await watch(ctx, {
      every,
      times: o.times,
      async refresh() {
        const session = await ctx.odoo(o.connection);
        client = session.client;
        zone = zoneFor('range', o.tz, session.profile.tz);
        if (!noted) {
          // One line per refresh cannot say several currencies: a watch reads one currency.
          const { fetchSplitSummary } = await import('../split.js');
          const split = await fetchSplitSummary(session.client, o, zone);
          if (split)
            throw new UsageError(
              say`--watch follows one currency, and these companies keep ${own(split.parts.map((p) => p.label).join(', '))}`,
              say`add --company with the companies of one currency, e.g. --company ${own(String(split.parts[0]?.companies[0]?.id ?? 1))}`,
            );
        }
        const r = await fetchSummary(session.client, o, zone);
        // A register that does not exist ends the watch at its first refresh, as without --watch.
        if (!noted && r.summary.groups.length === 0)
          await (await import('../../read/exists.js')).mustExist(session.client, o);
        // What could not be computed is said once, not at every refresh.
        if (!noted && !io.quiet)
          for (const n of r.summary.notes) tell(`${io.redactor.said(say`posdata: note: ${n}`)}\n`);
        noted = true;
        await show(r, new Date());
      },
      failed(err, next) {
        if (redraw) {
          const heading = liveHeading(last?.what ?? '…', last?.at, every, zone, {
            failedAt: new Date(),
            nextAt: next,
          });
          screen.draw(heading + (last?.frame ?? ''));
        }
        // Only the connection's errors are tried again: posdata's own, with their one line.
        tell(`posdata: ${isPosdataError(err) ? err.line(io.redactor) : String(err)}\n`);
      },
      abandon() {
        client?.destroy();
      },
    });
  };
  if (redraw) {
    // The terminal itself, redrawn: no sink (nor pager) between.
    const { renderSummaryTable } = await import('../table.js');
    await loop((r, at) => {
      const what = coverage(r, zone, o.sessionId);
      const frame = renderSummaryTable(r, { ...tableLook(io, false), bars: true });
      last = { frame, at, what };
      screen.draw(liveHeading(what, at, every, zone) + frame);
    });
    screen.end();
    return;
  }
  let columns = '';
  let renderer: Awaited<ReturnType<typeof makeRenderer>> | undefined;
  await writeOutput(ctx, undefined, async (sink) => {
    await loop(async (r, at) => {
      if (o.output.format === 'table') return sink.write(liveLine(r, at, zone));
      const { fields, defs } = liveFields(r);
      // A payment method used for the first time today: csv says its header again.
      if (fields.join(',') !== columns) {
        columns = fields.join(',');
        renderer = await rendererFor(o, io, sink, { fields, defs, zone, noun: 'refreshes' });
        await renderer.begin();
      }
      await renderer?.page([liveRow(r, at, zoneFor('data', o.tz))]);
    });
    return undefined;
  });
}
