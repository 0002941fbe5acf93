// A real shop's special lines in the summary (docs/summary.md, "Where each thing goes"), on the
// sandbox's shop modules: tips, gift cards sold and redeemed, pos_discount's global discount
// and the loyalty programme's rewards each have a column of their own, by every order key, on
// Odoo 17 (report.pos.order) and 19 (lines through their order). Each is set against the raw
// records read over RPC by another field than the summary uses where there is one (a tip is
// the order's tip_amount; a reward line is known by is_reward_line and its programme).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { rpcClient, type SandboxHandle, SHOP_MODULES, startTestSandbox } from '../helpers/sandbox.js';

type Row = Record<string, string | number | null>;
type Rec = Record<string, unknown> & { id: number };
const id = (v: unknown): number => (Array.isArray(v) ? (v[0] as number) : (v as number));
const cents = (v: unknown): number => Math.round(Number(v) * 100);
const PARTS = ['global_discounts', 'reward:Shop Points', 'gift_cards_redeemed', 'gift_cards_sold', 'tips'];

async function summary(env: Record<string, string>, by: string): Promise<Row[]> {
  const r = await runCli(
    [
      'summary',
      '--from',
      '2000-01-01',
      '--to',
      'today',
      '--tz',
      'UTC',
      '--by',
      by,
      '--format',
      'json',
      '--rate',
      '0',
    ],
    { env },
  );
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Row[];
}

/** Each sales order's special amounts, from the raw records, by the column they belong in. */
async function expected(url: string): Promise<{ orders: Rec[]; parts: Map<number, Record<string, number>> }> {
  const c = rpcClient(url);
  const orders = await c.ok<Rec[]>('pos.order', 'search_read', [
    [
      ['state', 'in', ['paid', 'done', 'invoiced']],
      ['amount_total', '>=', 0],
    ],
    ['config_id', 'session_id', 'amount_total', 'tip_amount'],
  ]);
  const programs = new Map(
    (await c.ok<Rec[]>('loyalty.reward', 'search_read', [[], ['program_id']])).map((r) => [
      r.id,
      (r.program_id as [number, string])[1],
    ]),
  );
  const [disc] = await c.ok<Rec[]>('product.product', 'search_read', [
    [['default_code', '=', 'DISC']],
    ['id'],
  ]);
  const [card] = await c.ok<Rec[]>('loyalty.program', 'search_read', [
    [['program_type', '=', 'gift_card']],
    ['trigger_product_ids'],
  ]);
  const lines = await c.ok<Rec[]>('pos.order.line', 'search_read', [
    [['order_id', 'in', orders.map((o) => o.id)]],
    ['order_id', 'product_id', 'price_subtotal_incl', 'is_reward_line', 'reward_id'],
  ]);
  const parts = new Map<number, Record<string, number>>();
  for (const o of orders) parts.set(o.id, { tips: o.tip_amount as number });
  for (const l of lines) {
    const p = parts.get(id(l.order_id)) as Record<string, number>;
    const amount = l.price_subtotal_incl as number;
    let key: string | undefined;
    if (l.is_reward_line) {
      const name = programs.get(id(l.reward_id));
      key = name === 'Gift Cards' ? 'gift_cards_redeemed' : `reward:${name}`;
    } else if (id(l.product_id) === disc?.id) key = 'global_discounts';
    else if (((card?.trigger_product_ids ?? []) as number[]).includes(id(l.product_id)))
      key = 'gift_cards_sold';
    if (key) p[key] = (p[key] ?? 0) + (key === 'gift_cards_sold' ? amount : -amount);
  }
  return { orders, parts };
}

describe.each([17, 19] as const)(
  'summary of a real shop on Odoo %i: tips, gift cards, global discounts, rewards',
  (v) => {
    let sb: SandboxHandle;
    let env: Record<string, string>;
    beforeAll(async () => {
      sb = await startTestSandbox({ seed: 29, orders: 600, odooVersion: v, ...SHOP_MODULES });
      env = await loginEnv(sb.url);
    });
    afterAll(async () => sb?.close());

    it('each special line has its column, by register and by session, equal to the raw records', async () => {
      const { orders, parts } = await expected(sb.url);
      for (const [by, field] of [
        ['register', 'config_id'],
        ['session', 'session_id'],
      ] as const) {
        const rows = await summary(env, by);
        for (const k of PARTS) {
          let seen = 0;
          for (const row of rows) {
            const mine = orders.filter((o) => id(o[field]) === row[`${field}`]);
            const want = mine.reduce((s, o) => s + (parts.get(o.id)?.[k] ?? 0), 0);
            expect(cents(row[k]), `--by ${by} ${row[by]}: ${k}`).toBe(cents(want));
            seen += Math.abs(want);
          }
          expect(seen, `the shop has ${k}`).toBeGreaterThan(0);
        }
      }
    });

    it('what took the orders below what was rung up is in discounts: gross - discounts + refunds = total', async () => {
      for (const by of ['register', 'day', 'cashier']) {
        const rows = await summary(env, by);
        for (const row of rows) {
          expect(cents(row.gross) - cents(row.discounts) + cents(row.refunds), `--by ${by}`).toBe(
            cents(row.total),
          );
          const lowering =
            cents(row.global_discounts) + cents(row['reward:Shop Points']) + cents(row.gift_cards_redeemed);
          // What stays is the lines' own discounts (the d % of a line), never negative.
          expect(cents(row.discounts) - lowering, `--by ${by}: line discounts`).toBeGreaterThanOrEqual(0);
        }
      }
    });
  },
);

describe.each([17, 19] as const)('tips by cashier and by method on Odoo %i', (v) => {
  let sb: SandboxHandle;
  let env: Record<string, string>;
  beforeAll(async () => {
    sb = await startTestSandbox({ seed: 29, orders: 600, odooVersion: v, ...SHOP_MODULES });
    env = await loginEnv(sb.url);
  });
  afterAll(async () => sb?.close());

  it("--by cashier: each employee's tips are the tip_amount of the orders they rang", async () => {
    const { orders } = await expected(sb.url);
    const c = rpcClient(sb.url);
    const cashierOf = new Map(
      (
        await c.ok<Rec[]>('pos.order', 'search_read', [
          [['id', 'in', orders.map((o) => o.id)]],
          ['employee_id'],
        ])
      ).map((o) => [o.id, Array.isArray(o.employee_id) ? id(o.employee_id) : null]),
    );
    const rows = await summary(env, 'cashier');
    let seen = 0;
    for (const row of rows) {
      const want = orders
        .filter((o) => cashierOf.get(o.id) === (row.cashier_id ?? null))
        .reduce((s, o) => s + (o.tip_amount as number), 0);
      expect(cents(row.tips), `cashier ${row.cashier}`).toBe(cents(want));
      seen += want;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("--by method: each tip is its order's first payment's method's, as Odoo adds it there", async () => {
    const { orders } = await expected(sb.url);
    const tipped = orders.filter((o) => (o.tip_amount as number) > 0);
    const payments = await rpcClient(sb.url).ok<Rec[]>('pos.payment', 'search_read', [
      [
        ['pos_order_id', 'in', tipped.map((o) => o.id)],
        ['is_change', '=', false],
      ],
      ['pos_order_id', 'payment_method_id'],
      0,
      0,
      'id',
    ]);
    const want = new Map<string, number>();
    for (const o of tipped) {
      const p = payments.find((x) => id(x.pos_order_id) === o.id) as Rec;
      const m = (p.payment_method_id as [number, string])[1];
      want.set(m, (want.get(m) ?? 0) + (o.tip_amount as number));
    }
    expect(want.size).toBeGreaterThan(0);
    const rows = await summary(env, 'method');
    for (const row of rows)
      expect(cents(row.tips), `${row.method}`).toBe(cents(want.get(row.method as string) ?? 0));
    expect(cents(rows.reduce((s, r) => s + (r.tips as number), 0))).toBe(
      cents(tipped.reduce((s, o) => s + (o.tip_amount as number), 0)),
    );
  });
});

describe('a shop without these modules', () => {
  let sb: SandboxHandle;
  let env: Record<string, string>;
  beforeAll(async () => {
    sb = await startTestSandbox({ seed: 29, orders: 200 });
    env = await loginEnv(sb.url);
  });
  afterAll(async () => sb?.close());

  it('has none of the columns', async () => {
    const rows = await summary(env, 'register');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) for (const k of PARTS) expect(row).not.toHaveProperty(k);
  });
});
