// `posdata summary`: flags → the summary computed by Odoo's grouping calls → table, json,
// ndjson or csv on a sink; --check-odoo compares the totals with Odoo's own Sales Details.
import { command } from '../cli/command.js';
import { CONNECTION, type ConnectionOptions, connectionOptions, GLOBAL, group } from '../cli/flags.js';
import { OUTPUT, type OutputOptions, outputOptions, tableLook, writeOutput } from '../cli/output.js';
import { positiveInt } from '../cli/values.js';
import { DifferenceError, UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import { checkZone, machineZone } from '../query/zone.js';
import { makeRenderer } from '../render/renderer.js';
import { KEYS } from '../summary/keys.js';
import { checkParams, fetchSummary, type SummaryParams } from '../summary/query.js';
import { summaryFields, summaryRows } from '../summary/rows.js';

export interface SummaryOptions extends SummaryParams {
  connection: ConnectionOptions;
  output: OutputOptions;
  tz?: string;
  checkOdoo: boolean;
  failOnDifference: boolean;
}

export const summary = command<SummaryOptions>({
  name: 'summary',
  summary:
    "The day's figures (X and Z reports), computed by Odoo: orders, items, discounts, refunds, tax, payment methods",
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
      {
        spec: '--config-id <id>',
        description: 'one register',
        parse: positiveInt('--config-id'),
        value: 'register',
      },
      {
        spec: '--session-id <id>',
        description: 'one session: the X report (open) or Z report (closed), with its cash',
        parse: positiveInt('--session-id'),
      },
      {
        spec: '--by <keys>',
        description:
          'group by day, hour, weekday, register, session, cashier, product, category, method, tax (comma-separated)',
        default: 'register',
        offer: KEYS,
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
        description: "IANA zone of the business day (default: the Odoo user's zone)",
        value: 'zone',
      },
      {
        spec: '--check-odoo',
        description: "compare the totals with Odoo's own Sales Details report (stderr)",
      },
      {
        spec: '--fail-on-difference',
        description: "with --check-odoo: exit 7 when a figure differs from Odoo's beyond the rounding",
      },
    ]),
    OUTPUT,
    CONNECTION,
    GLOBAL,
  ],
  examples: [
    'posdata summary --date yesterday',
    'posdata summary --from 28d --by hour,weekday',
    'posdata summary --date yesterday --by product --top 20',
    'posdata summary --session-id 42 --check-odoo',
    'posdata summary --date yesterday --check-odoo --fail-on-difference --quiet || mail -s "summary differs" boss@example.com',
  ],
  options(f, _args, { io }) {
    const output = outputOptions(f, io);
    const tz = f.tz as string | undefined;
    if (tz) checkZone(tz);
    const o: SummaryOptions = {
      connection: connectionOptions(f),
      output,
      date: f.date as string | undefined,
      from: f.from as string | undefined,
      to: f.to as string | undefined,
      configId: f.configId as number | undefined,
      sessionId: f.sessionId as number | undefined,
      by: f.by as string | undefined,
      top: f.top as number | undefined,
      dayStarts: f.dayStarts as string | undefined,
      tz,
      checkOdoo: f.checkOdoo === true,
      failOnDifference: f.failOnDifference === true,
    };
    checkParams(o, tz ?? 'UTC');
    if (o.failOnDifference && !o.checkOdoo)
      throw new UsageError(
        say`--fail-on-difference needs --check-odoo: it fails on a difference from Odoo's Sales Details`,
        say`add --check-odoo`,
      );
    return o;
  },
  async run(o, ctx) {
    const { io } = ctx;
    const { client, profile } = await ctx.odoo(o.connection);
    // The business day is the shop's: --tz, else the Odoo user's zone, else this machine's.
    const zone = o.tz ?? profile.tz ?? machineZone();
    const r = await fetchSummary(client, o, zone);
    if (!io.quiet) for (const n of r.summary.notes) io.err.line(say`posdata: note: ${n}`);
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
        const renderer = await makeRenderer({
          format,
          sink,
          fields,
          defs,
          excel: o.output.excel,
          delimiter: o.output.delimiter,
          decimal: o.output.decimal,
          ...tableLook(io, file !== undefined),
          tz: zone,
          preferred: fields,
          noun: 'groups',
        });
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
      // The check's report is the point of --check-odoo: printed also with --quiet.
      for (const line of check.lines) io.err.line(say`posdata: check-odoo: ${line}`);
      differ = check.differ;
    }
    if (o.failOnDifference && differ > 0) {
      throw new DifferenceError(
        say`${own(String(differ))} figure${own(differ === 1 ? '' : 's')} ${own(differ === 1 ? 'differs' : 'differ')} from Odoo's Sales Details`,
        say`see the check-odoo lines above`,
      );
    }
  },
});
