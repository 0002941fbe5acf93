// The command line: the registry's commands as commander subcommands (flags from their
// declarations), one run from argv to an exit code, and errors as the contract's one line.
// Only the command asked for is loaded; `posdata --help` lists the registry's lines and loads none.
import { Command as Commander, CommanderError, Option } from 'commander';
import { EXIT, UsageError } from '../core/errors.js';
import { own, type Said, say } from '../core/redact.js';
import { isPipeClosed } from '../sink/stdout.js';
import { COMMAND_GROUP_HEADINGS, type Command, type Entry } from './command.js';
import type { Context } from './context.js';
import {
  CONNECTION,
  type Flag,
  flagNames,
  GLOBAL,
  GROUP_HEADINGS,
  globalOptions,
  HELP_FLAG,
  namesSeveral,
  takesValue,
} from './flags.js';
import type { Env, IO } from './io.js';
import { sayError } from './say-error.js';
import { versionText } from './version.js';

/** What posdata is, for its help and its man page. */
export const DESCRIPTION =
  'Pull and export point-of-sale data from Odoo: registers, sessions, closures, sales, lines, payments, refunds, cancellations, products.';

export const ROOT_EXAMPLES = [
  'posdata login --url https://shop.example.com --db shop --user integration',
  'posdata sales --from today --sort "date_order desc" --limit 10',
  "posdata sales --checkpoint sales.ckpt -o '/data/sales-{to}.csv'",
  'posdata closures --from 7d --format json | jq ".[].cash_register_balance_end_real"',
];

/** The contract's exit codes, for the help and the man page. */
export const EXIT_CODE_LIST: readonly (readonly [number, string])[] = [
  [0, 'ok'],
  [2, 'usage'],
  [3, 'authentication'],
  [4, 'not found'],
  [5, 'server refused'],
  [6, 'connection'],
  [7, "a figure differs from Odoo's (reconcile, books, summary --check-odoo, doctor)"],
  [8, 'some servers failed'],
  [130, 'interrupted'],
];

const EXIT_CODES = `\nExit codes: ${EXIT_CODE_LIST.map(([c, w]) => `${c} ${w}`).join(', ')}.\n`;

export function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

function option(f: Flag, heading: string): Option {
  const o = new Option(f.spec, f.description).helpGroup(heading);
  if (f.parse) o.argParser(f.parse as (value: string, previous: unknown) => unknown);
  if (f.choices) o.choices(f.choices);
  if (f.default !== undefined) o.default(f.default);
  return o;
}

/**
 * The options that may come before the command (`posdata [global options] <command>`): the
 * global ones and the connection's, which every command that talks to Odoo takes.
 */
const LEADING: readonly Flag[] = [...GLOBAL.flags, ...CONNECTION.flags];

function leadingFlag(arg: string): Flag | undefined {
  const name = arg.split('=')[0] as string;
  return LEADING.find((f) => flagNames(f).includes(name));
}

/** Where the command word is: the first word that is not an option or an option's value. */
function commandAt(argv: readonly string[]): number | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') return undefined;
    if (!a.startsWith('-')) return i;
    const f = leadingFlag(a);
    if (f && takesValue(f) && !a.includes('=')) i++;
  }
  return undefined;
}

/** The command word, past the global options given before it. */
export function commandWord(argv: readonly string[]): string | undefined {
  const at = commandAt(argv);
  return at === undefined ? undefined : argv[at];
}

/**
 * The command first, then the options given before it, then the rest: commander reads a
 * command's options after its name, and the global ones are every command's own.
 */
export function commandFirst(argv: readonly string[]): string[] {
  const at = commandAt(argv);
  if (at === undefined || at === 0) return [...argv];
  return [argv[at] as string, ...argv.slice(0, at), ...argv.slice(at + 1)];
}

/** A commander that stays quiet and throws: for the suggestion of a command name. */
function quiet(c: Commander): Commander {
  return c
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: () => undefined });
}

/** The command `word` was probably meant to be, by commander's own measure (as for flags). */
function nearestCommand(word: string, names: readonly string[]): string | undefined {
  const probe = quiet(new Commander('posdata').showSuggestionAfterError(true));
  for (const n of names) probe.command(n);
  try {
    probe.parse([word], { from: 'user' });
  } catch (err) {
    return didYouMean((err as Error).message);
  }
  return undefined;
}

/** commander's "(Did you mean --limit?)" line, as the name it suggests. */
function didYouMean(message: string): string | undefined {
  return /\(Did you mean (\S+)\?\)/.exec(message)?.[1];
}

/**
 * The program: every command of the registry by its line (name, group, summary), and the one
 * asked for, if any, with its arguments, flags, help text and action.
 */
function build(
  registry: readonly Entry[],
  asked: Command<unknown> | undefined,
  version: string,
  io: IO,
  onRun: (c: Command<unknown>, flags: Record<string, unknown>, args: unknown[]) => Promise<void>,
): Commander {
  const program = new Commander('posdata')
    .description(DESCRIPTION)
    .version(versionText(version), '-V, --version', 'show the version, with Node.js and the protocols')
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: false })
    .addHelpText('after', examples(ROOT_EXAMPLES) + EXIT_CODES)
    // The commands in groups, as gh lists them; `help` with the other commands.
    .commandsGroup(COMMAND_GROUP_HEADINGS.tool)
    .helpCommand('help [command]', 'display help for command');
  program.exitOverride();
  // The help's width and colour from the IO, never from process.stdout (commander's default),
  // which Node would build only to be asked whether it is a terminal.
  const terminal = {
    getOutHelpWidth: () => (io.out.isTTY ? io.out.width : 80),
    getErrHelpWidth: () => (io.err.isTTY ? io.err.width : 80),
    getOutHasColors: () => io.color,
    getErrHasColors: () => io.color && io.err.isTTY,
  };
  program.configureOutput({
    writeOut: (s) => io.out.write(s),
    writeErr: () => undefined,
    outputError: () => undefined,
    ...terminal,
  });
  for (const e of registry) {
    const sub = program.command(e.name).description(e.summary).helpGroup(COMMAND_GROUP_HEADINGS[e.group]);
    if (e.name !== asked?.name) continue;
    const c = asked;
    for (const a of c.args ?? []) sub.argument(a.spec, a.description);
    // Grouped as gh does: the command's own flags first, then query, output, connection, global.
    for (const g of c.flags) for (const f of g.flags) sub.addOption(option(f, GROUP_HEADINGS[g.name]));
    sub.addHelpOption(option(HELP_FLAG, GROUP_HEADINGS.global));
    sub.addHelpText('after', examples(c.examples) + (c.notes ?? ''));
    sub.exitOverride();
    sub.configureOutput({
      writeOut: (s) => io.out.write(s),
      writeErr: (s) => io.err.write(s),
      outputError: () => undefined,
      ...terminal,
    });
    sub.action(async (...got: unknown[]) => {
      // commander passes the arguments, then the options, then the command.
      const args = got.slice(0, (c.args ?? []).length);
      await onRun(c, (got[got.length - 1] as Commander).opts(), args);
    });
  }
  return program;
}

/**
 * The reader of standard output closed it before the end: a quiet success (`| head` took what it
 * wanted), or, for a command whose reader must see the end (the tap), its line and exit 2.
 */
export function outputCut(c: Pick<Command<unknown>, 'cutOutput'> | undefined, io: IO): number {
  if (c?.cutOutput === undefined) return EXIT.ok;
  io.err.line(c.cutOutput);
  return EXIT.usage;
}

/**
 * A usage error: what was wrong, and where to read more (the command's help when there is a
 * command), after commander's suggestion of the name that was probably meant.
 */
function usage(what: Said, command?: string, meant?: string): UsageError {
  // Names of posdata's own commands and flags: its words, never masked.
  const help = command ? say`see posdata ${own(command)} --help` : say`see posdata --help`;
  return new UsageError(what, meant ? say`did you mean ${own(meant)}? ${help}` : help);
}

/** commander's refusal (an unknown flag, a missing value, a choice not offered) as posdata's usage error. */
function commanderUsage(err: CommanderError, command: string | undefined): UsageError {
  const [line] = err.message.replace(/^error:\s*/, '').split('\n');
  // `-v` is the version in many tools; commander suggests only names a slip away.
  const version = command === undefined && err.code === 'commander.unknownOption' && /'-v'/.test(line ?? '');
  return usage(say`${line}`, command, didYouMean(err.message) ?? (version ? '--version' : undefined));
}

/**
 * The options a command line gives `c`, its flags parsed and checked as a run parses and
 * checks them, without running it: what the options tests read (a usage error for a bad one).
 */
export async function optionsOf<O>(
  c: Command<O>,
  argv: readonly string[],
  where: { io: IO; env: Env },
): Promise<O> {
  let options: O | undefined;
  const only: Entry = { name: c.name, group: 'tool', summary: '', load: async () => c as Command<unknown> };
  const program = build([only], c as Command<unknown>, '0', where.io, async (_c, flags, args) => {
    options = await c.options(flags, args, where);
  });
  try {
    await program.parseAsync([c.name, ...argv], { from: 'user' });
  } catch (err) {
    throw err instanceof CommanderError ? commanderUsage(err, c.name) : err;
  }
  if (options === undefined)
    throw new Error(`posdata ${c.name} ${argv.join(' ')} did not get to its options`);
  return options;
}

/**
 * Runs one command line in `ctx` and returns its exit code; what the command opened is
 * closed before it returns. `started` is told which command runs, once its flags are read
 * (the process entry handles signals by it).
 */
export async function runCommandLine(
  given: readonly string[],
  registry: readonly Entry[],
  version: string,
  ctx: Context & { end(): Promise<void> },
  started: (c: Command<unknown>) => void = () => undefined,
): Promise<number> {
  const { io } = ctx;
  // The shells' completion scripts ask `posdata complete -- WORDS` at each Tab.
  if (given[0] === 'complete') {
    const { complete } = await import('./completion.js');
    return complete(given.slice(1), registry, io, ctx.env);
  }
  const argv = commandFirst(given);
  const debug = argv.includes('--debug');
  const names = registry.map((e) => e.name);
  const first = commandWord(argv);
  const asked = first === 'help' ? commandWord(argv.slice(argv.indexOf('help') + 1)) : first;
  // `posdata salez --help` would print the root help with exit 0, as if all were well, and
  // `posdata help salez` nothing at all.
  if (asked !== undefined && asked !== 'help' && !names.includes(asked)) {
    // `posdata --format json sales`: a command's own option before the command took its value for the command.
    const before = given[given.indexOf(asked) - 1];
    const next = given.slice(given.indexOf(asked) + 1).find((a) => names.includes(a));
    if (before?.startsWith('-') && !leadingFlag(before) && next !== undefined)
      return sayError(
        usage(
          say`${before} is an option of the command; give it after the command: posdata ${own(next)} ${before} ${asked}`,
          next,
        ),
        io,
        debug,
      );
    const meant = nearestCommand(asked, names);
    return sayError(usage(say`unknown command '${asked}'`, meant, meant), io, debug);
  }
  // The command that runs, or whose help `help NAME` shows; none for `posdata --help`.
  const only = asked !== undefined && names.includes(asked) ? asked : undefined;
  const loaded = await registry.find((e) => e.name === only)?.load();
  const program = build(registry, loaded, version, io, async (c, flags, args) => {
    const g = globalOptions(flags);
    io.quiet = g.quiet;
    io.debug = g.debug;
    io.color = io.color && g.color;
    started(c);
    if (c.flags.some((g) => g.flags.some((f) => f.spec.startsWith('--all-profiles'))) && namesSeveral(flags))
      return (await import('./servers.js')).runOverServers(c, flags, args, ctx);
    const options = await c.options(flags, args, { io, env: ctx.env });
    await c.run(options, ctx);
  });
  if (argv.length === 0) {
    program.outputHelp();
    return EXIT.ok;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(err.code))
        return EXIT.ok;
      return sayError(commanderUsage(err, only), io, debug);
    }
    // A cut pipe ends an export quietly (`| head` took what it wanted); a Singer target
    // that closes the tap's output leaves its stream incomplete: said, and no success.
    if (isPipeClosed(err)) return outputCut(loaded, io);
    return sayError(err, io, debug);
  } finally {
    await ctx.end();
  }
}
