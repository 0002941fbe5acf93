// A chain with the real Odoo 17's posmc (company 1 in EUR, "Shop US" in USD) beside two
// sandboxes, one in EUR (Odoo 17) and one in USD (Odoo 18). Alone, posmc names its EUR Cash
// `method:Cash · My Company (San Francisco)` (its USD company has a Cash too); in the chain every
// method column is `method:<name> · <currency>`: posmc's EUR Cash shares the EUR sandbox's
// column, its USD Cash the USD sandbox's, no column holds two currencies, and each row's methods
// add up to its total. This file starts its own posmc server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, loginProfile, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { type RealOdooHandle, startRealOdoo } from '../helpers/odoo17.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type Row = Record<string, unknown>;
const ALL_TIME = ['--from', '2000-01-01', '--tz', 'UTC', '--rate', '0'];
const CHAIN = ['--profile', 'eur17,mc,usd18'];

let odoo: RealOdooHandle;
const sandboxes: SandboxHandle[] = [];
let env: Record<string, string>;

beforeAll(async () => {
  odoo = await startRealOdoo('posmc');
  env = { POSDATA_CONFIG_DIR: freshConfigDir() };
  const r = await runCli(
    ['login', '--profile', 'mc', '--url', odoo.url, '--db', odoo.db, '--user', 'admin', '--password-stdin'],
    { env, input: 'admin' },
  );
  expect(r.code, r.stderr).toBe(0);
  sandboxes.push(await startTestSandbox({ seed: 91, orders: 40, adminKey: SUITE_SECRET }));
  sandboxes.push(
    await startTestSandbox({
      seed: 92,
      orders: 40,
      odooVersion: 18,
      currency: 'USD',
      adminKey: SUITE_SECRET,
    }),
  );
  await loginProfile(env, 'eur17', (sandboxes[0] as SandboxHandle).url);
  await loginProfile(env, 'usd18', (sandboxes[1] as SandboxHandle).url);
}, 600_000);

afterAll(async () => {
  for (const s of sandboxes) await s.close();
  await odoo?.stop();
});

const methodsOf = (row: Row): [string, number][] =>
  Object.entries(row).filter((e): e is [string, number] => e[0].startsWith('method:') && e[1] !== null);
const cents = (xs: number[]): number => Math.round(xs.reduce((a, b) => a + b, 0) * 100);

async function json(args: string[]): Promise<Row[]> {
  const r = await runCli([...args, '--format', 'json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Row[];
}

describe('a chain with the real posmc', { timeout: 120_000 }, () => {
  it("summary --by profile: one column per method name and currency, posmc's Cash beside the sandboxes'", async () => {
    const rows = await json(['summary', ...ALL_TIME, ...CHAIN, '--by', 'profile']);
    expect(rows.map((r) => [r.profile, r.currency])).toEqual([
      ['eur17', 'EUR'],
      ['mc', 'EUR'],
      ['mc', 'USD'],
      ['usd18', 'USD'],
    ]);
    for (const row of rows) {
      const methods = methodsOf(row);
      for (const [k] of methods) expect(k).toMatch(new RegExp(`^method:.+ · ${row.currency}$`));
      expect(cents(methods.map(([, v]) => v)), `${row.profile} ${row.currency}`).toBe(
        Math.round((row.total as number) * 100),
      );
    }
    const of = (p: string, c: string) => rows.find((r) => r.profile === p && r.currency === c) as Row;
    for (const [p, c] of [
      ['eur17', 'EUR'],
      ['mc', 'EUR'],
      ['mc', 'USD'],
      ['usd18', 'USD'],
    ] as const)
      expect(of(p, c)[`method:Cash · ${c}`], `${p} ${c}`).toBeGreaterThan(0);
  });

  it("posmc's rows are its single run's, its methods named with their currency", async () => {
    const chain = (await json(['summary', ...ALL_TIME, ...CHAIN, '--by', 'profile'])).filter(
      (r) => r.profile === 'mc',
    );
    const alone = await json(['summary', ...ALL_TIME, '--profile', 'mc', '--by', 'currency']);
    // Alone, its Cash is named with its company where both companies have one.
    expect(Object.keys(alone[0] as Row).some((k) => k.startsWith('method:Cash · My Company'))).toBe(true);
    expect(chain.length).toBe(alone.length);
    for (const [i, row] of alone.entries()) {
      const mine = chain[i] as Row;
      const plain = (r: Row) =>
        Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('method:')));
      expect(plain(mine)).toEqual({ profile: 'mc', ...plain(row) });
      const values = (r: Row) => methodsOf(r).map(([, v]) => v);
      expect(values(mine)).toEqual(values(row));
    }
  });

  it('reconcile: every session says its currency, its method columns named with it', async () => {
    const rows = await json(['reconcile', ...ALL_TIME, ...CHAIN]);
    expect(new Set(rows.map((r) => `${r.profile} ${r.currency}`))).toEqual(
      new Set(['eur17 EUR', 'mc EUR', 'mc USD', 'usd18 USD']),
    );
    for (const row of rows)
      for (const [k] of methodsOf(row)) expect(k).toMatch(new RegExp(`^method:.+ · ${row.currency}$`));
  });
});
