// report.pos.order, Odoo's SQL view behind Point of Sale › Reporting › Orders: one row per order ×
// product on 17, one per line on 19. Its sums by day and by product equal the sums over the
// pos.order.line records of the same orders, read through the ordinary API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type R = Record<string, unknown>;
const NOW = new Date('2026-10-27T15:00:00Z');
const TZ = 'Europe/Brussels';
const STATES = ['paid', 'done', 'invoiced'];
const FROM = '2026-10-23 22:00:00';
const TO = '2026-10-27 00:00:00';

let v17: SandboxHandle;
let v19: SandboxHandle;
beforeAll(async () => {
  [v17, v19] = await Promise.all([
    startTestSandbox({ seed: 5, orders: 1200, days: 6, now: NOW }),
    startTestSandbox({ seed: 5, orders: 1200, days: 6, now: NOW, odooVersion: 19 }),
  ]);
});
afterAll(async () => {
  await Promise.all([v17?.close(), v19?.close()]);
});

const near = (a: number, b: number, what: string): void => {
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThan(1e-6);
};
const m2o = (v: unknown): number => (Array.isArray(v) ? (v[0] as number) : (v as number));

/** The raw lines of the counted orders in the range, each with its order's local day. */
async function rawLines(sb: SandboxHandle): Promise<(R & { day: string })[]> {
  const c = rpcClient(sb.url);
  const orders = await c.ok<R[]>('pos.order', 'search_read', [
    [
      ['state', 'in', STATES],
      ['date_order', '>=', FROM],
      ['date_order', '<', TO],
    ],
    ['date_order'],
  ]);
  const dayOf = new Map(
    orders.map((o) => [
      o.id as number,
      new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(
        new Date(`${String(o.date_order).replace(' ', 'T')}Z`),
      ),
    ]),
  );
  const lines = await c.ok<R[]>('pos.order.line', 'search_read', [
    [['order_id', 'in', [...dayOf.keys()]]],
    ['order_id', 'product_id', 'qty', 'price_unit', 'discount', 'price_subtotal', 'price_subtotal_incl'],
  ]);
  return lines.map((l) => ({ ...l, day: dayOf.get(m2o(l.order_id)) as string }));
}

/**
 * PostgreSQL's ROUND(numeric, 2) (half away from zero) of a stored amount: Odoo 17's view sums
 * SUM(ROUND(l.price_subtotal_incl / rate, cu.decimal_places)), and discounted lines are stored
 * unrounded (e.g. 27.774999…), so each line is rounded before the sum.
 */
const cents = (x: number): number =>
  (Math.sign(x) * Math.round(Number((Math.abs(x) * 100).toPrecision(12)))) / 100;

function sums(lines: R[], key: (l: R) => string | number) {
  const out = new Map<
    string | number,
    { qty: number; total: number; sub: number; disc: number; n: number }
  >();
  for (const l of lines) {
    const k = key(l);
    const s = out.get(k) ?? { qty: 0, total: 0, sub: 0, disc: 0, n: 0 };
    const q = l.qty as number;
    const p = l.price_unit as number;
    s.qty += q;
    s.total += cents(l.price_subtotal_incl as number);
    s.sub += q * p;
    s.disc += (q * p * (l.discount as number)) / 100;
    s.n++;
    out.set(k, s);
  }
  return out;
}

const DOMAIN = [
  ['state', 'in', STATES],
  ['date', '>=', FROM],
  ['date', '<', TO],
];
const AGGS = [
  'product_qty:sum',
  'price_total:sum',
  'price_sub_total:sum',
  'total_discount:sum',
  'nbr_lines:sum',
];

for (const version of [17, 19] as const) {
  describe(`report.pos.order on ${version}`, () => {
    const sb = (): SandboxHandle => (version === 17 ? v17 : v19);
    it('by day (in the zone) and by product: the sums of the same orders’ lines', async () => {
      const c = rpcClient(sb().url);
      const lines = await rawLines(sb());
      expect(lines.length).toBeGreaterThan(100);
      const byDay = sums(lines, (l) => (l as R & { day: string }).day);
      const byProduct = sums(lines, (l) => m2o(l.product_id));
      // 19 still answers the deprecated read_group, with the same __range.
      const days = await c.ok<R[]>('report.pos.order', 'read_group', [DOMAIN, AGGS, ['date:day']], {
        lazy: false,
        context: { tz: TZ },
      });
      expect(days.length).toBe(byDay.size);
      for (const g of days) {
        const from = (g.__range as Record<string, { from: string }>)['date:day']?.from as string;
        const day = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(
          new Date(`${from.replace(' ', 'T')}Z`),
        );
        const s = byDay.get(day);
        expect(s, day).toBeDefined();
        near(g.product_qty as number, s?.qty as number, `${day} qty`);
        near(g.price_total as number, s?.total as number, `${day} price_total`);
        near(g.price_sub_total as number, s?.sub as number, `${day} price_sub_total`);
        near(g.total_discount as number, s?.disc as number, `${day} total_discount`);
        expect(g.nbr_lines).toBe(s?.n);
      }
      const products = await c.ok<R[]>('report.pos.order', 'read_group', [DOMAIN, AGGS, ['product_id']], {
        lazy: false,
      });
      expect(products.length).toBe(byProduct.size);
      for (const g of products) {
        const s = byProduct.get(m2o(g.product_id));
        near(g.product_qty as number, s?.qty as number, `${String(g.product_id)} qty`);
        near(g.price_total as number, s?.total as number, `${String(g.product_id)} price_total`);
        near(g.total_discount as number, s?.disc as number, `${String(g.product_id)} total_discount`);
      }
    });

    it('rows at its grain, refunds negative, fields_get and search_count', async () => {
      const c = rpcClient(sb().url);
      const fields = await c.ok<Record<string, R>>('report.pos.order', 'fields_get', [], {
        attributes: ['type'],
      });
      expect(fields.product_qty?.type).toBe('integer');
      expect(fields.date?.type).toBe('datetime');
      expect('price_subtotal_excl' in fields).toBe(version === 19);
      const n = await c.ok<number>('report.pos.order', 'search_count', [DOMAIN]);
      const lines = await rawLines(sb());
      const pairs = new Set(lines.map((l) => `${m2o(l.order_id)}-${m2o(l.product_id)}`));
      expect(n).toBe(version === 17 ? pairs.size : lines.length);
      const refunds = await c.ok<R[]>('report.pos.order', 'search_read', [
        [...DOMAIN, ['price_total', '<', 0]],
        ['product_qty', 'price_total', 'order_id'],
      ]);
      expect(refunds.length).toBeGreaterThan(0);
      for (const r of refunds) {
        expect(r.product_qty as number).toBeLessThan(0);
        expect(Number.isInteger(r.product_qty)).toBe(true);
      }
    });
  });
}

describe('report.pos.order rights', () => {
  it('a POS user reads it; a user without POS rights does not', async () => {
    const c = rpcClient(v17.url);
    expect(await c.as(6, 'pos').ok<number>('report.pos.order', 'search_count', [[]])).toBeGreaterThan(0);
    const r = await c.as(7, 'clerk').kw('report.pos.order', 'search_count', [[]]);
    expect(r.error?.data.name).toBe('odoo.exceptions.AccessError');
  });
});
