// The closed orders' lines come as three arrays of one group per company on 16-18 (books/read.ts
// lineTotals): each line's order, untaxed and taxed figure, in step because one row feeds every
// aggregate in turn. A server whose arrays are not in step would set totals against the wrong
// sessions and invoices: the run stops (exit 6, one line naming the lengths) instead of showing
// an entry that "disagrees" with its sales.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let proxy: RpcProxy;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 7, orders: 300, days: 5 });
  proxy = await startRpcProxy(sandbox.url);
  env = await loginEnv(proxy.url);
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

const BOOKS = ['books', '--from', '2026-11-01', '--to', '2026-11-30', '--tz', 'UTC', '--format', 'json'];

/** The grouping of the closed orders' lines as arrays. */
const linesAsArrays = (body: string): boolean =>
  body.includes('"pos.order.line"') && body.includes('price_subtotal:array_agg');

describe("the closed orders' lines as arrays", () => {
  it('in step: the books; one array short: exit 6 naming the lengths, no rows', async () => {
    proxy.reset();
    const fine = await runCli(BOOKS, { env });
    expect(fine.code, fine.stderr).toBe(0);
    expect((JSON.parse(fine.stdout) as unknown[]).length).toBeGreaterThan(0);
    expect((proxy.seen.get('read_group') ?? []).filter(linesAsArrays)).toHaveLength(1);
    let spoiled = 0;
    proxy.rewrite.set('read_group', (result, body) => {
      if (!linesAsArrays(body) || !Array.isArray(result)) return result;
      return result.map((g: Record<string, unknown>) => {
        const untaxed = g.price_subtotal;
        if (!Array.isArray(untaxed) || untaxed.length === 0) return g;
        spoiled++;
        return { ...g, price_subtotal: untaxed.slice(1) };
      });
    });
    const r = await runCli(BOOKS, { env });
    expect(spoiled).toBeGreaterThan(0);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^posdata: the server sent arrays of (\d+), \d+ and \1 figures for the lines' orders/,
    );
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
