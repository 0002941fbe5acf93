// `posdata summary`: flags → the summary computed by Odoo's grouping calls → table, json,
// ndjson or csv on a sink; --check-odoo compares the totals with Odoo's own Sales Details.
// Each way of running it is a module of src/summary/run/: plain, per currency (split), loss
// and watch; this file declares the flags and chooses.
import { command } from '../cli/command.js';
import { COMPANY, CONFIG_ID, CONNECTION, GLOBAL, group, SERVERS, SESSION_ID } from '../cli/flags.js';
import { OUTPUT } from '../cli/output.js';
import { periodOptions } from '../cli/period.js';
import { positiveInt, seconds } from '../cli/values.js';
import { UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import { DAY_STARTS, FROM, TO, TODAY } from '../query/period.js';
import { tzHelp, zoneFor } from '../query/zone.js';
import { KEYS } from '../summary/keys.js';
import { checkParams } from '../summary/query.js';
import { checkLoss } from '../summary/run/loss.js';
import type { SummaryOptions } from '../summary/run/options.js';
import { checkWatch } from '../summary/run/watch.js';
import { splitKeys } from '../summary/split.js';

export const summary = command({
  name: 'summary',
  servers: {
    // --by profile: the profile leads every row already; each server's rows are then per
    // currency (its records say which), so no figure of the chain adds two currencies.
    flags(f) {
      const keys = typeof f.by === 'string' ? f.by.split(',').map((k) => k.trim()) : [];
      if (!keys.includes('profile')) return f;
      return { ...f, by: [...new Set(keys.map((k) => (k === 'profile' ? 'currency' : k)))].join(',') };
    },
  },
  flags: [
    group('own', [
      TODAY,
      FROM,
      TO,
      CONFIG_ID,
      { ...SESSION_ID, description: 'one session: the X report (open) or Z report (closed), with its cash' },
      {
        spec: '--by <keys>',
        description: `group by ${['company', 'currency', ...KEYS].join(', ')} (comma-separated)`,
        default: 'register',
        offer: ['company', 'currency', ...KEYS],
        list: true,
      },
      {
        spec: '--top <n>',
        description: 'only the N groups with the largest total',
        parse: positiveInt('--top', 0),
      },
      DAY_STARTS,
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
      ...periodOptions(f, io),
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
    const zone = o.tz ?? 'UTC';
    const { range } = checkParams({ ...o, by: own === '' ? undefined : own }, zone);
    if (o.failOnDifference && !o.checkOdoo)
      throw new UsageError(
        say`--fail-on-difference needs --check-odoo: it fails on a difference from Odoo's Sales Details`,
        say`add --check-odoo`,
      );
    // The range is kept for the run's fetch (used where its zone is this one: --tz), not for
    // --watch, whose today moves on between refreshes.
    return o.watch === undefined ? { ...o, range: { zone, range } } : o;
  },
  async run(o, ctx) {
    if (o.watch !== undefined) return (await import('../summary/run/watch.js')).runWatch(o, o.watch, ctx);
    const { io } = ctx;
    const { client, profile } = await ctx.odoo(o.connection);
    // The business day is the shop's: --tz, else the Odoo user's zone, else this machine's.
    const zone = zoneFor('range', o.tz, profile.tz);
    const { fetchSummaryOrSplit } = await import('../summary/split.js');
    // In a chain every server's rows say their currency (--loss: its own rows, of one currency,
    // which runLoss puts on each).
    // --loss: discounts as the report's loss section counts them, on the sales lines (gross and
    // discounts Sales Details'); a gift card spent, a reward or a global discount is a column of
    // the summary, not the cashier's discount (report.md: the same figures as the report's).
    const got = await fetchSummaryOrSplit(
      client,
      o,
      zone,
      ctx.inChain === true && !o.loss,
      o.loss ? { shop: 'beside' } : {},
    );
    if ('split' in got) {
      const { split } = got;
      if (o.loss)
        // The marks set each against the median of the others: of one currency (the report's
        // loss section is per currency). Printing the split summary instead lost the marks at exit 0.
        throw new UsageError(
          say`--loss sets each against the others in one currency, and these companies keep ${own(split.parts.map((p) => p.label).join(', '))}`,
          say`add --company with the companies of one currency, e.g. --company ${own(String(split.parts[0]?.companies[0]?.id ?? 1))}`,
        );
      return (await import('../summary/run/split.js')).runSplit(o, ctx, split, zone);
    }
    const r = got.plain;
    if (r.summary.groups.length === 0) await (await import('../read/exists.js')).mustExist(client, o);
    if (!io.quiet) for (const n of r.summary.notes) io.err.line(say`posdata: note: ${n}`);
    const run = { o, ctx, client, zone, r };
    if (o.loss) return (await import('../summary/run/loss.js')).runLoss(run);
    return (await import('../summary/run/plain.js')).runPlain(run);
  },
});
