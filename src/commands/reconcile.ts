// `posdata reconcile`: flags → the closed sessions of a range → figures per session →
// table, json, ndjson or csv on a sink → exit 7 with --fail-on-difference.
import { command } from '../cli/command.js';
import { COMPANY, CONFIG_ID, CONNECTION, GLOBAL, group } from '../cli/flags.js';
import { OUTPUT, tableLook, writeOutput } from '../cli/output.js';
import { type ReportOptions, reportOptions } from '../cli/report.js';
import { number } from '../cli/values.js';
import { DifferenceError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import { machineZone } from '../query/zone.js';
import {
  beyond,
  fetchReconciliation,
  reconcile as reconcileSessions,
  type SessionRange,
  sessionFields,
  sessionsDomain,
  toRow,
} from '../reconcile/compute.js';
import { DEFAULT_MONEY_DIGITS, signed } from '../records/normalize.js';
import { makeRenderer } from '../render/renderer.js';
import type { Sink } from '../sink/sink.js';

export interface ReconcileOptions extends SessionRange, ReportOptions {
  tolerance: number;
}

export const reconcile = command<ReconcileOptions>({
  name: 'reconcile',
  group: 'report',
  summary: 'Daily cash reconciliation: expected against counted cash per closed session',
  flags: [
    group('own', [
      { spec: '--date <day>', description: 'one business day (YYYY-MM-DD, today, yesterday)' },
      { spec: '--from <when>', description: 'closing time from' },
      { spec: '--to <when>', description: 'closing time up to; a date-only value includes that whole day' },
      CONFIG_ID,
      {
        spec: '--tz <zone>',
        description: "IANA zone of the business day (default: the Odoo user's zone)",
        value: 'zone',
      },
      {
        spec: '--tolerance <amount>',
        description: 'differences up to this are fine',
        parse: number('--tolerance', 0),
        default: 0.01,
      },
      { spec: '--fail-on-difference', description: 'exit 7 when a difference exceeds the tolerance' },
      COMPANY,
    ]),
    OUTPUT,
    CONNECTION,
    GLOBAL,
  ],
  examples: [
    'posdata reconcile --date yesterday',
    'posdata reconcile --from 2026-11-01 --to 2026-11-30 --format csv -o november.csv',
    'posdata reconcile --date yesterday --fail-on-difference --quiet || mail -s "cash difference" boss@example.com',
  ],
  options(f, _args, { io }) {
    const o: ReconcileOptions = {
      ...reportOptions(f, io),
      tolerance: (f.tolerance as number | undefined) ?? 0.01,
    };
    // The syntax of the range does not depend on the zone: refuse a bad one before connecting.
    sessionsDomain(o, o.tz ?? 'UTC');
    return o;
  },
  async run(o, ctx) {
    const { io } = ctx;
    const session = await ctx.odoo(o.connection);
    // The business day is the shop's: --tz, else the Odoo user's zone, else this machine's.
    const zone = o.tz ?? session.profile.tz ?? machineZone();
    const { inputs } = await fetchReconciliation(session.client, sessionsDomain(o, zone));
    if (inputs.sessions.length === 0) await (await import('../read/exists.js')).mustExist(session.client, o);
    // The figures at the decimals of the company's currency, read once where there are figures.
    const { moneyDigits } = await import('../read/currency.js');
    const digits = inputs.sessions.length > 0 ? await moneyDigits(session.client) : DEFAULT_MONEY_DIGITS;
    const rec = reconcileSessions(inputs, digits);
    if (rec.adjusted.length > 0 && !io.quiet) {
      const e = rec.adjusted[0];
      io.err.line(
        say`posdata: note: for ${rec.adjusted.length} session${own(rec.adjusted.length === 1 ? '' : 's')} (e.g. ${e?.session}) expected cash is Odoo's theoretical balance, not opening + cash taken + cash moves as recorded; cash moves shows the gap (see README, reconcile)`,
      );
    }
    const { format, file } = o.output;
    const render = async (sink: Sink): Promise<undefined> => {
      if (format === 'table') {
        const { renderReconcileTable } = await import('../reconcile/table.js');
        await sink.write(
          renderReconcileTable(rec, {
            ...tableLook(io, file !== undefined),
            tz: zone,
            tolerance: o.tolerance,
          }),
        );
      } else {
        const { fields, defs } = sessionFields(rec);
        const renderer = await makeRenderer({
          format,
          sink,
          fields,
          defs,
          excel: o.output.excel,
          ...tableLook(io, file !== undefined),
          tz: zone,
          preferred: fields,
          noun: 'sessions',
        });
        await renderer.begin();
        await renderer.page(rec.sessions.map((s) => toRow(s, rec.methodKeys, o.tz)));
        await renderer.end();
      }
      return undefined;
    };
    // A month of sessions is a long table: paged on a terminal, as the lists are.
    await writeOutput(ctx, o.output.path, render, format === 'table');
    if (file !== undefined && !io.quiet && io.err.isTTY)
      io.err.line(say`posdata: wrote ${rec.sessions.length} sessions to ${file}`);

    if (o.failOnDifference) {
      const differing = rec.sessions.filter((s) => beyond(s.difference, o.tolerance));
      if (differing.length > 0) {
        const worst = differing.reduce((a, b) => (Math.abs(b.difference) > Math.abs(a.difference) ? b : a));
        const d = worst.difference;
        throw new DifferenceError(
          say`${differing.length} of ${rec.sessions.length} sessions ${differing.length === 1 ? own('differs') : own('differ')} by more than ${o.tolerance} (largest ${signed(d, digits)} in ${worst.session}, ${worst.register})`,
          say`check the counted cash of those sessions`,
        );
      }
    }
  },
});
