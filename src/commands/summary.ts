// `posdata summary`: flags → the summary computed by Odoo's grouping calls → table, json,
// ndjson or csv on a sink; --check-odoo compares the totals with Odoo's own Sales Details.
import { command } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { COMPANY, CONFIG_ID, CONNECTION, GLOBAL, group, SERVERS, SESSION_ID } from '../cli/flags.js';
import type { IO } from '../cli/io.js';
import { OUTPUT, tableLook, writeOutput } from '../cli/output.js';
import { type ReportOptions, reportOptions } from '../cli/report.js';
import { positiveInt, seconds } from '../cli/values.js';
import type { OdooClient } from '../core/client.js';
import { DifferenceError, isPosdataError, UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import type { Domain, FieldMap } from '../core/types.js';
import { tzHelp, zoneFor } from '../query/zone.js';
import { inCurrency } from '../records/normalize.js';
import { makeRenderer } from '../render/renderer.js';
import type { Sink } from '../sink/sink.js';
import { KEYS } from '../summary/keys.js';
import { checkParams, fetchSummary, type SummaryParams, type SummaryResult } from '../summary/query.js';
import { summaryFields, summaryRows } from '../summary/rows.js';
import { type SplitSummary, splitKeys } from '../summary/split.js';

export interface SummaryOptions extends SummaryParams, ReportOptions {
  checkOdoo: boolean;
  /** --watch: seconds between refreshes. */
  watch?: number;
  /** --times: refreshes before it ends by itself. */
  times?: number;
  /** --loss: with --by cashier or register, the loss-prevention figures (report's). */
  loss: boolean;
}

export const summary = command({
  name: 'summary',
  flags: [
    group('own', [
      { spec: '--date <day>', description: 'one business day (YYYY-MM-DD, today, yesterday); default today' },
      {
        spec: '--from <when>',
        description: 'orders from this time: YYYY-MM-DD, "YYYY-MM-DD HH:MM", ISO 8601, today, 7d',
      },
      {
        spec: '--to <when>',
        description: 'up to this time; a date-only value includes that whole business day',
      },
      CONFIG_ID,
      { ...SESSION_ID, description: 'one session: the X report (open) or Z report (closed), with its cash' },
      {
        spec: '--by <keys>',
        description:
          'group by company, currency, day, hour, weekday, register, session, cashier, product, category, method, tax (comma-separated)',
        default: 'register',
        offer: ['company', 'currency', ...KEYS],
        list: true,
      },
      {
        spec: '--top <n>',
        description: 'only the N groups with the largest total',
        parse: positiveInt('--top', 0),
      },
      {
        spec: '--day-starts <HH:MM>',
        description: 'the business day starts at this hour (shops open past midnight)',
      },
      {
        spec: '--tz <zone>',
        description: tzHelp('the business day'),
        value: 'zone',
      },
      {
        spec: '--loss',
        description:
          'with --by cashier or --by register: refunds, cancelled orders, discounts and cash differences, each against the median of the others (marks)',
      },
      {
        spec: '--check-odoo',
        description: "compare the totals with Odoo's own Sales Details report (stderr)",
      },
      {
        spec: '--fail-on-difference',
        description: "with --check-odoo: exit 7 when a figure differs from Odoo's beyond the rounding",
      },
      {
        spec: '--watch <seconds>',
        description:
          'refresh every SECONDS until Ctrl-C: redrawn in place on a terminal, else one csv/ndjson row or text line per refresh',
        parse: seconds('--watch', 1, true),
      },
      {
        spec: '--times <n>',
        description: 'with --watch: stop after N refreshes',
        parse: positiveInt('--times', 1),
      },
      COMPANY,
    ]),
    OUTPUT,
    CONNECTION,
    SERVERS,
    GLOBAL,
  ],
  examples: [
    'posdata summary --date yesterday',
    'posdata summary --from 28d --by hour,weekday',
    'posdata summary --date yesterday --by product --top 20',
    'posdata summary --session-id 42 --check-odoo',
    'posdata summary --date today --watch 60                 # the X report, kept open',
    'posdata summary --watch 300 --format ndjson >> today.ndjson',
    'posdata summary --date yesterday --check-odoo --fail-on-difference --quiet || mail -s "summary differs" boss@example.com',
  ],
  options(f, _args, { io }): SummaryOptions {
    const o: SummaryOptions = {
      ...reportOptions(f, io),
      sessionId: f.sessionId,
      by: f.by,
      top: f.top,
      dayStarts: f.dayStarts,
      checkOdoo: f.checkOdoo === true,
      watch: f.watch,
      times: f.times,
      loss: f.loss === true,
    };
    checkWatch(o);
    checkLoss(o);
    // company and currency split the summary (summary/split.ts); the rest are its own keys.
    const own = splitKeys(o.by).rest;
    checkParams({ ...o, by: own === '' ? undefined : own }, o.tz ?? 'UTC');
    if (o.failOnDifference && !o.checkOdoo)
      throw new UsageError(
        say`--fail-on-difference needs --check-odoo: it fails on a difference from Odoo's Sales Details`,
        say`add --check-odoo`,
      );
    return o;
  },
  async run(o, ctx) {
    if (o.watch !== undefined) return runWatch(o, o.watch, ctx);
    const { io } = ctx;
    const { client, profile } = await ctx.odoo(o.connection);
    // The business day is the shop's: --tz, else the Odoo user's zone, else this machine's.
    const zone = zoneFor('range', o.tz, profile.tz);
    const { fetchSplitSummary } = await import('../summary/split.js');
    const split = await fetchSplitSummary(client, o, zone);
    if (split) return runSplit(o, ctx, split, zone);
    const r = await fetchSummary(client, o, zone);
    if (r.summary.groups.length === 0) await (await import('../read/exists.js')).mustExist(client, o);
    if (!io.quiet) for (const n of r.summary.notes) io.err.line(say`posdata: note: ${n}`);
    if (o.loss) return runLoss(o, ctx, client, zone, r);
    const requests = client.requestCount;
    const { format, file } = o.output;
    await writeOutput(ctx, o.output.path, async (sink) => {
      if (format === 'table') {
        const { renderSummaryTable } = await import('../summary/table.js');
        await sink.write(
          renderSummaryTable(r, {
            ...tableLook(io, file !== undefined),
            bars: io.out.isTTY && file === undefined,
          }),
        );
      } else {
        const rows = summaryRows(r);
        const { fields, defs } = summaryFields(r, rows);
        const renderer = await rendererFor(o, io, sink, { fields, defs }, zone, 'groups');
        await renderer.begin();
        await renderer.page(rows);
        await renderer.end();
      }
      return undefined;
    });
    if (io.debug) io.err.line(say`posdata: summary made ${own(String(requests))} requests`);
    if (file !== undefined && !io.quiet && io.err.isTTY)
      io.err.line(say`posdata: wrote ${r.shown.length} groups to ${file}`);
    let differ = 0;
    if (o.checkOdoo) {
      const { checkOdoo } = await import('../summary/check.js');
      const check = await checkOdoo(client, r, o);
      // The check's report is the point of --check-odoo; with --quiet only a difference is
      // (a cron line that mails what it prints would otherwise mail every morning).
      differ = check.differ;
      if (!io.quiet || differ > 0)
        for (const line of check.lines) io.err.line(say`posdata: check-odoo: ${line}`);
    }
    if (o.failOnDifference && differ > 0) {
      throw new DifferenceError(
        say`${own(String(differ))} figure${own(differ === 1 ? '' : 's')} ${own(differ === 1 ? 'differs' : 'differ')} from Odoo's Sales Details`,
        say`see the check-odoo lines above`,
      );
    }
  },
});

/** --loss: one key, cashier or register, and a plain summary (no --watch, --top or --check-odoo). */
function checkLoss(o: SummaryOptions): void {
  if (!o.loss) return;
  if (o.by !== 'cashier' && o.by !== 'register')
    throw new UsageError(
      say`--loss sets each cashier or register against the others, not groups by ${o.by ?? 'register'}`,
      say`use --by cashier --loss or --by register --loss`,
    );
  if (o.watch !== undefined || o.checkOdoo || o.top !== undefined)
    throw new UsageError(say`--loss goes without --watch, --top and --check-odoo`, say`leave those out`);
}

/**
 * summary --by cashier --loss (or register): report's loss-prevention figures, from the same
 * summary and the period's closings (reconcile's), one row per cashier or register.
 */
async function runLoss(o: SummaryOptions, ctx: Context, client: OdooClient, zone: string, r: SummaryResult) {
  const { fetchReconciliation, reconcile, sessionsDomain } = await import('../reconcile/compute.js');
  const { lossSection, lossRecord, LOSS_COLUMNS } = await import('../report/loss.js');
  const domain =
    o.sessionId !== undefined
      ? [
          ['id', '=', o.sessionId],
          ['state', '=', 'closed'],
        ]
      : sessionsDomain(
          {
            date: o.date ?? (o.from === undefined && o.to === undefined ? 'today' : undefined),
            from: o.from,
            to: o.to,
            configId: o.configId,
          },
          zone,
        );
  const { inputs } = await fetchReconciliation(client, domain as Domain);
  const rec = reconcile(inputs, r.summary.digits);
  const cashier = o.by === 'cashier';
  const loss = await lossSection(client, {
    range: r.range,
    configId: o.configId,
    sessionId: o.sessionId,
    ...(cashier ? { cashier: r } : { register: r }),
    sessions: rec.sessions,
    sessionUsers: inputs.sessions.map((s) => ({
      id: s.id,
      user: Array.isArray(s.user_id) ? [s.user_id[0] as number, String(s.user_id[1])] : null,
    })),
    digits: r.summary.digits,
  });
  const [id, name] = cashier ? ['cashier_id', 'cashier'] : ['config_id', 'register'];
  const rows = (cashier ? loss.cashiers : loss.registers).map((x) => lossRecord(x, id, name));
  const fields = [id, name, ...LOSS_COLUMNS];
  const defs: FieldMap = {};
  for (const f of fields)
    defs[f] = {
      type:
        f === id ||
        f === 'orders' ||
        f === 'refund_count' ||
        f === 'cancelled' ||
        f === 'closings' ||
        f === 'quick_refunds'
          ? 'integer'
          : f === name || f === 'marks'
            ? 'char'
            : f.endsWith('_share')
              ? 'float'
              : 'monetary',
    };
  await writeOutput(ctx, o.output.path, async (sink) => {
    const renderer = await rendererFor(
      o,
      ctx.io,
      sink,
      { fields, defs: inCurrency(defs, r.summary.digits) },
      zone,
      cashier ? 'cashiers' : 'registers',
    );
    await renderer.begin();
    await renderer.page(rows);
    await renderer.end();
    return undefined;
  });
}

/**
 * The summary of companies in several currencies (or --by company/currency): one table per
 * currency (or company), each with its own total; json, ndjson and csv rows led by currency
 * (and company); --check-odoo per part, against Odoo's report for those companies alone.
 */
async function runSplit(o: SummaryOptions, ctx: Context, split: SplitSummary, zone: string): Promise<void> {
  const { io } = ctx;
  const { splitNote, splitRows } = await import('../summary/split.js');
  if (!io.quiet) {
    io.err.line(say`posdata: note: ${splitNote(split)}`);
    for (const part of split.parts)
      for (const n of part.result.summary.notes) io.err.line(say`posdata: note: ${own(part.label)}: ${n}`);
  }
  const { format, file } = o.output;
  await writeOutput(ctx, o.output.path, async (sink) => {
    if (format === 'table') {
      const { renderSummaryTable } = await import('../summary/table.js');
      for (const [i, part] of split.parts.entries()) {
        await sink.write(`${i > 0 ? '\n' : ''}${part.label}\n`);
        await sink.write(
          renderSummaryTable(part.result, {
            ...tableLook(io, file !== undefined),
            bars: io.out.isTTY && file === undefined,
          }),
        );
      }
    } else {
      const { rows, fields, defs } = splitRows(split);
      const renderer = await rendererFor(o, io, sink, { fields, defs: defs as FieldMap }, zone, 'groups');
      await renderer.begin();
      await renderer.page(rows);
      await renderer.end();
    }
    return undefined;
  });
  let differ = 0;
  if (o.checkOdoo) {
    const { checkOdoo } = await import('../summary/check.js');
    for (const part of split.parts) {
      const check = await checkOdoo(part.client, part.result, o);
      for (const line of check.lines) io.err.line(say`posdata: check-odoo: ${own(part.label)}: ${line}`);
      differ += check.differ;
    }
  }
  if (o.failOnDifference && differ > 0) {
    throw new DifferenceError(
      say`${own(String(differ))} figure${own(differ === 1 ? '' : 's')} ${own(differ === 1 ? 'differs' : 'differ')} from Odoo's Sales Details`,
      say`see the check-odoo lines above`,
    );
  }
}

/** --watch and --times with the flags they can go with. */
function checkWatch(o: SummaryOptions): void {
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
async function runWatch(o: SummaryOptions, every: number, ctx: Context): Promise<void> {
  const { io } = ctx;
  const { watch, Screen } = await import('../cli/watch.js');
  const { liveFields, liveHeading, liveLine, liveRow, coverage } = await import('../summary/live.js');
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
          const { fetchSplitSummary } = await import('../summary/split.js');
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
          await (await import('../read/exists.js')).mustExist(session.client, o);
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
    const { renderSummaryTable } = await import('../summary/table.js');
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
        renderer = await rendererFor(o, io, sink, { fields, defs }, zone, 'refreshes');
        await renderer.begin();
      }
      await renderer?.page([liveRow(r, at, zoneFor('data', o.tz))]);
    });
    return undefined;
  });
}

/** The renderer of the summary's records in the output's format and csv dialect. */
function rendererFor(
  o: SummaryOptions,
  io: IO,
  sink: Sink,
  c: { fields: string[]; defs: FieldMap },
  zone: string,
  noun: string,
) {
  return makeRenderer({
    format: o.output.format,
    sink,
    ...c,
    excel: o.output.excel,
    delimiter: o.output.delimiter,
    decimal: o.output.decimal,
    ...tableLook(io, o.output.file !== undefined),
    tz: zone,
    preferred: c.fields,
    noun,
  });
}
