// Which calls are retried (issue 22, item 11): a call whose cost grows with the range (Odoo's
// grouping, its Sales Details report) is sent once, never again after a timeout, since the
// server may still be computing the first copy; a page of a read is retried as before. A proxy
// in front of a sandbox holds back the replies of the calls it is told to, over real sockets,
// and counts every request by its body.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let held: RpcProxy;
let env: Record<string, string>;
const P = ['--rate', '0', '--tz', 'UTC', '--format', 'json', '--from', '2000-01-01', '--to', 'today'];

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 21, orders: 400 });
  held = await startRpcProxy(sandbox.url);
  env = await loginEnv(held.url);
});
afterAll(async () => {
  await held?.close();
  await sandbox?.close();
});
beforeEach(() => held.reset());

/** Each request body of these methods, and how many times it was sent. */
const sends = (methods: string[]): number[] => held.sends(methods);

describe('a costly call is sent once', () => {
  it('summary: grouping calls that time out are not retried; one line says to narrow the range (exit 6)', async () => {
    held.slow.set('read_group', 4000);
    const r = await runCli(['summary', ...P, '--timeout', '1', '--retries', '4'], { env });
    const tries = sends(['read_group']);
    expect(tries.length).toBeGreaterThan(0);
    expect(
      tries.every((n) => n === 1),
      `sent ${tries.join(', ')} times`,
    ).toBe(true);
    expect(r.code, r.stderr).toBe(6);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^posdata: .*did not answer in time.*read_group was sent once, not retried.*narrow the range/,
    );
  });

  it("summary --check-odoo: Odoo's Sales Details that times out is sent once (exit 6), the data already out", async () => {
    held.slow.set('get_sale_details', 4000);
    const r = await runCli(['summary', ...P, '--check-odoo', '--timeout', '1', '--retries', '4'], { env });
    expect(held.seen.get('get_sale_details')).toHaveLength(1);
    expect(r.code, r.stderr).toBe(6);
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/get_sale_details was sent once, not retried.*narrow the range/);
  });

  it('a costly call the server did not take on (503) is sent again', async () => {
    held.busyOnce.add('read_group');
    const r = await runCli(['summary', ...P], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(sends(['read_group']).filter((n) => n === 2)).toHaveLength(1);
  });

  it('a page of a read that times out is retried, as before', async () => {
    held.slow.set('search_read', 2500);
    const slowOnce = held.slow;
    // Only the first try is slow: the proxy forgets the delay once it is seen.
    const r0 = runCli(['sales', '--rate', '0', '--format', 'json', '--limit', '5', '--timeout', '1'], {
      env,
    });
    const until = Date.now() + 20_000;
    while (!(held.seen.get('search_read')?.length ?? 0) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    slowOnce.delete('search_read');
    const r = await r0;
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(5);
    expect(Math.max(...sends(['search_read']))).toBeGreaterThan(1);
  });
});
