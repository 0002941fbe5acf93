// `posdata sandbox`: the bundled Odoo-compatible server with generated POS data, until
// stopped. The sandbox is a program of its own (src/sandbox/): it shares no code with the
// client, and this module is the only one that loads it.
import { command } from '../cli/command.js';
import { group, listenFlags, listenRefusal } from '../cli/flags.js';
import { positiveInt, seconds } from '../cli/values.js';
import { UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import { isLoopback } from '../core/url.js';
import type { SandboxOptions } from '../sandbox/index.js';

/** A time for the sandbox's clock: ISO 8601 with a zone (Z or ±hh:mm), or Odoo's naive UTC form. */
function instant(flag: string) {
  return (raw: string): Date => {
    const text = raw.trim();
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text);
    const naive = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/.test(text);
    const ms = iso
      ? Date.parse(text)
      : naive
        ? Date.parse(`${text.replace(' ', 'T')}${text.length > 10 ? 'Z' : 'T00:00:00Z'}`)
        : Number.NaN;
    if (!Number.isFinite(ms))
      throw new UsageError(
        say`${own(flag)} '${raw}' is not a time`,
        say`give ${own(flag)} a UTC time such as 2026-11-25T12:00:00Z or '2026-11-25 12:00:00'`,
      );
    return new Date(ms);
  };
}

/**
 * The most orders a sandbox generates: twice the largest measured (1M orders, 2.4M lines in
 * memory, src/sandbox/README.md); more runs out of memory long after it started.
 */
const MAX_ORDERS = 2_000_000;
const MAX_DAYS = 3660;

/** A parsed count refused above `max`, with what it counts. */
function atMost(parse: (raw: string) => number, flag: string, max: number, what: string) {
  return (raw: string): number => {
    const n = parse(raw);
    if (n > max)
      throw new UsageError(
        say`${own(flag)} '${raw}' is more than the sandbox generates (at most ${own(max.toLocaleString('en-US'))} ${own(what)})`,
        say`give ${own(flag)} at most ${own(String(max))}`,
      );
    return n;
  };
}

export const sandbox = command({
  name: 'sandbox',
  longRunning: true,
  flags: [
    group('own', [
      ...listenFlags(8069),
      {
        spec: '--seed <n>',
        description: 'the same seed gives the same data',
        parse: positiveInt('--seed', 0),
        default: 1,
      },
      {
        spec: '--orders <n>',
        description: 'number of orders',
        parse: atMost(positiveInt('--orders', 0), '--orders', MAX_ORDERS, 'orders'),
        default: 2000,
      },
      {
        spec: '--days <n>',
        description: 'days of sessions',
        parse: atMost(positiveInt('--days', 1), '--days', MAX_DAYS, 'days (ten years)'),
        default: 14,
      },
      {
        spec: '--allow-remote',
        description: 'listen on a --host that is not loopback: anyone who reaches it logs in as admin/admin',
      },
      {
        spec: '--now <time>',
        description:
          "the data's clock, UTC (2026-11-25T12:00:00Z): the data run up to it (default: the moment it starts)",
        parse: instant('--now'),
      },
      {
        spec: '--odoo-version <v>',
        description: 'which Odoo to present',
        choices: ['16', '17', '18', '19'],
        default: '17',
      },
      { spec: '--admin-key <key>', description: "the admin's API key (default: generated and printed)" },
      {
        spec: '--faults <spec>',
        description:
          "misbehave on purpose: KIND@N, rate=P:KIND,KIND or every=K:KIND, ';' between rules; KIND 500, 502, 503, 504, 429, reset, cut, html, notrpc, slow[MS], expired (docs/sandbox.md)",
      },
      {
        spec: '--no-jsonrpc',
        description: 'with --odoo-version 19: answer 404 on /jsonrpc, as an Odoo without it (JSON-2 only)',
      },
      {
        spec: '--pos-hr',
        description:
          'model pos_hr: employees, employee_id/cashier on orders (18/19: on sessions and payments too)',
      },
      {
        spec: '--restaurant',
        description:
          'model pos_restaurant: the last register is a restaurant (tables, floors, guests, tips, take-away, change synced late)',
      },
      {
        spec: '--loyalty',
        description: 'model pos_loyalty: a points programme with rewards, gift cards sold and redeemed',
      },
      {
        spec: '--global-discount',
        description: "model pos_discount: the Discount button's global discount lines",
      },
      {
        spec: '--leaks',
        description:
          "cashiers who stand out, for posdata report: one refunds often, one discounts a lot, one's cash is short, one refunds sales just made",
      },
      {
        spec: '--currency <code>',
        description:
          "the company's currency: EUR, USD, KWD, BHD, TND (3 decimals) or JPY (none); default EUR",
      },
      {
        spec: '--companies <n>',
        description:
          'companies in one database (1-4): the first in --currency, then Shop US (USD), Shop JP (JPY), Shop KW (KWD)',
        parse: positiveInt('--companies', 1),
        default: 1,
      },
      {
        spec: '--live [seconds]',
        description:
          "keep selling: an order every SECONDS (default 5) in today's open sessions, as a register sends it",
      },
    ]),
  ],
  examples: [
    'posdata sandbox',
    'posdata sandbox --port 8070 --orders 100000 --seed 7',
    'posdata sandbox --odoo-version 19',
    'posdata sandbox --live 3   # and in another terminal: posdata summary --watch 10',
    'posdata sandbox --seed 1 --now 2026-11-25T12:00:00Z   # the same data at every start',
    'posdata sandbox --companies 3   # EUR, USD and JPY companies in one database',
  ],
  notes:
    '\nThe same data: the same --seed, --orders, --days, --odoo-version, --pos-hr, --restaurant, --loyalty, --global-discount, --leaks, --currency, --companies and --now.\n' +
    'Without --now the data run up to the moment the sandbox starts, so two starts differ.\n',
  options(f): SandboxOptions & { host: string; port: number; allowRemote: boolean } {
    const live = f.live === undefined ? undefined : f.live === true ? 5 : Number(f.live);
    if (live !== undefined && !(Number.isFinite(live) && live > 0))
      throw new UsageError(
        say`--live '${String(f.live)}' is not a number of seconds`,
        say`give --live alone (an order every 5 s) or a number such as --live 2`,
      );
    // Within a timer's reach (refused beyond, rather than an order every millisecond).
    if (live !== undefined) seconds('--live', 0)(String(live));
    if (f.jsonrpc === false && f.odooVersion !== '19')
      throw new UsageError(
        say`--no-jsonrpc needs --odoo-version 19`,
        say`Odoo 17 has no JSON-2 to fall back on`,
      );
    if (!isLoopback(f.host) && f.allowRemote !== true)
      throw new UsageError(
        say`refusing to listen on ${String(f.host)}: the sandbox's users (admin/admin, pos/pos) would log in from anywhere that reaches it`,
        say`keep --host on loopback, or give --allow-remote`,
      );
    return {
      allowRemote: f.allowRemote === true,
      host: f.host,
      port: f.port,
      seed: f.seed,
      orders: f.orders,
      days: f.days,
      now: f.now,
      odooVersion: Number(f.odooVersion) as 16 | 17 | 18 | 19,
      adminKey: f.adminKey,
      faults: f.faults,
      jsonrpc: f.jsonrpc,
      posHr: f.posHr === true,
      restaurant: f.restaurant === true,
      loyalty: f.loyalty === true,
      globalDiscount: f.globalDiscount === true,
      leaks: f.leaks === true,
      currency: f.currency,
      companies: f.companies,
      live,
    };
  },
  async run(o, ctx) {
    const { startSandbox, banner, SandboxOptionError } = await import('../sandbox/index.js');
    // The sandbox shares no code with the client: its refusals become usage errors here.
    const handle = await startSandbox(o).catch((err: NodeJS.ErrnoException) => {
      if (err instanceof SandboxOptionError) throw new UsageError(say`${err.message}`, say`${err.hint}`);
      throw listenRefusal(err, o);
    });
    // Said even under --quiet, as serve's: a warning that can be silenced is missed.
    if (!isLoopback(o.host))
      ctx.io.err.line(
        say`posdata sandbox: warning: listening on ${o.host}: anyone who reaches it logs in as admin/admin`,
      );
    ctx.io.out.write(banner(handle));
    await ctx.stopped;
    await handle.close();
  },
});
