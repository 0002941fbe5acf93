// Flags as data: each command declares its own flags and the named groups it takes (query,
// output, connection, global), in the order help shows them. program.ts turns them into
// commander options; the help can group them by `group`, and completion can read them.
// A value is parsed (and refused, exit 2) as commander reads it; what depends on several
// flags is checked by the command's `options()`, still before anything is asked of a server.
import { say } from '../core/redact.js';
import { byteSize, number, port, positiveInt, rate } from './values.js';

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
}

export interface FlagGroup {
  name: GroupName;
  flags: readonly Flag[];
}

/** The flags a command was given, as commander parsed them (before the command's checks). */
export type Flags = Readonly<Record<string, unknown>>;

export function group(name: GroupName, flags: readonly Flag[]): FlagGroup {
  return { name, flags };
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
export const HELP_FLAG: Flag = { spec: '-h, --help', description: 'show this help' };

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
export const CONFIG_ID: Flag = {
  spec: '--config-id <id>',
  description: 'one register',
  parse: positiveInt(
    '--config-id',
    1,
    say`give --config-id a register's id, the id column of posdata configs`,
  ),
  value: 'register',
};
export const SESSION_ID: Flag = {
  spec: '--session-id <id>',
  description: 'one session',
  parse: positiveInt(
    '--session-id',
    1,
    say`give --session-id a session's id, the id column of posdata closures (a register's open session: current_session_id in posdata configs)`,
  ),
};

/** How to reach Odoo: shared by every command that talks to it. */
export const CONNECTION = group('connection', [
  { spec: '--profile <name>', description: 'stored profile to use (env POSDATA_PROFILE)', value: 'profile' },
  { spec: '--url <url>', description: 'Odoo base URL (env POSDATA_URL)' },
  { spec: '--db <name>', description: 'Odoo database (env POSDATA_DB)' },
  { spec: '--user <login>', description: 'Odoo login (env POSDATA_USER)' },
  { spec: '--protocol <p>', description: 'auto, jsonrpc or json2', choices: ['auto', 'jsonrpc', 'json2'] },
  {
    spec: '--timeout <seconds>',
    description: 'bound on each request, from sending it to the last byte of the reply',
    parse: number('--timeout', 1),
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
export const COMPANY: Flag = {
  spec: '--company <ids>',
  description:
    'only these companies, by id or name, comma-separated (default: every company the user may see)',
};

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
export function connectionOptions(f: Flags): ConnectionOptions {
  return {
    profile: f.profile as string | undefined,
    url: f.url as string | undefined,
    db: f.db as string | undefined,
    user: f.user as string | undefined,
    protocol: f.protocol as ConnectionOptions['protocol'],
    timeout: f.timeout as number | undefined,
    maxReply: f.maxReply as number | undefined,
    rate: f.rate as number | undefined,
    retries: f.retries as number | undefined,
    caFile: f.caFile as string | undefined,
    insecure: f.insecure as boolean | undefined,
    allowInsecureHttp: f.allowInsecureHttp as boolean | undefined,
    company: f.company as string | undefined,
  };
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
export function listenFlags(defaultPort: number): Flag[] {
  return [
    { spec: '--host <host>', description: 'address to bind', default: '127.0.0.1' },
    {
      spec: '--port <port>',
      description: 'port (0 = any free port)',
      parse: port('--port'),
      default: defaultPort,
    },
  ];
}
