// posdata sync over a database of two companies in two currencies: every row of money says its
// company and currency (`currency`, taken from the company: pos.order's currency_id is related,
// not stored, and pos.session's company_id is not stored either), so SQL groups by currency
// and never adds two; the figures per company are Odoo's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let pg: TestPostgres;
let sandbox: SandboxHandle;
let rpc: Rpc;
let env: Record<string, string>;

beforeAll(async () => {
  [pg, sandbox] = await Promise.all([
    startPostgres(),
    startTestSandbox({ seed: 5, orders: 120, days: 3, companies: 2, now: new Date('2026-11-20T12:00:00Z') }),
  ]);
  rpc = new Rpc(sandbox.url);
  await rpc.auth();
  env = { ...(await loginEnv(sandbox.url)), PGPASSWORD: pg.password };
});
afterAll(async () => {
  await sandbox?.close();
  await pg?.stop();
});

describe('posdata sync with two companies in two currencies', () => {
  it('each row of sales, sessions, payments and lines carries its company and currency', async () => {
    const r = await runCli(['sync', '--to', pg.url({ password: '' }), '--rate', '0'], { env });
    expect(r.code, r.stderr).toBe(0);
    for (const table of ['configs', 'sessions', 'sales', 'lines', 'payments']) {
      const rows = await pg.query<{ company_id: number | null; currency: string | null; n: string }>(
        `select company_id, currency, count(*)::text as n from posdata.${table} group by 1, 2 order by 1`,
      );
      expect(
        rows.map((x) => [x.company_id, x.currency]),
        table,
      ).toEqual([
        [1, 'EUR'],
        [2, 'USD'],
      ]);
    }
    // Per company, the count and the takings are Odoo's own.
    const sql = await pg.query<{ company_id: number; currency: string; n: string; total: string }>(
      'select company_id, currency, count(*)::text as n, sum(amount_total)::text as total from posdata.sales group by 1, 2 order by 1',
    );
    for (const row of sql) {
      const odoo = await rpc.searchRead<{ amount_total: number }>(
        'pos.order',
        [['company_id', '=', row.company_id]],
        {
          fields: ['amount_total'],
        },
      );
      expect(Number(row.n)).toBe(odoo.length);
      expect(Number(row.total)).toBeCloseTo(
        odoo.reduce((s, o) => s + o.amount_total, 0),
        2,
      );
    }
    // A session's company is its register's (Odoo does not store it on pos.session).
    const mismatched = await pg.query<{ n: string }>(
      `select count(*)::text as n from posdata.sessions s join posdata.configs c on c.id = s.config_id
        where s.company_id is distinct from c.company_id or s.currency is distinct from c.currency`,
    );
    expect(mismatched[0]?.n).toBe('0');
  });
});

describe('posdata sync --company into one schema', () => {
  const sync = (schema: string, company: string, extra: string[] = []) =>
    runCli(
      [
        'sync',
        '--to',
        pg.url({ password: '' }),
        '--rate',
        '0',
        '--schema',
        schema,
        '--company',
        company,
        ...extra,
      ],
      { env },
    );
  /** Per table, the ids of each company that the schema holds and that Odoo has. */
  async function held(schema: string, table: string, model: string, company: number) {
    const rows = await pg.query<{ id: number }>(
      `select id from ${schema}.${table} where company_id = $1 order by id`,
      [company],
    );
    const odoo = (await rpc.kw(model, 'search', [[['company_id', '=', company]]], {
      order: 'id',
      context: { allowed_company_ids: [company], active_test: false },
    })) as number[];
    return { rows: rows.map((r) => r.id), odoo };
  }
  const TABLES = [
    ['configs', 'pos.config'],
    ['sales', 'pos.order'],
    ['payment_methods', 'pos.payment.method'],
  ] as const;

  it('two crons with their own --company and --prune both hold: neither prunes nor skips the other', async () => {
    for (let round = 0; round < 2; round++) {
      for (const c of ['1', '2']) {
        const r = await sync('twocrons', c, ['--prune']);
        expect(r.code, r.stderr).toBe(0);
      }
    }
    for (const [table, model] of TABLES)
      for (const company of [1, 2]) {
        const { rows, odoo } = await held('twocrons', table, model, company);
        expect(odoo.length, `${table} of ${company}`).toBeGreaterThan(0);
        expect(rows, `${table} of ${company}`).toEqual(odoo);
      }
  });

  it('a --company widened from 1 to 1,2 reads the added company with its history', async () => {
    expect((await sync('widened', '1')).code).toBe(0);
    const r = await sync('widened', '1,2');
    expect(r.code, r.stderr).toBe(0);
    const { rows, odoo } = await held('widened', 'sales', 'pos.order', 2);
    expect(odoo.length).toBeGreaterThan(0);
    expect(rows).toEqual(odoo);
  });
});
