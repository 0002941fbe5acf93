// A chain's payment method columns: three sandboxes, s1 (Odoo 17, EUR), s2 (Odoo 17, two
// companies: My Company in EUR, Shop US in USD) and s3 (Odoo 18, EUR, its second method renamed
// "Cash" as Odoo 18 and 19 have two). Alone, each server names its methods by what it sees: the
// same EUR Cash is `method:Cash` on s1 and `method:Cash · My Company` on s2 (beside its USD
// company), and a name found in EUR on one server and in USD on another would be one column of
// two currencies. In a chain a column is `method:<name> · <currency>`, `#<id>` after the name
// where two methods of one row share it: one column per method name and currency, every row's
// methods adding up to its total.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TIME, freshConfigDir, loginProfile, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const sandboxes: SandboxHandle[] = [];
let env: Record<string, string>;
/** s3's method now named Card beside its own Card. */
let renamed: number;
type Row = Record<string, unknown>;

beforeAll(async () => {
  env = { POSDATA_CONFIG_DIR: freshConfigDir() };
  sandboxes.push(await startTestSandbox({ seed: 81, orders: 10, adminKey: SUITE_SECRET }));
  sandboxes.push(await startTestSandbox({ seed: 82, orders: 10, companies: 2, adminKey: SUITE_SECRET }));
  sandboxes.push(await startTestSandbox({ seed: 83, orders: 10, odooVersion: 18, adminKey: SUITE_SECRET }));
  // s2's USD company gets a "Cash Kiosk" as s3 has one in EUR: one name, two currencies.
  await rename(sandboxes[1], 'Cash Terrace', 'Cash Kiosk');
  // s3: its Cash Boutique named Card, beside its Card: two methods of one name in one company,
  // as Odoo 18 and 19 make two "Cash".
  renamed = await rename(sandboxes[2], 'Cash Boutique', 'Card');
  for (const [i, s] of sandboxes.entries()) await loginProfile(env, `s${i + 1}`, s.url);
}, 60_000);

/** The payment method named `from` takes the name `to`; its id. */
async function rename(sandbox: SandboxHandle | undefined, from: string, to: string): Promise<number> {
  const odoo = rpcClient((sandbox as SandboxHandle).url).as(2, 'admin');
  const found = await odoo.ok<{ id: number }[]>(
    'pos.payment.method',
    'search_read',
    [[['name', '=', from]]],
    {
      fields: ['id'],
    },
  );
  expect(found.length).toBe(1);
  const id = found[0]?.id as number;
  await odoo.ok('pos.payment.method', 'write', [[id], { name: to }]);
  return id;
}

afterAll(async () => {
  for (const s of sandboxes) await s.close();
});

const methodsOf = (row: Row): [string, number][] =>
  Object.entries(row).filter((e): e is [string, number] => e[0].startsWith('method:') && e[1] !== null);

const sum = (xs: number[]): number => Math.round(xs.reduce((a, b) => a + b, 0) * 100) / 100;

/** A run's JSON rows (exit 0). */
async function jsonOf(args: string[]): Promise<Row[]> {
  const r = await runCli([...args, '--format', 'json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Row[];
}

const chainRows = (args: string[]): Promise<Row[]> =>
  jsonOf(['summary', ...ALL_TIME, '--all-profiles', ...args]);

/** Every row: its methods each named with its currency, and adding up to its total. */
function expectChainColumns(rows: Row[]): void {
  expect(rows.length).toBeGreaterThan(3);
  for (const row of rows) {
    const methods = methodsOf(row);
    expect(methods.length, JSON.stringify(row)).toBeGreaterThan(0);
    for (const [k] of methods) expect(k).toMatch(new RegExp(`^method:.+ · ${row.currency}$`));
    expect(sum(methods.map(([, v]) => v))).toBe(row.total);
  }
}

describe("a chain's method columns", () => {
  it('--by profile: one column per method name and currency, none holding two currencies', async () => {
    const rows = await chainRows(['--by', 'profile']);
    expect(rows.map((r) => [r.profile, r.currency])).toEqual([
      ['s1', 'EUR'],
      ['s2', 'EUR'],
      ['s2', 'USD'],
      ['s3', 'EUR'],
    ]);
    expectChainColumns(rows);
    const of = (p: string, c: string) => rows.find((r) => r.profile === p && r.currency === c) as Row;
    // The same EUR Cash is one column on s1 and on s2 (alone: `Cash` and `Cash · My Company`).
    expect(of('s1', 'EUR')['method:Cash · EUR']).toBeGreaterThan(0);
    expect(of('s2', 'EUR')['method:Cash · EUR']).toBeGreaterThan(0);
    expect(Object.keys(of('s2', 'EUR')).filter((k) => k.includes('My Company'))).toEqual([]);
    // Cash Kiosk: s3's EUR and s2's USD, two columns.
    expect(of('s3', 'EUR')['method:Cash Kiosk · EUR']).toBeGreaterThan(0);
    expect(of('s2', 'USD')['method:Cash Kiosk · USD']).toBeGreaterThan(0);
    expect(of('s3', 'EUR')['method:Cash Kiosk · USD'] ?? null).toBeNull();
    expect(of('s2', 'USD')['method:Cash Kiosk · EUR'] ?? null).toBeNull();
    // s3's two Cards: a column each, by id, with its currency.
    const cards = Object.keys(of('s3', 'EUR')).filter((k) => k.startsWith('method:Card'));
    expect(cards).toHaveLength(2);
    expect(cards).toContain(`method:Card #${renamed} · EUR`);
    for (const k of cards) expect(of('s3', 'EUR')[k]).toBeGreaterThan(0);
  });

  it('each row is its single run’s figures, its methods renamed only', async () => {
    const rows = await chainRows(['--by', 'profile']);
    for (const row of rows) {
      const alone = await jsonOf([
        'summary',
        ...ALL_TIME,
        '--by',
        'currency',
        '--profile',
        String(row.profile),
      ]);
      const one = alone.find((x) => x.currency === row.currency) as Row;
      const plain = Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith('method:')));
      expect(plain).toEqual({
        profile: row.profile,
        ...Object.fromEntries(Object.entries(one).filter(([k]) => !k.startsWith('method:'))),
      });
      expect(sum(methodsOf(row).map(([, v]) => v))).toBe(sum(methodsOf(one).map(([, v]) => v)));
    }
  });

  it.each([
    ['--by register (every row says its currency)', ['--by', 'register']],
    ['--by company', ['--by', 'company']],
    ['--by profile,register', ['--by', 'profile,register']],
  ])('%s: the same columns', async (_, args) => {
    const rows = await chainRows(args);
    expectChainColumns(rows);
    expect(rows.every((r) => typeof r.currency === 'string')).toBe(true);
  });

  it('csv: one header, every method column of one currency, each row adding up', async () => {
    const r = await runCli(['summary', ...ALL_TIME, '--all-profiles', '--by', 'profile', '--format', 'csv'], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    const [head, ...lines] = r.stdout.trimEnd().split('\n');
    const columns = (head as string).split(',');
    const methodColumns = columns.filter((c) => c.startsWith('method:'));
    expect(new Set(methodColumns).size).toBe(methodColumns.length);
    for (const line of lines) {
      const cells = line.split(',');
      const currency = cells[columns.indexOf('currency')];
      let total = 0;
      for (const [i, c] of columns.entries()) {
        if (!c.startsWith('method:') || cells[i] === '') continue;
        expect(c.endsWith(` · ${currency}`), `${c} on a ${currency} row`).toBe(true);
        total += Number(cells[i]);
      }
      expect(Math.round(total * 100) / 100).toBe(Number(cells[columns.indexOf('total')]));
    }
  });

  it("-o with {profile}: each server's file is its single run's, named as it names them alone", async () => {
    const out = mkdtempSync(join(tmpdir(), 'posdata-chain-methods-'));
    try {
      const r = await runCli(
        ['summary', ...ALL_TIME, '--all-profiles', '--format', 'csv', '-o', join(out, '{profile}.csv')],
        { env },
      );
      expect(r.code, r.stderr).toBe(0);
      for (const p of ['s1', 's2', 's3']) {
        const alone = await runCli(['summary', ...ALL_TIME, '--profile', p, '--format', 'csv'], { env });
        expect(readFileSync(join(out, `${p}.csv`), 'utf8'), p).toBe(alone.stdout);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('a single run names its methods as before', async () => {
    const rows = await jsonOf(['summary', ...ALL_TIME, '--by', 'currency', '--profile', 's2']);
    const keys = rows.flatMap((x) => Object.keys(x));
    expect(keys).toContain('method:Cash · My Company');
    expect(keys.some((k) => k.endsWith(' · EUR') || k.endsWith(' · USD'))).toBe(false);
  });
});

describe("a chain's reconcile", () => {
  it('every session says its company and currency; its method columns are named with that currency', async () => {
    const rows = await jsonOf(['reconcile', '--from', '2000-01-01', '--rate', '0', '--all-profiles']);
    expect(new Set(rows.map((x) => `${x.profile} ${x.currency}`))).toEqual(
      new Set(['s1 EUR', 's2 EUR', 's2 USD', 's3 EUR']),
    );
    for (const row of rows) {
      expect(typeof row.company_id, JSON.stringify(row)).toBe('number');
      const methods = methodsOf(row);
      expect(methods.length).toBeGreaterThan(0);
      for (const [k] of methods) expect(k).toMatch(new RegExp(`^method:.+ · ${row.currency}$`));
    }
    // The same EUR Cash: one column on s1 and on s2 (alone, s2 names it `Cash · My Company`).
    const cash = (p: string) => rows.filter((x) => x.profile === p).map((x) => x['method:Cash · EUR']);
    expect(cash('s1').every((v) => typeof v === 'number')).toBe(true);
    expect(cash('s2').some((v) => typeof v === 'number' && v > 0)).toBe(true);
    expect(rows.some((x) => x.profile === 's2' && x['method:Cash Kiosk · USD'] !== undefined)).toBe(true);
  });
});

describe("a chain's --loss", () => {
  it('every row says its currency (a EUR and a USD server’s sales were one column with nothing on the row)', async () => {
    const rows = await jsonOf(['summary', ...ALL_TIME, '--by', 'cashier', '--loss', '--profile', 's1,s3']);
    expect(new Set(rows.map((x) => x.profile))).toEqual(new Set(['s1', 's3']));
    for (const row of rows)
      expect(Object.keys(row).slice(0, 3), JSON.stringify(row)).toEqual([
        'profile',
        'currency',
        'cashier_id',
      ]);
    expect(rows.every((x) => x.currency === 'EUR')).toBe(true);
    // s2's companies keep EUR and USD: its marks would set one currency against another.
    const r = await runCli(
      ['summary', ...ALL_TIME, '--by', 'cashier', '--loss', '--profile', 's1,s2', '--format', 'json'],
      { env },
    );
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/--loss sets each against the others in one currency/);
    expect((JSON.parse(r.stdout) as Row[]).every((x) => x.profile === 's1' && x.currency === 'EUR')).toBe(
      true,
    );
  });
});
