// Bad servers and bad networks: the sandbox misbehaves on purpose (--faults); posdata
// recovers from what is transient, and otherwise says what went wrong in one line with
// the contract's exit code, loses nothing and exits by itself.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loginEnv, runCli, SUITE_SECRET, spawnCli } from '../helpers/cli.js';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
type Sandbox = any;
const open: Sandbox[] = [];

// The data hangs off the sandbox's clock: twins get the same one.
const NOW = new Date();

async function sandboxWith(faults: string | undefined, orders = 300, seed = 5): Promise<Sandbox> {
  const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
  const s = await startSandbox({ port: 0, seed, orders, adminKey: SUITE_SECRET, faults, now: NOW });
  open.push(s);
  return s;
}

afterEach(async () => {
  while (open.length) await open.pop().close();
});

// Faults hit HTTP requests by number. Login makes some requests first: count them on a
// clean sandbox, then aim the fault at the run's first data request (after fields_get).
let loginRequests: number | undefined;
async function requestsOfLogin(): Promise<number> {
  if (loginRequests === undefined) {
    const clean = await sandboxWith(undefined);
    await loginEnv(clean.url, 'admin', SUITE_SECRET);
    loginRequests = clean.requestCount() as number;
  }
  return loginRequests;
}

/** A sandbox whose `first`-th request after login (1 = fields_get, 2 = the first page) misbehaves. */
async function faultyAfterLogin(
  kind: string,
  first = 2,
  count = 1,
  orders = 300,
): Promise<[Sandbox, Record<string, string>]> {
  const n = await requestsOfLogin();
  const at = Array.from({ length: count }, (_, i) => n + first + i).join(',');
  const faulty = await sandboxWith(`${kind}@${at}`, orders);
  const env = await loginEnv(faulty.url, 'admin', SUITE_SECRET);
  return [faulty, env];
}

/**
 * Logs in on a clean twin (same seed, same uid) and points the stored profile at the faulty
 * server, so that the run itself makes only read calls there: authentication is never
 * retried, by design, and must not meet an injected fault.
 */
async function envPointingAt(clean: Sandbox, faulty: Sandbox): Promise<Record<string, string>> {
  const env = await loginEnv(clean.url, 'admin', SUITE_SECRET);
  const file = join(env.POSDATA_CONFIG_DIR, 'config.json');
  const store = JSON.parse(readFileSync(file, 'utf8'));
  store.profiles.default.url = `${faulty.url.replace(/\/$/, '')}/`;
  writeFileSync(file, JSON.stringify(store));
  return env;
}

const FAST = ['--rate', '0', '--timeout', '2', '--format', 'json', '--limit', '5'];

describe('transient faults are retried', () => {
  for (const kind of ['502', '503', '504', '429', 'reset', 'cut', 'slow3000']) {
    it(`recovers from ${kind} on the first data request`, async () => {
      const [, env] = await faultyAfterLogin(kind, 2, 2);
      const r = await runCli(['sales', ...FAST, '--debug'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveLength(5);
      expect(r.stderr).toMatch(/retry|retrying/);
    });
  }

  it('gives up with exit 6 after the last try, in one line', async () => {
    const [faulty, env] = await faultyAfterLogin('502', 2, 50);
    const before = faulty.requestCount();
    // No money asked for: no currency read goes out beside the first page.
    const r = await runCli(['sales', ...FAST, '--retries', '2', '--fields', 'id,name,state'], { env });
    expect(r.code).toBe(6);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^posdata: .*HTTP 502/);
    // fields_get, then the first page: one try and two retries.
    expect(faulty.requestCount() - before).toBe(4);
    expect(r.stdout).toBe('');
  });
  it('a reply cut short on every try: exit 6, in one line, the old file kept', async () => {
    const [faulty, env] = await faultyAfterLogin('cut', 2, 50);
    const dir = mkdtempSync(join(tmpdir(), 'posdata-fault-'));
    const out = join(dir, 'out.csv');
    writeFileSync(out, 'OLD\n');
    const before = faulty.requestCount();
    const r = await runCli(['sales', ...FAST, '--retries', '2', '--fields', 'id,name,state', '-o', out], {
      env,
    });
    expect(r.code).toBe(6);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^posdata: .*(cut short|reset)/);
    // fields_get, then the first page: one try and --retries 2 more, each one request (the
    // same POST again, never a Range request for the rest).
    expect(faulty.requestCount() - before).toBe(1 + 3);
    expect(readFileSync(out, 'utf8')).toBe('OLD\n');
    expect(readdirSync(dir)).toEqual(['out.csv']);
  });
});

describe('replies that are not JSON-RPC', () => {
  const cases: [string, number, RegExp][] = [
    ['html', 6, /HTML page, not JSON-RPC/],
    ['notrpc', 6, /not JSON-RPC/],
    ['expired', 3, /session expired/],
  ];
  for (const [kind, code, msg] of cases) {
    it(`${kind} → exit ${code} in one line, nothing on stdout, no file`, async () => {
      const [, env] = await faultyAfterLogin(kind, 2, 1);
      const dir = mkdtempSync(join(tmpdir(), 'posdata-fault-'));
      const r = await runCli(['sales', ...FAST, '-o', join(dir, 'out.json')], { env });
      expect(r.signal).toBeNull();
      expect(r.code).toBe(code);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^posdata: /);
      expect(lines[0]).toMatch(msg);
      expect(readdirSync(dir)).toEqual([]);
    });
  }
});

describe('a checkpointed export through a 5% fault rate', () => {
  it('gets exactly the rows of a clean export', async () => {
    const clean = await sandboxWith(undefined, 50_000, 8);
    const faulty = await sandboxWith('rate=0.05:502,503,504,429,reset,cut', 50_000, 8);
    const dir = mkdtempSync(join(tmpdir(), 'posdata-fault-'));
    const env = await envPointingAt(clean, faulty);
    const a = await runCli(
      ['sales', '-o', join(dir, 'clean.csv'), '--rate', '0', '--page-size', '1000', '--url', clean.url],
      // The stored secret is for the profile's URL only: another --url needs its own.
      { env: { ...env, POSDATA_PASSWORD: SUITE_SECRET } },
    );
    expect(a.code).toBe(0);
    const b = await runCli(
      [
        'sales',
        '--checkpoint',
        join(dir, 'f.ckpt'),
        '-o',
        join(dir, 'faulty.csv'),
        '--rate',
        '0',
        '--page-size',
        '1000',
        '--debug',
      ],
      { env },
    );
    expect(
      b.code,
      b.stderr
        .split('\n')
        .filter((l) => !l.startsWith('[rpc]'))
        .join('\n'),
    ).toBe(0);
    // Faults did happen, and were retried.
    expect(b.stderr).toMatch(/retry/);
    const sorted = (f: string) => readFileSync(join(dir, f), 'utf8').trim().split('\n').slice(1).sort();
    const rowsClean = sorted('clean.csv');
    expect(rowsClean.length).toBeGreaterThanOrEqual(50_000);
    expect(sorted('faulty.csv')).toEqual(rowsClean);
  }, 180_000);
});

describe('hygiene', () => {
  it('--insecure warns on stderr and still works', async () => {
    const s = await sandboxWith(undefined);
    const env = await loginEnv(s.url, 'admin', SUITE_SECRET);
    const r = await runCli(['configs', '--format', 'json', '--insecure', '--rate', '0'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^posdata: warning: TLS certificate verification is off/);
  });

  it('a failing run exits by itself: no open handle keeps it alive', async () => {
    const [, env] = await faultyAfterLogin('html', 1, 50);
    // The kill is a ceiling: a run left alive by a handle would wait for it forever.
    const r = await spawnCli(['sales', '--format', 'csv', '--rate', '0'], { env, killAfterMs: 120_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(6);
  });
});
