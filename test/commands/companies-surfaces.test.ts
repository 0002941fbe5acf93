// The surfaces of a database with companies in several currencies (a sandbox of three: EUR,
// USD, JPY): a list table's closing line gives one total per currency, each equal to Odoo's
// own per company, never a sum of two; a one-currency run's line is as it always was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const NOW = new Date('2026-11-25T12:00:00Z');
let sb: SandboxHandle;
let env: Record<string, string>;
let rpc: ReturnType<typeof rpcClient>;

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 9, orders: 40, days: 3, companies: 3, now: NOW });
  rpc = rpcClient(sb.url);
  env = await loginEnv(sb.url);
});
afterAll(() => sb.close());

/** Odoo's own sum of `field` per company over the domain. */
async function odooSums(model: string, field: string, domain: unknown[]): Promise<Map<number, number>> {
  const groups = await rpc.ok<({ company_id: [number, string] } & Record<string, number>)[]>(
    model,
    'read_group',
    [domain, [`${field}:sum`], ['company_id']],
    { lazy: false },
  );
  return new Map(groups.map((g) => [g.company_id[0], g[field] as number]));
}

const TABLE = ['--rate', '0', '--format', 'table', '--from', '2000-01-01', '--to', '2026-11-25'];
const lastLine = (s: string) => s.trim().split('\n').at(-1) as string;

describe('a list table over several currencies', () => {
  it('sales: one total per currency, each Odoo’s own for that company', async () => {
    const r = await runCli(['sales', ...TABLE], { env, columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    const sums = await odooSums('pos.order', 'amount_total', [['state', 'in', ['paid', 'done', 'invoiced']]]);
    const line = lastLine(r.stdout);
    expect(line).toContain(
      `total ${(sums.get(1) as number).toFixed(2)} EUR, ${(sums.get(2) as number).toFixed(2)} USD, ${(sums.get(3) as number).toFixed(0)} JPY`,
    );
    const mixed = [...sums.values()].reduce((a, b) => a + b, 0);
    expect(line).not.toContain(mixed.toFixed(2));
  });

  it('payments: a total per currency, without the state column too', async () => {
    const r = await runCli(['payments', ...TABLE, '--fields', 'id,amount'], { env, columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    const sums = await odooSums('pos.payment', 'amount', []);
    expect(lastLine(r.stdout)).toMatch(
      new RegExp(
        `total ${(sums.get(1) as number).toFixed(2)} EUR, ${(sums.get(2) as number).toFixed(2)} USD, ${(sums.get(3) as number).toFixed(0)} JPY$`,
      ),
    );
  });

  it('each amount at its own currency’s decimals: JPY none, EUR two', async () => {
    const r = await runCli(['sales', ...TABLE, '--fields', 'id,amount_total,company_id'], {
      env,
      columns: 200,
    });
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /Shop JP|My Company/.test(l));
    const jp = rows.filter((l) => l.includes('Shop JP'));
    const eu = rows.filter((l) => l.includes('My Company'));
    expect(jp.length).toBe(40);
    expect(eu.length).toBe(40);
    for (const l of jp) expect(l, l).not.toMatch(/\d\.\d/);
    for (const l of eu) expect(l, l).toMatch(/\d\.\d\d\b/);
  });

  it('one company picked: the line is as it always was, one figure without a code', async () => {
    const r = await runCli(['sales', ...TABLE, '--company', '2'], { env, columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    const sums = await odooSums('pos.order', 'amount_total', [['state', 'in', ['paid', 'done', 'invoiced']]]);
    expect(lastLine(r.stdout)).toMatch(new RegExp(`total ${(sums.get(2) as number).toFixed(2)}(;|$)`));
    expect(lastLine(r.stdout)).not.toContain('USD');
  });
});
