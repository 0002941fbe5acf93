// Each command's `options()`, as gh's runF tests check a command's flags: a command line in,
// the typed options out (their defaults included), or the usage error it gets (exit 2),
// parsed and checked as a run does (src/cli/program.ts optionsOf) and without any server.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Command } from '../../src/cli/command.js';
import type { CONNECTION, FlagValues } from '../../src/cli/flags.js';
import type { Env } from '../../src/cli/io.js';
import { testIO } from '../../src/cli/io.js';
import type { OUTPUT } from '../../src/cli/output.js';
import { optionsOf } from '../../src/cli/program.js';
import { books } from '../../src/commands/books.js';
import { completion } from '../../src/commands/completion.js';
import { doctor } from '../../src/commands/doctor.js';
import { listCommand } from '../../src/commands/list.js';
import { login } from '../../src/commands/login.js';
import { logout } from '../../src/commands/logout.js';
import { profiles } from '../../src/commands/profiles.js';
import { reconcile } from '../../src/commands/reconcile.js';
import { sandbox } from '../../src/commands/sandbox.js';
import { serve } from '../../src/commands/serve.js';
import { summary } from '../../src/commands/summary.js';
import { sync } from '../../src/commands/sync.js';
import { tap } from '../../src/commands/tap.js';
import { whoami } from '../../src/commands/whoami.js';
import { EXIT, isPosdataError } from '../../src/core/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'posdata-options-'));
const at = (name: string) => join(dir, name);
const tapConfig = at('tap.json');
writeFileSync(
  tapConfig,
  JSON.stringify({ url: 'http://127.0.0.1:8069', db: 'shop', user: 'u', password: 'p' }),
);

/** A case: the command line after the command's name; the options it gives (in part), or its usage error. */
type Case<O> = [argv: string[], want: Want<O> | RegExp, env?: Env];
/** Some of the options (of any kind of options, where `O` is a union: tap's modes). */
type Want<O> = O extends unknown ? Partial<Record<keyof O, unknown>> : never;

async function check<O>(c: Command<O>, [argv, want, env = {}]: Case<O>): Promise<void> {
  const io = testIO({ env });
  let got: O;
  try {
    got = await optionsOf(c, argv, { io, env });
  } catch (err) {
    if (!(want instanceof RegExp) || !isPosdataError(err)) throw err;
    expect(err.exitCode).toBe(EXIT.usage);
    expect(err.line()).toMatch(want);
    return;
  }
  if (want instanceof RegExp)
    throw new Error(`posdata ${c.name} ${argv.join(' ')} was taken: ${JSON.stringify(got)}`);
  expect(got).toMatchObject(want);
}

function table<O>(c: Command<O>, cases: Case<O>[]): void {
  describe(`posdata ${c.name}`, () => {
    it.each(cases.map((k) => [k[0].join(' ') || '(no flags)', k] as const))('%s', async (_name, k) => {
      await check(c, k);
    });
  });
}

// Checked by the compiler (npm run lint type-checks the tests): the values' types come from
// the declarations, and a flag that is not declared is no key.
describe('flag values typed from their declarations', () => {
  it('types each value as its flag declares it', () => {
    const f = {} as FlagValues<[typeof OUTPUT, typeof CONNECTION]>;
    expectTypeOf(f.output).toEqualTypeOf<string | undefined>();
    expectTypeOf(f.delimiter).toEqualTypeOf<string>();
    expectTypeOf(f.excel).toEqualTypeOf<true | undefined>();
    expectTypeOf(f.protocol).toEqualTypeOf<'auto' | 'jsonrpc' | 'json2' | undefined>();
    expectTypeOf(f.timeout).toEqualTypeOf<number>();
    expectTypeOf(f.maxReply).toEqualTypeOf<number | undefined>();
    // @ts-expect-error: --formt is no flag of these groups
    void f.formt;
  });

  it('types a --no- flag as a boolean and a when() flag as maybe absent', () => {
    const s = {} as FlagValues<(typeof sync)['flags']>;
    expectTypeOf(s.wait).toEqualTypeOf<boolean>();
    expectTypeOf(s.fields).toEqualTypeOf<string[] | undefined>();
    const list = {} as FlagValues<ReturnType<typeof listCommand>['flags']>;
    expectTypeOf(list.pageSize).toEqualTypeOf<number>();
    expectTypeOf(list.overlap).toEqualTypeOf<number | undefined>();
  });
});

const DEFAULT_CONNECTION = { timeout: 60, rate: 60, retries: 4 };

table(whoami, [
  [[], { format: undefined, ...DEFAULT_CONNECTION }],
  [['--format', 'json', '--profile', 'staging'], { format: 'json', profile: 'staging' }],
  [['--format', 'xml'], /option '--format <fmt>' argument 'xml' is invalid/],
  [['--formt', 'json'], /unknown option '--formt'; did you mean --format\?/],
  [
    [
      '--url',
      'https://shop.example.com',
      '--rate',
      '0.5',
      '--retries',
      '0',
      '--max-reply',
      '64MiB',
      '--insecure',
    ],
    { url: 'https://shop.example.com', rate: 0.5, retries: 0, maxReply: 64 * 1024 ** 2, insecure: true },
  ],
  [['--timeout', '0'], /--timeout '0' is not a number of at least 1/],
  [['--rate', '0.0001'], /--rate '0.0001' is too slow/],
  [['--protocol', 'soap'], /argument 'soap' is invalid/],
]);

table(login, [
  [[], { passwordStdin: false, passwordFile: undefined, storePassword: true }],
  [
    ['--password-stdin', '--no-store-password', '--url', 'https://x.example'],
    { passwordStdin: true, storePassword: false, url: 'https://x.example' },
  ],
  [['--password-file', '/run/secrets/odoo'], { passwordFile: '/run/secrets/odoo' }],
]);

table(logout, [
  [[], { profile: undefined, remove: false }],
  [['--profile', 'staging', '--remove'], { profile: 'staging', remove: true }],
  [['--url', 'x'], /unknown option '--url'/],
]);

table(profiles, [
  [[], { use: undefined, remove: undefined }],
  [['--use', 'staging'], { use: 'staging' }],
  [['--remove'], /option '--remove <name>' argument missing/],
]);

table(listCommand('sales'), [
  [
    [],
    {
      pageSize: 2000,
      overlap: 300,
      withPayments: false,
      count: false,
      dryRun: false,
      full: false,
      checkpoint: undefined,
      output: { format: 'csv', file: undefined, delimiter: ',', decimal: '.', excel: false },
      connection: DEFAULT_CONNECTION,
    },
  ],
  [
    [
      '--from',
      'yesterday',
      '--to',
      'today',
      '--tz',
      'Europe/Brussels',
      '--state',
      'paid,done',
      '--config-id',
      '3',
    ],
    { from: 'yesterday', to: 'today', tz: 'Europe/Brussels', state: ['paid', 'done'], configId: 3 },
  ],
  [['--config-id', 'Bar'], /--config-id 'Bar' is not a whole number; give --config-id a register's id/],
  [['--limit', '0'], /--limit '0' is out of range/],
  [
    ['--page-size', '500', '--limit', '10', '--sort', 'id desc'],
    { pageSize: 500, limit: 10, sort: 'id desc' },
  ],
  [['--fields', 'name, amount_total'], { fields: ['name', 'amount_total'] }],
  [['--domain', '[["amount_total", ">", 100]]'], { domain: [['amount_total', '>', 100]] }],
  [['--domain', '{"a": 1}'], /--domain/],
  [['--tz', 'Mars/Olympus'], /Mars\/Olympus/],
  [['--state', ''], /--state is empty/],
  [['--with-payments', '--count'], { withPayments: true, count: true }],
  // --company is the session's (ids or names, resolved against the companies the user may
  // see), not a part of the list's own Odoo context.
  [
    ['--company', '1,3', '--lang', 'fr_BE', '--include-archived'],
    { connection: { company: '1,3' }, odooContext: { lang: 'fr_BE', active_test: false } },
  ],
  [['--company', 'Shop US'], { connection: { company: 'Shop US' } }],
  [['--context', '[1]'], /--context is not a JSON object/],
  [['--context', '{'], /--context is not JSON/],
  [['--lang', 'French'], /--lang 'French' is not a language code/],
  [['--format', 'json'], { output: { format: 'json' } }],
  [['--format', 'xml'], /--format 'xml' is not one of table, json, ndjson, csv, parquet/],
  [['-o', at('out.json')], { output: { format: 'json', file: at('out.json') } }],
  [['-o', at('out.xlsx')], /posdata writes no .xlsx workbooks/],
  [['--format', 'json', '--excel'], /--excel shapes CSV, and the format is json/],
  [['--decimal', ','], /--decimal ',' needs another --delimiter/],
  [['--decimal', ',', '--delimiter', ';'], { output: { decimal: ',', delimiter: ';' } }],
  [['--decimal', ':'], /--decimal ':' is not '.' or ','/],
  [['--delimiter', '"'], /cannot separate CSV cells/],
  [
    ['--checkpoint', at('sales.ckpt'), '--overlap', '60', '--full'],
    { checkpoint: { file: at('sales.ckpt') }, overlap: 60, full: true },
  ],
  [
    ['--checkpoint', at('sales.ckpt'), '--sort', 'id'],
    /--checkpoint exports in write_date order; drop --sort/,
  ],
  [['--checkpoint', at('x.ckpt'), '-o', at('x.ckpt')], /--checkpoint and -o are the same file/],
  [['--full'], /--full goes with --checkpoint/],
  [
    ['--checkpoint', at('s.ckpt'), '--overlap', '4000000000'],
    /--overlap 4000000000 is longer than a century/,
  ],
  [['-o', at('sales-{from}.csv')], /\{from\} and \{to\} in -o name the window of a checkpointed run/],
  [['-o', at('sales-{from}.csv'), '--checkpoint', at('s.ckpt')], { named: true }],
  [['--count', '--dry-run'], { count: true, dryRun: true }],
]);

table(listCommand('configs'), [
  [[], { pageSize: 2000, overlap: 300 }],
  [['--checkpoint', at('c.ckpt')], /unknown option '--checkpoint'/],
  [['--from', 'today'], /unknown option '--from'/],
]);

table(listCommand('payments'), [
  [['--with-payments'], /unknown option '--with-payments'/],
  [['--session-id', '7'], { sessionId: 7 }],
]);

table(listCommand('lines'), [
  [[], /no sales ticket given/],
  [['42'], { orderId: 42 }],
  [['x42'], /'x42' is not an order id/],
  [['0'], /'0' is not an order id/],
  [['--session-id', '3'], { orderId: undefined, sessionId: 3 }],
  [['--from', 'yesterday'], { from: 'yesterday' }],
  [['--checkpoint', at('l.ckpt')], /unknown option '--checkpoint'/],
]);

table(summary, [
  [[], { by: 'register', checkOdoo: false, failOnDifference: false, watch: undefined }],
  [['--date', 'yesterday', '--by', 'product', '--top', '20'], { date: 'yesterday', by: 'product', top: 20 }],
  [['--by', 'colour'], /colour/],
  [['--fail-on-difference'], /--fail-on-difference needs --check-odoo/],
  [['--check-odoo', '--fail-on-difference'], { checkOdoo: true, failOnDifference: true }],
  [['--watch', '60', '--times', '3'], { watch: 60, times: 3 }],
  [['--times', '3'], /--times/],
  [['--watch', '0'], /--watch '0' is out of range/],
  [['--session-id', '42', '--config-id', '1'], { sessionId: 42, configId: 1 }],
  [['--tz', 'Nowhere/City'], /Nowhere\/City/],
]);

table(reconcile, [
  [[], { tolerance: 0.01, failOnDifference: false, date: undefined }],
  [
    ['--date', 'yesterday', '--tolerance', '0.5', '--fail-on-difference'],
    { date: 'yesterday', tolerance: 0.5, failOnDifference: true },
  ],
  [['--tolerance', '-1'], /--tolerance '-1' is not a number of at least 0/],
  [
    ['--from', '2026-11-01', '--to', '2026-11-30', '--format', 'csv'],
    { from: '2026-11-01', to: '2026-11-30', output: { format: 'csv' } },
  ],
  [['--date', 'someday'], /someday/],
]);

table(books, [
  [[], { tolerance: 0, failOnDifference: false, posOnly: false, date: undefined }],
  [
    [
      '--from',
      '2026-11-01',
      '--to',
      '2026-11-30',
      '--pos-only',
      '--fail-on-difference',
      '--tolerance',
      '0.05',
    ],
    { from: '2026-11-01', to: '2026-11-30', posOnly: true, failOnDifference: true, tolerance: 0.05 },
  ],
  [['--date', 'yesterday', '--from', '2026-11-01'], /--date and --from\/--to both give the range/],
  [['--tolerance', 'x'], /--tolerance 'x' is not a number/],
  [['--tz', 'Nowhere/City'], /Nowhere\/City/],
]);

table(doctor, [
  [[], { date: 'yesterday', tz: undefined, pageSize: 2000, format: 'text', connection: DEFAULT_CONNECTION }],
  [
    ['--date', '2026-11-20', '--format', 'json', '--page-size', '100'],
    { date: '2026-11-20', format: 'json', pageSize: 100 },
  ],
  [['--date', 'tomorrowish'], /tomorrowish/],
  [['--format', 'csv'], /argument 'csv' is invalid/],
]);

const TO = 'postgres://posdata@127.0.0.1:5432/warehouse';
table(sync, [
  [
    ['--to', TO],
    {
      schema: 'posdata',
      full: false,
      prune: false,
      overlap: 300,
      pageSize: 2000,
      wait: true,
      takeOver: false,
    },
  ],
  [[], { schema: 'posdata' }, { POSDATA_SYNC_URL: TO }],
  [
    ['--to', TO, '--no-wait', '--full', '--prune', '--take-over'],
    { wait: false, full: true, prune: true, takeOver: true },
  ],
  [
    ['--to', TO, '--schema', 'pos', '--overlap', '0', '--page-size', '100'],
    { schema: 'pos', overlap: 0, pageSize: 100 },
  ],
  [['bogus', '--to', TO], /unknown resource 'bogus'/],
  [['sales', '--fields', 'lines:discount', '--to', TO], /--fields names lines, which this run does not sync/],
  [['--to', TO, '--schema', 'x'.repeat(64)], /is 64 bytes, and PostgreSQL cuts a name at 63 bytes/],
  [['--to', TO, '--page-size', '0'], /--page-size '0' is out of range/],
]);

table(tap, [
  [['--about'], { mode: 'about', format: 'text' }],
  [['--about', '--format', 'json'], { mode: 'about', format: 'json' }],
  [['--format', 'json'], /--format goes with --about/],
  [[], /--config FILE is missing/],
  [['--discover', '--config', tapConfig], { mode: 'discover' }],
  [['--discover', '--config', tapConfig, '--state', at('state.json')], /--discover takes --config only/],
  [
    ['--config', tapConfig, '--catalog', at('c.json'), '--properties', at('p.json')],
    /--catalog and --properties are one catalog/,
  ],
  [['--config', tapConfig], { mode: 'sync', state: { bookmarks: {} }, selection: undefined }],
]);

table(serve, [
  [
    [],
    {
      host: '127.0.0.1',
      port: 8080,
      allowRemote: false,
      allowHosts: [],
      tokenTtl: 3600,
      clientRate: 60,
      maxConnections: 256,
      headerTimeout: 10,
    },
  ],
  [
    ['--port', '0', '--allow-host', 'pos.example.com, bi.example.com'],
    { port: 0, allowHosts: ['pos.example.com', 'bi.example.com'] },
  ],
  [['--port', '70000'], /--port '70000' is not a port/],
  [['--token-ttl', '0'], /--token-ttl '0' is out of range/],
  [['--header-timeout', '0.5'], /--header-timeout '0.5' is not a number of at least 1/],
]);

table(sandbox, [
  [
    [],
    {
      host: '127.0.0.1',
      port: 8069,
      seed: 1,
      orders: 2000,
      days: 14,
      odooVersion: 17,
      jsonrpc: true,
      posHr: false,
      live: undefined,
    },
  ],
  [['--live'], { live: 5 }],
  [['--live', '2'], { live: 2 }],
  [['--live', 'often'], /--live 'often' is not a number of seconds/],
  [['--no-jsonrpc'], /--no-jsonrpc needs --odoo-version 19/],
  [['--odoo-version', '19', '--no-jsonrpc'], { odooVersion: 19, jsonrpc: false }],
  [['--odoo-version', '15'], /argument '15' is invalid/],
  [['--now', '2026-11-25T12:00:00Z'], { now: new Date('2026-11-25T12:00:00Z') }],
  [['--days', '0'], /--days '0' is out of range/],
]);

table(completion, [
  [['bash'], { shell: 'bash' }],
  [['tcsh'], /no completion for shell 'tcsh'/],
  [[], /missing required argument 'shell'/],
]);

describe('flags are read for what they are', () => {
  // A command's options are typed from its declarations; code that takes any command's flags
  // (the run over several servers) narrows each value (`typeof flags.jobs === 'number'`). A cast
  // (`flags.jobs as number`) compiles whatever the flag holds, and for a misspelt name.
  it('no code in src/cli or src/commands casts a flag or an option to read it', () => {
    const root = new URL('../../src', import.meta.url).pathname;
    const found: string[] = [];
    for (const sub of ['cli', 'commands'])
      for (const name of readdirSync(join(root, sub)).filter((n) => n.endsWith('.ts')))
        readFileSync(join(root, sub, name), 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (/\b(flags|opts|options|o)\.[A-Za-z]+ as [A-Za-z]/.test(line))
              found.push(`${sub}/${name}:${i + 1}`);
          });
    expect(found).toEqual([]);
  });
});
