// Sales Details (get_sale_details) as a real 17 and 19 answer it (research/wire-findings-17-19.md,
// recordings t3_*sale_details*), each rule checked on the sandbox's own records: payments per
// (method, session), their names and order, which sessions get counted, 19's per-method totals,
// product rows, refund signs, the range/session keys and the POS user's AccessError.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type R = Record<string, unknown>;
const REPORT = 'report.point_of_sale.report_saledetails';
const NOW = new Date('2026-11-24T12:00:00Z');
// Three whole UTC days: the sandbox's sessions run in the day, so each lies inside the range.
const START = '2026-11-20 00:00:00';
const STOP = '2026-11-22 23:59:59';
const boxes = new Map<number, SandboxHandle>();
const BASE_KEYS = ['id', 'session', 'name', 'cash', 'total', 'journal_id', 'count'];
/** The figures of a product row, after its product keys (17: name and code; 19: name and barcode). */
const ROW_FIGURES = ['quantity', 'price_unit', 'discount', 'uom', 'total_paid', 'base_amount'];
const COUNT_KEYS = [...BASE_KEYS, 'final_count', 'money_counted', 'money_difference', 'cash_moves'];

beforeAll(async () => {
  const started = await Promise.all(
    ([17, 19] as const).map((v) =>
      startTestSandbox({ seed: 5, orders: 1500, days: 6, now: NOW, odooVersion: v }),
    ),
  );
  for (const sb of started) boxes.set(sb.odooVersion as number, sb);
});
afterAll(async () => {
  await Promise.all([...boxes.values()].map((sb) => sb.close()));
});

const rpc = (v: number) => rpcClient((boxes.get(v) as SandboxHandle).url);
const details = (v: number, kwargs: R) =>
  rpc(v).ok<R>(REPORT, 'get_sale_details', [], {
    date_start: false,
    date_stop: false,
    config_ids: false,
    session_ids: false,
    ...kwargs,
  });
const cents = (x: number) => Math.round(x * 100);
const m2o = (v: unknown) => (Array.isArray(v) ? (v[0] as number) : undefined);

/** The report's orders' payments, summed per (method, session) in cents, from the raw records. */
async function paymentPairs(v: number, domain: unknown[]): Promise<Map<string, number>> {
  const orders = await rpc(v).ok<number[]>('pos.order', 'search', [domain]);
  const pays = await rpc(v).ok<R[]>('pos.payment', 'search_read', [
    [['pos_order_id', 'in', orders]],
    ['amount', 'payment_method_id', 'session_id'],
  ]);
  const per = new Map<string, number>();
  for (const p of pays) {
    const k = `${m2o(p.payment_method_id)}|${m2o(p.session_id)}`;
    per.set(k, (per.get(k) ?? 0) + cents(p.amount as number));
  }
  return per;
}

const rangeDomain = (v: number): unknown[] => [
  ['state', 'in', v === 19 ? ['paid', 'done'] : ['paid', 'invoiced', 'done']],
  ['date_order', '>=', START],
  ['date_order', '<=', STOP],
];

async function names(v: number, model: string): Promise<Map<number, string>> {
  const rows = await rpc(v).ok<R[]>(model, 'search_read', [[], ['name']], {
    context: { active_test: false },
  });
  return new Map(rows.map((r) => [r.id as number, r.name as string]));
}

describe.each([17, 19])('Odoo %i: payments', (v) => {
  it('one entry per (payment method, session), named "<method> <session>", id = method, session = session', async () => {
    const d = await details(v, { date_start: START, date_stop: STOP });
    const payments = d.payments as R[];
    const want = await paymentPairs(v, rangeDomain(v));
    const methods = await names(v, 'pos.payment.method');
    const sessions = await names(v, 'pos.session');
    expect(payments.length).toBe(want.size);
    // Several sessions per method in three days: more entries than methods.
    expect(new Set(payments.map((p) => p.session)).size).toBeGreaterThan(2);
    expect(payments.length).toBeGreaterThan(new Set(payments.map((p) => p.id)).size);
    for (const p of payments) {
      expect(cents(p.total as number)).toBe(want.get(`${p.id}|${p.session}`));
      expect(p.name).toBe(`${methods.get(p.id as number)} ${sessions.get(p.session as number)}`);
    }
    // Summed over sessions, each method's entries give its pos.payment total.
    const perMethod = new Map<number, number>();
    for (const [k, c] of want)
      perMethod.set(Number(k.split('|')[0]), (perMethod.get(Number(k.split('|')[0])) ?? 0) + c);
    for (const [m, c] of perMethod) {
      const reported = payments.filter((p) => p.id === m).reduce((x, p) => x + cents(p.total as number), 0);
      expect(reported).toBe(c);
    }
  });

  it('a date range alone resolves no session: every entry count false, without the counting keys', async () => {
    const d = await details(v, { date_start: START, date_stop: STOP });
    for (const p of d.payments as R[]) {
      expect(Object.keys(p)).toEqual(BASE_KEYS);
      expect(p.count).toBe(false);
    }
    expect(d).toMatchObject({
      state: 'multiple',
      date_start: START,
      date_stop: STOP,
      session_name: false,
      config_names: [],
      opening_note: false,
      closing_note: false,
    });
  });

  it('config_ids with a range: the sessions wholly inside are counted, the others are not', async () => {
    const c = rpc(v);
    const inside = await c.ok<R[]>('pos.session', 'search_read', [
      [
        ['config_id', '=', 1],
        ['start_at', '>=', START],
        ['stop_at', '<=', STOP],
      ],
      ['name', 'cash_register_balance_start', 'cash_real_transaction', 'cash_register_balance_end_real'],
    ]);
    expect(inside.length).toBe(3);
    const d = await details(v, { date_start: START, date_stop: STOP, config_ids: [1] });
    const counted = (d.payments as R[]).filter((p) => p.count === true);
    expect(new Set(counted.map((p) => p.session))).toEqual(new Set(inside.map((s) => s.id)));
    for (const p of counted) expect(Object.keys(p)).toEqual(COUNT_KEYS);
    // The bank entry of a closed session: its closing payment, no difference.
    for (const p of counted.filter((x) => x.cash === false)) {
      expect(p.final_count).toBe(p.total);
      expect(p.money_counted).toBe(p.total);
      expect(p.money_difference).toBe(0);
      expect(p.cash_moves).toEqual([]);
    }
    for (const s of inside) {
      const cash = counted.find((p) => p.cash === true && p.session === s.id) as R;
      const [prev] = await c.ok<R[]>(
        'pos.session',
        'search_read',
        [
          [
            ['id', '<', s.id],
            ['state', '=', 'closed'],
            ['config_id', '=', 1],
          ],
          ['cash_register_balance_end_real'],
        ],
        { limit: 1 },
      );
      // 17 starts from the previous closing's counted cash, 19 from this session's opening balance.
      const opening =
        v === 19
          ? (s.cash_register_balance_start as number)
          : ((prev?.cash_register_balance_end_real as number) ?? 0);
      expect(cash.final_count).toBe((cash.total as number) + opening + (s.cash_real_transaction as number));
      expect(cash.money_counted).toBe(s.cash_register_balance_end_real);
      expect(cash.money_difference).toBe(
        (s.cash_register_balance_end_real as number) - (cash.final_count as number),
      );
    }
    expect(d.config_names).toEqual([(await names(v, 'pos.config')).get(1)]);
    // From noon the first day's session is no longer wholly inside: it is not counted.
    const cut = await details(v, { date_start: '2026-11-20 12:00:00', date_stop: STOP, config_ids: [1] });
    const cutCounted = new Set((cut.payments as R[]).filter((p) => p.count === true).map((p) => p.session));
    expect(cutCounted.size).toBe(2);
    expect(cutCounted.has(inside.at(-1)?.id as number)).toBe(false);
  });

  it("a closed session's cash moves carry the statement lines' names, newest first", async () => {
    const [s] = await rpc(v).ok<R[]>(
      'pos.session',
      'search_read',
      [[['state', '=', 'closed']], ['name', 'cash_register_balance_start']],
      { limit: 1, order: 'id desc' },
    );
    const session = s as R;
    const d = await details(v, { session_ids: [session.id] });
    const cash = (d.payments as R[]).find((p) => p.cash === true) as R;
    const lines = await rpc(v).ok<R[]>('account.bank.statement.line', 'search_read', [
      [['pos_session_id', '=', session.id]],
      ['payment_ref', 'amount'],
    ]);
    const opening = (session.cash_register_balance_start as number) > 0;
    const moves = cash.cash_moves as R[];
    expect(moves).toEqual([
      ...(opening ? [{ name: 'Cash Opening', amount: session.cash_register_balance_start }] : []),
      ...lines.map((l) => ({ name: l.payment_ref, amount: l.amount })),
    ]);
    const named = moves.map((m) => String(m.name));
    expect(named).toContain(session.name);
    for (const n of named)
      expect(n).toMatch(
        new RegExp(
          `^(Cash Opening|${String(session.name).replace(/[/]/g, '\\/')}(-(in|out)-.+)?|Cash difference observed during the counting \\((Loss|Profit)\\) - closing)$`,
        ),
      );
    expect(d).toMatchObject({
      state: 'closed',
      session_name: session.name,
      opening_note: '',
      closing_note: '',
    });
  });

  it('an open session: the bank entry stays uncounted, the cash entry counted 0 with -final_count difference', async () => {
    const [open] = await rpc(v).ok<R[]>('pos.session', 'search_read', [
      [['state', '=', 'opened']],
      ['start_at'],
    ]);
    const d = await details(v, { session_ids: [(open as R).id] });
    const payments = d.payments as R[];
    const bank = payments.filter((p) => p.cash === false);
    expect(bank.length).toBeGreaterThan(0);
    for (const p of bank) expect(Object.keys(p)).toEqual(BASE_KEYS);
    const cash = payments.find((p) => p.cash === true) as R;
    expect(cash.money_counted).toBe(0);
    expect(cash.money_difference).toBe(-(cash.final_count as number));
    expect(d).toMatchObject({
      state: 'opened',
      date_start: (open as R).start_at,
      date_stop: false,
      opening_note: '',
      closing_note: false,
    });
  });
});

describe('Odoo 19 only', () => {
  it('orders payments by method id, then session id', async () => {
    const d = await details(19, { date_start: START, date_stop: STOP });
    const keys = (d.payments as R[]).map((p) => [p.id as number, p.session as number]);
    expect(keys).toEqual(
      [...keys].sort((a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number)),
    );
  });

  it('payments_per_method: a dict_values repr, one {name, total} per method id in first-appearance order; show_payment_per_method; total_paid', async () => {
    const d = await details(19, { date_start: START, date_stop: STOP });
    const text = d.payments_per_method as string;
    expect(typeof text).toBe('string');
    expect(text).toMatch(/^dict_values\(\[.*\]\)$/);
    const items = [...text.matchAll(/\{'name': '([^']*)', 'total': ([-\d.e+]+)\}/g)].map((m) => ({
      name: m[1],
      total: Number(m[2]),
    }));
    const methods = await names(19, 'pos.payment.method');
    const order: number[] = [];
    const sums = new Map<number, number>();
    for (const p of d.payments as R[]) {
      const id = p.id as number;
      if (!sums.has(id)) order.push(id);
      sums.set(id, (sums.get(id) ?? 0) + (p.total as number));
    }
    expect(items).toEqual(order.map((id) => ({ name: methods.get(id), total: sums.get(id) })));
    expect(d.show_payment_per_method).toBe(true);
    expect(d.total_paid).toBe(0);
    const [s] = await rpc(19).ok<R[]>('pos.session', 'search_read', [
      [['state', '=', 'closed']],
      ['total_payments_amount'],
    ]);
    const bySession = await details(19, { session_ids: [(s as R).id] });
    expect(bySession.show_payment_per_method).toBe(false);
    expect(bySession.total_paid).toBe((s as R).total_payments_amount);
  });

  it('two methods with one name stay two items in payments_per_method', async () => {
    const sb = await startTestSandbox({ seed: 3, orders: 300, days: 3, now: NOW, odooVersion: 19 });
    try {
      const c = rpcClient(sb.url);
      const cashIds = await c.ok<number[]>('pos.payment.method', 'search', [[['is_cash_count', '=', true]]]);
      expect(cashIds.length).toBeGreaterThan(1);
      await c.ok('pos.payment.method', 'write', [cashIds, { name: 'Cash' }]);
      // Two days: two sessions per register, so one item per method is fewer than the entries.
      const d = await c.ok<R>(REPORT, 'get_sale_details', [], {
        date_start: '2026-11-22 00:00:00',
        date_stop: '2026-11-23 23:59:59',
      });
      const items = [
        ...(d.payments_per_method as string).matchAll(/\{'name': '([^']*)', 'total': ([-\d.e+]+)\}/g),
      ];
      const cashEntries = (d.payments as R[]).filter((p) => p.cash === true);
      const cashMethodsPaid = [...new Set(cashEntries.map((p) => p.id as number))];
      expect(cashMethodsPaid.length).toBeGreaterThan(1);
      expect(cashEntries.length).toBeGreaterThan(cashMethodsPaid.length);
      expect(items.filter((m) => m[1] === 'Cash').map((m) => Number(m[2]))).toEqual(
        cashMethodsPaid.map((id) =>
          cashEntries.filter((p) => p.id === id).reduce((x, p) => x + (p.total as number), 0),
        ),
      );
    } finally {
      await sb.close();
    }
  });

  it('product rows: display name with [code], barcode, combo_products_label "", no code', async () => {
    const d = await details(19, { date_start: START, date_stop: STOP });
    const rows = (d.products as R[]).flatMap((c) => c.products as R[]);
    expect(rows.length).toBeGreaterThan(0);
    const display = new Map(
      (
        await rpc(19).ok<R[]>('product.product', 'search_read', [[], ['display_name']], {
          context: { active_test: false },
        })
      ).map((p) => [p.id, p.display_name]),
    );
    for (const r of rows) {
      expect(Object.keys(r)).toEqual([
        'product_id',
        'product_name',
        'barcode',
        ...ROW_FIGURES,
        'combo_products_label',
      ]);
      expect(r.product_name).toBe(display.get(r.product_id));
      expect(r.product_name).toMatch(/^\[\w+\] /);
      expect(r.combo_products_label).toBe('');
    }
  });

  it('refunds: positive quantities, negative totals, a positive refund_taxes_info.base_amount over negative tax rows', async () => {
    const d = await details(19, { date_start: '2026-11-19 00:00:00', date_stop: STOP });
    const rows = (d.refund_products as R[]).flatMap((c) => c.products as R[]);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.quantity as number).toBeGreaterThan(0);
      expect(r.total_paid as number).toBeLessThan(0);
    }
    expect((d.refund_info as R).qty as number).toBeGreaterThan(0);
    const lines = await rpc(19).ok<R[]>('pos.order.line', 'search_read', [
      [
        ['order_id.is_refund', '=', true],
        ['order_id.state', 'in', ['paid', 'done']],
        ['order_id.date_order', '>=', '2026-11-19 00:00:00'],
        ['order_id.date_order', '<=', STOP],
      ],
      ['price_subtotal'],
    ]);
    const info = (d.refund_taxes_info as R).base_amount as number;
    expect(info).toBeGreaterThan(0);
    expect(cents(info)).toBe(-cents(lines.reduce((x, l) => x + (l.price_subtotal as number), 0)));
    for (const t of d.refund_taxes as R[]) expect(t.base_amount as number).toBeLessThan(0);
  });
});

describe('Odoo 17 only', () => {
  it('product rows: name and code apart; refunds negative throughout; none of 19 keys', async () => {
    const d = await details(17, { date_start: '2026-11-19 00:00:00', date_stop: STOP });
    for (const k of ['total_paid', 'payments_per_method', 'show_payment_per_method'])
      expect(k in d).toBe(false);
    for (const r of (d.products as R[]).flatMap((c) => c.products as R[])) {
      expect(Object.keys(r)).toEqual(['product_id', 'product_name', 'code', ...ROW_FIGURES]);
      expect(r.product_name).not.toMatch(/^\[/);
    }
    const refunds = (d.refund_products as R[]).flatMap((c) => c.products as R[]);
    expect(refunds.length).toBeGreaterThan(0);
    for (const r of refunds) expect(r.quantity as number).toBeLessThan(0);
    expect((d.refund_taxes_info as R).base_amount as number).toBeLessThan(0);
  });
});

describe.each([
  [17, 200, ['Invoicing/Billing', 'Technical/Show Accounting Features - Readonly']],
  [19, 0, ['Accounting/Invoicing', 'Show Accounting Features - Readonly']],
] as const)('Odoo %i: the POS user', (v, code, groups) => {
  const message = `You are not allowed to access 'Payments' (account.payment) records.\n\nThis operation is allowed for the following groups:\n${groups.map((g) => `\t- ${g}`).join('\n')}\n\nContact your administrator to request access if necessary.`;
  const asPos = () => rpc(v).as(6, 'pos');

  it('reads a date range (no session resolved), also per register when the range cuts its sessions', async () => {
    const byDate = await asPos().kw(REPORT, 'get_sale_details', [START, STOP, false, false]);
    expect(byDate.error).toBeUndefined();
    const cut = await asPos().kw(REPORT, 'get_sale_details', [
      '2026-11-20 12:00:00',
      '2026-11-20 23:59:59',
      [1],
      false,
    ]);
    expect(cut.error).toBeUndefined();
  });

  it("gets the AccessError on account.payment once a session is resolved, in the version's words", async () => {
    const [s] = await rpc(v).ok<number[]>('pos.session', 'search', [[['state', '=', 'closed']]], {
      limit: 1,
    });
    for (const args of [
      [false, false, false, [s]],
      [START, STOP, [1], false],
    ]) {
      const r = await asPos().kw(REPORT, 'get_sale_details', args);
      expect(r.error?.code).toBe(code);
      expect(r.error?.data.name).toBe('odoo.exceptions.AccessError');
      expect(r.error?.data.message).toBe(message);
    }
  });
});
