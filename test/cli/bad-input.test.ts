// A table of bad inputs. Each: the exact exit code, one line on stderr starting
// `posdata:`, no stack trace, nothing on stdout, no output file (nor temp file) left.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, loginEnv, runCli, SUITE_SECRET } from '../helpers/cli.js';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
let sandbox: any;
let env: Record<string, string>;
let clerkEnv: Record<string, string>;
let dir: string;

beforeAll(async () => {
  const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
  sandbox = await startSandbox({ port: 0, seed: 2, orders: 500, adminKey: SUITE_SECRET });
  env = await loginEnv(sandbox.url, 'admin', SUITE_SECRET);
  clerkEnv = await loginEnv(sandbox.url, 'clerk', 'clerk');
  dir = mkdtempSync(join(tmpdir(), 'posdata-bad-'));
});

afterAll(async () => {
  await sandbox?.close();
});

type Row = [
  string,
  string[],
  number,
  { env?: 'none' | 'clerk' | Record<string, string>; input?: string; match?: RegExp }?,
];

const OUT = () => join(dir, 'out.csv');

const rows: Row[] = [
  // flag values
  ['limit zero', ['sales', '--limit', '0'], 2],
  ['limit negative', ['sales', '--limit', '-5'], 2, { match: /--limit '-5' is out of range/ }],
  ['limit not a number', ['sales', '--limit', 'ten'], 2],
  ['limit fractional', ['sales', '--limit', '2.5'], 2],
  ['page size zero', ['sales', '--page-size', '0'], 2],
  ['page size text', ['sales', '--page-size', 'big'], 2],
  ['rate negative', ['sales', '--rate', '-1'], 2],
  ['rate text', ['sales', '--rate', 'fast'], 2],
  ['timeout zero', ['sales', '--timeout', '0'], 2],
  // A register's name or a session's where the id was wanted: the hint says where ids are listed.
  [
    'config id text',
    ['sales', '--config-id', 'shop'],
    2,
    { match: /a register's id, the id column of posdata configs/ },
  ],
  [
    'session id a name',
    ['summary', '--session-id', 'POS/00040'],
    2,
    { match: /a session's id, the id column of posdata closures/ },
  ],
  ['lines of a ticket name', ['lines', 'POS/000002'], 2, { match: /the id column of posdata sales/ }],
  ['session id zero', ['sales', '--session-id', '0'], 2],
  ['from not a date', ['sales', '--from', 'someday'], 2, { match: /--from 'someday' is not a date/ }],
  ['to impossible date', ['sales', '--to', '2026-02-30'], 2],
  ['from after to', ['sales', '--from', '2026-11-21', '--to', '2026-11-01'], 2, { match: /is not before/ }],
  // --date takes a day only, and its hint says what a day is, whatever was wrong with the value.
  ...(
    [
      ['summary', 'tomorrow'],
      ['summary', '7d'],
      ['summary', '2026-02-30'],
      ['reconcile', 'tomorrow'],
      ['reconcile', '2026-02-30'],
      ['reconcile', '2026-11-20 10:00'],
    ] as const
  ).map(
    ([command, value]): Row => [
      `${command} --date ${value}`,
      [command, '--date', value],
      2,
      { match: new RegExp(`^posdata: --date '${value}' is not a day; use YYYY-MM-DD, today or yesterday$`) },
    ],
  ),
  // --from and --to take times and spans too, and say so.
  [
    'summary --from not a date',
    ['summary', '--from', 'tomorrow'],
    2,
    {
      match:
        /^posdata: --from 'tomorrow' is not a date or time; use YYYY-MM-DD, "YYYY-MM-DD HH:MM", ISO 8601, today, yesterday or a span such as 2h or 7d$/,
    },
  ],
  ['unknown zone', ['sales', '--tz', 'Mars/Olympus'], 2, { match: /unknown time zone/ }],
  ['format unknown', ['sales', '--format', 'xml'], 2],
  ['sort unknown field', ['sales', '--sort', 'nope desc'], 2, { match: /unknown field 'nope'/ }],
  // A word of a field's name gets the few fields that start with it, not sixty names.
  [
    'sort on a word of a field',
    ['sales', '--sort', 'amount desc'],
    2,
    {
      match:
        /'amount' of pos\.order; did you mean one of amount_paid, amount_return, amount_tax, amount_total\?$/,
    },
  ],
  ['sort a slip away', ['sales', '--sort', 'amount_totl'], 2, { match: /did you mean amount_total\?$/ }],
  [
    'sort as -field',
    ['sales', '--sort', '-amount_total'],
    2,
    { match: /did you mean --sort "amount_total desc"\?$/ },
  ],
  ['sort bad direction', ['sales', '--sort', 'id sideways'], 2],
  ['sort non-stored field', ['sales', '--sort', 'is_refunded'], 2, { match: /does not store/ }],
  ['fields unknown', ['sales', '--fields', 'name,bogus'], 2, { match: /valid fields:/ }],
  ['fields empty', ['sales', '--fields', ''], 2],
  [
    "fields a CSV column's name",
    ['sales', '--fields', 'name,config_name'],
    2,
    {
      match:
        /unknown field 'config_name' on pos\.order; config_name is the CSV column of config_id's name: --fields config_id gives both columns; valid fields: /,
    },
  ],
  ['state unknown', ['sales', '--state', 'lost'], 2, { match: /unknown state 'lost'; this server's/ }],
  // A slip of the keyboard: the one value it is close to.
  [
    'state misspelt',
    ['sales', '--state', 'payed'],
    2,
    { match: /^posdata: unknown state 'payed'; did you mean paid\? this server's states: / },
  ],
  [
    '--by misspelt',
    ['summary', '--by', 'regster'],
    2,
    { match: /^posdata: --by 'regster' is not a summary key; did you mean register\? use one or more of / },
  ],
  // An unset variable in a cron line (--state "$STATES"): not every state.
  ['state empty', ['sales', '--state', ''], 2, { match: /^posdata: --state is empty; / }],
  ['state only commas', ['sales', '--state', ' , '], 2, { match: /--state is empty/ }],
  // CSV under a workbook's name does not open in the spreadsheet it names.
  [
    'output a workbook',
    ['sales', '-o', 'sales.xlsx'],
    2,
    { match: /writes no \.xlsx workbooks.*-o sales\.csv --excel/ },
  ],
  ['output an ods workbook', ['refunds', '-o', 'r.ODS'], 2, { match: /writes no \.ods workbooks/ }],
  // CSV's dialect with another format would be ignored without a word.
  [
    'excel with json',
    ['sales', '--format', 'json', '--excel'],
    2,
    { match: /--excel shapes CSV, and the format is json/ },
  ],
  [
    'delimiter with ndjson',
    ['sales', '-o', 'x.ndjson', '--delimiter', ';'],
    2,
    { match: /--delimiter shapes CSV/ },
  ],
  [
    'decimal with the summary as json',
    ['summary', '--format', 'json', '--decimal', ',', '--delimiter', ';'],
    2,
    { match: /--delimiter and --decimal shape CSV, and the format is json/ },
  ],
  ['domain not JSON', ['sales', '--domain', '[state = paid]'], 2, { match: /not JSON/ }],
  ['domain not a list', ['sales', '--domain', '{"state":"paid"}'], 2],
  ['domain bad leaf', ['sales', '--domain', '[["state","paid"]]'], 2],
  ['domain bad operator', ['sales', '--domain', '[["state","~","paid"]]'], 2],
  ['domain unknown field', ['sales', '--domain', '[["bogus","=",1]]'], 2],
  ['domain dangling or', ['sales', '--domain', '["|",["state","=","paid"]]'], 2],
  [
    'domain on a field Odoo does not store',
    ['sales', '--domain', '[["is_refunded","=",true]]'],
    2,
    { match: /without storing it/ },
  ],
  ['unknown flag', ['sales', '--colour'], 2],
  ['unknown command', ['salez'], 2],
  ['lines without id', ['lines'], 2],
  ['lines id not a number', ['lines', 'abc'], 2],
  ['checkpoint on configs', ['configs', '--checkpoint', 'x.ckpt'], 2],
  ['full without checkpoint', ['sales', '--full'], 2],
  ['with-payments on refunds', ['refunds', '--with-payments'], 2],
  ['config id on products', ['products', '--config-id', '1'], 2],
  ['protocol unknown', ['sales', '--protocol', 'soap'], 2],
  // URLs
  [
    'url not a url',
    ['sales', '--url', 'not a url', '--db', 'demo', '--user', 'admin'],
    2,
    { env: { POSDATA_PASSWORD: 'x' } },
  ],
  [
    'url not http',
    ['sales', '--url', 'ftp://127.0.0.1/', '--db', 'demo', '--user', 'admin'],
    2,
    { env: { POSDATA_PASSWORD: 'x' } },
  ],
  // An address without its scheme: both are offered on this machine, https elsewhere.
  [
    'url without a scheme, loopback',
    ['sales', '--url', '127.0.0.1:18169', '--db', 'demo', '--user', 'admin'],
    2,
    {
      env: { POSDATA_PASSWORD: 'x' },
      match:
        /'127\.0\.0\.1:18169' has no scheme; give --url http:\/\/127\.0\.0\.1:18169 .*or https:\/\/127\.0\.0\.1:18169$/,
    },
  ],
  [
    'url without a scheme',
    ['login', '--url', 'shop.example.com', '--db', 'demo', '--user', 'admin', '--password-stdin'],
    2,
    { input: 'admin', match: /'shop\.example\.com' has no scheme; give --url https:\/\/shop\.example\.com$/ },
  ],
  // A profile named as its password would be *** in every line, path and file that names it.
  [
    'profile named as the password',
    [
      'login',
      '--url',
      'URL',
      '--db',
      'demo',
      '--user',
      'admin',
      '--password-stdin',
      '--profile',
      'shop-admin',
    ],
    2,
    { input: 'admin', match: /the profile name holds the password; choose another name with --profile/ },
  ],
  [
    'plain http off loopback',
    ['sales', '--url', 'http://pos.example.invalid', '--db', 'demo', '--user', 'admin'],
    2,
    { env: { POSDATA_PASSWORD: 'x' }, match: /refusing plain http/ },
  ],
  [
    'login url not http',
    ['login', '--url', 'file:///etc/passwd', '--db', 'demo', '--user', 'admin', '--password-stdin'],
    2,
    { input: 'admin' },
  ],
  // output paths
  [
    'output folder missing',
    ['sales', '-o', '/nonexistent-dir/x.csv'],
    2,
    { match: /the folder \/nonexistent-dir does not exist; create it \(mkdir -p \/nonexistent-dir\) or/ },
  ],
  [
    'checkpoint folder missing',
    ['sales', '--checkpoint', '/nonexistent-dir/s.ckpt'],
    2,
    { match: /the folder \/nonexistent-dir does not exist; create it \(mkdir -p \/nonexistent-dir\) or/ },
  ],
  ['output into /proc', ['sales', '-o', '/proc/posdata.csv'], 2],
  ['summary -o a folder', ['summary', '-o', '/tmp'], 2, { match: /folder|directory/ }],
  [
    'summary --decimal , with the comma delimiter',
    ['summary', '--decimal', ',', '--format', 'csv'],
    2,
    { match: /--decimal ',' needs another --delimiter/ },
  ],
  // authentication and the server
  ['not logged in', ['sales'], 3, { env: 'none', match: /not logged in/ }],
  ['wrong password', ['sales'], 3, { env: { POSDATA_PASSWORD: 'wrong' } }],
  [
    'wrong password at login',
    ['login', '--url', 'URL', '--db', 'demo', '--user', 'admin', '--password-stdin'],
    3,
    { env: 'none', input: 'nope' },
  ],
  [
    'wrong database at login',
    ['login', '--url', 'URL', '--db', 'nodb', '--user', 'admin', '--password-stdin'],
    3,
    { env: 'none', input: 'admin', match: /database 'nodb' does not exist/ },
  ],
  ['wrong database', ['sales', '--db', 'nodb'], 3],
  [
    'unknown user',
    ['login', '--url', 'URL', '--db', 'demo', '--user', 'ghost', '--password-stdin'],
    3,
    { env: 'none', input: 'x' },
  ],
  ['unknown order id', ['lines', '99999999'], 4, { match: /does not exist/ }],
  [
    'user without POS rights',
    ['sales'],
    5,
    { env: 'clerk', match: /access .*records; ask an Odoo administrator/i },
  ],
  // A company the user may not see: no POS group helps, --company is what to change.
  [
    "a company outside the user's",
    ['sales', '--company', '3'],
    5,
    { match: /^posdata: company 3 is not one this user may see; this user may see 1 My Company \(EUR\)$/ },
  ],
  // The same refused by Odoo itself (a context posdata did not check): its hint is --company's.
  [
    "a company outside the user's, in a hand-written context",
    ['sales', '--context', '{"allowed_company_ids": [3]}'],
    5,
    {
      match:
        /^posdata: Odoo refused access: Access to unauthorized or invalid companies; give --company only companies this user may see .*, or leave --company out to read all of them$/,
    },
  ],
  [
    'connection refused',
    ['sales', '--url', 'http://127.0.0.1:9'],
    6,
    { env: { POSDATA_PASSWORD: 'admin' }, match: /refused/ },
  ],
  [
    'stored secret for another host',
    ['sales', '--url', 'http://127.0.0.2:9'],
    3,
    { match: /stored secret of profile default is for .*; set POSDATA_PASSWORD/ },
  ],
];

describe('bad input', () => {
  it('has at least 40 rows', () => {
    expect(rows.length).toBeGreaterThanOrEqual(40);
  });

  for (const [name, args, code, opts] of rows) {
    it(`${name} → exit ${code}`, async () => {
      const e =
        opts?.env === 'none'
          ? { POSDATA_CONFIG_DIR: freshConfigDir() }
          : opts?.env === 'clerk'
            ? clerkEnv
            : { ...env, ...(opts?.env ?? {}) };
      const a = args.map((x) => (x === 'URL' ? sandbox.url : x));
      const out = a.includes('-o') || a[0] === 'login' ? a : [...a, '-o', OUT()];
      const r = await runCli([...out, '--rate', '0'], { env: e, input: opts?.input });
      expect(r.code, r.stderr).toBe(code);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^posdata: /);
      expect(r.stderr).not.toMatch(/\n\s+at |Error:|TypeError|node:internal/);
      if (opts?.match) expect(lines[0]).toMatch(opts.match);
      expect(r.stdout).toBe('');
      expect(readdirSync(dir)).toEqual([]);
    });
  }
});

// Every flag that needs no server is checked before the first request: against an address
// that counts connections and drops each, a bad value is exit 2 with no connection made.
describe('checked before any request', () => {
  const cases: [string, string[], RegExp][] = [
    [
      'sales --from garbage',
      ['sales', '--from', 'garbage'],
      /^posdata: --from 'garbage' is not a date or time; /,
    ],
    [
      'closures --to garbage',
      ['closures', '--to', 'garbage'],
      /^posdata: --to 'garbage' is not a date or time; /,
    ],
    ['payments --from impossible', ['payments', '--from', '2026-02-30'], /--from '2026-02-30' is not a date/],
    ['lines --from garbage', ['lines', '--from', 'someday'], /--from 'someday' is not a date/],
    [
      'sales --from after --to in --tz',
      ['sales', '--from', '2026-11-21', '--to', '2026-11-01', '--tz', 'UTC'],
      /is not before --to/,
    ],
    [
      'sales --sort sideways',
      ['sales', '--sort', 'id sideways'],
      /--sort 'id sideways' is not "field \[asc\|desc\]"/,
    ],
    ['refunds --sort empty', ['refunds', '--sort', ' , '], /--sort ' , ' is empty/],
    // PostgreSQL cuts names at 63 bytes: 40 letters of 2 bytes each are 80.
    [
      'sync --schema of 80 bytes',
      ['sync', '--schema', 'é'.repeat(40), '--to', 'postgres://posdata@127.0.0.1:9/pos'],
      /--schema 'é{40}' is 80 bytes, and PostgreSQL cuts a name at 63 bytes/,
    ],
    [
      'sync --schema of 64 letters',
      ['sync', '--schema', 's'.repeat(64), '--to', 'postgres://posdata@127.0.0.1:9/pos'],
      /is 64 bytes/,
    ],
  ];
  let silent: import('node:net').Server;
  let connections = 0;
  let url: string;
  beforeAll(async () => {
    const net = await import('node:net');
    silent = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', ok));
    url = `http://127.0.0.1:${(silent.address() as import('node:net').AddressInfo).port}`;
  });
  afterAll(() => {
    silent.close();
  });
  for (const [name, args, match] of cases) {
    it(`${name} → exit 2, no connection`, async () => {
      const before = connections;
      const r = await runCli([...args, '--url', url, '--db', 'demo', '--user', 'admin'], {
        env: { ...env, POSDATA_PASSWORD: 'admin' },
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(match);
      expect(r.stdout).toBe('');
      expect(connections - before).toBe(0);
    });
  }
});
