// What `posdata serve` masks (issue 22, items 1 and 2): every secret it holds, whole, in its
// --debug log, even one inside another; in a problem document the requesting user's own
// secrets, in the values only, never in posdata's words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { get, login, type Served, startServe } from './serve-process.js';

// The admin's password is `admin`; its API key starts with it.
const KEY = 'adminkey-abc123';
let sandbox: SandboxHandle;
let served: Served;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 5, orders: 40, adminKey: KEY });
  served = await startServe(['--rate', '0', '--debug'], await loginEnv(sandbox.url, 'admin', KEY));
});

/** The log once it holds `line` (the line of a request is written after its answer). */
async function logWith(line: string): Promise<string> {
  for (let i = 0; i < 200 && !served.stderr().includes(line); i++)
    await new Promise((r) => setTimeout(r, 10));
  return served.stderr();
}

afterAll(async () => {
  await served?.stop();
  await sandbox?.close();
});

describe('serve --debug', () => {
  it('masks a password inside an API key whole, whichever came first (item 1)', async () => {
    const byPassword = await login(served.base, 'admin', 'admin');
    await login(served.base, 'admin', KEY);
    expect((await get(served.base, `/api/v1/sales?limit=${KEY}`, byPassword)).status).toBe(400);
    expect(
      (await get(served.base, `/api/v1/sales?order=${encodeURIComponent(KEY)}`, byPassword)).status,
    ).toBe(400);
    const log = await logWith('GET /api/v1/sales?order=*** 400');
    expect(log).toContain('GET /api/v1/sales?limit=*** 400');
    expect(log).not.toMatch(/key-abc|abc123/);
  });

  it("leaves posdata's words whole in problem documents and the log (item 2)", async () => {
    const pos = await login(served.base, 'pos', 'pos');
    const r = await get(served.base, '/api/v1/sales?fields=nosuch', pos);
    expect(r.status).toBe(400);
    const detail = JSON.parse(r.text).detail as string;
    expect(detail).toMatch(/^unknown field 'nosuch' on pos\.order; valid fields: .*pos_reference/);
    expect(detail).not.toContain('***');
    // The login is the password: masked as the value it is; the path's words stay.
    const log = await logWith('GET /api/v1/sales?fields=nosuch 400');
    expect(log).toContain('[rpc] → jsonrpc pos.order.fields_get');
    expect(log).not.toMatch(/\*\*\*[A-Za-z0-9._]/);
  });
});
