// Parquet over companies in several currencies (a sandbox of three: EUR, USD, JPY): summary's
// and reconcile's rows carry their currency, and a list's --fields company_id,currency_id
// writes both as typed columns (integer ids, text names), as DuckDB reads them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const NOW = new Date('2026-11-25T12:00:00Z');
const RANGE = ['--from', '2000-01-01', '--to', '2026-11-25', '--rate', '0'];
let sb: SandboxHandle;
let env: Record<string, string>;
let dir: string;
let duck: DuckDBInstance;

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 9, orders: 40, days: 3, companies: 3, now: NOW });
  env = await loginEnv(sb.url);
  dir = mkdtempSync(join(tmpdir(), 'posdata-pq-'));
  duck = await DuckDBInstance.create(':memory:');
});
afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const c = await duck.connect();
  return (await c.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
}

async function write(args: string[], name: string): Promise<string> {
  const file = join(dir, name);
  const r = await runCli([...args, ...RANGE, '-o', file], { env });
  expect(r.code, r.stderr).toBe(0);
  return file;
}

describe('Parquet over several currencies', () => {
  it('summary --by currency: one row per currency, its currency in the row, as JSON gives it', async () => {
    const file = await write(['summary', '--by', 'currency'], 'summary.parquet');
    const rows = await query(`select currency, total::double as total from read_parquet('${file}')`);
    const json = await runCli(['summary', '--by', 'currency', ...RANGE, '--format', 'json'], { env });
    const want = (JSON.parse(json.stdout) as { currency: string; total: number }[]).map((r) => ({
      currency: r.currency,
      total: r.total,
    }));
    expect(rows).toEqual(want);
    expect(rows.map((r) => r.currency)).toEqual(['EUR', 'USD', 'JPY']);
  });

  it('summary by register and reconcile: each row says its currency', async () => {
    const s = await write(['summary'], 'registers.parquet');
    const cs = await query(`select distinct currency from read_parquet('${s}') order by 1`);
    expect(cs.map((r) => r.currency)).toEqual(['EUR', 'JPY', 'USD']);
    const r = await write(['reconcile'], 'reconcile.parquet');
    const rc = await query(
      `select company_id, currency, count(*)::integer as n from read_parquet('${r}') group by 1, 2 order by 1`,
    );
    expect(rc.map((x) => [x.company_id, x.currency])).toEqual([
      [1, 'EUR'],
      [2, 'USD'],
      [3, 'JPY'],
    ]);
  });

  it('a list with --fields company_id,currency_id: typed columns, each record its company and currency', async () => {
    const file = await write(
      ['sales', '--fields', 'id,amount_total,company_id,currency_id'],
      'sales.parquet',
    );
    const cols = await query(`describe select * from read_parquet('${file}')`);
    const types = Object.fromEntries(cols.map((c) => [c.column_name, c.column_type]));
    expect(types).toMatchObject({
      company_id: 'INTEGER',
      company_name: 'VARCHAR',
      currency_id: 'INTEGER',
      currency_name: 'VARCHAR',
    });
    const got = await query(
      `select company_id, currency_name, count(*)::integer as n from read_parquet('${file}') group by 1, 2 order by 1`,
    );
    const rpc = rpcClient(sb.url);
    const odoo = await rpc.ok<{ company_id: [number, string]; __count: number }[]>(
      'pos.order',
      'read_group',
      [[], ['company_id'], ['company_id']],
      { lazy: false },
    );
    expect(got).toEqual(
      [...odoo]
        .sort((a, b) => a.company_id[0] - b.company_id[0])
        .map((g) => ({
          company_id: g.company_id[0],
          currency_name: ['EUR', 'USD', 'JPY'][g.company_id[0] - 1],
          n: g.__count,
        })),
    );
  });
});
