// The closing line of a sales table (issue 22, item 9): its total counts what posdata
// summary counts (paid, done and invoiced tickets) and names the tickets it leaves out, so
// that a shop manager comparing the two reads the same figure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let env: Record<string, string>;
const R = ['--rate', '0'];

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 4, orders: 200 });
  env = await loginEnv(sandbox.url);
});

afterAll(async () => {
  await sandbox?.close();
});

const lastLine = (s: string) => s.trimEnd().split('\n').at(-1);

describe('the sales table footer', () => {
  it('totals the counted tickets as the summary does, and names the cancelled ones with their amount', async () => {
    const table = await runCli(['sales', '--format', 'table', ...R], { env });
    expect(table.code, table.stderr).toBe(0);
    const sum = await runCli(
      ['summary', '--from', '2000-01-01', '--to', '2100-01-01', '--format', 'json', ...R],
      {
        env,
      },
    );
    const groups = JSON.parse(sum.stdout) as { orders: number; total: number }[];
    const orders = groups.reduce((n, g) => n + g.orders, 0);
    const total = groups.reduce((n, g) => n + g.total, 0);
    const cancelled = JSON.parse(
      (await runCli(['cancellations', '--format', 'json', ...R], { env })).stdout,
    ) as { amount_total: number }[];
    expect(cancelled.length).toBeGreaterThan(0);
    const all = Number((await runCli(['sales', '--count', ...R], { env })).stdout);
    const gone = cancelled.reduce((n, c) => n + c.amount_total, 0);
    expect(all).toBe(orders + cancelled.length);
    expect(lastLine(table.stdout)).toBe(
      `${all} sales: ${orders} counted, total ${total.toFixed(2)}; ${cancelled.length} cancelled (${gone.toFixed(2)}) not counted`,
    );
  });

  it('without cancelled tickets, the plain total; without the state column, it says it adds every state', async () => {
    const paid = await runCli(['sales', '--state', 'paid', '--format', 'table', ...R], { env });
    expect(lastLine(paid.stdout)).toMatch(/^\d+ sales, total \d+\.\d\d$/);
    const bare = await runCli(['sales', '--fields', 'id,amount_total', '--format', 'table', ...R], { env });
    expect(lastLine(bare.stdout)).toMatch(/^\d+ sales, total \d+\.\d\d of every state$/);
  });
});
