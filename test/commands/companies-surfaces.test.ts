// The surfaces of a database with companies in several currencies (a sandbox of three: EUR,
// USD, JPY): a list table's closing line gives one total per currency, each equal to Odoo's
// own per company, never a sum of two; a one-currency run's line is as it always was.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { parquetReadObjects } from 'hyparquet';
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

// Exports over several currencies: every money record says its company and currency, so that
// no reader adds yen to euros; a CSV writes each amount at its own currency's decimals.
describe('exports over several currencies', () => {
  const CODES: Record<number, string> = { 1: 'EUR', 2: 'USD', 3: 'JPY' };
  const DATA = ['--rate', '0', '--from', '2000-01-01', '--to', '2026-11-25'];
  type Rec = Record<string, unknown>;
  const says = (r: Rec): void => {
    const company = r.company_id as [number, string];
    expect(Array.isArray(company), JSON.stringify(r)).toBe(true);
    expect(r.currency, JSON.stringify(r)).toBe(CODES[company[0]]);
  };

  it('json and ndjson: each sale, payment, closure and line carries company_id and currency', async () => {
    for (const [args, n] of [
      [['sales', '--format', 'json'], 120],
      [['payments', '--format', 'json', '--fields', 'id,amount'], 0],
      [['closures', '--format', 'ndjson'], 0],
      [['lines', '--format', 'ndjson'], 0],
      [['configs', '--format', 'ndjson'], 0],
    ] as const) {
      const r = await runCli([...args, ...(args[0] === 'configs' ? ['--rate', '0'] : DATA)], { env });
      expect(r.code, r.stderr).toBe(0);
      const recs: Rec[] =
        args[2] === 'json'
          ? (JSON.parse(r.stdout) as Rec[])
          : r.stdout
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l));
      if (n) expect(recs.length).toBe(n);
      expect(recs.length).toBeGreaterThan(2);
      for (const rec of recs) says(rec);
      expect(new Set(recs.map((x) => x.currency)).size, args[0]).toBeGreaterThan(1);
    }
  });

  it('csv: company and currency columns, each amount at its currency’s decimals (JPY none, EUR two)', async () => {
    const r = await runCli(['sales', ...DATA, '--format', 'csv'], { env });
    expect(r.code, r.stderr).toBe(0);
    const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0] ?? {}).slice(-3)).toEqual(['company_id', 'company_name', 'currency']);
    for (const row of rows) {
      expect(row.currency).toBe(CODES[Number(row.company_id)]);
      for (const f of ['amount_total', 'amount_paid', 'amount_tax'])
        expect(row[f], JSON.stringify(row)).toMatch(row.currency === 'JPY' ? /^-?\d+$/ : /^-?\d+\.\d\d$/);
    }
  });

  it('parquet: the currency column beside the company’s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'posdata-cur-'));
    try {
      const file = join(dir, 'sales.parquet');
      const r = await runCli(['sales', ...DATA, '-o', file], { env });
      expect(r.code, r.stderr).toBe(0);
      const b = readFileSync(file);
      const rows = (await parquetReadObjects({
        file: b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer,
      })) as Rec[];
      expect(rows.length).toBe(120);
      for (const row of rows) {
        expect(typeof row.company_id).not.toBe('undefined');
        expect(row.currency).toBe(CODES[Number(row.company_id)]);
      }
      expect(new Set(rows.map((row) => row.currency))).toEqual(new Set(['EUR', 'USD', 'JPY']));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('one company, one currency: the records are as they always were', async () => {
    const r = await runCli(['sales', ...DATA, '--format', 'json', '--company', '3'], { env });
    expect(r.code, r.stderr).toBe(0);
    const recs = JSON.parse(r.stdout) as Rec[];
    expect(recs.length).toBe(40);
    expect(Object.keys(recs[0] ?? {})).not.toContain('currency');
    expect(Object.keys(recs[0] ?? {})).not.toContain('company_id');
    const csv = await runCli(['sales', ...DATA, '--format', 'csv', '--company', '1,2'], { env });
    expect(csv.stdout.split('\n')[0]).toMatch(/,currency$/);
  });
});
