// Odoo 17 with pos_hr: the cashier is the order's employee_id, and report.pos.order carries it
// too, so --by cashier has its items, gross and discounts per employee in one grouping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type Row = Record<string, string | number | null>;
type Rec = Record<string, unknown> & { id: number };
const id = (v: unknown): number | false => (Array.isArray(v) ? (v[0] as number) : (v as number | false));

let sb: SandboxHandle;
let env: Record<string, string>;
beforeAll(async () => {
  sb = await startTestSandbox({ seed: 21, orders: 700, posHr: true });
  env = await loginEnv(sb.url);
});
afterAll(async () => {
  await sb?.close();
});

describe('summary --by cashier with pos_hr on Odoo 17', () => {
  it('groups by employee; items, discounts and methods equal the raw sums of each employee', async () => {
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
        'cashier',
        '--format',
        'json',
        '--rate',
        '0',
      ],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    const c = rpcClient(sb.url);
    const orders = await c.ok<Rec[]>('pos.order', 'search_read', [
      [['state', 'in', ['paid', 'done', 'invoiced']]],
      ['employee_id', 'amount_total'],
    ]);
    const employees = new Set(orders.map((o) => id(o.employee_id)));
    expect(new Set(rows.map((x) => x.cashier_id || false))).toEqual(employees);
    const lines = await c.ok<Rec[]>('pos.order.line', 'search_read', [
      [['order_id', 'in', orders.filter((o) => (o.amount_total as number) >= 0).map((o) => o.id)]],
      ['order_id', 'qty', 'discount', 'price_subtotal_incl'],
    ]);
    const payments = await c.ok<Rec[]>('pos.payment', 'search_read', [
      [['pos_order_id', 'in', orders.map((o) => o.id)]],
      ['pos_order_id', 'amount', 'payment_method_id'],
    ]);
    const employeeOf = new Map(orders.map((o) => [o.id, id(o.employee_id)]));
    for (const row of rows) {
      const mine = lines.filter(
        (l) => employeeOf.get(id(l.order_id) as number) === (row.cashier_id || false),
      );
      const items = mine.reduce((a, l) => a + (l.qty as number), 0);
      const discounted = mine.filter((l) => (l.discount as number) > 0);
      const discounts = discounted.reduce(
        (a, l) =>
          a + ((l.price_subtotal_incl as number) * (l.discount as number)) / (100 - (l.discount as number)),
        0,
      );
      expect(row.items).toBeCloseTo(items, 6);
      expect(Math.abs((row.discounts as number) - discounts)).toBeLessThan(0.011 + 0.005 * discounted.length);
      const card = payments
        .filter(
          (p) =>
            employeeOf.get(id(p.pos_order_id) as number) === (row.cashier_id || false) &&
            (p.payment_method_id as [number, string])[1] === 'Card',
        )
        .reduce((a, p) => a + (p.amount as number), 0);
      expect(Math.abs((row['method:Card'] as number) - card)).toBeLessThan(0.011);
    }
  });
});
