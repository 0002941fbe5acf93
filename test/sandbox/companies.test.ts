// The sandbox's companies (--companies): records in each company's currency, Odoo's record
// rules with and without allowed_company_ids, the AccessError for a company the user is not
// allowed in, currency_id related and not stored, one session sequence, repeating method names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const NOW = new Date('2026-11-25T12:00:00Z');
let sb: SandboxHandle;
let rpc: ReturnType<typeof rpcClient>;

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 4, orders: 240, days: 4, companies: 3, now: NOW });
  rpc = rpcClient(sb.url);
});
afterAll(() => sb.close());

const user = (login: string) => {
  const u = sb.users.find((x) => x.login === login);
  if (!u) throw new Error(login);
  return rpc.as(u.uid, u.password);
};

describe('sandbox --companies 3', () => {
  it('has three companies in EUR, USD and JPY, with their decimals', async () => {
    expect(sb.companies).toEqual([
      { id: 1, name: 'My Company', currency: 'EUR' },
      { id: 2, name: 'Shop US', currency: 'USD' },
      { id: 3, name: 'Shop JP', currency: 'JPY' },
    ]);
    const cur = await rpc.ok<{ name: string; decimal_places: number }[]>(
      'res.currency',
      'search_read',
      [[]],
      { fields: ['name', 'decimal_places'], order: 'id' },
    );
    expect(cur.map((c) => [c.name, c.decimal_places])).toEqual([
      ['EUR', 2],
      ['USD', 2],
      ['JPY', 0],
    ]);
    const jp = await rpc.ok<{ amount_total: number }[]>(
      'pos.order',
      'search_read',
      [[['company_id', '=', 3]]],
      { fields: ['amount_total'] },
    );
    expect(jp.length).toBe(240);
    expect(jp.every((o) => Number.isInteger(o.amount_total))).toBe(true);
  });

  it('counts as Odoo does: no context = every company the user is in; a company outside = AccessError', async () => {
    const table: Record<string, (number | string)[]> = {};
    for (const login of ['admin', 'pos', 'manager', 'pos2']) {
      const row: (number | string)[] = [];
      for (const ctx of [undefined, [1], [2], [1, 2], []]) {
        const r = await user(login).kw(
          'pos.order',
          'search_count',
          [[]],
          ctx ? { context: { allowed_company_ids: ctx } } : {},
        );
        row.push(r.error ? `${r.error.data.name}: ${r.error.data.message}` : (r.result as number));
      }
      table[login] = row;
    }
    const denied = 'odoo.exceptions.AccessError: Access to unauthorized or invalid companies.';
    expect(table).toEqual({
      admin: [720, 240, 240, 480, 720],
      pos: [240, 240, denied, denied, 240],
      manager: [720, 240, 240, 480, 720],
      pos2: [240, denied, 240, denied, 240],
    });
  });

  it('splits sessions, registers, payments and methods by company (not the lines), and res.company by the user', async () => {
    for (const model of ['pos.session', 'pos.config', 'pos.payment', 'pos.payment.method']) {
      const all = await rpc.ok<number>(model, 'search_count', [[]]);
      let sum = 0;
      for (const c of [1, 2, 3])
        sum += await rpc.ok<number>(model, 'search_count', [[]], { context: { allowed_company_ids: [c] } });
      expect(sum, model).toBe(all);
    }
    // No record rule on the lines (as Odoo 16-19): every company's, whatever the companies.
    const lines = await rpc.ok<number>('pos.order.line', 'search_count', [[]]);
    for (const c of [1, 2, 3])
      expect(
        await rpc.ok<number>('pos.order.line', 'search_count', [[]], {
          context: { allowed_company_ids: [c] },
        }),
      ).toBe(lines);
    const seen = await user('pos2').ok<{ id: number }[]>('res.company', 'search_read', [[]], {
      fields: ['name'],
    });
    expect(seen.map((c) => c.id)).toEqual([2]);
  });

  it('cannot group pos.order by its currency (related, not stored), as Odoo 17', async () => {
    const r = await rpc.kw('pos.order', 'read_group', [[], ['amount_total:sum'], ['currency_id']], {
      lazy: false,
    });
    expect(r.error?.data.message).toBe('Cannot convert field pos.order.currency_id to SQL');
    const byCompany = await rpc.ok<{ company_id: [number, string]; __count: number }[]>(
      'pos.order',
      'read_group',
      [[], ['amount_total:sum'], ['company_id']],
      { lazy: false },
    );
    expect(byCompany.map((g) => [g.company_id[0], g.__count]).sort()).toEqual([
      [1, 240],
      [2, 240],
      [3, 240],
    ]);
  });

  it('names sessions from one sequence and repeats payment method names across companies', async () => {
    const sessions = await rpc.ok<{ id: number; name: string }[]>('pos.session', 'search_read', [[]], {
      fields: ['name'],
      order: 'id',
    });
    expect(sessions.map((s) => s.name)).toEqual(sessions.map((s) => `POS/${String(s.id).padStart(5, '0')}`));
    const methods = await rpc.ok<{ name: string; company_id: [number, string] }[]>(
      'pos.payment.method',
      'search_read',
      [[['name', '=', 'Cash']]],
      { fields: ['name', 'company_id'] },
    );
    expect(methods.map((m) => m.company_id[0])).toEqual([1, 2, 3]);
  });

  it('gives Sales Details in the currency of the first allowed company', async () => {
    const details = await rpc.ok<{ currency: { precision: number }; company_name: string }>(
      'report.point_of_sale.report_saledetails',
      'get_sale_details',
      [false, false, false, false],
      { context: { allowed_company_ids: [3] } },
    );
    expect(details.company_name).toBe('Shop JP');
    expect(details.currency.precision).toBe(0);
  });
});
