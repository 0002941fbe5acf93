// A list table over several currencies where some records have no company (false, as Odoo
// allows on a record written by hand or an import): their amounts are added to no total, since
// their currency is not known, and the closing line says how many were left apart. Each
// currency's total stays Odoo's own for that company.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const NOW = new Date('2026-11-25T12:00:00Z');
const TABLE = [
  '--rate',
  '0',
  '--format',
  'table',
  '--from',
  '2000-01-01',
  '--to',
  '2026-11-25',
  '--tz',
  'UTC',
];
let sb: SandboxHandle;
let env: Record<string, string>;
let rpc: ReturnType<typeof rpcClient>;

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 9, orders: 40, days: 3, companies: 2, now: NOW });
  rpc = rpcClient(sb.url);
  const [a, b] = await rpc.ok<number[]>(
    'pos.order',
    'search',
    [[['state', 'in', ['paid', 'done', 'invoiced']]]],
    {
      limit: 2,
    },
  );
  await rpc.ok('pos.order', 'write', [[a, b], { company_id: false }]);
  env = await loginEnv(sb.url);
});
afterAll(() => sb.close());

describe('a list table with records of no known company', () => {
  it('adds them to no currency total and says how many were left apart', async () => {
    const r = await runCli(['sales', ...TABLE], { env });
    expect(r.code, r.stderr).toBe(0);
    const last = r.stdout.trim().split('\n').at(-1) as string;
    expect(last).not.toContain('?');
    expect(last).toMatch(/; 2 sales of no known company, not added \(their currency is not known\)$/);
    // Each total is Odoo's own for its company's counted sales.
    const groups = await rpc.ok<{ company_id: [number, string] | false; amount_total: number }[]>(
      'pos.order',
      'read_group',
      [
        [
          ['state', 'in', ['paid', 'done', 'invoiced']],
          ['company_id', '!=', false],
        ],
        ['amount_total:sum'],
        ['company_id'],
      ],
      { lazy: false },
    );
    const sum = (id: number) =>
      (groups.find((g) => g.company_id && g.company_id[0] === id)?.amount_total ?? 0).toFixed(2);
    expect(last).toContain(`total ${sum(1)} EUR, ${sum(2)} USD`);
  });
});
