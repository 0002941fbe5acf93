// The summary's cents (issue 31, items 7 and 8), on sandboxes whose untaxed discounted lines
// keep fractions of a cent as Odoo 17 stores them (1.98 × 0.85 = 1.683) and whose orders are
// rounded as Odoo rounds them: every view gives the orders' total, every row closes
// gross − discounts + refunds = total to the cent, and a day has one figure whatever range
// holds it. Expectations are recomputed here from the raw records.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { SETUPS, type Stage, stage } from '../helpers/protocols.js';

type Row = Record<string, string | number | null>;
type Rec = Record<string, unknown> & { id: number };

const NOW = new Date('2026-11-25T12:00:00Z');
const ZONE = 'Europe/Brussels';
const COUNTED = ['paid', 'done', 'invoiced'];
const ORDER_KEYS = ['register', 'day', 'hour', 'weekday', 'session', 'cashier'];
const LINE_KEYS = ['product', 'category', 'tax'];
const id = (v: unknown): number => (Array.isArray(v) ? (v[0] as number) : (v as number));
const cents = (v: number): number => Math.round(v * 100);
const sumOf = <T>(xs: T[], f: (x: T) => number): number => xs.reduce((a, x) => a + f(x), 0);
/** Odoo's float_round: half away from zero (a refund's −0.005 is −0.01). */
const odooCents = (v: number): number => Math.sign(v) * Math.round(Math.abs(v) * 100 + 1e-7);
const col = (rows: Row[], k: string): number => cents(sumOf(rows, (r) => Number(r[k] ?? 0)));
const discountOf = (l: Rec): number => {
  const d = l.discount as number;
  return d > 0 && d < 100 ? ((l.price_subtotal_incl as number) * d) / (100 - d) : 0;
};

for (const setup of [
  ...SETUPS,
  { name: 'Odoo 16 over JSON-RPC', odooVersion: 16 as const, protocol: 'jsonrpc' as const },
]) {
  describe(`summary cents, ${setup.name}`, () => {
    let s: Stage;
    let orders: Rec[];
    let lines: Rec[];
    const summary = async (args: string[]): Promise<Row[]> => {
      const r = await runCli(['summary', '--rate', '0', '--tz', ZONE, '--format', 'json', ...args], {
        env: s.env,
      });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Row[];
    };
    const dayOf = (o: Rec): string =>
      DateTime.fromSQL(o.date_order as string, { zone: 'UTC' })
        .setZone(ZONE)
        .toISODate() as string;

    beforeAll(async () => {
      s = await stage(setup, { seed: 11, orders: 1500, now: NOW });
      orders = await s.rpc.searchRead<Rec>('pos.order', [['state', 'in', COUNTED]], {
        fields: ['amount_total', 'amount_tax', 'date_order'],
      });
      const ids = new Set(orders.map((o) => o.id));
      lines = (
        await s.rpc.searchRead<Rec>('pos.order.line', [], {
          fields: ['order_id', 'discount', 'price_subtotal', 'price_subtotal_incl', 'tax_ids'],
        })
      ).filter((l) => ids.has(id(l.order_id)));
    });
    afterAll(async () => {
      await s?.sandbox.close();
    });

    it('stores untaxed discounted lines in fractions of a cent and rounds each order, as Odoo 17 does', () => {
      const fractional = lines.filter(
        (l) =>
          Math.abs((l.price_subtotal_incl as number) * 100 - cents(l.price_subtotal_incl as number)) > 1e-6,
      );
      expect(fractional.length).toBeGreaterThan(0);
      for (const l of fractional) {
        expect(l.tax_ids).toEqual([]);
        expect(l.discount as number).toBeGreaterThan(0);
        expect(l.price_subtotal).toBe(l.price_subtotal_incl);
      }
      // Each order: its rounded tax plus its rounded untaxed sum; so not always its lines' sum.
      const byOrder = new Map<number, Rec[]>();
      for (const l of lines) byOrder.set(id(l.order_id), [...(byOrder.get(id(l.order_id)) ?? []), l]);
      let apart = 0;
      for (const o of orders) {
        const ls = byOrder.get(o.id) ?? [];
        const excl = sumOf(ls, (l) => l.price_subtotal as number);
        const incl = sumOf(ls, (l) => l.price_subtotal_incl as number);
        expect(cents(o.amount_total as number)).toBe(cents(o.amount_tax as number) + odooCents(excl));
        expect(Math.abs((o.amount_total as number) - incl)).toBeLessThan(0.0051);
        if (
          cents(o.amount_total as number) !== cents(incl) ||
          Math.abs((o.amount_total as number) - incl) > 1e-6
        )
          apart++;
      }
      expect(apart).toBeGreaterThan(0);
    });

    it("every view gives the orders' total, and every row closes gross − discounts + refunds = total", async () => {
      const total = cents(sumOf(orders, (o) => o.amount_total as number));
      const refunds = cents(sumOf(orders, (o) => Math.min(0, o.amount_total as number)));
      const tax = cents(sumOf(orders, (o) => o.amount_tax as number));
      // The range is one where the lines' sum, rounded once, misses the orders' total.
      const incl = cents(sumOf(lines, (l) => l.price_subtotal_incl as number));
      expect(incl).not.toBe(total);
      const all = ['--from', '2026-11-01', '--to', '2026-11-30'];
      const seen = new Set<string>();
      for (const key of [...ORDER_KEYS, ...LINE_KEYS]) {
        const rows = await summary([...all, '--by', key]);
        expect(col(rows, 'total'), `--by ${key}: total`).toBe(total);
        expect(col(rows, 'refunds'), `--by ${key}: refunds`).toBe(refunds);
        expect(col(rows, 'tax'), `--by ${key}: tax`).toBe(tax);
        for (const r of rows) {
          const [g, d, f, t] = ['gross', 'discounts', 'refunds', 'total'].map((k) => cents(r[k] as number));
          expect((g as number) - (d as number) + (f as number), `--by ${key}: ${JSON.stringify(r)}`).toBe(t);
          expect(cents(r.net as number) + cents(r.tax as number), `--by ${key}: net + tax`).toBe(t);
        }
        seen.add(JSON.stringify(['gross', 'discounts', 'net'].map((k) => col(rows, k))));
      }
      // One gross, one discount and one net whatever the --by.
      expect([...seen]).toHaveLength(1);
    });

    it('a day is a day: its figures inside a fortnight --by day are those of --date, and its discount its lines rounded once', async () => {
      const fortnight = await summary(['--from', '2026-11-11', '--to', '2026-11-25', '--by', 'day']);
      expect(fortnight.length).toBeGreaterThan(5);
      const sales = new Set(orders.filter((o) => (o.amount_total as number) >= 0).map((o) => o.id));
      const dayOfOrder = new Map(orders.map((o) => [o.id, dayOf(o)]));
      for (const row of fortnight) {
        const day = row.day as string;
        const alone = await summary(['--date', day]);
        for (const k of ['gross', 'discounts', 'refunds', 'total', 'net', 'tax'])
          expect(col(alone, k), `${day}: ${k}`).toBe(cents(row[k] as number));
        const exact = sumOf(
          lines.filter((l) => sales.has(id(l.order_id)) && dayOfOrder.get(id(l.order_id)) === day),
          discountOf,
        );
        // 19 groups the lines by their order's day; 16-18 estimate it from report.pos.order
        // (each line's rounding of its amount, less than a cent a day here).
        if (setup.odooVersion === 19) expect(cents(row.discounts as number), day).toBe(odooCents(exact));
        else expect(Math.abs((row.discounts as number) - exact), day).toBeLessThan(0.011);
      }
    });
  });
}
