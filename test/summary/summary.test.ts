// posdata summary against sandboxes over real HTTP (Odoo 17 over JSON-RPC, Odoo 19 over
// JSON-2): every figure is recomputed here from the raw orders, lines and payments read with
// plain search_read calls, in the zone and with the day cut the command was given.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, loginEnv, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { SETUPS, type Setup, type Stage, stage } from '../helpers/protocols.js';

type Row = Record<string, string | number | null>;
type Rec = Record<string, unknown> & { id: number };

const P = ['--rate', '0'];
const ALL = ['--from', '2000-01-01', '--to', 'today'];
const COUNTED = ['paid', 'done', 'invoiced'];
const KEYS = [
  'day',
  'hour',
  'weekday',
  'register',
  'session',
  'cashier',
  'product',
  'category',
  'method',
  'tax',
];
const FIGURES = [
  'orders',
  'items',
  'gross',
  'discounts',
  'refund_count',
  'refunds',
  'net',
  'tax',
  'total',
  'average_ticket',
];
const id = (v: unknown): number => (Array.isArray(v) ? (v[0] as number) : (v as number));
const near = (a: number, b: number, eps = 0.011): void => {
  expect(Math.abs(a - b), `${a} vs ${b}`).toBeLessThan(eps);
};
/**
 * How far `discounts` may be from Σ price_subtotal_incl × d / (100 − d). On 19 (and by product on
 * every version) it is that sum; on 16-18 by an order key it is report.pos.order's discount before
 * tax (Σ qty × price_unit × d / 100) times 1 + the tax rate, which misses each line's rounding of
 * its amount: at most half a cent × d / (100 − d) per discounted line (d ≤ 50 % here).
 */
const discountEps = (version: number, lines: Rec[]): number =>
  version === 19 ? 0.011 : 0.011 + 0.005 * lines.filter((l) => (l.discount as number) > 0).length;
const sum = (rows: Row[], k: string): number => rows.reduce((a, r) => a + Number(r[k] ?? 0), 0);
const cents = (v: number): number => Math.round(v * 100);
/** The UTC days of some orders (the tests below run with --tz UTC): discounts are rounded per day. */
const daysOf = (orders: Rec[]): number => new Set(orders.map((o) => String(o.date_order).slice(0, 10))).size;

interface Raw {
  orders: Rec[];
  lines: Rec[];
  payments: Rec[];
}

async function raw(s: Stage): Promise<Raw> {
  const orders = await s.rpc.searchRead<Rec>('pos.order', [['state', 'in', COUNTED]], {
    fields: ['amount_total', 'amount_tax', 'date_order', 'config_id', 'session_id', 'user_id'],
  });
  const ids = new Set(orders.map((o) => o.id));
  const lines = (
    await s.rpc.searchRead<Rec>('pos.order.line', [], {
      fields: ['order_id', 'qty', 'discount', 'price_subtotal', 'price_subtotal_incl', 'product_id'],
    })
  ).filter((l) => ids.has(id(l.order_id)));
  const payments = (
    await s.rpc.searchRead<Rec>('pos.payment', [], {
      fields: ['pos_order_id', 'amount', 'payment_method_id'],
    })
  ).filter((p) => ids.has(id(p.pos_order_id)));
  return { orders, lines, payments };
}

// And Odoo 16, whose pos.order does not store config_id: grouped by register through the sessions.
const SUMMARY_SETUPS: Setup[] = [
  ...SETUPS,
  { name: 'Odoo 16 over JSON-RPC', odooVersion: 16, protocol: 'jsonrpc' },
];

for (const setup of SUMMARY_SETUPS) {
  describe(`posdata summary, ${setup.name}`, () => {
    let s: Stage;
    let data: Raw;
    const summary = async (args: string[]): Promise<Row[]> => {
      const r = await runCli(['summary', ...args, '--format', 'json', ...P], { env: s.env });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Row[];
    };

    beforeAll(async () => {
      s = await stage(setup, { seed: 11, orders: 900 });
      data = await raw(s);
    });
    afterAll(async () => {
      await s?.sandbox.close();
    });

    it.each(KEYS)(
      '--by %s: orders, total and tax add up to the raw orders, refunds are negative',
      async (key) => {
        const rows = await summary([...ALL, '--tz', 'UTC', '--by', key]);
        expect(rows.length).toBeGreaterThan(0);
        near(
          sum(rows, 'total'),
          data.orders.reduce((a, o) => a + (o.amount_total as number), 0),
          0.05,
        );
        for (const r of rows) expect(r.refunds as number).toBeLessThanOrEqual(0);
        if (key !== 'method') {
          near(
            sum(rows, 'tax'),
            data.orders.reduce((a, o) => a + (o.amount_tax as number), 0),
            0.05,
          );
          for (const r of rows) near((r.total as number) - (r.tax as number), r.net as number, 0.015);
        }
        if (!['product', 'category', 'tax', 'method'].includes(key))
          expect(sum(rows, 'orders')).toBe(data.orders.length);
        // 19 groups lines and payments by their order's fields (paths): every figure is there.
        if (setup.odooVersion === 19 && key !== 'method')
          for (const r of rows) expect(r.items, JSON.stringify(r)).not.toBeNull();
        if (key !== 'method')
          for (const r of rows)
            expect(cents((r.gross as number) - (r.discounts as number) + (r.refunds as number))).toBe(
              cents(r.total as number),
            );
        const first = Object.keys(rows[0] as Row);
        const figures = first.filter((k) => FIGURES.includes(k));
        expect(figures).toEqual(FIGURES);
        expect(first.indexOf('orders')).toBeGreaterThan(0);
      },
    );

    it('--by register: each figure equals the raw sum of its register (items, gross, discounts, methods)', async () => {
      const rows = await summary([...ALL, '--tz', 'UTC']);
      const names = new Map<number, string>();
      for (const p of data.payments) {
        const m = p.payment_method_id as [number, string];
        names.set(m[0], m[1]);
      }
      for (const r of rows) {
        const orders = data.orders.filter((o) => id(o.config_id) === r.config_id);
        const oid = new Set(orders.map((o) => o.id));
        const refunds = orders.filter((o) => (o.amount_total as number) < 0);
        const sales = new Set(orders.filter((o) => (o.amount_total as number) >= 0).map((o) => o.id));
        const saleLines = data.lines.filter((l) => sales.has(id(l.order_id)));
        const discounts = saleLines.reduce((a, l) => {
          const d = l.discount as number;
          return d > 0 && d < 100 ? a + ((l.price_subtotal_incl as number) * d) / (100 - d) : a;
        }, 0);
        const sold = orders
          .filter((o) => sales.has(o.id))
          .reduce((a, o) => a + (o.amount_total as number), 0);
        expect(r.orders).toBe(orders.length);
        expect(r.refund_count).toBe(refunds.length);
        near(
          r.refunds as number,
          refunds.reduce((a, o) => a + (o.amount_total as number), 0),
        );
        near(
          r.total as number,
          orders.reduce((a, o) => a + (o.amount_total as number), 0),
        );
        near(
          r.items as number,
          saleLines.reduce((a, l) => a + (l.qty as number), 0),
          1e-6,
        );
        // Rounded once per business day: a cent a day at most from the register's own sum.
        const eps = discountEps(setup.odooVersion, saleLines) + 0.01 * daysOf(orders);
        near(r.discounts as number, discounts, eps);
        // gross = the sales orders' total + discounts, so gross − discounts + refunds = total.
        near(r.gross as number, sold + discounts, eps + 0.005);
        expect(cents((r.gross as number) - (r.discounts as number) + (r.refunds as number))).toBe(
          cents(r.total as number),
        );
        for (const [mid, name] of names) {
          const paid = data.payments
            .filter((p) => oid.has(id(p.pos_order_id)) && id(p.payment_method_id) === mid)
            .reduce((a, p) => a + (p.amount as number), 0);
          near(r[`method:${name}`] as number, paid);
        }
      }
    });

    // On 16-18 the line figures come from report.pos.order grouped by the order's date,
    // register, session or cashier, and the methods from payments grouped by payment_date.
    it.each(['day', 'hour', 'weekday', 'cashier', 'session'])(
      '--by %s: items, gross, discounts and every method equal the raw sums of each group, no notice',
      async (key) => {
        const r = await runCli(['summary', ...ALL, '--tz', 'UTC', '--by', key, '--format', 'json', ...P], {
          env: s.env,
        });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toBe('');
        const rows = JSON.parse(r.stdout) as Row[];
        expect(rows.length).toBeGreaterThan(key === 'cashier' ? 1 : 2);
        const keyOf = (o: Rec): string | number => {
          const at = DateTime.fromSQL(o.date_order as string, { zone: 'UTC' });
          if (key === 'day') return at.toISODate() as string;
          if (key === 'hour') return at.hour;
          if (key === 'weekday') return at.setLocale('en-US').toFormat('cccc');
          return id(key === 'cashier' ? o.user_id : o.session_id);
        };
        const col = key === 'cashier' ? 'cashier_id' : key === 'session' ? 'session_id' : key;
        const methods = new Map<number, string>();
        for (const p of data.payments) {
          const m = p.payment_method_id as [number, string];
          methods.set(m[0], m[1]);
        }
        let discounted = 0;
        for (const row of rows) {
          const orders = data.orders.filter((o) => keyOf(o) === row[col]);
          expect(orders.length, JSON.stringify(row)).toBe(row.orders);
          const sales = new Set(orders.filter((o) => (o.amount_total as number) >= 0).map((o) => o.id));
          const lines = data.lines.filter((l) => sales.has(id(l.order_id)));
          const sold = orders
            .filter((o) => sales.has(o.id))
            .reduce((a, o) => a + (o.amount_total as number), 0);
          const discounts = lines.reduce((a, l) => {
            const d = l.discount as number;
            return d > 0 && d < 100 ? a + ((l.price_subtotal_incl as number) * d) / (100 - d) : a;
          }, 0);
          if (discounts > 0) discounted++;
          near(
            row.items as number,
            lines.reduce((a, l) => a + (l.qty as number), 0),
            1e-6,
          );
          const eps = discountEps(setup.odooVersion, lines) + 0.01 * daysOf(orders);
          near(row.discounts as number, discounts, eps);
          near(row.gross as number, sold + discounts, eps + 0.005);
          const oid = new Set(orders.map((o) => o.id));
          for (const [mid, name] of methods) {
            const paid = data.payments
              .filter((p) => oid.has(id(p.pos_order_id)) && id(p.payment_method_id) === mid)
              .reduce((a, p) => a + (p.amount as number), 0);
            near(row[`method:${name}`] as number, paid);
          }
        }
        expect(discounted).toBeGreaterThan(0);
      },
    );

    it('a month --by day, hour, weekday, cashier, register: a handful of requests', async () => {
      const from = DateTime.utc().minus({ days: 30 }).toISODate() as string;
      for (const key of ['day', 'hour', 'weekday', 'cashier', 'register', 'hour,weekday']) {
        const r = await runCli(
          [
            'summary',
            '--from',
            from,
            '--to',
            'today',
            '--tz',
            'UTC',
            '--by',
            key,
            '--debug',
            '--format',
            'json',
            ...P,
          ],
          { env: s.env },
        );
        expect(r.code, r.stderr).toBe(0);
        const requests = r.stderr.split('\n').filter((l) => /→ (jsonrpc|json2) /.test(l)).length;
        expect(requests, `--by ${key}: ${requests} requests`).toBeGreaterThan(2);
        const rows = JSON.parse(r.stdout) as Row[];
        // Odoo 16-18 cannot group payments by their order's cashier: one request per cashier
        // instead of the one payments request.
        // A register's name is read (16: and each session's register, orders grouped by session).
        // The currency's decimals take one request on 17+ (web_search_read), two on 16.
        const currency = setup.odooVersion === 16 ? 2 : 1;
        // The registers' special products (tips, global discount, gift cards, rewards) take
        // two: pos.config's fields and the registers; a shop without them has no line to group.
        const shop = 2;
        // 16-18: the orders and refunds, the lines, the discounted rows (two), the products'
        // taxes, the payments; the version login stored, and whether an order was sold under
        // a fiscal position rides on the orders' request. 19: the version, orders, refunds,
        // lines and payments.
        const base = setup.odooVersion < 19 ? 7 : 5;
        const limit =
          // By cashier, the orders' fields (pos_hr's employee or the user).
          (key === 'cashier' ? 1 + (setup.odooVersion < 19 ? rows.length : 0) : 0) +
          base +
          (key === 'register' ? 1 : 0) +
          (key === 'register' && setup.odooVersion === 16 ? 1 : 0) +
          currency +
          shop;
        expect(requests, `--by ${key}: ${requests} requests`).toBeLessThanOrEqual(limit);
        // The summary check's month (../shared/checks/summary): at most ten by day on 17.
        if (key === 'day' && setup.odooVersion !== 16) expect(requests, `--by day`).toBeLessThanOrEqual(10);
        // The discounted rows in two requests (16-18): by day, and by day and product for the
        // products outside the most common tax rate; the take-away rows' third only where an
        // order was ever sold under a fiscal position, which this sandbox's never were.
        const discounted = r.stderr.split('\n').filter((l) => /report\.pos\.order.*total_discount/.test(l));
        expect(discounted.length, `--by ${key}`).toBe(setup.odooVersion === 19 ? 0 : 2);
        if (setup.odooVersion < 19)
          expect(
            discounted.filter((l) => l.includes('not in')),
            `--by ${key}`,
          ).toHaveLength(1);
        // A row per order only for the orders under a fiscal position (one rate per order):
        // one per order and product of every other product sent 24 MB for a month (38 % of
        // the export, where the check wants under 1 %).
        for (const l of discounted) {
          const [domain, , groupby] = JSON.parse(l.slice(l.indexOf(' [') + 1)).at(5) as [
            unknown[],
            unknown,
            string[],
          ];
          if (!groupby.includes('order_id')) continue;
          expect(domain, `--by ${key}`).not.toContain('|');
          expect(domain, `--by ${key}`).toContainEqual(['order_id.fiscal_position_id', '!=', false]);
        }
        for (const row of rows)
          for (const k of ['items', 'gross', 'discounts']) expect(row[k]).not.toBeNull();
      }
    });

    it("one figure whatever the --by: discounts are each business day's lines rounded once, gross the sales orders' total plus them", async () => {
      const sales = data.orders.filter((o) => (o.amount_total as number) >= 0);
      const dayOf = new Map(
        sales.map((o) => [
          o.id,
          DateTime.fromSQL(o.date_order as string, { zone: 'UTC' })
            .setZone('Europe/Brussels')
            .toISODate(),
        ]),
      );
      const perDay = new Map<string, number>();
      for (const l of data.lines) {
        const day = dayOf.get(id(l.order_id));
        const d = l.discount as number;
        if (!day || !(d > 0 && d < 100)) continue;
        perDay.set(day, (perDay.get(day) ?? 0) + ((l.price_subtotal_incl as number) * d) / (100 - d));
      }
      const discounts = [...perDay.values()].reduce((a, v) => a + Math.round(v * 100 + 1e-6), 0);
      const sold = cents(sales.reduce((a, o) => a + (o.amount_total as number), 0));
      const seen = new Set<string>();
      for (const key of KEYS.filter((k) => k !== 'method')) {
        const rows = await summary([...ALL, '--tz', 'Europe/Brussels', '--by', key]);
        const got = { gross: cents(sum(rows, 'gross')), discounts: cents(sum(rows, 'discounts')) };
        seen.add(JSON.stringify(got));
        expect(got.gross - got.discounts, `--by ${key}`).toBe(sold);
        // 16-18 take a day's discount from report.pos.order: its lines' rounding, a cent a day.
        if (setup.odooVersion === 19) expect(got.discounts, `--by ${key}`).toBe(discounts);
        else expect(Math.abs(got.discounts - discounts), `--by ${key}`).toBeLessThanOrEqual(perDay.size);
      }
      expect([...seen]).toHaveLength(1);
    });

    it('--by product --top 5: the five best sellers by total, with their lines summed', async () => {
      const all = await summary([...ALL, '--tz', 'UTC', '--by', 'product']);
      const top = await summary([...ALL, '--tz', 'UTC', '--by', 'product', '--top', '5']);
      expect(top.length).toBe(5);
      const best = [...all].sort((a, b) => (b.total as number) - (a.total as number)).slice(0, 5);
      expect(top.map((r) => r.product_id)).toEqual(best.map((r) => r.product_id));
      const p = top[0] as Row;
      const lines = data.lines.filter((l) => id(l.product_id) === p.product_id);
      near(
        p.total as number,
        lines.reduce((a, l) => a + (l.price_subtotal_incl as number), 0),
      );
      near(
        p.net as number,
        lines.reduce((a, l) => a + (l.price_subtotal as number), 0),
      );
      expect(p.orders).toBe(new Set(lines.map((l) => id(l.order_id))).size);
      expect(p['method:Card' as string] ?? null).toBeNull();
    });

    it('--by day in Europe/Brussels with --day-starts 03:00 folds hours into business days', async () => {
      const zone = 'Europe/Brussels';
      const rows = await summary([...ALL, '--tz', zone, '--by', 'day', '--day-starts', '03:00']);
      const want = new Map<string, { n: number; total: number }>();
      for (const o of data.orders) {
        const t = DateTime.fromFormat(o.date_order as string, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' });
        const l = t.setZone(zone);
        const day = (l.hour < 3 ? l.minus({ days: 1 }) : l).toISODate() as string;
        const w = want.get(day) ?? { n: 0, total: 0 };
        w.n++;
        w.total += o.amount_total as number;
        want.set(day, w);
      }
      expect(rows.map((r) => r.day)).toEqual([...want.keys()].sort());
      for (const r of rows) {
        expect(r.orders).toBe(want.get(r.day as string)?.n);
        near(r.total as number, want.get(r.day as string)?.total ?? 0);
      }
    });

    it('--by hour with --day-starts lists the hours in the order of the business day', async () => {
      const rows = await summary([...ALL, '--tz', 'UTC', '--by', 'hour', '--day-starts', '12:00']);
      const hours = rows.map((r) => r.hour as number);
      const shifted = hours.map((h) => (h + 12) % 24);
      expect(shifted).toEqual([...shifted].sort((a, b) => a - b));
      expect(hours[0]).toBeGreaterThanOrEqual(12);
      expect(hours.at(-1)).toBeLessThan(12);
    });

    it('--by hour,weekday is a heat map: one row per weekday and hour seen, in the zone', async () => {
      const zone = 'Pacific/Kiritimati'; // UTC+14
      const rows = await summary([...ALL, '--tz', zone, '--by', 'hour,weekday']);
      const want = new Map<string, number>();
      for (const o of data.orders) {
        const t = DateTime.fromFormat(o.date_order as string, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' }).setZone(
          zone,
        );
        const k = `${t.hour} ${t.toFormat('cccc')}`;
        want.set(k, (want.get(k) ?? 0) + 1);
      }
      expect(rows.length).toBe(want.size);
      for (const r of rows) expect(r.orders).toBe(want.get(`${r.hour} ${r.weekday}`));
    });

    it('--session-id: Z report on a closed session, X on an open one, with the cash section', async () => {
      const sessions = await s.rpc.searchRead<Rec>('pos.session', [], { fields: ['state'], order: 'id' });
      const closed = sessions.find((x) => x.state === 'closed') as Rec;
      const open = sessions.find((x) => x.state !== 'closed') as Rec;
      const z = (await summary(['--session-id', String(closed.id)]))[0] as Row;
      expect(z.report).toBe('Z');
      expect(z.orders).toBe(data.orders.filter((o) => id(o.session_id) === closed.id).length);
      for (const k of [
        'opening_cash',
        'cash_taken',
        'cash_moves',
        'expected_cash',
        'counted_cash',
        'difference',
      ])
        expect(typeof z[k]).toBe('number');
      const rec = await runCli(['reconcile', '--format', 'json', ...P], { env: s.env });
      const same = (JSON.parse(rec.stdout) as Row[]).find((r) => r.session_id === closed.id) as Row;
      expect(z.expected_cash).toBe(same.expected_cash);
      expect(z.counted_cash).toBe(same.counted_cash);
      const x = (await summary(['--session-id', String(open.id)]))[0] as Row;
      expect(x.report).toBe('X');
      expect(x.counted_cash).toBeNull();
      expect(x.orders).toBe(data.orders.filter((o) => id(o.session_id) === open.id).length);
      const table = await runCli(['summary', '--session-id', String(open.id), '--format', 'table', ...P], {
        env: s.env,
      });
      expect(table.stdout).toMatch(/X report: .*open/);
      expect(table.stdout).toMatch(/expected cash/);
    });

    it('the table ends with a totals row; piped, it draws no bars', async () => {
      const r = await runCli(['summary', ...ALL, '--tz', 'UTC', '--by', 'hour', '--format', 'table', ...P], {
        env: s.env,
      });
      expect(r.code).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines.some((l) => /│\s*total\s*│/.test(l))).toBe(true);
      expect(r.stdout).not.toMatch(/█/);
      expect(lines[lines.length - 1]).toMatch(/^\d+ groups/);
    });

    it('the totals row counts the orders once; rows that share orders (lines, payments) leave the counts out', async () => {
      const totals = async (by: string): Promise<Record<string, string>> => {
        const r = await runCli(['summary', ...ALL, '--tz', 'UTC', '--by', by, '--format', 'table', ...P], {
          env: s.env,
          columns: 300,
        });
        expect(r.code, r.stderr).toBe(0);
        const cellsOf = (l: string) =>
          l
            .split('│')
            .slice(1, -1)
            .map((c) => c.trim());
        const lines = r.stdout.split('\n').filter((l) => l.startsWith('│'));
        const head = cellsOf(lines[0] as string);
        const total = cellsOf(lines.find((l) => /^│\s*total\s*│/.test(l)) as string);
        return Object.fromEntries(head.map((h, i) => [h, total[i] as string]));
      };
      const byRegister = await totals('register');
      expect(byRegister.orders).toBe(String(data.orders.length));
      expect(Number(byRegister['refunds#'])).toBe(
        data.orders.filter((o) => (o.amount_total as number) < 0).length,
      );
      for (const by of ['category', 'method']) {
        const t = await totals(by);
        expect([t.orders, t['refunds#'], t['avg ticket']], by).toEqual(['', '', '']);
        expect(Number(t.total), by).toBeCloseTo(Number(byRegister.total), 2);
      }
    });

    it('csv has a header and -o writes the file atomically', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'posdata-summary-'));
      try {
        const file = join(dir, 'sum.csv');
        const r = await runCli(['summary', ...ALL, '--by', 'register', '-o', file, ...P], { env: s.env });
        expect(r.code).toBe(0);
        const head = readFileSync(file, 'utf8').split('\n')[0] as string;
        expect(head.startsWith('config_id,register,orders,items,gross,discounts,refund_count,refunds')).toBe(
          true,
        );
        expect(readdirSync(dir)).toEqual(['sum.csv']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("--check-odoo on a closed session: Odoo's Sales Details against the summary; a POS user is told in one line", async () => {
      const sessions = await s.rpc.searchRead<Rec>('pos.session', [['state', '=', 'closed']], {
        fields: ['id'],
        order: 'id',
        limit: 1,
      });
      const sid = String(sessions[0]?.id);
      const admin = await runCli(['summary', '--session-id', sid, '--check-odoo', '--format', 'json', ...P], {
        env: s.env,
      });
      expect(admin.code).toBe(0);
      expect(JSON.parse(admin.stdout)).toHaveLength(1);
      const checks = admin.stderr.trim().split('\n');
      expect(checks.every((l) => l.startsWith('posdata: check-odoo: '))).toBe(true);
      // Odoo's order count, total and payments are the session's: those never differ.
      expect(admin.stderr).toMatch(/Sales Details agrees on \d+ figures: orders, total, method .*tax$/m);
      expect(admin.stderr).not.toMatch(/check-odoo: (orders|method .*|total):/);
      const pos = await loginEnv(s.sandbox.url, 'pos', 'pos');
      const r = await runCli(['summary', '--session-id', sid, '--check-odoo', '--format', 'json', ...P], {
        env: pos,
      });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(
        new RegExp(
          `^posdata: check-odoo: not compared: Odoo's Sales Details of session ${sid} adds its cash count, which reads account\\.payment, and this user may not`,
        ),
      );
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });

    it('--check-odoo says what it compared and what it could not, stdout keeps the data', async () => {
      const r = await runCli(['summary', '--date', 'today', '--check-odoo', '--format', 'json', ...P], {
        env: s.env,
      });
      expect(r.code).toBe(0);
      expect(() => JSON.parse(r.stdout)).not.toThrow();
      expect(r.stderr).toMatch(
        /^posdata: check-odoo: Odoo's Sales Details agrees on \d+ figures: orders, total/m,
      );
      // Every session of the sandbox: Odoo lists each method once per session ("Cash POS/00007").
      const all = await runCli(['summary', ...ALL, '--check-odoo', '--format', 'json', ...P], { env: s.env });
      expect(all.code, all.stderr).toBe(0);
      expect(all.stderr).not.toMatch(/check-odoo: method /);
      expect(all.stderr).toMatch(
        /^posdata: check-odoo: Odoo's Sales Details agrees on \d+ figures: orders, total, method .*, tax$/m,
      );
      const m = await runCli(
        ['summary', ...ALL, '--by', 'method', '--check-odoo', '--format', 'json', ...P],
        {
          env: s.env,
        },
      );
      expect(m.code).toBe(0);
      expect(m.stderr).toMatch(/agrees on \d+ figures: total, method /);
      expect(m.stderr).toMatch(
        /^posdata: check-odoo: not compared: orders \(the rows are payments.*\), tax \(the rows are payments/m,
      );
    });
  });
}

describe('posdata summary: the same figures over JSON-RPC and JSON-2', () => {
  let s: Stage;
  beforeAll(async () => {
    s = await stage({ name: '19', odooVersion: 19, protocol: 'json2' }, { seed: 12, orders: 600 });
  });
  afterAll(async () => {
    await s?.sandbox.close();
  });
  it.each(['register', 'day', 'product', 'method'])('--by %s', async (key) => {
    const env2 = { POSDATA_CONFIG_DIR: freshConfigDir() };
    const login = ['login', '--url', s.sandbox.url, '--db', 'demo', '--user', 'admin', '--password-stdin'];
    expect((await runCli([...login, '--protocol', 'jsonrpc'], { env: env2, input: SUITE_SECRET })).code).toBe(
      0,
    );
    const args = ['summary', ...ALL, '--tz', 'Europe/Brussels', '--by', key, '--format', 'json', ...P];
    const a = await runCli(args, { env: s.env });
    const b = await runCli(args, { env: env2 });
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout)).toEqual(JSON.parse(b.stdout));
    expect(JSON.parse(a.stdout).length).toBeGreaterThan(0);
  });
});

describe('posdata summary: bad input is exit 2 with one line', () => {
  const env = { POSDATA_CONFIG_DIR: freshConfigDir() };
  it.each([
    [['--by', 'colour'], /--by 'colour' is not a summary key/],
    [['--top', '0'], /--top '0'/],
    [['--day-starts', '25:00'], /--day-starts '25:00' is not a time of day/],
    [['--day-starts', '03:30'], /not on the hour/],
    [['--by', 'product,method'], /not split by product/],
    [['--date', 'today', '--from', '7d'], /--date and --from\/--to/],
  ])('%j', async (args, message) => {
    const r = await runCli(['summary', ...args], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
    expect(existsSync(join(env.POSDATA_CONFIG_DIR, 'config.json'))).toBe(false);
  });
});
