// `posdata serve` in front of Odoo 19: a login with an API key goes over JSON-2, one with a
// password over JSON-RPC (the protocol is negotiated per login, as `posdata login` does),
// and the answers are the commands' json output either way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { get, login, post, type Served, startServe } from './serve-process.js';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
let sandbox: any;
let served: Served;
const KEY = 'serve-test-admin-key-19';

beforeAll(async () => {
  const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
  sandbox = await startSandbox({ port: 0, seed: 19, orders: 400, odooVersion: 19, adminKey: KEY });
  served = await startServe(['--rate', '0', '--debug'], await loginEnv(sandbox.url, 'admin', KEY));
});

afterAll(async () => {
  await served?.stop();
  await sandbox?.close();
});

describe('Odoo 19 behind the service', () => {
  it('an API key logs in over JSON-2; refunds equal the command (is_refund on 19)', async () => {
    const t = await login(served.base, 'admin', KEY);
    const env = await loginEnv(sandbox.url, 'admin', KEY);
    for (const [path, args] of [
      ['/api/v1/refunds', ['refunds']],
      ['/api/v1/sales?limit=50&with_payments=true', ['sales', '--limit', '50', '--with-payments']],
    ] as [string, string[]][]) {
      const [http, cli] = await Promise.all([
        get(served.base, path, t),
        runCli([...args, '--format', 'json', '--rate', '0'], { env }),
      ]);
      expect(cli.code).toBe(0);
      expect(http.status).toBe(200);
      expect(http.text).toBe(cli.stdout);
      expect(JSON.parse(http.text).length).toBeGreaterThan(0);
    }
    expect(served.stderr()).toMatch(/→ json2 pos\.order\.search_read/);
    expect(served.stderr()).not.toContain(KEY);
  });

  it('a password logs in over JSON-RPC and reads the same records', async () => {
    const [byKey, byPassword] = await Promise.all([
      login(served.base, 'admin', KEY),
      login(served.base, 'admin', 'admin'),
    ]);
    const a = await get(served.base, '/api/v1/sessions/closures', byKey);
    const b = await get(served.base, '/api/v1/sessions/closures', byPassword);
    expect(b.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect(served.stderr()).toMatch(/→ jsonrpc pos\.session\.search_read/);
  });
});

describe('an Odoo without JSON-RPC (JSON-2 only)', () => {
  // biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
  let only2: any;
  beforeAll(async () => {
    const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
    only2 = await startSandbox({
      port: 0,
      seed: 20,
      orders: 300,
      odooVersion: 19,
      adminKey: KEY,
      jsonrpc: false,
    });
  });
  afterAll(async () => {
    await only2?.close();
  });

  it('answers 404 on /jsonrpc, and the CLI logs in and reads over JSON-2 with an API key', async () => {
    const r = await fetch(`${only2.url}/jsonrpc`, { method: 'POST', body: '{}' });
    expect(r.status).toBe(404);
    const env = await loginEnv(only2.url, 'admin', KEY);
    const sales = await runCli(['sales', '--limit', '3', '--format', 'json', '--rate', '0'], { env });
    expect(sales.stderr).toBe('');
    expect(JSON.parse(sales.stdout)).toHaveLength(3);
  });

  it('posdata sandbox --no-jsonrpc without --odoo-version 19 is a usage error', async () => {
    const r = await runCli(['sandbox', '--no-jsonrpc', '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'posdata: --no-jsonrpc needs --odoo-version 19; Odoo 17 has no JSON-2 to fall back on\n',
    );
  });

  it('serve starts (its version probe falls back to JSON-2) and serves an API-key login', async () => {
    const s = await startServe(['--rate', '0'], await loginEnv(only2.url, 'admin', KEY));
    try {
      const t = await login(s.base, 'admin', KEY);
      const r = await get(s.base, '/api/v1/sales?limit=3', t);
      expect(r.status).toBe(200);
      expect(JSON.parse(r.text)).toHaveLength(3);
      // A password cannot log in over JSON-2: that is a refused login, not a missing endpoint.
      for (const password of ['admin', 'wrong-password']) {
        const refused = await post(s.base, '/api/v1/auth/login', { login: 'admin', password });
        expect(refused.status).toBe(401);
      }
    } finally {
      await s.stop();
    }
  });
});
