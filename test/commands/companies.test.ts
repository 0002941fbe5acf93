// Companies in several currencies (a sandbox of three: EUR, USD, JPY): --company by id or name,
// a company the user may not see (exit 5, naming those they may see), summary figures per
// currency that equal Odoo's own per company, methods named with their company, reconcile and
// doctor per company, and a one-currency run that reads as it always has.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TIME, loginEnv, runCli } from '../helpers/cli.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const NOW = new Date('2026-11-25T12:00:00Z');
let sb: SandboxHandle;
let env: Record<string, string>;
let pos2: Record<string, string>;
let rpc: ReturnType<typeof rpcClient>;

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 9, orders: 150, days: 3, companies: 3, now: NOW });
  rpc = rpcClient(sb.url);
  env = await loginEnv(sb.url);
  pos2 = await loginEnv(sb.url, 'pos2', 'pos2');
});
afterAll(() => sb.close());

type Row = Record<string, unknown>;
const json = (s: string): Row[] => JSON.parse(s) as Row[];

/** Odoo's own sum of amount_total per company over the counted orders. */
async function odooTotals(): Promise<Map<number, { count: number; total: number }>> {
  const groups = await rpc.ok<{ company_id: [number, string]; __count: number; amount_total: number }[]>(
    'pos.order',
    'read_group',
    [[['state', 'in', ['paid', 'done', 'invoiced']]], ['amount_total:sum'], ['company_id']],
    { lazy: false },
  );
  return new Map(groups.map((g) => [g.company_id[0], { count: g.__count, total: g.amount_total }]));
}

describe('--company', () => {
  it('takes ids and names, and counts what Odoo counts for them', async () => {
    for (const [flag, ids] of [
      ['2', [2]],
      ['shop us', [2]],
      ['1,Shop JP', [1, 3]],
    ] as const) {
      const r = await runCli(['sales', '--count', '--rate', '0', '--company', flag], { env });
      expect(r.code, r.stderr).toBe(0);
      const n = await rpc.ok<number>('pos.order', 'search_count', [[]], {
        context: { allowed_company_ids: [...ids] },
      });
      expect(Number(r.stdout.trim())).toBe(n);
    }
  });

  it('a company the user may not see is exit 5 with one line naming those they may see', async () => {
    const r = await runCli(['sales', '--count', '--rate', '0', '--company', '1'], { env: pos2 });
    expect(r.code).toBe(5);
    expect(r.stderr.trim().split('\n')).toEqual([
      'posdata: company 1 is not one this user may see; this user may see 2 Shop US (USD)',
    ]);
    const s = await runCli(['summary', ...ALL_TIME, '--company', 'Nowhere'], { env });
    expect(s.code).toBe(5);
    expect(s.stderr).toContain('this user may see 1 My Company (EUR), 2 Shop US (USD), 3 Shop JP (JPY)');
  });

  it('without --company a user reads every company they may see, as Odoo does', async () => {
    const r = await runCli(['sales', '--count', '--rate', '0'], { env: pos2 });
    expect(Number(r.stdout.trim())).toBe(150);
    const a = await runCli(['sales', '--count', '--rate', '0'], { env });
    expect(Number(a.stdout.trim())).toBe(450);
  });

  it('list commands give company_id and currency_id when asked', async () => {
    const r = await runCli(
      [
        'sales',
        '--rate',
        '0',
        '--fields',
        'id,amount_total,company_id,currency_id',
        '--format',
        'csv',
        '--limit',
        '3',
        '--sort',
        'id desc',
      ],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('id,amount_total,company_id,company_name,currency_id,currency_name');
    expect(r.stdout.split('\n')[1]).toMatch(/,3,Shop JP,3,JPY$/);
  });
});

describe('summary over three currencies', () => {
  it('gives one row per company with its currency, each equal to Odoo’s own figures', async () => {
    const r = await runCli(['summary', ...ALL_TIME, '--by', 'company', '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const rows = json(r.stdout);
    const odoo = await odooTotals();
    expect(rows.map((x) => [x.company_id, x.company, x.currency])).toEqual([
      [1, 'My Company', 'EUR'],
      [2, 'Shop US', 'USD'],
      [3, 'Shop JP', 'JPY'],
    ]);
    for (const row of rows) {
      const o = odoo.get(row.company_id as number);
      expect(row.orders).toBe(o?.count);
      expect(row.total).toBeCloseTo(o?.total ?? Number.NaN, 6);
    }
    // JPY has no decimals: every amount of its row is whole.
    const jp = rows[2] as Row;
    for (const k of ['total', 'net', 'tax', 'average_ticket']) expect(Number.isInteger(jp[k]), k).toBe(true);
  });

  it('never adds two currencies: the default splits by currency, each table with its own total', async () => {
    const r = await runCli(['summary', ...ALL_TIME, '--format', 'table'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('figures per currency: My Company (EUR); Shop US (USD); Shop JP (JPY)');
    const totals = r.stdout.split('\n').filter((l) => /^\W*total\s/.test(l));
    expect(totals).toHaveLength(3);
    const csv = await runCli(['summary', ...ALL_TIME, '--format', 'json'], { env });
    const rows = json(csv.stdout);
    const odoo = await odooTotals();
    for (const cur of ['EUR', 'USD', 'JPY']) {
      const mine = rows.filter((x) => x.currency === cur);
      const sum = mine.reduce((a, x) => a + (x.total as number), 0);
      const company = { EUR: 1, USD: 2, JPY: 3 }[cur] as number;
      expect(sum).toBeCloseTo(odoo.get(company)?.total ?? Number.NaN, 6);
    }
  });

  it('names a payment method with its company where the name repeats, and leaves other currencies empty', async () => {
    const r = await runCli(['summary', ...ALL_TIME, '--format', 'json'], { env });
    const rows = json(r.stdout);
    const keys = Object.keys(rows[0] as Row).filter((k) => k.startsWith('method:'));
    expect(keys).toContain('method:Cash · My Company');
    expect(keys).toContain('method:Card · Shop US');
    expect(keys).toContain('method:Card · Shop JP');
    for (const row of rows) {
      for (const k of keys) {
        const company = k.split(' · ')[1];
        if (company && row.currency !== { 'My Company': 'EUR', 'Shop US': 'USD', 'Shop JP': 'JPY' }[company])
          expect(row[k], `${String(row.currency)} ${k}`).toBeNull();
      }
    }
  });

  it('--check-odoo agrees per currency, against Odoo’s report for those companies alone', async () => {
    const r = await runCli(
      ['summary', ...ALL_TIME, '--check-odoo', '--fail-on-difference', '--format', 'csv'],
      {
        env,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    for (const label of ['My Company (EUR)', 'Shop US (USD)', 'Shop JP (JPY)'])
      expect(r.stderr).toMatch(
        new RegExp(`check-odoo: ${label.replace(/[()]/g, '\\$&')}: Odoo's Sales Details agrees`),
      );
  });

  it('one company reads as a one-company database always has: no currency column', async () => {
    const r = await runCli(['summary', ...ALL_TIME, '--company', '2', '--format', 'csv'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]?.startsWith('config_id,register,orders,')).toBe(true);
    expect(r.stdout).toContain('method:Cash,');
    expect(r.stderr).toBe('');
  });
});

describe('summary --session-id over three currencies', () => {
  it("a session is its company's: its X/Z report in its currency, as with --company (it was exit 4, 'does not exist')", async () => {
    const sessions = await rpcClient(sb.url).ok<{ id: number; company_id: [number, string] }[]>(
      'pos.session',
      'search_read',
      [[['state', '=', 'closed']]],
      { fields: ['company_id'], order: 'id', context: { allowed_company_ids: [1, 2, 3] } },
    );
    for (const company of [1, 2]) {
      const session = sessions.find((x) => x.company_id[0] === company);
      expect(session, `a closed session of company ${company}`).toBeDefined();
      const args = ['summary', '--session-id', String(session?.id), '--rate', '0', '--format', 'csv'];
      const r = await runCli(args, { env });
      expect(r.code, r.stderr).toBe(0);
      const alone = await runCli([...args, '--company', String(company)], { env });
      expect(alone.code, alone.stderr).toBe(0);
      expect(r.stdout).toBe(alone.stdout);
      expect(r.stdout).toMatch(/,Z,/);
    }
  });
});

describe('reconcile and doctor over three currencies', () => {
  it('reconciles per company: rows say company and currency, differences are Odoo’s, methods carry their company', async () => {
    const r = await runCli(['reconcile', ...ALL_TIME, '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const rows = json(r.stdout);
    const sessions = await rpc.ok<
      { id: number; company_id: [number, string]; cash_register_difference: number }[]
    >('pos.session', 'search_read', [[['state', '=', 'closed']]], {
      fields: ['company_id', 'cash_register_difference'],
    });
    expect(rows).toHaveLength(sessions.length);
    const cur: Record<number, string> = { 1: 'EUR', 2: 'USD', 3: 'JPY' };
    for (const s of sessions) {
      const row = rows.find((x) => x.session_id === s.id) as Row;
      expect(row.company_id).toBe(s.company_id[0]);
      expect(row.currency).toBe(cur[s.company_id[0]]);
      expect(row.difference).toBeCloseTo(s.cash_register_difference, 6);
    }
    expect(Object.keys(rows[0] as Row)).toContain('method:Card · Shop JP');
  });

  it('doctor lists the companies, their currencies and registers', async () => {
    const r = await runCli(['doctor', '--rate', '0', '--format', 'json'], { env });
    const doc = JSON.parse(r.stdout) as {
      companies: { id: number; name: string; currency: string; registers: string[] }[];
    };
    expect(doc.companies.map((c) => [c.id, c.name, c.currency])).toEqual([
      [1, 'My Company', 'EUR'],
      [2, 'Shop US', 'USD'],
      [3, 'Shop JP', 'JPY'],
    ]);
    expect(doc.companies[1]?.registers.every((n) => n.startsWith('US '))).toBe(true);
  });
});
