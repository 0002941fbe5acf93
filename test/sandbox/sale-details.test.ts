// report.point_of_sale.report_saledetails.get_sale_details (Odoo's "Sales Details" X/Z report
// data): its figures against the sandbox's raw records, and its access rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type R = Record<string, unknown>;
const REPORT = 'report.point_of_sale.report_saledetails';
const NOW = new Date('2026-11-24T12:00:00Z');
const KEY = 'sd-admin-key';
let v17: SandboxHandle;
let v19: SandboxHandle;

beforeAll(async () => {
  [v17, v19] = await Promise.all([
    startTestSandbox({ seed: 5, orders: 800, days: 4, now: NOW }),
    startTestSandbox({ seed: 5, orders: 800, days: 4, now: NOW, odooVersion: 19, adminKey: KEY }),
  ]);
});
afterAll(async () => {
  await Promise.all([v17?.close(), v19?.close()]);
});

const near = (a: number, b: number, tol = 1e-6) => expect(Math.abs(a - b)).toBeLessThanOrEqual(tol);
const sum = (rows: R[], f: string) => rows.reduce((s, r) => s + (r[f] as number), 0);
const START = '2026-11-22 00:00:00';
const STOP = '2026-11-22 23:59:59';

async function j2(method: string, body: unknown, key = KEY) {
  const r = await fetch(`${v19.url}/json/2/${REPORT}/${method}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `bearer ${key}`,
      'X-Odoo-Database': 'demo',
    },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as R };
}

describe('get_sale_details on Odoo 17', () => {
  it('adds up a date range from the raw orders, lines and payments', async () => {
    const c = rpcClient(v17.url);
    const d = await c.ok<R>(REPORT, 'get_sale_details', [START, STOP, false, false]);
    const domain = [
      ['state', 'in', ['paid', 'invoiced', 'done']],
      ['date_order', '>=', START],
      ['date_order', '<=', STOP],
    ];
    const orders = await c.ok<R[]>('pos.order', 'search_read', [domain, ['amount_total']]);
    expect(orders.length).toBeGreaterThan(0);
    expect(d.nbr_orders).toBe(orders.length);
    expect((d.currency as R).total_paid).toBe(Math.round(sum(orders, 'amount_total') * 100) / 100);
    expect(d).toMatchObject({ state: 'multiple', session_name: false, date_start: START, date_stop: STOP });
    const ids = orders.map((o) => o.id);
    const pays = await c.ok<R[]>('pos.payment', 'search_read', [
      [['pos_order_id', 'in', ids]],
      ['amount', 'payment_method_id', 'session_id'],
    ]);
    const per = new Map<string, number>();
    for (const p of pays) {
      const k = `${(p.session_id as number[])[0]}|${(p.payment_method_id as number[])[0]}`;
      per.set(k, (per.get(k) ?? 0) + (p.amount as number));
    }
    const reported = d.payments as R[];
    expect(reported.length).toBe(per.size);
    for (const p of reported) near(p.total as number, per.get(`${p.session}|${p.id}`) as number, 0.005);
    const lines = await c.ok<R[]>('pos.order.line', 'search_read', [
      [['order_id', 'in', ids]],
      ['qty', 'price_subtotal', 'price_subtotal_incl', 'tax_ids'],
    ]);
    const sold = lines.filter((l) => (l.qty as number) >= 0);
    const back = lines.filter((l) => (l.qty as number) < 0);
    expect((d.products_info as R).qty).toBe(sum(sold, 'qty'));
    near((d.products_info as R).total as number, sum(sold, 'price_subtotal'), 1e-6 * sold.length + 1e-6);
    expect((d.refund_info as R).qty).toBe(sum(back, 'qty'));
    // compute_all rounds the base per line and the tax on that base: within a cent per line.
    near((d.taxes_info as R).base_amount as number, sum(sold, 'price_subtotal'), 0.005 * sold.length);
    const tax = sold.reduce(
      (s, l) => s + (l.price_subtotal_incl as number) - (l.price_subtotal as number),
      0,
    );
    near((d.taxes_info as R).tax_amount as number, tax, 0.01 * sold.length);
    const byCategory = (d.products as R[]).reduce((s, cat) => s + (cat.qty as number), 0);
    expect(byCategory).toBe(sum(sold, 'qty'));
    expect((d.products as R[]).map((cat) => cat.name)).toEqual(
      [...(d.products as R[]).map((cat) => cat.name)].sort(),
    );
  });

  it('gives a closed session its Z report: cash expected, counted, moves; bank methods counted', async () => {
    const c = rpcClient(v17.url);
    const [s] = await c.ok<R[]>(
      'pos.session',
      'search_read',
      [
        [['state', '=', 'closed']],
        [
          'name',
          'config_id',
          'cash_register_balance_end_real',
          'cash_real_transaction',
          'start_at',
          'stop_at',
        ],
      ],
      { limit: 1 },
    );
    const session = s as R;
    const d = await c.ok<R>(REPORT, 'get_sale_details', [false, false, false, [session.id]]);
    expect(d).toMatchObject({
      state: 'closed',
      session_name: session.name,
      date_start: session.start_at,
      date_stop: session.stop_at,
      config_names: [(session.config_id as [number, string])[1].replace(/ \(.*\)$/, '')],
    });
    const orders = await c.ok<R[]>('pos.order', 'search_read', [
      [
        ['session_id', '=', session.id],
        ['state', 'in', ['paid', 'invoiced', 'done']],
      ],
      ['amount_total'],
    ]);
    expect(d.nbr_orders).toBe(orders.length);
    const cash = (d.payments as R[]).find((p) => p.cash === true) as R;
    const [prev] = await c.ok<R[]>(
      'pos.session',
      'search_read',
      [
        [
          ['id', '<', session.id],
          ['state', '=', 'closed'],
          ['config_id', '=', (session.config_id as number[])[0]],
        ],
        ['cash_register_balance_end_real'],
      ],
      { limit: 1 },
    );
    const opening = (prev?.cash_register_balance_end_real as number | undefined) ?? 0;
    near(
      cash.final_count as number,
      (cash.total as number) + opening + (session.cash_real_transaction as number),
      1e-6,
    );
    expect(cash.money_counted).toBe(session.cash_register_balance_end_real);
    const moves = await c.ok<R[]>('account.bank.statement.line', 'search_read', [
      [['pos_session_id', '=', session.id]],
      ['amount'],
    ]);
    near(
      (cash.cash_moves as R[]).reduce(
        (x, m) => x + (m.name === 'Cash Opening' ? 0 : (m.amount as number)),
        0,
      ),
      sum(moves, 'amount'),
    );
    for (const p of (d.payments as R[]).filter((x) => x.cash === false)) {
      const ap = await c.ok<R[]>('account.payment', 'search_read', [
        [
          ['pos_session_id', '=', session.id],
          ['pos_payment_method_id', '=', p.id],
        ],
        ['amount'],
      ]);
      expect(p.money_counted).toBe(sum(ap, 'amount'));
      expect(p.count).toBe(true);
    }
  });

  it('refuses a POS user without accounting rights once sessions are in scope, as Odoo does', async () => {
    const pos = rpcClient(v17.url).as(6, 'pos');
    const byDate = await pos.kw(REPORT, 'get_sale_details', [START, STOP, false, false]);
    expect(byDate.error).toBeUndefined();
    const bySession = await pos.kw(REPORT, 'get_sale_details', [false, false, false, [3]]);
    expect(bySession.error?.data.name).toBe('odoo.exceptions.AccessError');
    expect(bySession.error?.data.message).toMatch(
      /^You are not allowed to access 'Payments' \(account\.payment\) records\./,
    );
    const byConfig = await pos.kw(REPORT, 'get_sale_details', [
      '2026-11-20 00:00:00',
      '2026-11-23 23:59:59',
      [1],
      false,
    ]);
    expect(byConfig.error?.data.name).toBe('odoo.exceptions.AccessError');
    const clerk = await rpcClient(v17.url)
      .as(7, 'clerk')
      .kw(REPORT, 'get_sale_details', [START, STOP, false, false]);
    expect(clerk.error?.data.message).toMatch(/\(pos\.order\) records/);
  });
});

describe('get_sale_details on Odoo 19 (JSON-2)', () => {
  it('has 19 keys, and its payments_per_method is a string to rebuild from payments', async () => {
    const r = await j2('get_sale_details', {
      date_start: START,
      date_stop: STOP,
      config_ids: [1, 2, 3, 4],
      session_ids: false,
    });
    expect(r.status).toBe(200);
    // It takes **kwargs but hands them to _get_domain, which takes none (recorded: 500, not 422).
    const extra = await j2('get_sale_details', { date_start: START, date_stop: STOP, extra: 1 });
    expect(extra.status).toBe(500);
    expect(extra.body.name).toBe('builtins.TypeError');
    expect(extra.body.message).toBe(
      "ReportPoint_Of_SaleReport_Saledetails._get_domain() got an unexpected keyword argument 'extra'",
    );
    const d = r.body;
    expect(typeof d.total_paid).toBe('number');
    expect(String(d.payments_per_method)).toMatch(/^dict_values\(\[/);
    const lines = (await (
      await fetch(`${v19.url}/json/2/pos.order.line/search_read`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `bearer ${KEY}`,
          'X-Odoo-Database': 'demo',
        },
        body: JSON.stringify({
          domain: [
            ['order_id.state', 'in', ['paid', 'done']],
            ['order_id.date_order', '>=', START],
            ['order_id.date_order', '<=', STOP],
            ['order_id.is_refund', '=', false],
          ],
          fields: ['qty'],
        }),
      })
    ).json()) as R[];
    expect((d.products_info as R).qty).toBe(sum(lines, 'qty'));
    // 19 counts refunded quantities as positive numbers.
    expect((d.refund_info as R).qty as number).toBeGreaterThanOrEqual(0);
  });

  it('answers a POS user 403 AccessError on account.payment once sessions are in scope', async () => {
    const key = v19.users.find((u) => u.login === 'pos')?.apiKey as string;
    const byDate = await j2('get_sale_details', { date_start: START, date_stop: STOP }, key);
    expect(byDate.status).toBe(200);
    const bySession = await j2('get_sale_details', { session_ids: [3] }, key);
    expect(bySession.status).toBe(403);
    expect(bySession.body.name).toBe('odoo.exceptions.AccessError');
    expect(String(bySession.body.message)).toMatch(/\(account\.payment\) records/);
  });
});
