// The generated data adds up like a real shop's, is reproducible from the seed, and keeps a
// history (create/write dates) of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type R = Record<string, unknown> & { id: number };
const NOW = new Date('2026-11-21T15:30:00Z');
const near = (a: unknown, b: unknown, eps = 0.0051): boolean => Math.abs(Number(a) - Number(b)) < eps;
const m2o = (v: unknown): number | false => (Array.isArray(v) ? (v[0] as number) : false);

let sandbox: SandboxHandle;
let rpc: ReturnType<typeof rpcClient>;
let orders: R[];
let lines: R[];
let payments: R[];
let sessions: R[];
let methods: R[];
let moves: R[];
let taxes: Map<number, number>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 3, orders: 2500, days: 10, now: NOW });
  rpc = rpcClient(sandbox.url);
  const all = (model: string, fields: string[]) =>
    rpc.ok<R[]>(model, 'search_read', [[]], { fields, order: 'id', context: { active_test: false } });
  orders = await all('pos.order', [
    'name',
    'state',
    'date_order',
    'amount_total',
    'amount_tax',
    'amount_paid',
    'amount_return',
    'lines',
    'payment_ids',
    'session_id',
    'config_id',
    'refunded_order_ids',
    'is_refunded',
    'refund_orders_count',
    'create_date',
    'write_date',
    'account_move',
  ]);
  lines = await all('pos.order.line', [
    'order_id',
    'qty',
    'price_unit',
    'discount',
    'price_subtotal',
    'price_subtotal_incl',
    'tax_ids',
    'refunded_orderline_id',
    'product_id',
    'full_product_name',
  ]);
  payments = await all('pos.payment', [
    'amount',
    'is_change',
    'name',
    'payment_method_id',
    'pos_order_id',
    'session_id',
    'payment_date',
  ]);
  sessions = await all('pos.session', [
    'name',
    'config_id',
    'state',
    'start_at',
    'stop_at',
    'cash_register_balance_start',
    'cash_register_balance_end_real',
    'cash_register_balance_end',
    'cash_register_difference',
    'total_payments_amount',
    'order_count',
    'statement_line_ids',
    'cash_real_transaction',
    'write_date',
  ]);
  methods = await all('pos.payment.method', ['name', 'is_cash_count', 'active']);
  moves = await all('account.bank.statement.line', ['pos_session_id', 'amount', 'payment_ref']);
  taxes = new Map((await all('account.tax', ['amount'])).map((t) => [t.id, t.amount as number]));
});
afterAll(async () => {
  await sandbox?.close();
});

describe('generated data', () => {
  it('has the requested volume and a shop-like mix', () => {
    expect(orders.length).toBe(2500);
    const states = new Set(orders.map((o) => o.state));
    for (const s of ['done', 'paid', 'cancel', 'invoiced']) expect(states.has(s)).toBe(true);
    expect(orders.some((o) => o.name === '/' && o.state === 'draft')).toBe(true);
    expect(
      orders
        .filter((o) => o.state === 'paid' || o.state === 'done')
        .every((o) => String(o.name).includes('POS/')),
    ).toBe(true);
    expect(
      methods.some((m) => m.is_cash_count === true) && methods.some((m) => m.is_cash_count === false),
    ).toBe(true);
    expect(sessions.filter((s) => s.state === 'opened')).toHaveLength(1);
    const registers = new Set(sessions.map((s) => m2o(s.config_id)));
    expect(registers.size).toBeGreaterThanOrEqual(2);
    expect(lines.some((l) => (l.discount as number) > 0)).toBe(true);
  });

  it('lines: subtotal = qty * price * (1 - discount), incl = subtotal with tax', () => {
    for (const l of lines) {
      const base = (l.qty as number) * (l.price_unit as number) * (1 - (l.discount as number) / 100);
      expect(near(l.price_subtotal, base)).toBe(true);
      const rate = taxes.get((l.tax_ids as number[])[0] as number) ?? 0;
      expect(near(l.price_subtotal_incl, base * (1 + rate / 100), 0.0051)).toBe(true);
      expect(String(l.full_product_name)).toMatch(/^\[[A-Z]+_\d{4}\] /);
    }
  });

  it('orders: totals are the sums of their lines, paid = sum of payments (change included)', () => {
    const byOrder = new Map<number, R[]>();
    for (const l of lines)
      byOrder.set(m2o(l.order_id) as number, [...(byOrder.get(m2o(l.order_id) as number) ?? []), l]);
    const pay = new Map(payments.map((p) => [p.id, p]));
    for (const o of orders) {
      const ls = byOrder.get(o.id) ?? [];
      expect(ls.map((l) => l.id)).toEqual(o.lines);
      // As Odoo rounds an order: its lines' sum to half a cent (untaxed lines keep fractions).
      expect(
        near(
          o.amount_total,
          ls.reduce((s, l) => s + (l.price_subtotal_incl as number), 0),
          0.0051,
        ),
      ).toBe(true);
      expect(
        near(
          o.amount_tax,
          ls.reduce((s, l) => s + (l.price_subtotal_incl as number) - (l.price_subtotal as number), 0),
          1e-6,
        ),
      ).toBe(true);
      const ps = (o.payment_ids as number[]).map((id) => pay.get(id) as R);
      expect(
        near(
          o.amount_paid,
          ps.reduce((s, p) => s + (p.amount as number), 0),
          1e-6,
        ),
      ).toBe(true);
      const change = ps.filter((p) => p.is_change === true);
      for (const c of change) {
        expect(c.amount as number).toBeLessThan(0);
        expect(c.name).toBe('return');
      }
      expect(near(o.amount_return, -change.reduce((s, p) => s + (p.amount as number), 0))).toBe(true);
      if (o.state === 'cancel' || o.state === 'draft') expect(ps).toHaveLength(0);
      else expect(near(o.amount_paid, o.amount_total)).toBe(true);
      if (o.state === 'invoiced') expect(o.account_move).not.toBe(false);
    }
  });

  it('refunds point at what they refund, line by line, with negative figures', () => {
    const refunds = orders.filter((o) => (o.refunded_order_ids as number[]).length > 0);
    expect(refunds.length).toBeGreaterThan(10);
    const byId = new Map(orders.map((o) => [o.id, o]));
    const lineById = new Map(lines.map((l) => [l.id, l]));
    for (const r of refunds) {
      expect(r.amount_total as number).toBeLessThan(0);
      const orig = byId.get((r.refunded_order_ids as number[])[0] as number) as R;
      expect(r.name).toBe(`${orig.name} REFUND`);
      expect(orig.is_refunded).toBe(true);
      expect(orig.refund_orders_count).toBe(1);
      for (const lid of r.lines as number[]) {
        const l = lineById.get(lid) as R;
        expect(l.qty as number).toBeLessThan(0);
        const ol = lineById.get(m2o(l.refunded_orderline_id) as number) as R;
        expect(m2o(ol.order_id)).toBe(orig.id);
        expect(l.qty).toBe(-(ol.qty as number));
      }
    }
  });

  it('sessions: payments, cash expected = opening + cash payments + moves, difference = counted - expected', () => {
    const cash = new Set(methods.filter((m) => m.is_cash_count).map((m) => m.id));
    let differing = 0;
    const prevReal = new Map<number, number>();
    for (const s of [...sessions].sort((a, b) => a.id - b.id)) {
      const ps = payments.filter((p) => m2o(p.session_id) === s.id);
      expect(
        near(
          s.total_payments_amount,
          ps.reduce((x, p) => x + (p.amount as number), 0),
          1e-6,
        ),
      ).toBe(true);
      expect(s.order_count).toBe(orders.filter((o) => m2o(o.session_id) === s.id).length);
      const cashTaken = ps
        .filter((p) => cash.has(m2o(p.payment_method_id) as number))
        .reduce((x, p) => x + (p.amount as number), 0);
      // A closing books the cash sales (a line named after the session) and the counting
      // difference as cash lines; cash_real_transaction holds the lines from before it.
      const lines = moves.filter((m) => m2o(m.pos_session_id) === s.id);
      const closing = (m: R) =>
        m.payment_ref === s.name ||
        /^Cash difference observed during the counting \((Loss|Profit)\) - closing$/.test(
          String(m.payment_ref),
        );
      const moved = lines.filter((m) => !closing(m)).reduce((x, m) => x + (m.amount as number), 0);
      if (s.state === 'closed') {
        expect(near(s.cash_real_transaction, moved, 1e-6)).toBe(true);
        const sales = lines.filter((m) => m.payment_ref === s.name);
        expect(sales.length).toBe(ps.some((p) => cash.has(m2o(p.payment_method_id) as number)) ? 1 : 0);
        if (sales[0]) expect(near(sales[0].amount, cashTaken, 1e-6)).toBe(true);
        const diff = lines.filter((m) => closing(m) && m.payment_ref !== s.name);
        const expected = (s.cash_register_balance_start as number) + cashTaken + moved;
        const counted = s.cash_register_balance_end_real as number;
        if (Math.abs(counted - expected) >= 0.005) {
          expect(diff.length).toBe(1);
          expect(near(diff[0]?.amount, counted - expected, 1e-6)).toBe(true);
          expect(String(diff[0]?.payment_ref)).toContain(counted < expected ? '(Loss)' : '(Profit)');
        } else expect(diff.length).toBe(0);
      } else expect(lines.every((m) => !closing(m))).toBe(true);
      expect((s.statement_line_ids as number[]).length).toBe(
        moves.filter((m) => m2o(m.pos_session_id) === s.id).length,
      );
      const register = m2o(s.config_id) as number;
      expect(near(s.cash_register_balance_start, prevReal.get(register) ?? 0, 1e-9)).toBe(true);
      expect(
        near(
          s.cash_register_balance_end,
          (s.cash_register_balance_start as number) + cashTaken + moved,
          1e-6,
        ),
      ).toBe(true);
      expect(
        near(
          s.cash_register_difference,
          (s.cash_register_balance_end_real as number) - (s.cash_register_balance_end as number),
          1e-6,
        ),
      ).toBe(true);
      if (s.state === 'closed') {
        expect(s.stop_at).not.toBe(false);
        if (Math.abs(s.cash_register_difference as number) > 0.004) differing++;
        prevReal.set(register, s.cash_register_balance_end_real as number);
      } else {
        expect(s.stop_at).toBe(false);
        expect(s.cash_register_balance_end_real).toBe(0);
      }
    }
    expect(differing).toBeGreaterThan(0);
  });

  it('history: created when sold, written when last changed, never after now', async () => {
    const sessionById = new Map(sessions.map((s) => [s.id, s]));
    const now = '2026-11-21 15:30:00';
    for (const o of orders) {
      expect(o.create_date).toBe(o.date_order);
      expect((o.write_date as string) >= (o.create_date as string)).toBe(true);
      expect((o.write_date as string) < now).toBe(true);
      const s = sessionById.get(m2o(o.session_id) as number) as R;
      if (o.state === 'done') expect(o.write_date).toBe(s.write_date);
    }
    for (const s of sessions)
      if (s.state === 'closed') expect((s.write_date as string) > (s.stop_at as string)).toBe(true);
    const configs = await rpc.ok<R[]>('pos.config', 'search_read', [[]], {
      fields: [
        'name',
        'current_session_id',
        'current_session_state',
        'last_session_closing_date',
        'display_name',
      ],
    });
    const open = configs.filter((c) => c.current_session_state === 'opened');
    expect(open).toHaveLength(1);
    expect(String(open[0]?.display_name)).toMatch(/^\w+ \(Mitchell Admin\)$/);
    expect(
      configs
        .filter((c) => c.current_session_id === false)
        .every((c) => String(c.display_name).endsWith('(not used)')),
    ).toBe(true);
  });
});

describe('reproducibility', () => {
  const snapshot = async (h: SandboxHandle) =>
    JSON.stringify(
      await rpcClient(h.url).ok('pos.order', 'search_read', [[]], {
        fields: ['name', 'date_order', 'amount_total', 'state', 'payment_ids', 'write_date'],
        order: 'id',
      }),
    );
  it('same seed, same data; another seed, other data', async () => {
    const a = await startTestSandbox({ seed: 42, orders: 400, now: NOW });
    const b = await startTestSandbox({ seed: 42, orders: 400, now: NOW });
    const c = await startTestSandbox({ seed: 43, orders: 400, now: NOW });
    try {
      const [sa, sb, sc] = await Promise.all([snapshot(a), snapshot(b), snapshot(c)]);
      expect(sa).toBe(sb);
      expect(sa).not.toBe(sc);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});
