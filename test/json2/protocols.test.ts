// Every read command gives the same output over JSON-2 and over JSON-RPC, against one
// Odoo-19 sandbox: logged in once with the admin API key over `--protocol json2` and once
// with the same key as the JSON-RPC password (Odoo accepts a key in place of a password).
// Also: whoami names the protocol and version; auto picks JSON-2 for a key and JSON-RPC for
// a password; the key never shows in any output, --debug included.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli, transcript } from '../helpers/cli.js';
import { ADMIN_KEY, mustLogin, type Sandbox, start19 } from './harness.js';

let sbx: Sandbox;
let j2: Record<string, string>;
let rpc: Record<string, string>;
/** This file's own folder: files named after the pid outlived the run and met a later one's pid. */
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'posdata-j2-'));
  sbx = await start19({ orders: 400 });
  [j2, rpc] = await Promise.all([
    mustLogin(sbx.url, ADMIN_KEY, 'json2'),
    mustLogin(sbx.url, ADMIN_KEY, 'jsonrpc'),
  ]);
}, 60_000);

afterAll(async () => {
  await sbx?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function both(args: string[]): Promise<{ json2: string; jsonrpc: string }> {
  const [a, b] = await Promise.all([runCli(args, { env: j2 }), runCli(args, { env: rpc })]);
  expect(a.stderr, `json2: ${args.join(' ')}`).toBe('');
  expect(b.stderr, `jsonrpc: ${args.join(' ')}`).toBe('');
  expect(a.code).toBe(0);
  expect(b.code).toBe(0);
  return { json2: a.stdout, jsonrpc: b.stdout };
}

const COMMANDS: [string, string[], { nonEmpty: boolean }][] = [
  ['configs', ['configs'], { nonEmpty: true }],
  ['sales', ['sales'], { nonEmpty: true }],
  ['sales --with-payments', ['sales', '--with-payments'], { nonEmpty: true }],
  ['refunds', ['refunds'], { nonEmpty: true }],
  ['cancellations', ['cancellations'], { nonEmpty: false }],
  ['closures', ['closures'], { nonEmpty: true }],
  ['payments', ['payments'], { nonEmpty: true }],
  ['products', ['products'], { nonEmpty: true }],
  // Several pages by id keyset, and by offset under another order.
  ['sales, keyset pages', ['sales', '--page-size', '37', '--with-payments'], { nonEmpty: true }],
  [
    'sales, offset pages, filters',
    [
      'sales',
      '--page-size',
      '25',
      '--sort',
      'amount_total desc, id',
      '--state',
      'paid,done',
      '--limit',
      '90',
    ],
    { nonEmpty: true },
  ],
  ['payments of register 1', ['payments', '--config-id', '1', '--page-size', '50'], { nonEmpty: true }],
];

describe('every read command: identical json over json2 and jsonrpc', () => {
  for (const [label, args, { nonEmpty }] of COMMANDS) {
    it(label, async () => {
      const out = await both([...args, '--format', 'json']);
      expect(out.json2).toBe(out.jsonrpc);
      const rows = JSON.parse(out.json2) as unknown[];
      expect(Array.isArray(rows)).toBe(true);
      if (nonEmpty) expect(rows.length).toBeGreaterThan(0);
    });
  }

  it('refunds over JSON-2 are the is_refund orders, each pointing at its original', async () => {
    const out = await both([
      'refunds',
      '--format',
      'json',
      '--fields',
      'name,amount_total,refunded_order_id',
    ]);
    const rows = JSON.parse(out.json2) as { amount_total: number; refunded_order_id: unknown }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.refunded_order_id).toBeTruthy();
  });

  it('lines of several tickets, and of a missing one (exit 4), alike on both', async () => {
    const sales = JSON.parse((await both(['sales', '--format', 'json', '--limit', '4'])).json2) as {
      id: number;
    }[];
    const refunds = JSON.parse((await both(['refunds', '--format', 'json', '--limit', '2'])).json2) as {
      id: number;
    }[];
    const ids = [...sales, ...refunds].map((o) => String(o.id));
    expect(ids.length).toBe(6);
    for (const id of ids) {
      const out = await both(['lines', id, '--format', 'json']);
      expect(out.json2).toBe(out.jsonrpc);
      expect((JSON.parse(out.json2) as unknown[]).length).toBeGreaterThan(0);
    }
    const [a, b] = await Promise.all([
      runCli(['lines', '99999999', '--format', 'json'], { env: j2 }),
      runCli(['lines', '99999999', '--format', 'json'], { env: rpc }),
    ]);
    expect(a.code).toBe(4);
    expect(b.code).toBe(4);
    expect(a.stderr).toBe(b.stderr);
  });

  it('csv and ndjson exports to files are byte-identical', async () => {
    for (const ext of ['csv', 'ndjson']) {
      const fa = join(dir, `a.${ext}`);
      const fb = join(dir, `b.${ext}`);
      const [a, b] = await Promise.all([
        runCli(['payments', '-o', fa], { env: j2 }),
        runCli(['payments', '-o', fb], { env: rpc }),
      ]);
      expect(a.stderr).toBe('');
      expect(a.code).toBe(0);
      expect(b.code).toBe(0);
      const ta = readFileSync(fa, 'utf8');
      expect(ta.length).toBeGreaterThan(100);
      expect(ta).toBe(readFileSync(fb, 'utf8'));
    }
  });
});

describe('exports and reconcile: identical over json2 and jsonrpc', () => {
  it('reconcile over all closed sessions', async () => {
    const args = ['reconcile', '--from', '2000-01-01', '--to', 'today', '--format', 'json'];
    const out = await both(args);
    expect(out.json2).toBe(out.jsonrpc);
    expect((JSON.parse(out.json2) as unknown[]).length).toBeGreaterThan(0);
  });

  it('a checkpoint export, then its incremental second run', async () => {
    const ca = join(dir, 'a.checkpoint');
    const cb = join(dir, 'b.checkpoint');
    for (let run = 1; run <= 2; run++) {
      const [a, b] = await Promise.all([
        runCli(['sales', '--checkpoint', ca, '--format', 'ndjson'], { env: j2 }),
        runCli(['sales', '--checkpoint', cb, '--format', 'ndjson'], { env: rpc }),
      ]);
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      expect(a.stdout).toBe(b.stdout);
      if (run === 1) expect(a.stdout.split('\n').length).toBeGreaterThan(100);
    }
  });
});

describe('whoami and protocol choice', () => {
  it('whoami says json2 and 19.0 over JSON-2, jsonrpc and 19.0 over JSON-RPC, same user', async () => {
    const [a, b] = await Promise.all([
      runCli(['whoami', '--format', 'json'], { env: j2 }),
      runCli(['whoami', '--format', 'json'], { env: rpc }),
    ]);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    const wa = JSON.parse(a.stdout) as Record<string, unknown>;
    const wb = JSON.parse(b.stdout) as Record<string, unknown>;
    expect(wa.protocol).toBe('json2');
    expect(wb.protocol).toBe('jsonrpc');
    expect(wa.server_version).toBe('19.0');
    expect(wb.server_version).toBe('19.0');
    expect(wa.uid).toBe(2);
    expect(wa.uid).toBe(wb.uid);
    expect(wa.tz).toBe(wb.tz);
    expect(wa.lang).toBe(wb.lang);
  });

  it('auto picks json2 for an API key and jsonrpc for a password', async () => {
    const withKey = await mustLogin(sbx.url, ADMIN_KEY);
    const withPassword = await mustLogin(sbx.url, 'admin');
    const [a, b] = await Promise.all([
      runCli(['whoami', '--format', 'json'], { env: withKey }),
      runCli(['whoami', '--format', 'json'], { env: withPassword }),
    ]);
    expect((JSON.parse(a.stdout) as { protocol: string }).protocol).toBe('json2');
    expect((JSON.parse(b.stdout) as { protocol: string }).protocol).toBe('jsonrpc');
  });

  it('auto also decides for credentials from the environment alone (no login)', async () => {
    const env = {
      POSDATA_CONFIG_DIR: freshConfigDir(),
      POSDATA_URL: sbx.url,
      POSDATA_DB: 'demo',
      POSDATA_USER: 'admin',
    };
    const a = await runCli(['whoami', '--format', 'json'], { env: { ...env, POSDATA_PASSWORD: ADMIN_KEY } });
    const b = await runCli(['whoami', '--format', 'json'], { env: { ...env, POSDATA_PASSWORD: 'admin' } });
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect((JSON.parse(a.stdout) as { protocol: string }).protocol).toBe('json2');
    expect((JSON.parse(b.stdout) as { protocol: string }).protocol).toBe('jsonrpc');
  });

  it('--protocol on a command overrides the stored one', async () => {
    const r = await runCli(['whoami', '--format', 'json', '--protocol', 'jsonrpc'], { env: j2 });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { protocol: string }).protocol).toBe('jsonrpc');
  });
});

describe('the API key stays secret', () => {
  it('--debug shows each JSON-2 call with the key masked', async () => {
    const r = await runCli(
      ['sales', '--with-payments', '--format', 'json', '--limit', '60', '--page-size', '25', '--debug'],
      {
        env: j2,
      },
    );
    expect(r.code).toBe(0);
    // The request as JSON-2 sends it: the path and the named arguments, not execute_kw's list.
    expect(r.stderr).toMatch(
      /→ json2 pos\.order\.search_read POST \/json\/2\/pos\.order\/search_read \(Authorization: bearer \*\*\*\) \{"domain":\[/,
    );
    expect(r.stderr).toMatch(/"fields":\["id","name",/);
    expect(r.stderr).not.toMatch(/→ json2 .*"\*\*\*"/);
    expect(r.stderr).not.toContain(ADMIN_KEY);
    expect(r.stdout).not.toContain(ADMIN_KEY);
    const l = await runCli(
      ['login', '--url', sbx.url, '--db', 'demo', '--user', 'admin', '--password-stdin', '--debug'],
      {
        env: { POSDATA_CONFIG_DIR: freshConfigDir() },
        input: ADMIN_KEY,
      },
    );
    expect(l.code).toBe(0);
    expect(l.stderr).toMatch(/json2/);
    expect(l.stderr).not.toContain(ADMIN_KEY);
  });

  it('no output of any run in this file contains the key', () => {
    expect(transcript.length).toBeGreaterThan(20);
    for (const t of transcript) expect(t).not.toContain(ADMIN_KEY);
  });
});
