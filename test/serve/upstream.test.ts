// When Odoo misbehaves behind `posdata serve`: too slow (504), failing or gone (502), each as
// a problem document, and the service keeps answering afterwards. The faults are the
// sandbox's own (--faults); nothing is mocked.
import { afterEach, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../helpers/cli.js';
import { get, login, post, type Served, startServe } from './serve-process.js';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
type Sandbox = any;

const open: { sandbox?: Sandbox; served?: Served }[] = [];

async function setup(
  faults: string | undefined,
  args: string[],
): Promise<{ sandbox: Sandbox; served: Served }> {
  const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
  const sandbox = await startSandbox({ port: 0, seed: 4, orders: 200, faults });
  // URL and database by flags: a login through the CLI would meet the faults too.
  const served = await startServe(['--url', sandbox.url, '--db', 'demo', '--rate', '0', ...args], {
    POSDATA_CONFIG_DIR: freshConfigDir(),
  });
  open.push({ sandbox, served });
  return { sandbox, served };
}

afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.served?.stop();
    await o.sandbox?.close().catch(() => undefined);
  }
});

function problemOf(r: { status: number; type: string; text: string }): Record<string, unknown> {
  expect(r.type).toBe('application/problem+json');
  return JSON.parse(r.text) as Record<string, unknown>;
}

describe('Odoo behind the service fails', () => {
  it('too slow: 504', async () => {
    // Every request after start-up is answered after 3 s; --timeout is 1 s. Login is never retried.
    const { served } = await setup('every=1:slow3000', ['--timeout', '1']);
    const r = await post(served.base, '/api/v1/auth/login', { login: 'admin', password: 'admin' });
    expect(r.status).toBe(504);
    expect(problemOf(r).detail).toMatch(/did not answer in time/);
  });

  it('answering HTTP 502: 502', async () => {
    const { served } = await setup('every=1:502', []);
    const r = await post(served.base, '/api/v1/auth/login', { login: 'admin', password: 'admin' });
    expect(r.status).toBe(502);
    expect(problemOf(r).status).toBe(502);
  });

  it("Odoo refusing the user's session after login: 401, and the token is revoked", async () => {
    // With the protocol fixed (no detection probes), request 1 is serve's start-up version
    // probe, 2 and 3 the login (authenticate, context_get); the 4th, the first read, is
    // refused as an expired session.
    const { served } = await setup('expired@4', ['--protocol', 'jsonrpc']);
    const t = await login(served.base, 'admin', 'admin');
    const r = await get(served.base, '/api/v1/pos/configs', t);
    expect(r.status).toBe(401);
    expect(problemOf(r).detail).toMatch(/session expired; log in again with POST \/api\/v1\/auth\/login/);
    const again = await get(served.base, '/api/v1/pos/configs', t);
    expect(again.status).toBe(401);
    expect(problemOf(again).detail).toMatch(/unknown, revoked or expired/);
    expect(
      (await get(served.base, '/api/v1/pos/configs', await login(served.base, 'admin', 'admin'))).status,
    ).toBe(200);
  });

  it('gone after login: 502, and the service itself still answers', async () => {
    const { sandbox, served } = await setup(undefined, []);
    const t = await login(served.base, 'admin', 'admin');
    expect((await get(served.base, '/api/v1/pos/configs', t)).status).toBe(200);
    await sandbox.close();
    const r = await get(served.base, '/api/v1/sales?limit=5', t);
    expect(r.status).toBe(502);
    expect(problemOf(r).detail).toMatch(/refused|reach|reset/);
    expect((await get(served.base, '/api/v1/openapi.json')).status).toBe(200);
  });
});
