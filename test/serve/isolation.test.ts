// One user of `posdata serve` learns nothing about another's secret: problem documents are
// masked with the requesting user's own secret only (issue 18, case 12), and the login
// limit holds per login as well as per address, so 127.0.0.2, 127.0.0.3 … gain nothing.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { get, login, post, type Served, startServe } from './serve-process.js';

const KEY = 'Capybara-8812-live-api-key';
let sandbox: SandboxHandle;
let served: Served;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 5, orders: 50, adminKey: KEY });
  served = await startServe(['--url', sandbox.url, '--db', 'demo', '--rate', '0', '--client-rate', '4'], {
    POSDATA_CONFIG_DIR: freshConfigDir(),
  });
});

afterAll(async () => {
  await served?.stop();
  await sandbox?.close();
});

/** A login POSTed from a given loopback address (the whole 127/8 is this machine). */
function loginFrom(localAddress: string, body: unknown): Promise<{ status: number; text: string }> {
  const u = new URL(`${served.base}/api/v1/auth/login`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe("another user's live secret is never an oracle", () => {
  it("a login named like another user's live API key comes back as typed, not as ***", async () => {
    const admin = await login(served.base, 'admin', KEY);
    expect(admin).toBeTruthy();
    const r = await post(served.base, '/api/v1/auth/login', { login: KEY, password: 'wrong-guess' });
    expect(r.status).toBe(401);
    const detail = JSON.parse(r.text).detail as string;
    expect(detail).toContain(`login '${KEY}'`);
    expect(detail).not.toContain('***');
  });

  it("a path named like another user's live API key is echoed as typed", async () => {
    const r = await get(served.base, `/api/v1/${KEY}`);
    expect(r.status).toBe(404);
    expect(JSON.parse(r.text).detail).toContain(KEY);
  });

  it("a user's own secret is still masked in what that user gets back", async () => {
    const own = await login(served.base, 'pos', 'pos');
    // In the value the user sent; posdata's words ("pos.order") are never masked.
    const r = await get(served.base, '/api/v1/sales?fields=name,nope_pos', own);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).detail).toMatch(/^unknown field 'nope_\*\*\*' on pos\.order;/);
    const admin = await login(served.base, 'admin', KEY);
    const a = await get(served.base, '/api/v1/sales?fields=name,nope_pos', admin);
    expect(JSON.parse(a.text).detail).toMatch(/^unknown field 'nope_pos' on pos\.order;/); // not the POS user's secret for the admin
  });
});

describe('the login limit holds per login too', () => {
  it('guesses for one login from 127.0.0.2, .3, .4 … hit 429 after --client-rate attempts', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await loginFrom(`127.0.0.${10 + i}`, { login: 'clerk', password: `guess-${i}` });
      statuses.push(r.status);
    }
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.slice(4)).toEqual([429, 429, 429, 429]);
    // Another login from a fresh address is not affected.
    const other = await loginFrom('127.0.0.40', { login: 'pos', password: 'pos' });
    expect(other.status).toBe(200);
  });
});
