// What a command is: its flags (its own, then the shared groups, in help order), the check
// of their values into typed options (once, before anything is asked of a server), and
// `run(options, context)`. One module per command under src/commands/ exports one.
import type { Said } from '../core/redact.js';
import type { Context } from './context.js';
import type { FlagGroup, Flags, FlagValues } from './flags.js';
import type { Env, IO } from './io.js';

export interface Argument {
  /** As commander spells it: `<order-id>`, `[resource...]`. */
  spec: string;
  description: string;
  /** Values Tab offers for it (a shell's name). */
  offer?: readonly string[];
}

/** Where `posdata --help` and the man page list a command, as gh groups its commands. */
export type CommandGroup = 'profile' | 'data' | 'report' | 'pipeline' | 'tool';

/** Each group's heading, in the order the help shows them. */
export const COMMAND_GROUP_HEADINGS: Readonly<Record<CommandGroup, string>> = {
  profile: 'Profile commands:',
  data: 'POS data commands:',
  report: 'Report commands:',
  pipeline: 'Pipeline commands:',
  tool: 'Other commands:',
};

/**
 * A command: `O` its typed options, `G` its flags' declarations, from which the values its
 * `options()` reads are typed (`FlagValues<G>`).
 */
export interface Command<O = unknown, G extends readonly FlagGroup[] = readonly FlagGroup[]> {
  name: string;
  args?: readonly Argument[];
  /** The command's own flags first, then the shared groups it takes. */
  flags: G;
  examples: readonly string[];
  /** Help text after the examples. */
  notes?: string;
  /**
   * Keeps running until stopped (sandbox, serve): it waits for `context.stopped` and stops
   * itself, where any other command is interrupted (exit 130, its output given up).
   */
  longRunning?: boolean;
  /**
   * How the command runs over several servers (`--profile a,b`, a pattern, `--all-profiles`,
   * where it takes the SERVERS flags): src/cli/servers.ts runs it once per server and joins
   * what they give as this says. Without: their records in one output, the profile first.
   */
  servers?: OverServers;
  /**
   * What is said when the reader of standard output closes it before the end (the tap's
   * Singer target), and the run fails (exit 2); without, a cut pipe ends quietly (`| head`).
   */
  cutOutput?: Said;
  /**
   * The flags and arguments as typed options, everything checked that can be without a
   * server (exit 2 for what is wrong). `args` are the positional arguments as commander
   * gives them (a variadic one as an array); `where` is the run's IO (the terminal decides
   * the default format) and environment (POSDATA_SYNC_URL, PGPASSWORD).
   */
  options(flags: FlagValues<G>, args: readonly unknown[], where: { io: IO; env: Env }): O | Promise<O>;
  run(options: O, ctx: Context): Promise<void>;
}

/** How a command runs over several servers (Command.servers), declared beside its flags. */
export interface OverServers {
  /**
   * How the servers' outputs become one: `records` (the default) one table, stream or file with
   * the profile first; `reports` each server's report (doctor), in its own format (text by
   * default), a block per server or, in json, an array of them; or the command's own join,
   * where one output cannot be the servers' one after the other (report's one page).
   */
  join?: 'records' | 'reports' | ServerJoin;
  /**
   * Each server's run says on standard error what its single run says (sync's per-table lines,
   * a cron's log of what it did), each line led by its profile; otherwise they run quiet.
   */
  speaks?: boolean;
  /** Two profiles of one Odoo database may be in one run (doctor checks each login). */
  sameDatabase?: boolean;
  /**
   * Flags whose value names a place per server with `{profile}` (sync's --schema), beside -o
   * and --checkpoint: filled in with each profile's name, and checked as they are.
   */
  places?: readonly string[];
  /** The chain's flags checked before any server is asked (exit 2 for what is wrong). */
  check?(f: Flags, names: readonly string[]): void;
  /** One server's flags, from the chain's (summary --by profile: each server by currency). */
  flags?(f: Flags): Flags;
}

/** How a command's runs over several servers become one output (OverServers.join). */
export interface ServerJoin {
  /** One server's flags (the run's own output, a JSON document on standard output). */
  flags(f: Flags): Flags;
  /** Everything that can be checked before any server is asked (exit 2 for what is wrong). */
  check(f: Flags, where: { io: IO; env: Env }): Promise<void> | void;
  /** The one output, of the healthy servers' documents; `failed` names the others. */
  join(docs: { profile: string; text: string }[], failed: string[], f: Flags, ctx: Context): Promise<void>;
}

/**
 * A command, its flags' values typed from its declarations and its options by what its own
 * `options()` returns.
 */
export function command<O, const G extends readonly FlagGroup[]>(c: Command<O, G>): Command<O, G> {
  return c;
}

/**
 * A command as the registry (src/main.ts) lists it: what `posdata --help` says of it, and its
 * module, loaded only when the command runs or its own help is asked.
 */
export interface Entry {
  name: string;
  /** Where the root help lists it. */
  group: CommandGroup;
  /** One line, for `posdata --help`, the command's own help and its man page. */
  summary: string;
  load(): Promise<Command<unknown>>;
}

/** A command with what the registry says of it: for its help, man page and completion. */
export type Listed = Command<unknown> & Pick<Entry, 'group' | 'summary'>;

/** The entry's command, loaded, with its registry line. */
export async function loadListed(e: Entry): Promise<Listed> {
  return { ...(await e.load()), group: e.group, summary: e.summary };
}
