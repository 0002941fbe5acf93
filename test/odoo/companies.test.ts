// Several companies against the real Odoo 17's posmc database (../shared/odoo17/README.md,
// posmc): company 1 in EUR, company 2 "Shop US" in USD, and four logins (admin and manager
// allowed in both, cashier in 1 only, cashier_us in 2 only). This file starts its own posmc
// server. For each login, posdata's list counts with and without --company equal Odoo's own
// search_count with that allowed_company_ids (a company the user may not see: Odoo's
// AccessError, posdata's exit 5 with one line naming the companies the user may see); summary
// gives one total per currency equal to Odoo's read_group of the counted orders by company,
// and no row adds EUR and USD; reconcile's differences are Odoo's cash_register_difference.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loginOdoo, type OdooUser, type RealOdooHandle, rpcOdoo, startRealOdoo } from '../helpers/odoo17.js';
import type { Rpc } from '../helpers/rpc.js';

type Row = Record<string, string | number | null>;

const USERS: OdooUser[] = ['admin', 'cashier', 'cashier_us', 'manager'];
const COUNTED = ['paid', 'done', 'invoiced'];
/** All time: posmc's orders are of November 2026 (the demo ones of the day it was made). */
const ALL_TIME = ['--from', '2000-01-01', '--to', '2030-12-31'];
/** The list commands compared, with their model and fixed domain (src/catalog/resources.ts). */
const LISTS: [string, string, unknown[]][] = [
  ['sales', 'pos.order', []],
  ['cancellations', 'pos.order', [['state', 'in', ['cancel']]]],
  ['payments', 'pos.payment', []],
  ['configs', 'pos.config', []],
  ['closures', 'pos.session', [['state', '=', 'closed']]],
];
/** --company as given, and the allowed_company_ids Odoo is asked with (none: no context). */
const CHOICES: [string | undefined, number[] | undefined][] = [
  [undefined, undefined],
  ['1', [1]],
  ['2', [2]],
  ['1,2', [1, 2]],
];
const id = (v: unknown): number => (Array.isArray(v) ? (v[0] as number) : (v as number));
const cents = (v: unknown): number => Math.round(Number(v) * 100);

let odoo: RealOdooHandle;
const envs = {} as Record<OdooUser, Record<string, string>>;
const rpcs = {} as Record<OdooUser, Rpc>;
/** Each company's currency and name, as the administrator reads res.company. */
const companies = new Map<number, { name: string; currency: string }>();

beforeAll(async () => {
  odoo = await startRealOdoo('posmc');
  await Promise.all(
    USERS.map(async (who) => {
      [envs[who], rpcs[who]] = await Promise.all([loginOdoo(odoo, who), rpcOdoo(odoo, who)]);
    }),
  );
  const rows = await rpcs.admin.searchRead('res.company', [], { fields: ['name', 'currency_id'] });
  for (const c of rows)
    companies.set(c.id as number, {
      name: c.name as string,
      currency: (c.currency_id as [number, string])[1],
    });
}, 600_000);
afterAll(async () => odoo?.stop(), 120_000);

/** Odoo's search_count as that user, or 'AccessError' where Odoo refuses the companies. */
async function odooCount(who: OdooUser, model: string, domain: unknown[], allowed?: number[]) {
  const kwargs = allowed ? { context: { allowed_company_ids: allowed } } : {};
  try {
    return await rpcs[who].kw<number>(model, 'search_count', [domain], kwargs);
  } catch (e) {
    if (String(e).includes('odoo.exceptions.AccessError')) return 'AccessError';
    throw e;
  }
}

describe('posmc is the database the README describes', () => {
  it('two companies, EUR and USD', () => {
    expect(companies.get(1)?.currency).toBe('EUR');
    expect(companies.get(2)).toEqual({ name: 'Shop US', currency: 'USD' });
  });
});

describe.each(USERS)('as %s', (who) => {
  it('list counts, with and without --company, are Odoo search_count with those companies', async () => {
    const seen: string[] = [];
    for (const [list, model, domain] of LISTS)
      for (const [flag, allowed] of CHOICES) {
        const args = [list, '--count', ...(flag ? ['--company', flag] : [])];
        const [r, want] = await Promise.all([
          runCli(args, { env: envs[who] }),
          odooCount(who, model, domain, allowed),
        ]);
        const where = `${who}: posdata ${args.join(' ')}`;
        if (want === 'AccessError') {
          expect(r.code, `${where}: ${r.stderr}`).toBe(5);
          expect(r.stdout, where).toBe('');
          expect(r.stderr, where).toMatch(/^posdata: company [^\n]* is not one this user may see; [^\n]*\n$/);
        } else {
          expect(r.code, `${where}: ${r.stderr}`).toBe(0);
          expect(Number(r.stdout.trim()), where).toBe(want);
        }
        seen.push(`${list}${flag ? ` --company ${flag}` : ''}=${want}`);
      }
    // The figures of posmc's README, so that a changed database is seen here first.
    const sales = seen.filter((s) => s.startsWith('sales'));
    const expected: Record<OdooUser, (number | string)[]> = {
      admin: [324, 219, 105, 324],
      cashier: [219, 219, 'AccessError', 'AccessError'],
      cashier_us: [105, 'AccessError', 105, 'AccessError'],
      manager: [324, 219, 105, 324],
    };
    expect(sales.map((s) => s.split('=')[1])).toEqual(expected[who].map(String));
  });

  it('summary over all time: one total per currency, equal to read_group by company', async () => {
    const groups = await rpcs[who].kw<Row[]>(
      'pos.order',
      'read_group',
      [[['state', 'in', COUNTED]], ['amount_total:sum'], ['company_id']],
      { lazy: false },
    );
    /** Odoo's counted total per currency, in cents; and its orders. */
    const want = new Map<string, { total: number; orders: number }>();
    for (const g of groups) {
      const cur = companies.get(id(g.company_id))?.currency as string;
      expect(want.has(cur), `${who}: one company per currency in posmc`).toBe(false);
      want.set(cur, { total: cents(g.amount_total), orders: g.__count as number });
    }
    const several = want.size > 1;
    expect(several, `${who} sees both currencies`).toBe(who === 'admin' || who === 'manager');

    // --by currency: exactly one row per currency (with one currency, no currency column and one row).
    const byCur = await runCli(['summary', ...ALL_TIME, '--by', 'currency', '--format', 'json'], {
      env: envs[who],
    });
    expect(byCur.code, byCur.stderr).toBe(0);
    const curRows = JSON.parse(byCur.stdout) as Row[];
    if (several) {
      expect(new Map(curRows.map((r) => [r.currency, { total: cents(r.total), orders: r.orders }]))).toEqual(
        want,
      );
    } else {
      const [only] = [...want.values()];
      expect(curRows.map((r) => ({ total: cents(r.total), orders: r.orders }))).toEqual([only]);
    }

    // The default (by register) and by day: every row in one currency, the rows of a currency
    // adding up to that currency's total; on a day both companies sold, two rows, never one.
    for (const by of [[], ['--by', 'day'], ['--by', 'company']]) {
      const r = await runCli(['summary', ...ALL_TIME, ...by, '--format', 'json'], { env: envs[who] });
      const where = `${who}: summary ${by.join(' ')}`;
      expect(r.code, `${where}: ${r.stderr}`).toBe(0);
      const rows = JSON.parse(r.stdout) as Row[];
      const got = new Map<string, { total: number; orders: number }>();
      for (const row of rows) {
        const cur = several ? (row.currency as string) : ([...want.keys()][0] as string);
        expect(want.has(cur), `${where}: a row in ${cur}`).toBe(true);
        const acc = got.get(cur) ?? { total: 0, orders: 0 };
        got.set(cur, { total: acc.total + cents(row.total), orders: acc.orders + Number(row.orders) });
      }
      expect(got, where).toEqual(want);
      if (several) {
        expect(
          rows.every((row) => row.currency === 'EUR' || row.currency === 'USD'),
          `${where}: every row names its currency`,
        ).toBe(true);
        if (by[1] === 'day') {
          const days = rows.map((row) => `${row.day} ${row.currency}`);
          expect(new Set(days).size, `${where}: one row per day and currency`).toBe(days.length);
          const both = new Set(rows.filter((row) => row.currency === 'EUR').map((row) => row.day));
          expect(
            rows.some((row) => row.currency === 'USD' && both.has(row.day)),
            `${where}: a day of both`,
          ).toBe(true);
        }
        if (by.length === 0) {
          // A register's row is in its company's currency (Bar and Shop EUR, US Store USD).
          const configs = await rpcs[who].searchRead('pos.config', [], { fields: ['company_id'] });
          for (const row of rows) {
            const c = configs.find((x) => x.id === row.config_id);
            expect(row.currency, `${where}: register ${row.register}`).toBe(
              companies.get(id(c?.company_id))?.currency,
            );
          }
        }
      }
    }
  });

  it("reconcile's differences are Odoo's cash_register_difference, session by session", async () => {
    const sessions = await rpcs[who].searchRead('pos.session', [['state', '=', 'closed']], {
      fields: ['name', 'company_id', 'cash_register_difference'],
      order: 'id',
    });
    const r = await runCli(['reconcile', ...ALL_TIME, '--format', 'json'], { env: envs[who] });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    const several = new Set(sessions.map((s) => id(s.company_id))).size > 1;
    expect(rows.map((row) => row.session_id).sort((a, b) => Number(a) - Number(b))).toEqual(
      sessions.map((s) => s.id),
    );
    for (const row of rows) {
      const s = sessions.find((x) => x.id === row.session_id) as Row;
      const where = `${who}: session ${s.name}`;
      expect(cents(row.difference), where).toBe(cents(s.cash_register_difference));
      if (several) {
        expect(row.company_id, where).toBe(id(s.company_id));
        expect(row.currency, where).toBe(companies.get(id(s.company_id))?.currency);
      } else {
        expect(row.currency, `${where}: one currency, no currency column`).toBeUndefined();
      }
    }
  });
});

describe('a company the user may not see', () => {
  it.each([
    [
      'cashier',
      '2',
      /^posdata: company 2 is not one this user may see; this user may see 1 My Company \(San Francisco\) \(EUR\)\n$/,
    ],
    [
      'cashier_us',
      '1',
      /^posdata: company 1 is not one this user may see; this user may see 2 Shop US \(USD\)\n$/,
    ],
  ] as const)(
    '%s with --company %s: exit 5, one line naming the company they may see',
    async (who, c, line) => {
      for (const cmd of [
        ['sales', '--count'],
        ['summary', ...ALL_TIME],
        ['reconcile', ...ALL_TIME],
      ]) {
        const r = await runCli([...cmd, '--company', c], { env: envs[who] });
        expect(r.code, `${cmd[0]}: ${r.stderr}`).toBe(5);
        expect(r.stdout, cmd[0]).toBe('');
        expect(r.stderr, cmd[0]).toMatch(line);
      }
    },
  );
});
