// Exports of the real Odoo 17's posmc database (../shared/odoo17/README.md: company 1 in EUR,
// company 2 "Shop US" in USD; admin allowed in both, cashier in 1). This file starts its own
// posmc server. Where the user sees both currencies, every money record of json, ndjson and
// csv says its company and currency, and the amounts of each currency add up to Odoo's own
// read_group for that company; a user of one company gets the records as they always were.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loginOdoo, type RealOdooHandle, rpcOdoo, startRealOdoo } from '../helpers/odoo17.js';
import type { Rpc } from '../helpers/rpc.js';

type Obj = Record<string, unknown>;
const ALL = ['--from', '2000-01-01', '--to', '2030-01-01', '--tz', 'UTC', '--rate', '0'];
const COUNTED = ['state', 'in', ['paid', 'done', 'invoiced']];
const cents = (v: unknown): number => Math.round(Number(v) * 100);

let odoo: RealOdooHandle;
let rpc: Rpc;
let admin: Record<string, string>;
let cashier: Record<string, string>;

beforeAll(async () => {
  odoo = await startRealOdoo('posmc');
  rpc = await rpcOdoo(odoo, 'admin');
  admin = await loginOdoo(odoo, 'admin');
  cashier = await loginOdoo(odoo, 'cashier');
}, 600_000);
afterAll(async () => {
  await odoo?.stop();
});

/** Odoo's own sum of amount_total of the counted orders, in cents, by company id. */
async function odooTotals(): Promise<Map<number, number>> {
  const groups = await rpc.kw<{ company_id: [number, string]; amount_total: number }[]>(
    'pos.order',
    'read_group',
    [[COUNTED], ['amount_total:sum'], ['company_id']],
    { lazy: false, context: { allowed_company_ids: [1, 2] } },
  );
  return new Map(groups.map((g) => [g.company_id[0], cents(g.amount_total)]));
}

describe('exports of a database in EUR and USD', () => {
  it('json: every sale carries company_id and currency; each currency adds up to Odoo’s figure', async () => {
    const r = await runCli(['sales', ...ALL, '--format', 'json', '--state', 'paid,done,invoiced'], {
      env: admin,
    });
    expect(r.code, r.stderr).toBe(0);
    const sales = JSON.parse(r.stdout) as Obj[];
    const byCurrency = new Map<string, number>();
    for (const s of sales) {
      const company = s.company_id as [number, string];
      expect(s.currency, JSON.stringify(s)).toBe(company[0] === 1 ? 'EUR' : 'USD');
      byCurrency.set(String(s.currency), (byCurrency.get(String(s.currency)) ?? 0) + cents(s.amount_total));
    }
    const odooSums = await odooTotals();
    expect(byCurrency.get('EUR')).toBe(odooSums.get(1));
    expect(byCurrency.get('USD')).toBe(odooSums.get(2));
  });

  it('ndjson and csv: payments and closures say their currency too', async () => {
    const p = await runCli(['payments', ...ALL, '--format', 'ndjson'], { env: admin });
    expect(p.code, p.stderr).toBe(0);
    const payments = p.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Obj);
    expect(new Set(payments.map((x) => x.currency))).toEqual(new Set(['EUR', 'USD']));
    const c = await runCli(['closures', ...ALL, '--format', 'csv'], { env: admin });
    expect(c.code, c.stderr).toBe(0);
    const rows = parse(c.stdout, { columns: true }) as Record<string, string>[];
    for (const row of rows) expect(row.currency).toBe(row.company_id === '1' ? 'EUR' : 'USD');
    expect(new Set(rows.map((row) => row.currency))).toEqual(new Set(['EUR', 'USD']));
  });

  it('a user of one company: the records as they always were', async () => {
    const r = await runCli(['sales', ...ALL, '--format', 'json', '--limit', '3'], { env: cashier });
    expect(r.code, r.stderr).toBe(0);
    const sales = JSON.parse(r.stdout) as Obj[];
    expect(sales.length).toBe(3);
    for (const s of sales) expect(Object.keys(s)).not.toContain('currency');
  });
});
