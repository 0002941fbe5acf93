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
    // What the summary leaves out, by state in the order the table meets them: cancelled
    // tickets, and a draft when today's session is still open (the sandbox's data follows the clock).
    const sales = JSON.parse((await runCli(['sales', '--format', 'json', ...R], { env })).stdout) as {
      state: string;
      amount_total: number;
    }[];
    const left = new Map<string, { n: number; sum: number }>();
    for (const s of sales.filter((s) => !['paid', 'done', 'invoiced'].includes(s.state))) {
      const o = left.get(s.state) ?? { n: 0, sum: 0 };
      o.n++;
      o.sum += s.amount_total;
      left.set(s.state, o);
    }
    expect(left.get('cancel')?.n).toBeGreaterThan(0);
    const all = Number((await runCli(['sales', '--count', ...R], { env })).stdout);
    const notCounted = [...left.values()].reduce((n, o) => n + o.n, 0);
    expect(all).toBe(orders + notCounted);
    const words: Record<string, string> = { cancel: 'cancelled', draft: 'draft' };
    const named = [...left].map(([state, o]) => `${o.n} ${words[state] ?? state} (${o.sum.toFixed(2)})`);
    expect(lastLine(table.stdout)).toBe(
      `${all} sales: ${orders} counted, total ${total.toFixed(2)}; ${named.join(', ')} not counted`,
    );
  });

  it('without cancelled tickets, the plain total; without the state column, it says it adds every state', async () => {
    // paid and done: the open session's tickets and the closed ones' (paid alone can be one or
    // none just after midnight, when today's session has barely begun)
    const paid = await runCli(['sales', '--state', 'paid,done', '--format', 'table', ...R], { env });
    expect(lastLine(paid.stdout)).toMatch(/^\d+ sales, total \d+\.\d\d$/);
    const bare = await runCli(['sales', '--fields', 'id,amount_total', '--format', 'table', ...R], { env });
    expect(lastLine(bare.stdout)).toMatch(/^\d+ sales, total \d+\.\d\d of every state$/);
  });
});
