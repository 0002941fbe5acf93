// What a summary waits for before asking the next thing (each wait is a round trip: ~100 ms
// against a real Odoo, and in a chain every server's round at once). The registers' names of a
// summary by register need only the orders' groups: they are asked beside the lines and the
// payments, not after every answer is in. A proxy holds the payments' answer back until the
// names are asked; if they never are, it lets it go once the lines' per-product rows (asked
// after the products' taxes, later than the names) are on their way, and the names came late.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let proxy: RpcProxy;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 5, orders: 600, days: 6, now: new Date('2024-06-15T12:00:00Z') });
  proxy = await startRpcProxy(sandbox.url);
  env = await loginEnv(proxy.url);
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

describe('summary --by register', () => {
  it("asks the registers' names before the payments' answer is in", async () => {
    proxy.reset();
    let release: (by: string) => void = () => undefined;
    const released = new Promise<string>((r) => {
      release = r;
    });
    proxy.before.set('read', async (body) => {
      if (body.includes('"pos.config"')) release('names');
    });
    proxy.before.set('read_group', async (body) => {
      if (body.includes('"pos.payment"')) await released;
      else if (body.includes('"report.pos.order"') && body.includes('"product_id"')) release('rows');
    });
    const r = await runCli(
      [
        'summary',
        '--date',
        '2024-06-14',
        '--tz',
        'UTC',
        '--rate',
        '0',
        '--format',
        'json',
        '--by',
        'register',
      ],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(await released).toBe('names');
    // The names are on the rows, and asked once.
    const rows = JSON.parse(r.stdout) as { register: string }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.register).toMatch(/\S/);
    expect(proxy.seen.get('read')?.filter((b) => b.includes('"pos.config"'))).toHaveLength(1);
  });
});
