// `posdata report`: one self-contained HTML file for a period (or a PDF of it, printed by a
// Chromium where one is installed): the period at a glance beside the previous one, charts
// drawn as SVG, where the money leaks per cashier and register, and the cash closings.
import { command } from '../cli/command.js';
import type { ConnectionOptions } from '../cli/flags.js';
import { CONFIG_ID, CONNECTION, connectionOptions, GLOBAL, group } from '../cli/flags.js';
import { writeOutput } from '../cli/output.js';
import { VERSION } from '../cli/version.js';
import { UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import { checkZone, zoneFor } from '../query/zone.js';
import type { ReportParams } from '../report/data.js';

export interface ReportCommandOptions extends ReportParams {
  connection: ConnectionOptions;
  tz?: string;
  format: 'html' | 'pdf';
  /** -o as given; undefined: a name made of the period. */
  output?: string;
}

export const report = command({
  name: 'report',
  flags: [
    group('own', [
      { spec: '--month <YYYY-MM>', description: 'one calendar month (the previous month beside it)' },
      {
        spec: '--from <when>',
        description: 'orders from this time: YYYY-MM-DD, "YYYY-MM-DD HH:MM", ISO 8601, 7d',
      },
      {
        spec: '--to <when>',
        description: 'up to this time; a date-only value includes that whole day (default today)',
      },
      CONFIG_ID,
      {
        spec: '--tz <zone>',
        description: "IANA zone of the business day (default: the Odoo user's zone)",
        value: 'zone',
      },
      {
        spec: '--format <fmt>',
        description: 'html, or pdf (printed by Chromium, where one is installed)',
        offer: ['html', 'pdf'],
      },
      {
        spec: '-o, --output <file>',
        description: 'write to FILE atomically (default report-<period>.html or .pdf)',
        value: 'file',
      },
    ]),
    CONNECTION,
    GLOBAL,
  ],
  examples: [
    'posdata report --month 2026-11 -o november.html',
    'posdata report --from 2026-11-01 --to 2026-11-15 --config-id 1',
    'posdata report --month 2026-11 --format pdf',
  ],
  options(f): ReportCommandOptions {
    const tz = f.tz;
    if (tz) checkZone(tz);
    const output = f.output;
    const fmt = f.format ?? (output?.toLowerCase().endsWith('.pdf') ? 'pdf' : 'html');
    if (fmt !== 'html' && fmt !== 'pdf')
      throw new UsageError(say`--format '${fmt}' is not one report writes`, say`use html or pdf`);
    const o: ReportCommandOptions = {
      connection: connectionOptions(f),
      month: f.month,
      from: f.from,
      to: f.to,
      configId: f.configId,
      tz,
      format: fmt,
      output,
    };
    return o;
  },
  async run(o, ctx) {
    const { io } = ctx;
    const { periodsOf, gatherReport } = await import('../report/data.js');
    // The period is refused before anything is asked of a server.
    periodsOf(o, o.tz ?? 'UTC');
    const pdf = o.format === 'pdf' ? await import('../report/pdf.js') : undefined;
    const chromium = pdf?.findChromium(ctx.env);
    if (pdf && !chromium)
      throw new UsageError(
        say`--format pdf prints with Chromium, and none is installed here`,
        say`install chromium (or set POSDATA_CHROMIUM to its path), or write html and print it from a browser`,
      );
    const { client, profile } = await ctx.odoo(o.connection);
    const zone = zoneFor('range', o.tz, profile.tz);
    const data = await gatherReport(client, o, {
      url: profile.url ?? '',
      database: profile.db ?? '',
      user: profile.login ?? '',
      zone,
    });
    const { renderHtml } = await import('../report/html.js');
    const html = await renderHtml(data, VERSION);
    const file =
      o.output ??
      `report-${o.month ?? `${data.period.from}_${data.period.to}`.replace(/[^\w.-]+/g, '-')}.${o.format}`;
    const { resolveTarget } = await import('../sink/target.js');
    const path = file === '-' ? undefined : resolveTarget(file);
    const body = pdf && chromium ? await pdf.printPdf(chromium, html) : html;
    await writeOutput(ctx, path, async (sink) => {
      await sink.write(body);
      return undefined;
    });
    if (io.debug) io.err.line(say`posdata: report made ${own(String(data.requests))} requests`);
    if (path !== undefined && !io.quiet) io.err.line(say`posdata: wrote ${file}`);
  },
});
