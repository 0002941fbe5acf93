// posdata summary against a real Odoo 17 (issue 21): every --by over a month, a day and a
// session, as the administrator and as a POS user, against direct RPC to the same server. The
// expectations are invariants of Odoo's own records, not numbers of this data: the orders
// counted are search_count of the counted orders, totals the sums over the orders, methods the
// sums of their pos.payment, discounts the sales lines' rounded once per business day (whatever
// the --by, issue 22 item 5; whatever the range, issue 31 item 8), gross the sales orders' total
// plus the discounts, and by line keys too the orders' total (issue 31 item 7); --check-odoo agrees with Odoo's Sales Details, whose
// payments come per method and session.
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
const ORDER_KEYS = ['register', 'day', 'hour', 'weekday', 'session', 'cashier'];
const LINE_KEYS = ['product', 'category', 'tax'];
const id = (v: unknown): number => (Array.isArray(v) ? (v[0] as number) : (v as number));
const cents = (v: number): number => Math.round(v * 100);
/** A sum with fractions of a cent rounded as Odoo does: half away from zero (39.705 is 39.71). */
const halfUp = (v: number): number => Math.sign(v) * Math.round(Math.abs(v) * 100 + 1e-6);
const sum = (rows: Row[], k: string): number => rows.reduce((a, r) => a + Number(r[k] ?? 0), 0);
const sumOf = <T>(xs: T[], f: (x: T) => number): number => xs.reduce((a, x) => a + f(x), 0);

/** What Odoo holds for one range (a pos.order domain), read record by record. */
interface Truth {
  count: number;
  orders: Rec[];
  lines: Rec[];
  payments: Rec[];
}

async function truth(rpc: Rpc, domain: unknown[]): Promise<Truth> {
  const counted = [['state', 'in', COUNTED], ...domain];
  const [count, orders] = await Promise.all([
    rpc.count('pos.order', counted),
    rpc.searchRead<Rec>('pos.order', counted, { fields: ['amount_total', 'amount_tax', 'date_order'] }),
  ]);
  const ids = orders.map((o) => o.id);
  const [lines, payments] = await Promise.all([
    rpc.searchRead<Rec>('pos.order.line', [['order_id', 'in', ids]], {
      fields: ['order_id', 'discount', 'price_subtotal', 'price_subtotal_incl'],
    }),
    rpc.searchRead<Rec>('pos.payment', [['pos_order_id', 'in', ids]], {
      fields: ['amount', 'payment_method_id'],
    }),
  ]);
  return { count, orders, lines, payments };
}

/** The invariants of one summary against the records of its range. */
function holds(key: string, rows: Row[], t: Truth, methodNames: Map<number, string>): void {
  const what = `--by ${key}`;
  expect(rows.length, what).toBeGreaterThan(0);
  for (const r of rows) expect(r.refunds as number, what).toBeLessThanOrEqual(0);
  const salesOrders = t.orders.filter((o) => (o.amount_total as number) >= 0);
  const dayOf = new Map(
    salesOrders.map((o) => [
      o.id,
      DateTime.fromSQL(o.date_order as string, { zone: 'UTC' })
        .setZone(ZONE)
        .toISODate() as string,
    ]),
  );
  // Discounts: each business day's discounted sales lines, rounded once per day.
  const perDay = new Map<string, number>();
  for (const l of t.lines) {
    const day = dayOf.get(id(l.order_id));
    const d = l.discount as number;
    if (day === undefined || !(d > 0 && d < 100)) continue;
    perDay.set(day, (perDay.get(day) ?? 0) + ((l.price_subtotal_incl as number) * d) / (100 - d));
  }
  const discounts = [...perDay.values()].reduce((a, v) => a + halfUp(v), 0);
  const sold = cents(sumOf(salesOrders, (o) => o.amount_total as number));
  if (key !== 'method') {
    // On 17 a day's discount comes from report.pos.order, which rounds each line's amount (an
    // untaxed 1.683 is 1.68 there): a cent a day at most from the lines'.
    const got = cents(sum(rows, 'discounts'));
    expect(Math.abs(got - discounts), `${what}: discounts`).toBeLessThanOrEqual(perDay.size);
    // gross = the sales orders' total + discounts: gross − discounts + refunds = total.
    expect(cents(sum(rows, 'gross')), `${what}: gross`).toBe(sold + got);
  }
  if (LINE_KEYS.includes(key)) {
    // The orders' figures, as Odoo rounds each order (the lines keep fractions of a cent).
    const total = sumOf(t.orders, (o) => o.amount_total as number);
    const tax = sumOf(t.orders, (o) => o.amount_tax as number);
    expect(cents(sum(rows, 'total')), `${what}: total`).toBe(cents(total));
    expect(cents(sum(rows, 'net')), `${what}: net`).toBe(cents(total) - cents(tax));
    return;
  }
  expect(cents(sum(rows, 'total')), `${what}: total`).toBe(
    cents(sumOf(t.orders, (o) => o.amount_total as number)),
  );
  // Payments per method, as pos.payment has them.
  const perMethod = new Map<number, number>();
  for (const p of t.payments)
    perMethod.set(
      id(p.payment_method_id),
      (perMethod.get(id(p.payment_method_id)) ?? 0) + (p.amount as number),
    );
  for (const [m, amount] of perMethod)
    expect(cents(sum(rows, `method:${methodNames.get(m)}`)), `${what}: method ${methodNames.get(m)}`).toBe(
      cents(amount),
    );
  if (key === 'method') return;
  expect(sum(rows, 'orders'), `${what}: orders`).toBe(t.count);
  expect(cents(sum(rows, 'tax')), `${what}: tax`).toBe(cents(sumOf(t.orders, (o) => o.amount_tax as number)));
}

/** UTC bounds of the business days from..to in the zone, as Odoo stores dates. */
function utcRange(from: string, to: string): unknown[] {
  const at = (d: string) => DateTime.fromISO(d, { zone: ZONE }).toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
  const end = DateTime.fromISO(to).plus({ days: 1 }).toISODate() as string;
  return [
    ['date_order', '>=', at(from)],
    ['date_order', '<', at(end)],
  ];
}

for (const who of ['admin', 'cashier'] as const) {
  describe(`summary on a real Odoo 17 as ${who}`, () => {
    let env: Record<string, string>;
    let rpc: Rpc;
    let methodNames: Map<number, string>;
    let month: Truth;
    let day: Truth;
    let session: { id: number; truth: Truth };
    const MONTH = ['--from', '2026-11-01', '--to', '2026-11-30'];
    const DAY = ['--date', '2026-11-10'];
    const run = async (args: string[]) =>
      runCli(['summary', '--rate', '0', '--tz', ZONE, '--format', 'json', ...args], { env });
    const rows = async (args: string[]): Promise<Row[]> => {
      const r = await run(args);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Row[];
    };

    beforeAll(async () => {
      env = await loginOdoo(odoo, who);
      rpc = await rpcOdoo(odoo, who);
      const methods = await rpc.searchRead<Rec>('pos.payment.method', [], { fields: ['name'] });
      methodNames = new Map(methods.map((m) => [m.id, m.name as string]));
      // A closed session with orders of two methods: the Z report of a whole session.
      const sessions = await rpc.searchRead<Rec>('pos.session', [['state', '=', 'closed']], {
        fields: ['order_count'],
        order: 'order_count desc',
        limit: 1,
      });
      const sid = sessions[0]?.id as number;
      [month, day, session] = await Promise.all([
        truth(rpc, utcRange('2026-11-01', '2026-11-30')),
        truth(rpc, utcRange('2026-11-10', '2026-11-10')),
        truth(rpc, [['session_id', '=', sid]]).then((t) => ({ id: sid, truth: t })),
      ]);
      expect(month.count).toBeGreaterThan(day.count);
      expect(day.count).toBeGreaterThan(0);
    });

    it('a month, every --by: counts, totals, tax, methods, gross and discounts are those of the records', async () => {
      const keys = [...ORDER_KEYS, ...LINE_KEYS, 'method'];
      const all = await Promise.all(keys.map((k) => rows([...MONTH, '--by', k])));
      for (const [i, k] of keys.entries()) holds(k, all[i] as Row[], month, methodNames);
    });

    it('a day across two sessions, every --by: one gross and one discount total, those of the lines', async () => {
      const keys = [...ORDER_KEYS, ...LINE_KEYS, 'method'];
      const all = await Promise.all(keys.map((k) => rows([...DAY, '--by', k])));
      for (const [i, k] of keys.entries()) holds(k, all[i] as Row[], day, methodNames);
    });

    it('a session: its orders, totals and methods, and the Z report with its cash', async () => {
      const r = await rows(['--session-id', String(session.id), '--by', 'session']);
      holds('session', r, session.truth, methodNames);
      expect(r[0]?.report).toBe('Z');
      expect(typeof r[0]?.expected_cash).toBe('number');
    });

    it("--check-odoo: Odoo's Sales Details (payments per method and session) agrees but for the rounding", async () => {
      // The month holds many sessions: Odoo lists each method once per session.
      const details = await rpc.kw<{ payments: { id: number; session: number }[] }>(
        'report.point_of_sale.report_saledetails',
        'get_sale_details',
        [],
        {
          date_start: '2026-10-31 23:00:00',
          date_stop: '2026-11-30 22:59:59',
          config_ids: false,
          session_ids: false,
        },
      );
      const sessionsOfCash = details.payments.filter((p) => p.id === details.payments[0]?.id);
      expect(sessionsOfCash.length).toBeGreaterThan(1);
      for (const args of [MONTH, DAY, [...MONTH, '--by', 'method'], [...DAY, '--by', 'hour']]) {
        const r = await run([...args, '--check-odoo']);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr, args.join(' ')).toMatch(
          /^posdata: check-odoo: Odoo's Sales Details agrees on \d+ figures: .*method /m,
        );
        expect(r.stderr).not.toMatch(/differ/);
      }
      // Nothing differs beyond the rounding: --fail-on-difference lets the run pass.
      expect((await run([...MONTH, '--check-odoo', '--fail-on-difference'])).code).toBe(0);
      const z = await run(['--session-id', String(session.id), '--check-odoo', '--fail-on-difference']);
      expect(z.code, z.stderr).toBe(0);
      if (who === 'admin') expect(z.stderr).toMatch(/agrees on \d+ figures: orders, total, method .*, tax$/m);
      else {
        // A POS user may not read account.payment, which Odoo reads for a session: one line says so.
        expect(z.stderr.trim().split('\n')).toHaveLength(1);
        expect(z.stderr).toMatch(
          new RegExp(`not compared: Odoo's Sales Details of session ${session.id} .*account\\.payment`),
        );
      }
    });
  });
}
