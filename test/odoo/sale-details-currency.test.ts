// Sales Details' `currency` as the real Odoo 17 answers it, and the sandbox in the same
// currency (USD, the real server's): the keys in their order, the symbol, its position
// (Odoo's `position == 'after'`: false for USD), the decimals, and total_paid as the orders'
// total rounded at them. And res.currency's position, which the sandbox now keeps. The data
// differ, so each side's total is checked against its own orders.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rpcOdoo } from '../helpers/odoo17.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const odoo = inject('odoo');
type R = Record<string, unknown>;
const RANGE = { date_start: '2000-01-01 00:00:00', date_stop: '2099-12-31 23:59:59' };
const PAID = [
  ['state', 'in', ['paid', 'invoiced', 'done']],
  ['date_order', '>=', RANGE.date_start],
  ['date_order', '<=', RANGE.date_stop],
];

describe("Sales Details' currency: the sandbox in USD as the real Odoo 17", () => {
  let sandbox: SandboxHandle;
  let real: Rpc;
  let ours: Rpc;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 6, orders: 400, days: 5, currency: 'USD' });
    real = await rpcOdoo(odoo, 'admin');
    ours = new Rpc(sandbox.url, 'demo', 'admin', 'admin');
    await ours.auth();
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  const companyCurrency = async (rpc: Rpc): Promise<R> => {
    const [company] = await rpc.kw<R[]>('res.company', 'search_read', [[]], {
      fields: ['currency_id'],
      limit: 1,
    });
    const id = ((company as R).currency_id as [number, string])[0];
    const [c] = await rpc.kw<R[]>('res.currency', 'read', [[id]], {
      fields: ['name', 'symbol', 'position', 'decimal_places'],
    });
    return c as R;
  };

  it("the company's res.currency: the same name, symbol, position and decimals", async () => {
    const [r, s] = await Promise.all([companyCurrency(real), companyCurrency(ours)]);
    expect(r).toMatchObject({ name: 'USD', position: 'before' });
    const { id: _r, ...rest } = r;
    const { id: _s, ...mine } = s;
    expect(mine).toEqual(rest);
  });

  it('get_sale_details answers `currency` alike, its total_paid the paid orders at two decimals', async () => {
    const args = { ...RANGE, config_ids: false, session_ids: false };
    for (const rpc of [real, ours]) {
      const d = await rpc.kw<R>('report.point_of_sale.report_saledetails', 'get_sale_details', [], args);
      const orders = await rpc.kw<R[]>('pos.order', 'search_read', [PAID], { fields: ['amount_total'] });
      expect(orders.length).toBeGreaterThan(0);
      const total = orders.reduce((sum, o) => sum + (o.amount_total as number), 0);
      const c = d.currency as R;
      expect(Object.keys(c)).toEqual(['symbol', 'position', 'total_paid', 'precision']);
      expect(c).toEqual({
        symbol: '$',
        position: false,
        precision: 2,
        total_paid: Math.round(total * 100) / 100,
      });
    }
  });
});
