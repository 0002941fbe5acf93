// The summary's cents on a real Odoo 17 (issue 31, items 7 and 8). Odoo 17 keeps an untaxed
// discounted line in fractions of a cent (1.98 × 0.85 = 1.683, as `_onchange_qty` and the
// register compute it, unrounded) and rounds each order (`_onchange_amount_all`: the rounded
// tax plus the rounded untaxed sum), so the lines of a range can miss its orders' total by a
// cent. Every view gives the orders' total, every row closes gross − discounts + refunds =
// total, and a day's figures do not depend on the range that holds it.
import { DateTime } from 'luxon';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loginOdoo, rpcOdoo } from '../helpers/odoo17.js';
import type { Rpc } from '../helpers/rpc.js';

const odoo = inject('odoo');

type Row = Record<string, string | number | null>;
type Rec = Record<string, unknown> & { id: number };

const ZONE = 'Europe/Brussels';
const COUNTED = ['paid', 'done', 'invoiced'];
const KEYS = ['register', 'day', 'hour', 'weekday', 'session', 'cashier', 'product', 'category', 'tax'];
const id = (v: unknown): number => (Array.isArray(v) ? (v[0] as number) : (v as number));
const cents = (v: number): number => Math.round(v * 100);
/** A sum with fractions of a cent rounded as Odoo does: half away from zero (39.705 is 39.71). */
const halfUp = (v: number): number => Math.sign(v) * Math.round(Math.abs(v) * 100 + 1e-6);
const sumOf = <T>(xs: T[], f: (x: T) => number): number => xs.reduce((a, x) => a + f(x), 0);
const col = (rows: Row[], k: string): number => cents(sumOf(rows, (r) => Number(r[k] ?? 0)));
const at = (d: string): string => DateTime.fromISO(d, { zone: ZONE }).toUTC().toFormat('yyyy-MM-dd HH:mm:ss');

describe('summary cents on a real Odoo 17', () => {
  let env: Record<string, string>;
  let rpc: Rpc;
  const summary = async (args: string[]): Promise<Row[]> => {
    const r = await runCli(['summary', '--rate', '0', '--tz', ZONE, '--format', 'json', ...args], { env });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Row[];
  };
  /** The counted orders of whole business days from..to, and their lines. */
  const records = async (from: string, to: string) => {
    const end = DateTime.fromISO(to).plus({ days: 1 }).toISODate() as string;
    const orders = await rpc.searchRead<Rec>(
      'pos.order',
      [
        ['state', 'in', COUNTED],
        ['date_order', '>=', at(from)],
        ['date_order', '<', at(end)],
      ],
      { fields: ['amount_total', 'amount_tax', 'date_order'] },
    );
    const lines = await rpc.searchRead<Rec>('pos.order.line', [['order_id', 'in', orders.map((o) => o.id)]], {
      fields: ['order_id', 'discount', 'price_subtotal', 'price_subtotal_incl', 'tax_ids'],
    });
    return { orders, lines };
  };

  beforeAll(async () => {
    env = await loginOdoo(odoo, 'admin');
    rpc = await rpcOdoo(odoo, 'admin');
  });

  it("a fortnight whose lines miss the orders' total by a cent: every view gives the orders' total", async () => {
    const { orders, lines } = await records('2026-11-03', '2026-11-18');
    // Odoo's own records: untaxed discounted lines in fractions of a cent, orders rounded.
    const fractional = lines.filter(
      (l) =>
        Math.abs((l.price_subtotal_incl as number) * 100 - cents(l.price_subtotal_incl as number)) > 1e-6,
    );
    expect(fractional.length).toBeGreaterThan(0);
    for (const l of fractional) {
      expect(l.tax_ids).toEqual([]);
      expect(l.discount as number).toBeGreaterThan(0);
    }
    const total = cents(sumOf(orders, (o) => o.amount_total as number));
    expect(cents(sumOf(lines, (l) => l.price_subtotal_incl as number))).toBe(total + 1);
    const seen = new Set<string>();
    for (const key of KEYS) {
      const rows = await summary(['--from', '2026-11-03', '--to', '2026-11-18', '--by', key]);
      expect(col(rows, 'total'), `--by ${key}`).toBe(total);
      expect(col(rows, 'tax'), `--by ${key}`).toBe(cents(sumOf(orders, (o) => o.amount_tax as number)));
      for (const r of rows) {
        const [g, d, f, t] = ['gross', 'discounts', 'refunds', 'total'].map((k) => cents(r[k] as number));
        expect((g as number) - (d as number) + (f as number), `--by ${key}: ${JSON.stringify(r)}`).toBe(t);
      }
      seen.add(JSON.stringify(['gross', 'discounts', 'refunds', 'net'].map((k) => col(rows, k))));
    }
    expect([...seen]).toHaveLength(1);
  });

  it("a day is a day: inside 2026-11-03..21 --by day, each day's figures are those of --date, its discount its lines'", async () => {
    const { orders, lines } = await records('2026-11-03', '2026-11-21');
    const sales = new Set(orders.filter((o) => (o.amount_total as number) >= 0).map((o) => o.id));
    const dayOf = new Map(
      orders.map((o) => [
        o.id,
        DateTime.fromSQL(o.date_order as string, { zone: 'UTC' })
          .setZone(ZONE)
          .toISODate() as string,
      ]),
    );
    const range = await summary(['--from', '2026-11-03', '--to', '2026-11-21', '--by', 'day']);
    expect(range).toHaveLength(19);
    for (const row of range) {
      const day = row.day as string;
      const alone = await summary(['--date', day]);
      for (const k of ['gross', 'discounts', 'refunds', 'total', 'net', 'tax'])
        expect(col(alone, k), `${day}: ${k}`).toBe(cents(row[k] as number));
      const exact = sumOf(
        lines.filter((l) => sales.has(id(l.order_id)) && dayOf.get(id(l.order_id)) === day),
        (l) => {
          const d = l.discount as number;
          return d > 0 && d < 100 ? ((l.price_subtotal_incl as number) * d) / (100 - d) : 0;
        },
      );
      // report.pos.order rounds each line's amount (an untaxed 1.683 is 1.68 there): a cent at most.
      expect(Math.abs(cents(row.discounts as number) - halfUp(exact)), day).toBeLessThanOrEqual(1);
    }
  });
});
