// The discounted sales' lines come as three arrays of one group per company (loss-reads.ts,
// 7b2b03e): each line's order, discount and taxed total, in step because one row feeds every
// aggregate in turn. A server whose arrays are not in step would set discounts against the
// wrong orders: the run stops (exit 6, one line naming the lengths) instead of showing figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let proxy: RpcProxy;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 12, orders: 300, days: 5 });
  proxy = await startRpcProxy(sandbox.url);
  env = await loginEnv(proxy.url);
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

const LOSS = [
  'summary',
  '--from',
  '2026-11-20',
  '--tz',
  'UTC',
  '--rate',
  '0',
  '--by',
  'cashier',
  '--loss',
  '--format',
  'json',
];

/** The grouping of the discounted lines as arrays, as --debug sends it. */
const linesAsArrays = (body: string): boolean =>
  body.includes('"pos.order.line"') && body.includes('discount:array_agg');

describe("the discounted lines' arrays", () => {
  it('in step: the loss figures; one array short: exit 6 naming the lengths, no figures', async () => {
    proxy.reset();
    const fine = await runCli(LOSS, { env });
    expect(fine.code, fine.stderr).toBe(0);
    expect((proxy.seen.get('read_group') ?? []).filter(linesAsArrays)).toHaveLength(1);
    let spoiled = 0;
    proxy.rewrite.set('read_group', (result, body) => {
      if (!linesAsArrays(body) || !Array.isArray(result)) return result;
      return result.map((g: Record<string, unknown>) => {
        if (!Array.isArray(g.discount) || g.discount.length === 0) return g;
        spoiled++;
        return { ...g, discount: g.discount.slice(1) };
      });
    });
    const r = await runCli(LOSS, { env });
    expect(spoiled).toBeGreaterThan(0);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^posdata: the server sent arrays of (\d+), \d+ and \1 figures for the discounted lines'/,
    );
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
