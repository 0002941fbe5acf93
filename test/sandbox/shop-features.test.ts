// The sandbox's optional modules, modelled on the bundled real Odoo 17's posshop: pos_hr
// (the employee at the register, not the session's user), pos_restaurant (tables, guests, tips,
// take-away, change synced late), pos_loyalty (points rewards, gift cards) and pos_discount.
// Each property is what posshop shows (its README's "Facts a client must handle").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type Rec = Record<string, unknown> & { id: number };
const id = (v: unknown): number | false => (Array.isArray(v) ? (v[0] as number) : (v as number | false));
const round = (x: number) => Math.round(x * 100) / 100;

let sb: SandboxHandle;
let plain: SandboxHandle;
let c: ReturnType<typeof rpcClient>;
let orders: Rec[];
let lines: Rec[];
let payments: Rec[];
const linesOf = new Map<number, Rec[]>();
const paymentsOf = new Map<number, Rec[]>();
const OPTS = { seed: 29, orders: 1500, days: 21 };

beforeAll(async () => {
  sb = await startTestSandbox({
    ...OPTS,
    posHr: true,
    restaurant: true,
    loyalty: true,
    globalDiscount: true,
  });
  plain = await startTestSandbox(OPTS);
  c = rpcClient(sb.url);
  orders = await c.ok<Rec[]>('pos.order', 'search_read', [[]], {
    fields:
      'name date_order state user_id employee_id cashier session_id config_id table_id customer_count is_tipped tip_amount fiscal_position_id amount_total amount_paid amount_return partner_id'.split(
        ' ',
      ),
  });
  lines = await c.ok<Rec[]>('pos.order.line', 'search_read', [[]], {
    fields:
      'order_id product_id qty price_unit discount price_subtotal price_subtotal_incl tax_ids refunded_orderline_id is_reward_line reward_id coupon_id'.split(
        ' ',
      ),
  });
  payments = await c.ok<Rec[]>('pos.payment', 'search_read', [[]], {
    fields: ['pos_order_id', 'amount', 'payment_method_id', 'payment_date', 'is_change'],
  });
  for (const l of lines)
    linesOf.set(id(l.order_id) as number, [...(linesOf.get(id(l.order_id) as number) ?? []), l]);
  for (const p of payments)
    paymentsOf.set(id(p.pos_order_id) as number, [
      ...(paymentsOf.get(id(p.pos_order_id) as number) ?? []),
      p,
    ]);
});
afterAll(async () => {
  await sb?.close();
  await plain?.close();
});

const productNamed = async (name: string): Promise<number> =>
  (await c.ok<number[]>('product.product', 'search', [[['name', '=', name]]]))[0] as number;

describe('the sandbox modelling posshop', () => {
  it('sells the same orders as without the modules: the same names, times and states', async () => {
    const other = await rpcClient(plain.url).ok<Rec[]>('pos.order', 'search_read', [[]], {
      fields: ['name', 'date_order', 'state'],
    });
    const key = (o: Rec) => `${o.id} ${o.name} ${o.date_order} ${o.state}`;
    expect(orders.map(key).sort()).toEqual(other.map(key).sort());
  });

  it("pos_hr: every order's user is its session's; the employee varies; a refund is another employee's", async () => {
    const sessions = await c.ok<Rec[]>('pos.session', 'search_read', [[]], { fields: ['user_id'] });
    const userOf = new Map(sessions.map((s) => [s.id, id(s.user_id)]));
    for (const o of orders) expect(id(o.user_id)).toBe(userOf.get(id(o.session_id) as number));
    const employees = await c.ok<Rec[]>('hr.employee', 'search_read', [[]], { fields: ['name'] });
    const nameOf = new Map(employees.map((e) => [e.id, e.name]));
    for (const o of orders) expect(o.cashier).toBe(nameOf.get(id(o.employee_id) as number));
    // Per session, several employees ring up sales under the one user.
    const perSession = new Map<unknown, Set<unknown>>();
    for (const o of orders)
      perSession.set(
        id(o.session_id),
        (perSession.get(id(o.session_id)) ?? new Set()).add(id(o.employee_id)),
      );
    expect(Math.max(...[...perSession.values()].map((s) => s.size))).toBeGreaterThan(2);
    const byId = new Map(orders.map((o) => [o.id, o]));
    const lineOrder = new Map(lines.map((l) => [l.id, id(l.order_id)]));
    let refunds = 0;
    for (const l of lines) {
      if (!l.refunded_orderline_id) continue;
      const refund = byId.get(id(l.order_id) as number) as Rec;
      const sale = byId.get(lineOrder.get(id(l.refunded_orderline_id) as number) as number) as Rec;
      expect(id(refund.employee_id)).not.toBe(id(sale.employee_id));
      refunds++;
    }
    expect(refunds).toBeGreaterThan(10);
  });

  it('restaurant: tables and guests only on the Restaurant, two floors of tables', async () => {
    const configs = await c.ok<Rec[]>('pos.config', 'search_read', [[]], { fields: ['name'] });
    const resto = configs.find((x) => x.name === 'Restaurant') as Rec;
    expect(resto).toBeDefined();
    const floors = await c.ok<Rec[]>('restaurant.floor', 'search_read', [[]], {
      fields: ['name', 'pos_config_ids', 'table_ids'],
    });
    expect(floors.map((f) => f.name)).toEqual(['Main Floor', 'Patio']);
    for (const f of floors) expect(f.pos_config_ids).toEqual([resto.id]);
    for (const o of orders) {
      const atResto = id(o.config_id) === resto.id;
      expect(o.table_id !== false).toBe(atResto);
      if (!atResto) expect(o.customer_count).toBe(0);
    }
    const sales = orders.filter(
      (o) => id(o.config_id) === resto.id && (o.amount_total as number) > 0 && o.state !== 'cancel',
    );
    expect(sales.length).toBeGreaterThan(50);
    for (const o of sales) expect(o.customer_count).toBeGreaterThan(0);
  });

  it('tips: a Tips line of tip_amount, untaxed, on a card-paid order, in the total and the payment', async () => {
    const tips = await productNamed('Tips');
    const tipped = orders.filter((o) => o.is_tipped === true);
    expect(tipped.length).toBeGreaterThan(10);
    for (const o of tipped) {
      const own = linesOf.get(o.id) ?? [];
      const tipLines = own.filter((l) => id(l.product_id) === tips);
      expect(tipLines.length).toBe(1);
      expect(tipLines[0]?.price_subtotal_incl).toBe(o.tip_amount);
      expect(tipLines[0]?.tax_ids).toEqual([]);
      expect(round(own.reduce((s, l) => s + (l.price_subtotal_incl as number), 0))).toBe(o.amount_total);
      const paid = paymentsOf.get(o.id) ?? [];
      expect(paid.length).toBe(1);
      expect(paid[0]?.amount).toBe(o.amount_total);
      expect(o.fiscal_position_id).toBe(false);
    }
    for (const o of orders) if (o.is_tipped !== true) expect(o.tip_amount).toBe(0);
  });

  it('take-away: the fiscal position maps 15 % to Take-away 6% on its lines', async () => {
    const [tax] = await c.ok<number[]>('account.tax', 'search', [[['name', '=', 'Take-away 6%']]]);
    const away = orders.filter((o) => o.fiscal_position_id !== false);
    expect(away.length).toBeGreaterThan(10);
    let mapped = 0;
    for (const o of away)
      for (const l of linesOf.get(o.id) ?? []) {
        expect(l.tax_ids).not.toContain(1);
        if ((l.tax_ids as number[]).includes(tax as number)) {
          mapped++;
          const base = (l.qty as number) * (l.price_unit as number) * (1 - (l.discount as number) / 100);
          expect(l.price_subtotal_incl).toBe(round(base * 1.06));
        }
      }
    expect(mapped).toBeGreaterThan(5);
  });

  it("late sync: an offline evening's change is dated 08:40 Brussels the next morning", () => {
    const byId = new Map(orders.map((o) => [o.id, o]));
    const late = payments.filter((p) => p.is_change === true && String(p.payment_date).endsWith('07:40:00'));
    expect(late.length).toBeGreaterThan(0);
    for (const p of late) {
      const o = byId.get(id(p.pos_order_id) as number) as Rec;
      expect(String(o.date_order).slice(0, 10) < String(p.payment_date).slice(0, 10)).toBe(true);
    }
    // Every other change line is dated with its order.
    for (const p of payments)
      if (p.is_change === true && !late.includes(p))
        expect(p.payment_date).toBe(byId.get(id(p.pos_order_id) as number)?.date_order);
  });

  it("late sync: an offline evening's orders were created when the tablet synced, their lines and payments with them", async () => {
    const stamps = await c.ok<Rec[]>('pos.order', 'search_read', [[]], {
      fields: ['date_order', 'create_date', 'write_date', 'config_id'],
    });
    // A real Odoo stamps create_date when the order reaches it; date_order is when it was sold.
    const late = stamps.filter((o) => String(o.create_date) > String(o.date_order));
    expect(late.length).toBeGreaterThan(5);
    for (const o of late) {
      expect(String(o.create_date)).toMatch(/ 07:40:00$/);
      expect(String(o.date_order).slice(0, 10) < String(o.create_date).slice(0, 10)).toBe(true);
      expect(String(o.write_date) >= String(o.create_date)).toBe(true);
      expect((o.config_id as [number, string])[1]).toMatch(/^Restaurant/);
    }
    // Every other order reached the server when it was sold.
    for (const o of stamps) if (!late.includes(o)) expect(o.create_date).toBe(o.date_order);
    // The lines and payments of a late order were created in its transaction.
    const ids = late.map((o) => o.id);
    const createdOf = new Map(late.map((o) => [o.id, o.create_date]));
    const [lateLines, latePayments] = await Promise.all([
      c.ok<Rec[]>('pos.order.line', 'search_read', [[['order_id', 'in', ids]]], {
        fields: ['order_id', 'create_date'],
      }),
      c.ok<Rec[]>('pos.payment', 'search_read', [[['pos_order_id', 'in', ids]]], {
        fields: ['pos_order_id', 'create_date'],
      }),
    ]);
    expect(lateLines.length).toBeGreaterThan(late.length);
    for (const l of lateLines) expect(l.create_date).toBe(createdOf.get(id(l.order_id) as number));
    for (const p of latePayments) expect(p.create_date).toBe(createdOf.get(id(p.pos_order_id) as number));
  });

  it('loyalty: reward lines are negative and name their reward and card; a gift card is never overspent', async () => {
    const rewards = lines.filter((l) => l.is_reward_line === true);
    expect(rewards.length).toBeGreaterThan(20);
    for (const l of rewards) {
      expect(l.price_subtotal_incl as number).toBeLessThan(0);
      expect(id(l.reward_id)).not.toBe(false);
      expect(id(l.coupon_id)).not.toBe(false);
    }
    const cards = await c.ok<Rec[]>('loyalty.card', 'search_read', [[['source_pos_order_id', '!=', false]]], {
      fields: ['points', 'source_pos_order_id', 'code'],
    });
    expect(cards.length).toBeGreaterThan(3);
    const giftCard = await c.ok<Rec[]>('product.product', 'search_read', [[['name', '=', 'Gift Card']]], {
      fields: ['taxes_id', 'display_name'],
    });
    // The card sold is untaxed; the reward's product (the redemption line) carries the sale tax.
    const sold = giftCard.find(
      (p) => p.display_name === 'Gift Card' && (p.taxes_id as number[]).length === 0,
    ) as Rec;
    for (const card of cards) {
      const order = id(card.source_pos_order_id) as number;
      const saleLine = (linesOf.get(order) ?? []).find((l) => id(l.product_id) === sold.id) as Rec;
      const spent = rewards
        .filter((l) => id(l.coupon_id) === card.id)
        .reduce((s, l) => s - (l.price_subtotal_incl as number), 0);
      expect(round((saleLine.price_subtotal_incl as number) - spent) + 0).toBe(card.points);
      expect(card.points as number).toBeGreaterThanOrEqual(0);
    }
  });

  it('global discount: negative [DISC] lines, one per tax group, never beside a reward', async () => {
    const disc = await productNamed('Discount');
    const withDisc = new Set(lines.filter((l) => id(l.product_id) === disc).map((l) => id(l.order_id)));
    expect(withDisc.size).toBeGreaterThan(10);
    for (const o of withDisc) {
      const own = linesOf.get(o as number) ?? [];
      const d = own.filter((l) => id(l.product_id) === disc);
      for (const l of d) expect(l.price_subtotal as number).toBeLessThanOrEqual(0);
      expect(new Set(d.map((l) => String(l.tax_ids))).size).toBe(d.length);
      expect(own.some((l) => l.is_reward_line === true)).toBe(false);
    }
  });

  it("the payments add up to the orders' totals", () => {
    for (const o of orders) {
      if (o.state === 'cancel' || o.state === 'draft') continue;
      const paid = (paymentsOf.get(o.id) ?? []).reduce((s, p) => s + (p.amount as number), 0);
      expect(round(paid)).toBe(o.amount_total);
      const own = (linesOf.get(o.id) ?? []).reduce((s, l) => s + (l.price_subtotal_incl as number), 0);
      expect(Math.abs(round(own) - (o.amount_total as number))).toBeLessThanOrEqual(0.011);
    }
  });
});
