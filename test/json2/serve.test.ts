// `posdata serve` in front of an Odoo-19 sandbox: a service login with an API key goes over
// JSON-2, one with a password over JSON-RPC, and every endpoint answers the same bytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../helpers/cli.js';
import { get, login, type Served, startServe } from '../serve/serve-process.js';
import { ADMIN_KEY, type Sandbox, start19 } from './harness.js';

let sbx: Sandbox;
let served: Served;
let viaKey: string;
let viaPassword: string;

beforeAll(async () => {
  sbx = await start19({ orders: 200, seed: 23 });
  served = await startServe(['--url', sbx.url, '--db', 'demo', '--debug', '--rate', '0'], {
    POSDATA_CONFIG_DIR: freshConfigDir(),
  });
  viaKey = await login(served.base, 'admin', ADMIN_KEY);
  viaPassword = await login(served.base, 'admin', 'admin');
}, 120_000);

afterAll(async () => {
  await served?.stop();
  await sbx?.close();
});

describe('posdata serve over both protocols', () => {
  it('the key login talks JSON-2 to Odoo, the password login JSON-RPC', () => {
    expect(served.stderr()).toMatch(/→ json2 /);
    expect(served.stderr()).toMatch(/→ jsonrpc /);
  });

  for (const path of [
    '/api/v1/pos/configs',
    '/api/v1/sales?limit=60&with_payments=true',
    '/api/v1/refunds',
    '/api/v1/sessions/closures',
    '/api/v1/cancellations',
    '/api/v1/payments?limit=100',
    '/api/v1/products',
    '/api/v1/reconcile?from=2000-01-01&to=today',
  ]) {
    it(`GET ${path}: the same answer`, async () => {
      const [a, b] = await Promise.all([get(served.base, path, viaKey), get(served.base, path, viaPassword)]);
      expect(a.status, a.text).toBe(200);
      expect(b.status, b.text).toBe(200);
      expect(a.text).toBe(b.text);
      expect(a.text.length).toBeGreaterThan(20);
    });
  }

  it('GET /api/v1/sales/{id}/lines: the same answer', async () => {
    const sales = JSON.parse((await get(served.base, '/api/v1/sales?limit=3', viaKey)).text) as {
      id: number;
    }[];
    expect(sales.length).toBe(3);
    for (const { id } of sales) {
      const path = `/api/v1/sales/${id}/lines`;
      const [a, b] = await Promise.all([get(served.base, path, viaKey), get(served.base, path, viaPassword)]);
      expect(a.status, a.text).toBe(200);
      expect(a.text).toBe(b.text);
    }
  });

  it('the key never shows in the service log (with --debug)', () => {
    expect(served.stderr()).not.toContain(ADMIN_KEY);
  });
});
