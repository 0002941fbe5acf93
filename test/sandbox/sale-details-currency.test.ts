// Sales Details in the company's currency, as Odoo 17's report_sale_details.py computes it:
// `currency` is the report's currency (symbol, position 'after' as true, decimal_places), its
// total_paid is the orders' total rounded with currency.round, and the product rows and taxes
// are sums of amounts rounded line by line at the currency's decimals (currency.round and
// compute_all), not at two whatever the currency. The sandbox answered EUR's dict and cents for
// every --currency before, and report.pos.order rounded its lines to cents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type R = Record<string, unknown>;
const REPORT = 'report.point_of_sale.report_saledetails';
const NOW = new Date('2026-11-24T12:00:00Z');
const START = '2026-11-21 00:00:00';
const STOP = '2026-11-23 23:59:59';

const roundAt = (v: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round((v + Math.sign(v) * 1e-9) * f) / f;
};
/** A sum of amounts of these decimals: no more decimals than that, float noise aside. */
const atMost = (v: number, digits: number): boolean => Math.abs(v - roundAt(v, digits)) < 1e-6;

describe.each([
  // currency, Odoo, symbol, symbol after the amount, decimals (base/data/res_currency_data.xml)
  ['EUR', 17, '€', true, 2],
  ['USD', 17, '$', false, 2],
  ['KWD', 17, 'KD', true, 3],
  ['JPY', 17, '¥', false, 0],
  ['KWD', 19, 'KD', true, 3],
] as const)('the money of a company in %s on Odoo %i', (currency, odooVersion, symbol, after, digits) => {
  let sandbox: SandboxHandle;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 12, orders: 900, days: 4, now: NOW, currency, odooVersion });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  const rpc = () => rpcClient(sandbox.url);
  const details = () =>
    rpc().ok<R>(REPORT, 'get_sale_details', [], {
      date_start: START,
      date_stop: STOP,
      config_ids: false,
      session_ids: false,
    });

  it("res.currency says where its symbol goes, as Odoo's data does", async () => {
    const [c] = await rpc().ok<R[]>('res.currency', 'search_read', [[], ['name', 'symbol', 'position']]);
    expect(c).toMatchObject({ name: currency, symbol, position: after ? 'after' : 'before' });
  });

  it("`currency` is the company's, and its total_paid the orders' total at its decimals", async () => {
    const d = await details();
    const orders = await rpc().ok<R[]>('pos.order', 'search_read', [
      [
        ['state', 'in', ['paid', 'invoiced', 'done']],
        ['date_order', '>=', START],
        ['date_order', '<=', STOP],
      ],
      ['amount_total'],
    ]);
    expect(orders.length).toBeGreaterThan(100);
    const total = orders.reduce((s, o) => s + (o.amount_total as number), 0);
    const c = d.currency as R;
    expect(Object.keys(c)).toEqual(['symbol', 'position', 'total_paid', 'precision']);
    expect(c).toEqual({ symbol, position: after, total_paid: roundAt(total, digits), precision: digits });
  });

  it('product rows and taxes add up amounts rounded at the currency, line by line', async () => {
    const d = await details();
    const rows = (d.products as { products: R[] }[]).flatMap((c) => c.products);
    const taxes = d.taxes as R[];
    expect(rows.length).toBeGreaterThan(10);
    expect(taxes.length).toBeGreaterThan(0);
    const amounts = [...rows.map((p) => p.total_paid as number), ...taxes.map((t) => t.tax_amount as number)];
    for (const v of amounts) expect(atMost(v, digits), String(v)).toBe(true);
    // Three decimals are kept, not cut to two; none are made up for the yen.
    if (digits > 2) expect(amounts.filter((v) => !atMost(v, 2)).length).toBeGreaterThan(10);
  });

  it("report.pos.order's price_total: the lines' totals, each rounded at the currency's decimals", async () => {
    // Odoo's view: SUM(ROUND(price_subtotal_incl / rate, cu.decimal_places)), the company's currency.
    const states = ['state', 'in', ['paid', 'invoiced', 'done']];
    const [group] = await rpc().ok<R[]>('report.pos.order', 'read_group', [
      [states, ['date', '>=', START], ['date', '<=', STOP]],
      ['price_total:sum'],
      [],
    ]);
    const lines = await rpc().ok<R[]>('pos.order.line', 'search_read', [
      [
        [`order_id.${states[0]}`, states[1], states[2]],
        ['order_id.date_order', '>=', START],
        ['order_id.date_order', '<=', STOP],
      ],
      ['price_subtotal_incl'],
    ]);
    expect(lines.length).toBeGreaterThan(100);
    const total = lines.reduce((sum, l) => sum + roundAt(l.price_subtotal_incl as number, digits), 0);
    expect(
      Math.abs((group?.price_total as number) - total),
      `${group?.price_total} vs ${total}`,
    ).toBeLessThan(1e-6);
  });
});
