// Issue 18, case 17: authentication is retried where the server cannot have judged the
// secret (429, 502/503/504, a connection reset before any answer), never after a real
// rejection (a wrong password is still sent once). The protocol probe at login is retried
// too, and when it still fails, login fails instead of guessing JSON-RPC for an API key.
import { afterEach, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli, SUITE_SECRET } from '../helpers/cli.js';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
type Sandbox = any;
const open: Sandbox[] = [];

async function sandbox(faults: string | undefined, odooVersion: 17 | 19 = 17): Promise<Sandbox> {
  const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
  const s = await startSandbox({ port: 0, seed: 4, orders: 50, adminKey: SUITE_SECRET, faults, odooVersion });
  open.push(s);
  return s;
}

afterEach(async () => {
  while (open.length) await open.pop().close();
});

function login(s: Sandbox, secret: string, extra: string[] = []) {
  const env = { POSDATA_CONFIG_DIR: freshConfigDir() };
  const args = ['login', '--url', s.url, '--db', 'demo', '--user', 'admin', '--password-stdin', ...extra];
  return runCli(args, { env, input: secret }).then((r) => ({ ...r, env }));
}

describe('authenticate over JSON-RPC', () => {
  for (const kind of ['502', '503', '504', '429', 'reset']) {
    it(`is retried after ${kind} on the login request`, async () => {
      // --protocol jsonrpc: the first HTTP request is common.authenticate.
      const s = await sandbox(`${kind}@1`);
      const r = await login(s, SUITE_SECRET, ['--protocol', 'jsonrpc']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/logged in/);
    });
  }

  it('sends a wrong password once only', async () => {
    const s = await sandbox(undefined);
    const r = await login(s, 'wrong', ['--protocol', 'jsonrpc']);
    expect(r.code, r.stderr).toBe(3);
    expect(s.requestCount()).toBe(1);
  });

  it('after a 502, sends a wrong password once more only (the 502 never reached Odoo)', async () => {
    const s = await sandbox('502@1');
    const r = await login(s, 'wrong', ['--protocol', 'jsonrpc']);
    expect(r.code, r.stderr).toBe(3);
    expect(s.requestCount()).toBe(2);
  });
});

describe('the protocol probe at login (Odoo 19, an API key)', () => {
  it('a 502 on the probe is retried: the key still gets JSON-2', async () => {
    // Request 1 is GET /json/version (exempt from faults as a version probe), request 2
    // the JSON-2 context_get that tells an API key from a password.
    const s = await sandbox('502@2', 19);
    const r = await login(s, SUITE_SECRET);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/over json2/);
  });

  it('a probe that keeps failing fails login instead of storing JSON-RPC', async () => {
    const s = await sandbox('502@2', 19);
    const r = await login(s, SUITE_SECRET, ['--retries', '0']);
    expect(r.code, r.stderr).toBe(6);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^posdata: .*502/);
    const who = await runCli(['whoami'], { env: r.env });
    expect(who.code).toBe(3);
  });

  it('a version probe that fails is retried too', async () => {
    const s = await sandbox('502@1;probes', 19);
    const r = await login(s, SUITE_SECRET);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/over json2/);
  });

  it('a version probe that keeps failing fails login too', async () => {
    const s = await sandbox('502@1;probes', 19);
    const r = await login(s, SUITE_SECRET, ['--retries', '0']);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/^posdata: .*502/);
  });
});
