// `posdata report`: one self-contained HTML file for a period (or a PDF of it, printed by a
// Chromium where one is installed): the period at a glance beside the previous one, charts
// drawn as SVG, where the money leaks per cashier and register, and the cash closings; one
// section per currency of the companies read (--company, else every one the user may see),
// and over several servers (--profile a,b, --all-profiles) one per profile and currency.
import { command } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import type { ConnectionOptions, Flags } from '../cli/flags.js';
import { COMPANY, CONFIG_ID, CONNECTION, connectionOptions, GLOBAL, group, SERVERS } from '../cli/flags.js';
import type { Env } from '../cli/io.js';
import { writeOutput } from '../cli/output.js';
import { VERSION } from '../cli/version.js';
import { UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import { FROM, TO } from '../query/period.js';
import { checkZone, zoneFor } from '../query/zone.js';
import type { ChainReport, ReportData, ReportParams } from '../report/data.js';

const FORMATS = ['html', 'pdf', 'json'] as const;

export interface ReportCommandOptions extends ReportParams {
  connection: ConnectionOptions;
  tz?: string;
  format: (typeof FORMATS)[number];
  /** -o as given; undefined: a name made of the period. */
  output?: string;
}

export const report = command({
  name: 'report',
  flags: [
    group('own', [
      { spec: '--month <YYYY-MM>', description: 'one calendar month (the previous month beside it)' },
      FROM,
      { ...TO, description: `${TO.description} (default today)` },
      CONFIG_ID,
      {
        spec: '--tz <zone>',
        description: "IANA zone of the business day (default: the Odoo user's zone)",
        value: 'zone',
      },
      {
        spec: '--format <fmt>',
        description:
          "html, pdf (printed by Chromium, where one is installed), or json (the page's figures alone)",
        offer: FORMATS,
      },
      {
        spec: '-o, --output <file>',
        description:
          'write to FILE atomically (default report-<period>.html, .pdf or .json); over several profiles, {profile} in it writes one report per server',
        value: 'file',
      },
      COMPANY,
      {
        spec: '--books',
        description:
          "add a Books section where a closing's journal entry differs from the POS (posdata books; needs accounting rights, a dozen more requests)",
      },
    ]),
    CONNECTION,
    SERVERS,
    GLOBAL,
  ],
  examples: [
    'posdata report --month 2026-11 -o november.html',
    'posdata report --from 2026-11-01 --to 2026-11-15 --config-id 1',
    'posdata report --month 2026-11 --format pdf',
    'posdata report --month 2026-11 --company "Shop US"',
    'posdata report --month 2026-11 --all-profiles -o chain-november.html',
  ],
  notes:
    '\nFigures are per currency: the companies read (--company, else every one the user may see) are split by\n' +
    'their currency, a section each, and no figure adds two. Over several profiles the page has a part per\n' +
    'server, its currencies inside; a server that fails is named on stderr and in the page, the others are\n' +
    'complete, and the run ends with exit 8.\n',
  servers: {
    join: {
      flags: (f: Flags): Flags => ({ ...f, format: 'json', output: '-' }),
      async check(f, where) {
        const o = await report.options(f as Parameters<typeof report.options>[0], [], where);
        await checkRun(o, where.env);
      },
      async join(docs, failed, f, ctx) {
        const o = await report.options(f as Parameters<typeof report.options>[0], [], ctx);
        const { chainReport } = await import('../report/data.js');
        const data = chainReport(
          docs.map((d) => JSON.parse(d.text) as ReportData),
          failed,
        );
        await writeReport(o, ctx, data);
      },
    },
  },
  options(f): ReportCommandOptions {
    const tz = f.tz;
    if (tz) checkZone(tz);
    const output = f.output;
    const ext = output?.toLowerCase().match(/\.(pdf|json)$/)?.[1];
    const fmt = f.format ?? ext ?? 'html';
    if (!(FORMATS as readonly string[]).includes(fmt))
      throw new UsageError(say`--format '${fmt}' is not one report writes`, say`use html, pdf or json`);
    const o: ReportCommandOptions = {
      connection: connectionOptions(f),
      month: f.month,
      from: f.from,
      to: f.to,
      configId: f.configId,
      books: f.books === true,
      tz,
      format: fmt as ReportCommandOptions['format'],
      output,
    };
    return o;
  },
  async run(o, ctx) {
    await checkRun(o, ctx.env);
    const { gatherReport } = await import('../report/data.js');
    const { client, profile } = await ctx.odoo(o.connection);
    const zone = zoneFor('range', o.tz, profile.tz);
    const data = await gatherReport(client, o, {
      profile: o.connection.profile,
      url: profile.url ?? '',
      database: profile.db ?? '',
      user: profile.login ?? '',
      zone,
    });
    await writeReport(o, ctx, data);
  },
});

/** What can be refused before a server is asked: the period, and a PDF with no Chromium. */
async function checkRun(o: ReportCommandOptions, env: Env): Promise<void> {
  const { periodsOf } = await import('../report/data.js');
  periodsOf(o, o.tz ?? 'UTC');
  if (o.format !== 'pdf') return;
  const { findChromium } = await import('../report/pdf.js');
  if (!findChromium(env))
    throw new UsageError(
      say`--format pdf prints with Chromium, and none is installed here`,
      say`install chromium (or set POSDATA_CHROMIUM to its path), or write html and print it from a browser`,
    );
}

/** The report as the format asks (the page, its PDF, or its figures alone), written atomically. */
async function writeReport(
  o: ReportCommandOptions,
  ctx: Context,
  data: ReportData | ChainReport,
): Promise<void> {
  const { io } = ctx;
  const file =
    o.output ??
    `report-${o.month ?? `${data.period.from}_${data.period.to}`.replace(/[^\w.-]+/g, '-')}.${o.format}`;
  const { resolveTarget } = await import('../sink/target.js');
  const path = file === '-' ? undefined : resolveTarget(file);
  let body: string | Uint8Array;
  if (o.format === 'json') body = `${JSON.stringify(data, null, 2)}\n`;
  else {
    const { renderHtml } = await import('../report/html.js');
    const html = await renderHtml(data, VERSION);
    if (o.format === 'pdf') {
      const pdf = await import('../report/pdf.js');
      const chromium = pdf.findChromium(ctx.env) as string;
      body = await pdf.printPdf(chromium, html, {
        timeout: o.connection.timeout ?? 60,
        env: ctx.env,
        onInterrupt: (fn) => ctx.onInterrupt(fn),
      });
    } else body = html;
  }
  await writeOutput(ctx, path, async (sink) => {
    await sink.write(body);
    return undefined;
  });
  if (io.debug) io.err.line(say`posdata: report made ${own(String(data.requests))} requests`);
  if (path !== undefined && !io.quiet) io.err.line(say`posdata: wrote ${file}`);
}
