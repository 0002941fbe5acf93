// Flags as data: each command declares its own flags and the named groups it takes (query,
// output, connection, global), in the order help shows them. program.ts turns them into
// commander options; the help can group them by `group`, and completion can read them.
// A value is parsed (and refused, exit 2) as commander reads it; what depends on several
// flags is checked by the command's `options()`, still before anything is asked of a server.
import { UsageError } from '../core/errors.js';
import { say } from '../core/redact.js';
import { byteSize, port, positiveInt, rate, seconds } from './values.js';

/** The help group a flag belongs to; the command's own flags come first. */
export type GroupName = 'own' | 'query' | 'output' | 'connection' | 'global';

export interface Flag {
  /** As commander spells it: `-o, --output <file>`, `--no-color`, `--fields <spec>`. */
  spec: string;
  description: string;
  /** Parses the value as it is read (a UsageError for a bad one); with `previous`, repeatable. */
  parse?: (raw: string, previous: never) => unknown;
  default?: unknown;
  choices?: readonly string[];
  /**
   * What the value names, for completion: a file, a time zone, a stored profile, a register
   * (its id, offered with its name as an earlier run saw it).
   */
  value?: 'file' | 'zone' | 'profile' | 'register';
  /** Values Tab offers where they are checked elsewhere than `choices` (formats, --by keys). */
  offer?: readonly string[];
  /** The value is a comma-separated list (states, --by keys, fields): Tab completes its last item. */
  list?: boolean;
  /** --fields: the model whose field names Tab offers (from a fields_get an earlier run made). */
  fieldsOf?: string;
  /** Set by `when()`: only some commands of a kind have the flag, so its value may be absent. */
  sometimes?: true;
}

export interface FlagGroup {
  name: GroupName;
  flags: readonly Flag[];
}

/**
 * The flags a command was given, as commander parsed them, typed from their declarations (as
 * oclif's `parse<F>` and wrangler's handler arguments are): `FlagValues<typeof OUTPUT>` has
 * `output: string | undefined`, `delimiter: string` (it has a default), `excel: true | undefined`; a flag that is
 * not declared is no key, so a misspelt one does not compile.
 *
 * The key is commander's: the long name in camelCase, without `no-` (`--page-size` →
 * `pageSize`, `--no-wait` → `wait`). The value is what `parse` returns, else one of `choices`,
 * else a string (`<value>`), a string or `true` (`[value]`), or `true` (no value; `--no-x`:
 * a boolean, true unless given). It may be undefined unless the flag has a default or is a
 * `--no-x`, and may be absent if the flag is declared under `when()` (only some commands of a kind
 * have it).
 */
export type FlagValues<G extends FlagGroup | readonly FlagGroup[]> = Values<
  G extends readonly FlagGroup[] ? G[number]['flags'] : G extends FlagGroup ? G['flags'] : never
>;

/** Any command's flags, where the command is not known (the program's loop, completion). */
export type Flags = Readonly<Record<string, unknown>>;

type Values<L extends readonly Flag[]> = string extends L[number]['spec']
  ? Flags
  : {
      readonly [F in L[number] as F extends { sometimes: true } ? never : KeyOf<F['spec']>]: ValueOf<F>;
    } & {
      readonly [F in L[number] as F extends { sometimes: true } ? KeyOf<F['spec']> : never]?: Parsed<F>;
    };

type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
type LongOf<S extends string> = S extends `${string}--${infer R}`
  ? R extends `${infer N} ${string}`
    ? N
    : R
  : S extends `-${infer N}`
    ? N
    : S;
type KeyOf<S extends string> = LongOf<S> extends `no-${infer P}` ? Camel<P> : Camel<LongOf<S>>;

type Parsed<F> = F extends { parse: (...a: never[]) => infer R }
  ? F extends { spec: `${string}[${string}` }
    ? R | true
    : R
  : F extends { choices: readonly (infer C)[] }
    ? C
    : F extends { spec: `${string}<${string}` }
      ? string
      : F extends { spec: `${string}[${string}` }
        ? string | true
        : F extends { spec: `${string}--no-${string}` }
          ? boolean
          : true;
type ValueOf<F> = F extends { default: unknown }
  ? Parsed<F>
  : F extends { spec: `${string}--no-${string}` }
    ? boolean
    : Parsed<F> | undefined;

/** One flag, its declaration kept as written so that its value's type can be read from it. */
export function flag<const F extends Flag>(f: F): F {
  return f;
}

/** A group of flags, in help order; `when()` adds those only some commands of a kind have. */
export function group<const F extends readonly Flag[]>(
  name: GroupName,
  flags: F,
): { name: GroupName; flags: F } {
  return { name, flags };
}

/** Flags only some commands of a kind have (`--with-payments` for sales): their values may be absent. */
export function when<const F extends readonly Flag[]>(
  has: unknown,
  flags: F,
): readonly (F[number] & { readonly sometimes: true })[] {
  return has ? flags.map((f) => ({ ...f, sometimes: true as const })) : [];
}

/** The heading of a group in a command's help, as gh groups its flags. */
export const GROUP_HEADINGS: Readonly<Record<GroupName, string>> = {
  own: 'Options:',
  query: 'Query options:',
  output: 'Output options:',
  connection: 'Connection options:',
  global: 'Global options:',
};

/** Every command's -h, shown with the global flags. */
export const HELP_FLAG = flag({ spec: '-h, --help', description: 'show this help' });

/** A flag's names as typed (`-o` and `--output` of `-o, --output <file>`). */
export function flagNames(f: Flag): string[] {
  return f.spec.split(/[ ,|]+/).filter((w) => w.startsWith('-'));
}

/** The long name of a flag (`--output` of `-o, --output <file>`), or its only name. */
export function longName(f: Flag): string {
  const names = flagNames(f);
  return names.find((n) => n.startsWith('--')) ?? names[0] ?? f.spec;
}

/** Whether the flag takes a value (`<value>` or `[value]` in its spec). */
export function takesValue(f: Flag): boolean {
  return /[<[]/.test(f.spec);
}

/**
 * One register or one session by id, as the list commands, summary and reconcile take them.
 * A name given for the id is refused with where the ids are listed.
 */
export const CONFIG_ID = flag({
  spec: '--config-id <id>',
  description: 'one register',
  parse: positiveInt(
    '--config-id',
    1,
    say`give --config-id a register's id, the id column of posdata configs`,
  ),
  value: 'register',
});
export const SESSION_ID = flag({
  spec: '--session-id <id>',
  description: 'one session',
  parse: positiveInt(
    '--session-id',
    1,
    say`give --session-id a session's id, the id column of posdata closures (a register's open session: current_session_id in posdata configs)`,
  ),
});

/** How to reach Odoo: shared by every command that talks to it. */
export const CONNECTION = group('connection', [
  {
    spec: '--profile <name>',
    description:
      "stored profile to use (env POSDATA_PROFILE); where the command takes them, several: a,b,c or a pattern such as 'shop-*'",
    value: 'profile',
  },
  { spec: '--url <url>', description: 'Odoo base URL (env POSDATA_URL)' },
  { spec: '--db <name>', description: 'Odoo database (env POSDATA_DB)' },
  { spec: '--user <login>', description: 'Odoo login (env POSDATA_USER)' },
  { spec: '--protocol <p>', description: 'auto, jsonrpc or json2', choices: ['auto', 'jsonrpc', 'json2'] },
  {
    spec: '--timeout <seconds>',
    description: 'bound on each request, from sending it to the last byte of the reply',
    parse: seconds('--timeout', 1),
    default: 60,
  },
  {
    spec: '--max-reply <size>',
    description: 'refuse a reply larger than this (bytes, or e.g. 64MiB, 1GiB; default 256MiB)',
    parse: byteSize('--max-reply'),
  },
  {
    spec: '--rate <n>',
    description: 'at most N requests a minute (0.5: one every 2 minutes); 0 for no limit',
    parse: rate('--rate'),
    default: 60,
  },
  {
    spec: '--retries <n>',
    description:
      'more attempts of a read after the first (timeouts, resets, cut or garbled replies, 429, 502/503/504)',
    parse: positiveInt('--retries', 0),
    default: 4,
  },
  { spec: '--ca-file <file>', description: 'trust this CA too (PEM)', value: 'file' },
  { spec: '--insecure', description: 'skip TLS certificate verification (warns)' },
  { spec: '--allow-insecure-http', description: 'allow plain http to a host that is not loopback' },
]);

/** --company: the companies a command reads (Odoo's allowed_company_ids); default every one the user may see. */
export const COMPANY = flag({
  spec: '--company <ids>',
  description:
    'only these companies, by id or name, comma-separated (default: every company the user may see)',
});

export interface ConnectionOptions {
  profile?: string;
  url?: string;
  db?: string;
  user?: string;
  protocol?: 'auto' | 'jsonrpc' | 'json2';
  timeout?: number;
  /** --max-reply, in bytes; undefined = the default (256 MiB). */
  maxReply?: number;
  rate?: number;
  retries?: number;
  caFile?: string;
  insecure?: boolean;
  allowInsecureHttp?: boolean;
  /** --company: ids or names, comma-separated (commands that read Odoo). */
  company?: string;
}

/** The connection flags as typed options. */
export function connectionOptions(
  f: FlagValues<typeof CONNECTION> & { company?: string | undefined },
): ConnectionOptions {
  return {
    profile: f.profile,
    url: f.url,
    db: f.db,
    user: f.user,
    protocol: f.protocol,
    timeout: f.timeout,
    maxReply: f.maxReply,
    rate: f.rate,
    retries: f.retries,
    caFile: f.caFile,
    insecure: f.insecure,
    allowInsecureHttp: f.allowInsecureHttp,
    company: f.company,
  };
}

/** The flags of a run over several servers (src/cli/servers.ts), beside --profile. */
export const SERVERS = group('connection', [
  {
    spec: '--all-profiles',
    description: 'every stored profile, one server each (as --profile with all their names)',
  },
  {
    spec: '--jobs <n>',
    description: 'with several profiles: servers read at once, each under its own --rate (default 4)',
    parse: positiveInt('--jobs'),
  },
]);

/**
 * Whether --profile names several servers (a list, a pattern) or --all-profiles is given. Here,
 * not in src/cli/servers.ts: every run asks it before its first request, and a single run
 * loaded the chain's module, csv-parse (ten CommonJS files) and four chunks under it only to
 * hear no (test/cli/single-start.test.ts).
 */
export function namesSeveral(f: Flags): boolean {
  const p = f.profile;
  return f.allProfiles === true || (typeof p === 'string' && /[,*?[]/.test(p));
}

/** What every command that talks to Odoo takes besides: traces, quiet, colour. */
export const GLOBAL = group('global', [
  { spec: '--debug', description: 'show each RPC on stderr (secret as ***)' },
  { spec: '-q, --quiet', description: 'no progress or notices on stderr' },
  { spec: '--no-color', description: 'no colour, also with NO_COLOR' },
]);

/** The global flags as the IO takes them. */
export function globalOptions(f: Flags): { quiet: boolean; debug: boolean; color: boolean } {
  return { quiet: f.quiet === true, debug: f.debug === true, color: f.color !== false };
}

/** Where a server of posdata's listens (serve, sandbox): loopback unless told otherwise. */
export function listenFlags(defaultPort: number) {
  return [
    flag({ spec: '--host <host>', description: 'address to bind', default: '127.0.0.1' }),
    flag({
      spec: '--port <port>',
      description: 'port (0 = any free port)',
      parse: port('--port'),
      default: defaultPort,
    }),
  ] as const;
}

/** Why a server of posdata's could not listen, in terms of --host and --port (else the error). */
export function listenRefusal(err: unknown, where: { host: string; port: number }): unknown {
  const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
  if (code === 'EADDRINUSE')
    return new UsageError(
      say`port ${where.port} on ${where.host} is already in use`,
      say`choose another with --port (0 = any free port)`,
    );
  if (code === 'EACCES')
    return new UsageError(say`not allowed to listen on port ${where.port}`, say`use a port above 1023`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new UsageError(say`cannot listen on ${where.host}: no such local address`, say`check --host`);
  return err;
}
