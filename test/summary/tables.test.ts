// A restaurant's tables and floors (pos_restaurant): summary --by table and --by floor, on
// Odoo 16-18 (whose report.pos.order and payments know no table: each order's lines and
// payments are folded into its table's group) and on 19 (grouped through the order). Each
// row's figures are the raw sums of its orders, lines and payments; a floor is its tables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TIME, loginEnv, runCli } from '../helpers/cli.js';
import { rpcClient, type SandboxHandle, SHOP_MODULES, startTestSandbox } from '../helpers/sandbox.js';

type Row = Record<string, string | number | null>;
type Rec = Record<string, unknown> & { id: number };
const id = (v: unknown): number | null => (Array.isArray(v) ? (v[0] as number) : null);
const COUNTED = ['paid', 'done', 'invoiced'];

describe.each([16, 17, 18, 19] as const)('summary by table and floor on Odoo %i', (odooVersion) => {
  let sb: SandboxHandle;
  let env: Record<string, string>;
  beforeAll(async () => {
    sb = await startTestSandbox({ seed: 29, orders: 600, days: 14, odooVersion, ...SHOP_MODULES });
    env = await loginEnv(sb.url);
  });
  afterAll(async () => {
    await sb?.close();
  });

  const summary = async (by: string): Promise<Row[]> => {
    const r = await runCli(['summary', ...ALL_TIME, '--by', by, '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Row[];
  };

  it("--by table: each table's orders, items, total and card payments are its orders' own", async () => {
    const rows = await summary('table');
    const c = rpcClient(sb.url);
    const orders = await c.ok<Rec[]>('pos.order', 'search_read', [
      [['state', 'in', COUNTED]],
      ['table_id', 'amount_total'],
    ]);
    const tableOf = new Map(orders.map((o) => [o.id, id(o.table_id)]));
    const lines = await c.ok<Rec[]>('pos.order.line', 'search_read', [
      [['order_id', 'in', orders.filter((o) => (o.amount_total as number) >= 0).map((o) => o.id)]],
      ['order_id', 'qty'],
    ]);
    const payments = await c.ok<Rec[]>('pos.payment', 'search_read', [
      [['pos_order_id', 'in', orders.map((o) => o.id)]],
      ['pos_order_id', 'amount', 'payment_method_id'],
    ]);
    const tables = new Set(orders.map((o) => id(o.table_id)));
    expect(tables.size).toBeGreaterThan(10);
    expect(new Set(rows.map((r) => r.table_id))).toEqual(tables);
    for (const row of rows) {
      const mine = (o: unknown) => tableOf.get(id(o) as number) === row.table_id;
      const own = orders.filter((o) => tableOf.get(o.id) === row.table_id);
      expect(row.orders, `table ${row.table_id}`).toBe(own.length);
      const total = own.reduce((a, o) => a + (o.amount_total as number), 0);
      expect(Math.abs((row.total as number) - total)).toBeLessThan(0.006);
      const items = lines.filter((l) => mine(l.order_id)).reduce((a, l) => a + (l.qty as number), 0);
      expect(row.items).toBeCloseTo(items, 6);
      const card = payments
        .filter((p) => mine(p.pos_order_id) && (p.payment_method_id as [number, string])[1] === 'Card')
        .reduce((a, p) => a + (p.amount as number), 0);
      expect(Math.abs((row['method:Card'] as number) - card)).toBeLessThan(0.011);
    }
  });

  it("--by floor: a floor's figures are its tables' added up, and the floors the Restaurant's", async () => {
    const [floors, tables, registers] = await Promise.all([
      summary('floor'),
      summary('table'),
      summary('register'),
    ]);
    const c = rpcClient(sb.url);
    const floorOf = new Map(
      (await c.ok<Rec[]>('restaurant.table', 'search_read', [[], ['floor_id']])).map((t) => [
        t.id,
        id(t.floor_id),
      ]),
    );
    const named = floors.filter((f) => f.floor_id !== null);
    expect(named.length).toBe(2);
    for (const f of named) {
      const own = tables.filter((t) => floorOf.get(t.table_id as number) === f.floor_id);
      for (const k of ['orders', 'refund_count'])
        expect(f[k], `${f.floor} ${k}`).toBe(own.reduce((a, t) => a + (t[k] as number), 0));
      for (const k of ['total', 'gross', 'discounts', 'tax'])
        expect(
          Math.abs((f[k] as number) - own.reduce((a, t) => a + (t[k] as number), 0)),
          `${f.floor} ${k}`,
        ).toBeLessThan(0.005 * own.length + 0.006);
    }
    const restaurant = registers.find((r) => r.register === 'Restaurant') as Row;
    expect(named.reduce((a, f) => a + (f.orders as number), 0)).toBe(restaurant.orders);
    expect(
      Math.abs(named.reduce((a, f) => a + (f.total as number), 0) - (restaurant.total as number)),
    ).toBeLessThan(0.006);
    // The shop's own lines (tips, global discounts, rewards, cards) are in the floors too, on
    // 16-18's per-order path as on 19's: the floors' gross and discounts are the register's.
    const shop = Object.keys(restaurant).filter(
      (k) =>
        k === 'tips' || k.startsWith('gift_cards') || k === 'global_discounts' || k.startsWith('reward:'),
    );
    expect(shop.filter((k) => k !== 'tips' && (restaurant[k] as number) > 0).length).toBeGreaterThan(0);
    // A day's discount is rounded once and its cents shared among the day's groups: the
    // floors' and the register's take a cent apart at most per floor.
    for (const k of ['gross', 'discounts', ...shop])
      expect(
        Math.abs(named.reduce((a, f) => a + ((f[k] as number) ?? 0), 0) - (restaurant[k] as number)),
        `the floors' ${k}`,
      ).toBeLessThan(k === 'gross' || k === 'discounts' ? 0.01 * named.length + 0.001 : 0.006);
  });
});

describe('summary by table: refused where it cannot be', () => {
  let plain: SandboxHandle;
  beforeAll(async () => {
    plain = await startTestSandbox({ seed: 3, orders: 100, days: 3 });
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('on an Odoo without pos_restaurant: one line naming it, exit 2', async () => {
    const env = await loginEnv(plain.url);
    for (const by of ['table', 'day,floor']) {
      const r = await runCli(['summary', ...ALL_TIME, '--by', by], { env });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')[0]).toMatch(/have no table.*pos_restaurant/);
    }
  });

  it('table and floor together: exit 2 before any request', async () => {
    const env = await loginEnv(plain.url);
    const r = await runCli(['summary', ...ALL_TIME, '--by', 'table,floor'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/a table is on one floor/);
  });
});
