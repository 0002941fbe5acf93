// posdata report against the real Odoo 17's posmc database (../shared/odoo17/README.md: company
// 1 in EUR, company 2 "Shop US" in USD; admin allowed in both, cashier in 1, cashier_us in 2).
// This file starts its own posmc server. The report of November has one section per currency,
// each naming its company, whose figures (read back from the HTML's JSON block) equal Odoo's
// own read_group of the counted orders by company and the closings' cash_register_difference
// of that company, and `summary --by currency`'s row; a user allowed in one company gets that
// one; a company they may not see is exit 5 in one line.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loginOdoo, type OdooUser, type RealOdooHandle, rpcOdoo, startRealOdoo } from '../helpers/odoo17.js';
import { reportData } from '../helpers/report.js';
import type { Rpc } from '../helpers/rpc.js';

type Obj = Record<string, unknown>;
const PERIOD = ['--month', '2026-11', '--tz', 'UTC', '--rate', '0'];
const RANGE = [
  ['date_order', '>=', '2026-11-01 00:00:00'],
  ['date_order', '<', '2026-12-01 00:00:00'],
];
const COUNTED = ['state', 'in', ['paid', 'done', 'invoiced']];
const id = (v: unknown): number => (Array.isArray(v) ? (v[0] as number) : (v as number));
const cents = (v: unknown): number => Math.round(Number(v) * 100);
const dir = mkdtempSync(join(tmpdir(), 'posdata-odoo-report-mc-'));

let odoo: RealOdooHandle;
let rpc: Rpc;
const envs = {} as Record<OdooUser, Record<string, string>>;
let data: Obj;
let html: string;

async function writeReport(who: OdooUser, name: string, extra: string[] = []) {
  const file = join(dir, name);
  const r = await runCli(['report', ...PERIOD, '-o', file, ...extra], { env: envs[who] });
  expect(r.code, r.stderr).toBe(0);
  const page = readFileSync(file, 'utf8');
  return { html: page, data: reportData(page) };
}

beforeAll(async () => {
  odoo = await startRealOdoo('posmc');
  rpc = await rpcOdoo(odoo, 'admin');
  for (const who of ['admin', 'cashier', 'cashier_us'] as const) envs[who] = await loginOdoo(odoo, who);
  ({ html, data } = await writeReport('admin', 'november.html'));
}, 600_000);
afterAll(async () => {
  await odoo?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe('report on posmc: two companies, EUR and USD', { timeout: 240_000 }, () => {
  it('has one section per currency, each naming its company; the header names both', () => {
    const sections = data.currencies as Obj[];
    expect(sections.map((s) => [s.currency, (s.companies as { id: number }[]).map((c) => c.id)])).toEqual([
      ['EUR', [1]],
      ['USD', [2]],
    ]);
    expect((data.companies as Obj[]).map((c) => [c.id, c.currency])).toEqual([
      [1, 'EUR'],
      [2, 'USD'],
    ]);
    expect(html).toMatch(/companies: 1 [^;]+ \(EUR\), 2 Shop US \(USD\); currencies: EUR, USD\./);
  });

  it("each currency's glance is Odoo's read_group of its company's counted orders", async () => {
    const group = async (domain: unknown[]) =>
      new Map(
        (
          await rpc.kw<Obj[]>(
            'pos.order',
            'read_group',
            [[COUNTED, ...RANGE, ...domain], ['amount_total:sum', 'amount_tax:sum'], ['company_id']],
            { lazy: false },
          )
        ).map((g) => [id(g.company_id), g]),
      );
    const all = await group([]);
    const refunds = await group([['amount_total', '<', 0]]);
    for (const s of data.currencies as Obj[]) {
      const company = (s.companies as { id: number }[])[0]?.id as number;
      const g = all.get(company) as Obj;
      const glance = s.glance as Obj;
      const where = `${s.currency}`;
      expect(glance.orders, where).toBe(g.__count);
      expect(cents(glance.total), where).toBe(cents(g.amount_total));
      expect(cents(glance.tax), where).toBe(cents(g.amount_tax));
      expect(glance.refund_count, where).toBe(refunds.get(company)?.__count ?? 0);
      expect(cents(glance.refunds), where).toBe(cents(refunds.get(company)?.amount_total ?? 0));
    }
  });

  it("each currency's glance equals summary --by currency's row", async () => {
    const r = await runCli(
      [
        'summary',
        '--from',
        '2026-11-01',
        '--to',
        '2026-11-30',
        '--tz',
        'UTC',
        '--by',
        'currency',
        '--format',
        'json',
      ],
      {
        env: envs.admin,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Obj[];
    expect(rows.map((x) => x.currency)).toEqual(['EUR', 'USD']);
    for (const s of data.currencies as Obj[]) {
      const row = rows.find((x) => x.currency === s.currency) as Obj;
      for (const k of [
        'orders',
        'items',
        'gross',
        'discounts',
        'refund_count',
        'refunds',
        'net',
        'tax',
        'total',
      ])
        expect((s.glance as Obj)[k], `${s.currency} ${k}`).toEqual(row[k]);
    }
  });

  it("each currency's cash closings are its company's, with Odoo's cash_register_difference", async () => {
    const sessions = await rpc.searchRead(
      'pos.session',
      [
        ['state', '=', 'closed'],
        ['stop_at', '>=', '2026-11-01 00:00:00'],
        ['stop_at', '<', '2026-12-01 00:00:00'],
      ],
      { fields: ['company_id', 'cash_register_difference'] },
    );
    for (const s of data.currencies as Obj[]) {
      const company = (s.companies as { id: number }[])[0]?.id as number;
      const theirs = sessions.filter((x) => id(x.company_id) === company);
      const mine = s.reconcile as Obj[];
      expect(mine.map((x) => x.session_id).sort(), `${s.currency}`).toEqual(theirs.map((x) => x.id).sort());
      for (const row of mine) {
        expect(row.company_id).toBe(company);
        expect(row.currency).toBe(s.currency);
        const odooRow = theirs.find((x) => x.id === row.session_id) as Obj;
        expect(cents(row.difference), String(row.session)).toBe(cents(odooRow.cash_register_difference));
      }
    }
  });

  it('--company 2 gives the USD section alone, equal to the full report’s', async () => {
    const { data: us } = await writeReport('admin', 'us.html', ['--company', '2']);
    const [only] = us.currencies as Obj[];
    expect((us.currencies as Obj[]).length).toBe(1);
    const full = (data.currencies as Obj[])[1] as Obj;
    for (const k of ['currency', 'companies', 'registers', 'glance', 'summary', 'reconcile'])
      expect((only as Obj)[k], k).toEqual(full[k]);
  });

  it('a user allowed in one company gets its currency; another company is exit 5 in one line', async () => {
    const { data: eu } = await writeReport('cashier', 'cashier.html');
    expect((eu.currencies as Obj[]).map((s) => s.currency)).toEqual(['EUR']);
    const { data: us } = await writeReport('cashier_us', 'cashier_us.html');
    expect((us.currencies as Obj[]).map((s) => s.currency)).toEqual(['USD']);
    expect(((us.currencies as Obj[])[0] as Obj).glance).toEqual(
      ((data.currencies as Obj[])[1] as Obj).glance,
    );
    const r = await runCli(['report', ...PERIOD, '--company', '1', '-o', join(dir, 'no.html')], {
      env: envs.cashier_us,
    });
    expect(r.code).toBe(5);
    expect(r.stderr.trim().split('\n')).toEqual([
      'posdata: company 1 is not one this user may see; this user may see 2 Shop US (USD)',
    ]);
  });
});
