// Two payment methods with one name in one company (Odoo 18 and 19 make two "Cash", ids 1 and 6):
// each is a column of its own, labelled by its id, in every view that splits by currency (--by
// currency, --by company, a chain's --by profile), and the methods add up to the total again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TIME, freshConfigDir, loginProfile, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 7, orders: 30, adminKey: SUITE_SECRET });
  env = { POSDATA_CONFIG_DIR: freshConfigDir() };
  await loginProfile(env, 'shop-one', sandbox.url);
  // Method 2 ("Cash Corner") takes the name of method 1, as a second "Cash" on Odoo 18 and 19.
  await rpcClient(sandbox.url)
    .as(2, 'admin')
    .ok('pos.payment.method', 'write', [[2], { name: 'Cash' }]);
}, 60_000);

afterAll(async () => {
  await sandbox.close();
});

type Row = Record<string, unknown>;

const methodsOf = (row: Row): Record<string, number> =>
  Object.fromEntries(Object.entries(row).filter((e): e is [string, number] => e[0].startsWith('method:')));

const sum = (xs: number[]): number => Math.round(xs.reduce((a, b) => a + b, 0) * 100) / 100;

describe('two payment methods with one name', () => {
  it.each([
    ['--by currency', ['--by', 'currency', '--profile', 'shop-one']],
    ['--by company', ['--by', 'company', '--profile', 'shop-one']],
    ['a chain --by profile', ['--by', 'profile', '--profile', 'shop-*']],
  ])('%s: a column per method (Cash #1, Cash #2), adding up to the total', async (name, args) => {
    const r = await runCli(['summary', ...ALL_TIME, ...args, '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const [row] = JSON.parse(r.stdout) as Row[];
    const methods = methodsOf(row as Row);
    // A chain names each with its currency (docs/chains.md).
    const [one, two] = name.includes('chain')
      ? ['method:Cash #1 · EUR', 'method:Cash #2 · EUR']
      : ['method:Cash #1', 'method:Cash #2'];
    expect(Object.keys(methods)).toEqual(expect.arrayContaining([one, two]));
    expect(methods[one]).toBeGreaterThan(0);
    expect(methods[two]).toBeGreaterThan(0);
    expect(sum(Object.values(methods))).toBe((row as Row).total);
  });

  it('the plain summary keeps them apart the same way', async () => {
    const r = await runCli(
      ['summary', ...ALL_TIME, '--by', 'register', '--format', 'json', '--profile', 'shop-one'],
      {
        env,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    const cash1 = sum(rows.map((x) => Number(x['method:Cash #1'] ?? 0)));
    const byCurrency = JSON.parse(
      (
        await runCli(
          ['summary', ...ALL_TIME, '--by', 'currency', '--format', 'json', '--profile', 'shop-one'],
          { env },
        )
      ).stdout,
    ) as Row[];
    expect(cash1).toBe(byCurrency[0]?.['method:Cash #1']);
  });
});
