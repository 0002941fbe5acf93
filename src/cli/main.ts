// Entry point: commander subcommands. Only commander is loaded up front; each command
// imports what it needs when it runs, so `--version` and `--help` start fast.
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { EXIT, PosdataError, UsageError } from '../core/errors.js';
import { own, redactor, say, stackSaid } from '../core/redact.js';
import { RESOURCES, type ResourceName } from '../query/resources.js';
import { makeIO } from './io.js';
import { installSignalHandlers } from './signals.js';
import { byteSize, delimiter, number, port, positiveInt, rate } from './values.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

function examples(lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

function connectionOptions(c: Command): Command {
  return c
    .option('--profile <name>', 'stored profile to use (env POSDATA_PROFILE)')
    .option('--url <url>', 'Odoo base URL (env POSDATA_URL)')
    .option('--db <name>', 'Odoo database (env POSDATA_DB)')
    .option('--user <login>', 'Odoo login (env POSDATA_USER)')
    .addOption(new Option('--protocol <p>', 'auto, jsonrpc or json2').choices(['auto', 'jsonrpc', 'json2']))
    .option(
      '--timeout <seconds>',
      'bound on each request, from sending it to the last byte of the reply',
      number('--timeout', 1),
      60,
    )
    .option(
      '--max-reply <size>',
      'refuse a reply larger than this (bytes, or e.g. 64MiB, 1GiB; default 256MiB)',
      byteSize('--max-reply'),
    )
    .option(
      '--rate <n>',
      'at most N requests a minute (0.5: one every 2 minutes); 0 for no limit',
      rate('--rate'),
      60,
    )
    .option(
      '--retries <n>',
      'retries of a read on timeouts, resets, 429 and 502/503/504',
      positiveInt('--retries', 0),
      4,
    )
    .option('--ca-file <file>', 'trust this CA too (PEM)')
    .option('--insecure', 'skip TLS certificate verification (warns)')
    .option('--allow-insecure-http', 'allow plain http to a host that is not loopback')
    .option('--debug', 'show each RPC on stderr (secret as ***)')
    .option('-q, --quiet', 'no progress or notices on stderr')
    .option('--no-color', 'no colour, also with NO_COLOR');
}

function outputOptions(c: Command): Command {
  return c
    .addOption(
      new Option(
        '--format <fmt>',
        'table, json, ndjson, csv or parquet (default: table on a terminal, else csv)',
      ),
    )
    .option('-o, --output <file>', 'write to FILE atomically; the format follows its extension')
    .option('--excel', 'csv for spreadsheets: UTF-8 BOM, CRLF, formula cells neutralised')
    .option(
      '--delimiter <char>',
      'csv field separator (e.g. ";" for European spreadsheets)',
      delimiter('--delimiter'),
      ',',
    )
    .option('--decimal <char>', "csv decimal mark: '.' or ','", '.');
}

function queryOptions(c: Command, name: ResourceName): Command {
  const r = RESOURCES[name];
  const ff = r.filterFields;
  if (ff.config) c.option('--config-id <id>', 'one register', positiveInt('--config-id'));
  if (ff.session) c.option('--session-id <id>', 'one session', positiveInt('--session-id'));
  if (ff.state)
    c.option('--state <states>', 'order states, comma-separated (draft, paid, done, cancel, invoiced)');
  if (ff.time) {
    c.option(
      '--from <when>',
      `from this time on ${ff.time}: YYYY-MM-DD, "YYYY-MM-DD HH:MM", ISO 8601, today, yesterday, 2h, 7d`,
    );
    c.option('--to <when>', 'up to this time; a date-only value includes that whole day');
  }
  c.option('--tz <zone>', "IANA zone for --from/--to and shown times (default: the Odoo user's zone)")
    .option('--fields <list>', 'fields to return, comma-separated')
    .option('--limit <n>', 'at most N records (default all)', positiveInt('--limit'))
    .option('--sort <order>', 'sort, as Odoo\'s order: "date_order desc, id"')
    .option('--domain <json>', 'an extra Odoo domain, ANDed with the other filters')
    .option('--page-size <n>', 'records per request when reading many', positiveInt('--page-size'), 2000);
  if (name === 'sales') c.option('--with-payments', 'each order carries its payments with method names');
  c.option('--lang <code>', 'language of translated names (Odoo context lang, e.g. fr_BE)')
    .option('--company <ids>', 'only these companies (allowed_company_ids), comma-separated')
    .option('--include-archived', 'also archived registers, methods and products (active_test off)')
    .option('--context <json>', 'extra Odoo context, as JSON')
    .option('--count', 'print only how many records match')
    .option('--dry-run', 'print the request that would be sent, and send no data request');
  if (r.checkpoint) {
    c.option('--checkpoint <file>', 'export only what changed since the last run with FILE (write_date, id)')
      .option('--full', 'with --checkpoint: export everything and start the checkpoint again')
      .option(
        '--overlap <seconds>',
        'with --checkpoint: re-read this much before the last window end',
        number('--overlap', 0),
        300,
      );
  }
  return c;
}

const COMMANDS = [
  'login',
  'logout',
  'whoami',
  'profiles',
  ...Object.keys(RESOURCES),
  'reconcile',
  'sync',
  'summary',
  'sandbox',
  'serve',
];

/** Builds the program; with `only`, just that subcommand (a faster start for `posdata sales ...`). */
function build(only?: string): Command {
  const want = (name: string) => only === undefined || only === name;
  const program = new Command('posdata')
    .description(
      'Pull and export point-of-sale data from Odoo: registers, sessions, closures, sales, lines, payments, refunds, cancellations, products.',
    )
    .version(version(), '-V, --version')
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: false })
    .addHelpText(
      'after',
      examples([
        'posdata login --url https://shop.example.com --db shop --user integration',
        'posdata sales --from today --sort "date_order desc" --limit 10',
        'posdata sales --checkpoint sales.ckpt -o /data/sales-$(date +%F-%H).csv',
        'posdata closures --from 7d --format json | jq ".[].cash_register_balance_end_real"',
      ]) +
        '\nExit codes: 0 ok, 2 usage, 3 authentication, 4 not found, 5 server refused, 6 connection, 7 reconcile difference, 130 interrupted.\n',
    );

  if (want('login'))
    connectionOptions(
      program
        .command('login')
        .description(
          'Authenticate against Odoo and store the profile (secret from --password-stdin, POSDATA_PASSWORD or a prompt)',
        )
        .option('--password-stdin', 'read the password or API key from standard input')
        .option(
          '--password-file <file>',
          'read the password or API key from a file (e.g. a systemd or container secret)',
        )
        .option('--no-store-password', 'keep the secret out of the store; later runs need POSDATA_PASSWORD'),
    )
      .addHelpText(
        'after',
        examples([
          'posdata login --url https://shop.example.com --db shop --user integration',
          'printf %s "$ODOO_KEY" | posdata login --url https://shop.example.com --db shop --user integration --password-stdin',
          'posdata login --profile staging --url https://staging.example.com --db shop --user admin',
        ]) +
          '\nThe first profile stored becomes the default; logging in to another profile (--profile) leaves the\n' +
          'default as it is: use that one with --profile NAME, or make it the default with posdata profiles --use NAME.\n',
      )
      .action(async (opts) => (await import('./auth.js')).login(opts, makeIO(opts)));

  if (want('logout'))
    program
      .command('logout')
      .description('Forget the stored secret and user id of the profile')
      .option('--profile <name>', 'profile to log out of')
      .option('--remove', 'forget the whole profile, not only its secret')
      .addHelpText('after', examples(['posdata logout', 'posdata logout --profile staging --remove']))
      .action(async (opts) => (await import('./auth.js')).logout(opts, makeIO(opts)));

  if (want('whoami'))
    connectionOptions(
      program
        .command('whoami')
        .description('Show the profile, URL, database, login, user id, protocol and server version')
        .addOption(new Option('--format <fmt>', 'text or json').choices(['text', 'json'])),
    )
      .addHelpText('after', examples(['posdata whoami', 'posdata whoami --profile staging --format json']))
      .action(async (opts) => (await import('./auth.js')).whoami(opts, makeIO(opts)));

  if (want('profiles'))
    program
      .command('profiles')
      .description('List the stored profiles; --use NAME makes one the default, --remove NAME forgets one')
      .option('--use <name>', 'make this profile the default')
      .option('--remove <name>', 'forget this profile')
      .addHelpText('after', examples(['posdata profiles', 'posdata profiles --use staging']))
      .action(async (opts) => (await import('./auth.js')).profiles(opts, makeIO(opts)));

  for (const name of Object.keys(RESOURCES) as ResourceName[]) {
    if (!want(name)) continue;
    const r = RESOURCES[name];
    const cmd = program.command(name === 'lines' ? 'lines' : name).description(r.summary);
    if (name === 'lines') cmd.argument('<order-id>', 'the sales ticket id');
    queryOptions(cmd, name);
    outputOptions(cmd);
    connectionOptions(cmd);
    cmd.addHelpText('after', examples(r.examples));
    cmd.action(async (...args: unknown[]) => {
      const opts = (name === 'lines' ? args[1] : args[0]) as Record<string, unknown>;
      const arg = name === 'lines' ? (args[0] as string) : undefined;
      const { runList } = await import('./list.js');
      await runList(name, arg, opts, makeIO(opts));
    });
  }

  if (want('reconcile')) {
    const rec = program
      .command('reconcile')
      .description('Daily cash reconciliation: expected against counted cash per closed session')
      .option('--date <day>', 'one business day (YYYY-MM-DD, today, yesterday)')
      .option('--from <when>', 'closing time from')
      .option('--to <when>', 'closing time up to; a date-only value includes that whole day')
      .option('--config-id <id>', 'one register', positiveInt('--config-id'))
      .option('--tz <zone>', "IANA zone of the business day (default: the Odoo user's zone)")
      .option('--tolerance <amount>', 'differences up to this are fine', number('--tolerance', 0), 0.01)
      .option('--fail-on-difference', 'exit 7 when a difference exceeds the tolerance');
    outputOptions(rec);
    connectionOptions(rec);
    rec
      .addHelpText(
        'after',
        examples([
          'posdata reconcile --date yesterday',
          'posdata reconcile --from 2026-11-01 --to 2026-11-30 --format csv -o november.csv',
          'posdata reconcile --date yesterday --fail-on-difference --quiet || mail -s "cash difference" boss@example.com',
        ]),
      )
      .action(async (opts) => (await import('../reconcile/command.js')).runReconcile(opts, makeIO(opts)));
  }

  if (want('sync')) {
    const sync = program
      .command('sync')
      .description('Load POS data into PostgreSQL tables, incrementally and exactly once (upsert by id)')
      .argument(
        '[resource...]',
        'configs, payment_methods, sessions, sales, lines, payments, products (default all)',
      )
      .option(
        '--to <url>',
        'postgres://USER@HOST:PORT/DB (env POSDATA_SYNC_URL; password from PGPASSWORD or ~/.pgpass)',
      )
      .option('--schema <name>', 'PostgreSQL schema of the tables', 'posdata')
      .option(
        '--fields <spec>',
        'more columns: RESOURCE:field,field (repeatable; just field,field with one resource)',
        (v: string, prev: string[] = []) => [...prev, v],
      )
      .option('--full', 'read every record again (the tables stay; rows are upserted)')
      .option('--prune', 'delete rows whose record Odoo no longer has (deleted drafts and their lines)')
      .option('--overlap <seconds>', 're-read this much before the watermark', number('--overlap', 0), 300)
      .option('--page-size <n>', 'records per request and per transaction', positiveInt('--page-size'), 2000)
      .option('--no-wait', 'exit 5 instead of waiting when another sync holds the schema')
      .option('--take-over', 'sync into existing tables of the schema that posdata did not create');
    connectionOptions(sync);
    sync
      .addHelpText(
        'after',
        examples([
          'posdata sync --to postgres://posdata@db.example.com/warehouse',
          'POSDATA_SYNC_URL=postgres://posdata@localhost/pos posdata sync --quiet --prune',
          'posdata sync sales lines --fields sales:partner_id,user_id --to postgres://posdata@localhost/pos',
        ]),
      )
      .action(async (resources: string[], opts) =>
        (await import('../sync/command.js')).runSync(resources, opts, makeIO(opts)),
      );
  }

  if (want('summary')) {
    const sum = program
      .command('summary')
      .description(
        "The day's figures (X and Z reports), computed by Odoo: orders, items, discounts, refunds, tax, payment methods",
      )
      .option('--date <day>', 'one business day (YYYY-MM-DD, today, yesterday); default today')
      .option('--from <when>', 'orders from this time: YYYY-MM-DD, "YYYY-MM-DD HH:MM", ISO 8601, today, 7d')
      .option('--to <when>', 'up to this time; a date-only value includes that whole business day')
      .option('--config-id <id>', 'one register', positiveInt('--config-id'))
      .option(
        '--session-id <id>',
        'one session: the X report (open) or Z report (closed), with its cash',
        positiveInt('--session-id'),
      )
      .option(
        '--by <keys>',
        'group by day, hour, weekday, register, session, cashier, product, category, method, tax (comma-separated)',
        'register',
      )
      .option('--top <n>', 'only the N groups with the largest total', positiveInt('--top', 0))
      .option('--day-starts <HH:MM>', 'the business day starts at this hour (shops open past midnight)')
      .option('--tz <zone>', "IANA zone of the business day (default: the Odoo user's zone)")
      .option('--check-odoo', "compare the totals with Odoo's own Sales Details report (stderr)")
      .option(
        '--fail-on-difference',
        "with --check-odoo: exit 7 when a figure differs from Odoo's beyond the rounding",
      );
    outputOptions(sum);
    connectionOptions(sum);
    sum
      .addHelpText(
        'after',
        examples([
          'posdata summary --date yesterday',
          'posdata summary --from 28d --by hour,weekday',
          'posdata summary --date yesterday --by product --top 20',
          'posdata summary --session-id 42 --check-odoo',
          'posdata summary --date yesterday --check-odoo --fail-on-difference --quiet || mail -s "summary differs" boss@example.com',
        ]),
      )
      .action(async (opts) => (await import('../summary/command.js')).runSummary(opts, makeIO(opts)));
  }

  /** A time for the sandbox's clock: ISO 8601 with a zone (Z or ±hh:mm), or Odoo's naive UTC form. */
  const instant =
    (flag: string) =>
    (raw: string): Date => {
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

  if (want('sandbox'))
    program
      .command('sandbox')
      .description('Start the bundled Odoo-compatible server with generated POS data (loopback)')
      .option('--host <host>', 'address to bind', '127.0.0.1')
      .option('--port <port>', 'port (0 = any free port)', port('--port'), 8069)
      .option('--seed <n>', 'the same seed gives the same data', positiveInt('--seed', 0), 1)
      .option('--orders <n>', 'number of orders', positiveInt('--orders', 0), 2000)
      .option('--days <n>', 'days of sessions', positiveInt('--days', 1), 14)
      .option(
        '--now <time>',
        "the data's clock, UTC (2026-11-25T12:00:00Z): the data run up to it (default: the moment it starts)",
        instant('--now'),
      )
      .addOption(
        new Option('--odoo-version <v>', 'which Odoo to present')
          .choices(['16', '17', '18', '19'])
          .default('17'),
      )
      .option('--admin-key <key>', "the admin's API key (default: generated and printed)")
      .option('--faults <spec>', 'misbehave on purpose (see the README)')
      .option(
        '--no-jsonrpc',
        'with --odoo-version 19: answer 404 on /jsonrpc, as an Odoo without it (JSON-2 only)',
      )
      .option('--pos-hr', 'model pos_hr: employees, and employee_id/cashier on orders')
      .addHelpText(
        'after',
        examples([
          'posdata sandbox',
          'posdata sandbox --port 8070 --orders 100000 --seed 7',
          'posdata sandbox --odoo-version 19',
          'posdata sandbox --seed 1 --now 2026-11-25T12:00:00Z   # the same data at every start',
        ]) +
          '\nThe same data: the same --seed, --orders, --days, --odoo-version, --pos-hr and --now.\n' +
          'Without --now the data run up to the moment the sandbox starts, so two starts differ.\n',
      )
      .action(async (opts) => {
        if (opts.jsonrpc === false && opts.odooVersion !== '19')
          throw new UsageError(
            say`--no-jsonrpc needs --odoo-version 19`,
            say`Odoo 17 has no JSON-2 to fall back on`,
          );
        const { runSandboxCommand, SandboxOptionError } = await import('../sandbox/index.js');
        const run = runSandboxCommand({
          host: opts.host,
          port: opts.port,
          seed: opts.seed,
          orders: opts.orders,
          days: opts.days,
          now: opts.now,
          odooVersion: Number(opts.odooVersion) as 16 | 17 | 18 | 19,
          adminKey: opts.adminKey,
          faults: opts.faults,
          jsonrpc: opts.jsonrpc,
          posHr: opts.posHr === true,
        });
        // The sandbox shares no code with the client: its refusals become usage errors here.
        await run.catch((err: NodeJS.ErrnoException) => {
          if (err instanceof SandboxOptionError) throw new UsageError(say`${err.message}`, say`${err.hint}`);
          if (err.code === 'EADDRINUSE')
            throw new UsageError(
              say`port ${opts.port} on ${opts.host} is already in use`,
              say`choose another with --port (0 = any free port)`,
            );
          if (err.code === 'EACCES')
            throw new UsageError(say`not allowed to listen on port ${opts.port}`, say`use a port above 1023`);
          if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
            throw new UsageError(
              say`cannot listen on ${opts.host}: no such local address`,
              say`check --host`,
            );
          throw err;
        });
      });

  if (want('serve')) {
    const serve = program
      .command('serve')
      .description("Serve the spec's REST-like paths over HTTP (token login, OpenAPI, /docs)")
      .option('--host <host>', 'address to bind', '127.0.0.1')
      .option('--port <port>', 'port (0 = any free port)', port('--port'), 8080)
      .option('--token-ttl <seconds>', 'token lifetime', positiveInt('--token-ttl'), 3600)
      .option('--client-rate <n>', 'requests a minute per token', positiveInt('--client-rate', 0), 60)
      .option(
        '--max-connections <n>',
        'client connections held at once; more are closed at once',
        positiveInt('--max-connections', 1),
        256,
      )
      .option(
        '--header-timeout <seconds>',
        "close a connection whose request's headers take longer",
        number('--header-timeout', 1),
        10,
      );
    connectionOptions(serve);
    serve
      .addHelpText('after', examples(['posdata serve', 'posdata serve --port 8080 --profile shop']))
      .action(async (opts) => (await import('../serve/command.js')).runServe(opts, makeIO(opts)));
  }

  return program;
}

/**
 * The one line of an error, its secret masked where it stands in a value (err.line); the
 * words of posdata around the values are never masked.
 */
function fail(err: unknown, debug: boolean): number {
  if (err instanceof PosdataError) {
    process.stderr.write(`posdata: ${err.line(redactor)}\n`);
    if (debug && err.cause) process.stderr.write(`${redactor.said(stackSaid(err.cause))}\n`);
    return err.exitCode;
  }
  const e = err as Error;
  process.stderr.write(
    `${redactor.said(say`posdata: internal error: ${e?.message ?? String(err)}; please report it (run with --debug for details)`)}\n`,
  );
  if (debug) process.stderr.write(`${redactor.said(stackSaid(err))}\n`);
  return EXIT.internal;
}

export async function main(argv: string[]): Promise<void> {
  // Program options come before the command, so the first word is the command.
  const first = argv.find((a) => !a.startsWith('-'));
  const command = first !== undefined && COMMANDS.includes(first) ? first : undefined;
  // The sandbox and the HTTP service stop on signals themselves and keep running.
  const longRunning = command === 'sandbox' || command === 'serve';
  if (!longRunning) installSignalHandlers();
  // A closed pipe ends quietly; any other write error on standard output (a full disk
  // behind `>`) fails the run, even where no sink saw it (--count, --dry-run, whoami).
  let stdoutError: NodeJS.ErrnoException | undefined;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    stdoutError ??= err;
  });
  const debug = argv.includes('--debug');
  if (argv.length === 0) {
    build().outputHelp();
    return;
  }
  // `posdata salez --help` would print the root help with exit 0, as if all were well, and
  // `posdata help salez` nothing at all.
  const asked =
    first === 'help' ? argv.slice(argv.indexOf('help') + 1).find((a) => !a.startsWith('-')) : first;
  if (asked !== undefined && asked !== 'help' && !COMMANDS.includes(asked)) {
    process.exitCode = fail(new UsageError(say`unknown command '${asked}'`, say`see posdata --help`), debug);
    setTimeout(() => process.exit(process.exitCode), 50).unref();
    return;
  }
  const program = build(command);
  program.exitOverride();
  program.configureOutput({
    writeErr: () => undefined,
    outputError: () => undefined,
  });
  for (const c of program.commands) {
    c.exitOverride();
    c.configureOutput({ writeErr: (s) => process.stderr.write(s), outputError: () => undefined });
  }
  let code: number = EXIT.ok;
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (
        err.code === 'commander.helpDisplayed' ||
        err.code === 'commander.version' ||
        err.code === 'commander.help'
      ) {
        code = EXIT.ok;
      } else {
        const msg = err.message.replace(/^error:\s*/, '').split('\n')[0];
        code = fail(new UsageError(say`${msg}`, say`see posdata --help`), debug);
      }
    } else if ((err as Error)?.constructor?.name === 'PipeClosed') {
      code = EXIT.ok;
    } else {
      code = fail(err, debug);
    }
  }
  if (code === EXIT.ok && stdoutError) {
    const { fileError } = await import('../sink/fserror.js');
    code = fail(
      fileError(say`standard output`, stdoutError, say`free some space or write elsewhere (-o FILE)`),
      debug,
    );
  }
  process.exitCode = code;
  // Nothing may keep the process alive after the work is done (open sockets, timers).
  if (code !== EXIT.ok || !longRunning) setTimeout(() => process.exit(code), 50).unref();
}
