// posdata's commands, and the process that runs one. A command is a module under
// src/commands/ (its flags, their checks into typed options, and its run); registering it
// is a line here. Each is loaded only when it runs, so `--help` and `--version` start fast.
import type { Writable } from 'node:stream';
import { RESOURCES, type ResourceName } from './catalog/resources.js';
import type { Command, Entry } from './cli/command.js';
import { makeContext } from './cli/context.js';
import { type Env, type IO, processIO } from './cli/io.js';
import { outputCut, runCommandLine } from './cli/program.js';
import { sayError } from './cli/say-error.js';
import { installSignalHandlers } from './cli/signals.js';
import { VERSION } from './cli/version.js';
import { EXIT } from './core/errors.js';
import { say } from './core/redact.js';
import { removePendingTemps } from './sink/pending.js';

/**
 * The registry: every command, in the order `posdata --help` lists them (each in its group),
 * with what that help says of it, so that the help loads no command module; a command's
 * module is loaded when it runs or its own --help is asked (test/cli/lazy.test.ts).
 */
export const COMMANDS: readonly Entry[] = [
  {
    name: 'login',
    group: 'profile',
    summary:
      'Authenticate against Odoo and store the profile (secret from --password-stdin, POSDATA_PASSWORD or a prompt)',
    load: async () => (await import('./commands/login.js')).login,
  },
  {
    name: 'logout',
    group: 'profile',
    summary: 'Forget the stored secret and user id of the profile',
    load: async () => (await import('./commands/logout.js')).logout,
  },
  {
    name: 'whoami',
    group: 'profile',
    summary: 'Show the profile, URL, database, login, user id, protocol and server version',
    load: async () => (await import('./commands/whoami.js')).whoami,
  },
  {
    name: 'profiles',
    group: 'profile',
    summary: 'List the stored profiles; --use NAME makes one the default, --remove NAME forgets one',
    load: async () => (await import('./commands/profiles.js')).profiles,
  },
  ...(Object.keys(RESOURCES) as ResourceName[]).map(
    (name): Entry => ({
      name,
      group: 'data',
      // The HTTP path reads one ticket's lines; the command also a range's.
      summary:
        name === 'lines'
          ? 'Lines of one sales ticket, or of the tickets of a time range, session or register (pos.order.line)'
          : RESOURCES[name].summary,
      load: async () => (await import('./commands/list.js')).listCommand(name),
    }),
  ),
  {
    name: 'summary',
    group: 'report',
    summary:
      "The day's figures (X and Z reports), computed by Odoo: orders, items, discounts, refunds, tax, payment methods",
    load: async () => (await import('./commands/summary.js')).summary,
  },
  {
    name: 'reconcile',
    group: 'report',
    summary: 'Daily cash reconciliation: expected against counted cash per closed session',
    load: async () => (await import('./commands/reconcile.js')).reconcile,
  },
  {
    name: 'books',
    group: 'report',
    summary:
      "Each closed session's journal entry beside its sales, taxes, payments and cash: where the books differ from the POS",
    load: async () => (await import('./commands/books.js')).books,
  },
  {
    name: 'report',
    group: 'report',
    summary:
      'One HTML page (or PDF) for a period: the figures per currency beside the previous period, charts, where the money leaks per cashier, the cash closings',
    load: async () => (await import('./commands/report.js')).report,
  },
  {
    name: 'sync',
    group: 'pipeline',
    summary: 'Load POS data into PostgreSQL tables, incrementally and exactly once (upsert by id)',
    load: async () => (await import('./commands/sync.js')).sync,
  },
  {
    name: 'tap',
    group: 'pipeline',
    summary: 'Singer tap: SCHEMA, RECORD and STATE messages on stdout (Meltano, Airflow, Dagster)',
    load: async () => (await import('./commands/tap.js')).tap,
  },
  {
    name: 'serve',
    group: 'pipeline',
    summary: 'Serve the data as a read-only JSON API over HTTP (token login, OpenAPI, /docs)',
    load: async () => (await import('./commands/serve.js')).serve,
  },
  {
    name: 'doctor',
    group: 'tool',
    summary: 'Read-only checks of posdata against the logged-in server: ok, differs or cannot, one line each',
    load: async () => (await import('./commands/doctor.js')).doctor,
  },
  {
    name: 'sandbox',
    group: 'tool',
    summary: 'Start the bundled Odoo-compatible server with generated POS data (loopback)',
    load: async () => (await import('./commands/sandbox.js')).sandbox,
  },
  {
    name: 'completion',
    group: 'tool',
    summary: 'Print the shell completion script for bash, zsh, fish or powershell',
    load: async () => (await import('./commands/completion.js')).completion,
  },
];

/** One run of posdata with this IO and environment, in this process: its exit code. */
export function run(argv: readonly string[], io: IO, env: Env): Promise<number> {
  return runCommandLine(argv, COMMANDS, VERSION, makeContext(io, env));
}

/** posdata as a process: its own streams, signals, and exit code. */
export async function main(argv: string[]): Promise<void> {
  let running: Command<unknown> | undefined;
  // A closed pipe ends quietly (the tap's excepted: its target missed the end); any other write error on standard output (a full disk
  // behind `>`) fails the run, even where no sink saw it (--count, --dry-run, whoami).
  let stdoutError: NodeJS.ErrnoException | undefined;
  let stdout: Writable | undefined;
  const io = processIO(process.env, (s) => {
    stdout = s;
    s.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(outputCut(running, io));
      stdoutError ??= err;
    });
  });
  const ctx = makeContext(io, process.env);
  installSignalHandlers(ctx, () => running?.longRunning === true);
  // A promise that failed with nobody waiting for it is a bug in posdata, in any command, the
  // service included: said in one line like any other error (its stack with --debug), no
  // temporary file left behind, exit 1. Never silence, nor Node's own stack trace.
  process.on('unhandledRejection', (err) => {
    sayError(err, io, argv.includes('--debug'));
    removePendingTemps();
    process.exit(EXIT.internal);
  });
  let code = await runCommandLine(argv, COMMANDS, VERSION, ctx, (c) => {
    running = c;
  });
  // A write that no sink waited for (help, a completion script, whoami) fails after the command
  // returned: the stream says so on a later tick. An empty write after it is answered once the
  // writes before it were tried, so their error is in by then.
  const out = stdout;
  if (code === EXIT.ok && out && !out.destroyed)
    await new Promise<void>((resolve) => out.write('', () => resolve()));
  if (code === EXIT.ok && stdoutError) {
    const { fileError } = await import('./sink/fserror.js');
    code = sayError(
      fileError(say`standard output`, stdoutError, say`free some space or write elsewhere (-o FILE)`),
      io,
      argv.includes('--debug'),
    );
  }
  process.exitCode = code;
  // Nothing may keep the process alive after the work is done (open sockets, timers); a
  // stopped service gets a second to close its connections.
  setTimeout(() => process.exit(code), running?.longRunning && code === EXIT.ok ? 1000 : 50).unref();
}
