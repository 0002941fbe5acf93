// Employees as cashiers on the real Odoo 17's posshop (pos_hr): admin is every order's user and
// opened every session, the four employees at the register have no user. summary --by cashier
// and its --loss (the report's leaks) name the employees; each closing goes to the employee who
// rang its session's last order. The Restaurant's tables and floors (pos_restaurant): summary
// --by table and --by floor, each row its orders', lines' and payments' own, though Odoo 17's
// report.pos.order and payments know no table. This file starts its own posshop server.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli } from '../helpers/cli.js';
import { loginOdoo, type RealOdooHandle, rpcOdoo, startRealOdoo } from '../helpers/odoo17.js';
import type { Rpc } from '../helpers/rpc.js';
import { tapConfig, writeTapConfig } from '../tap/config.js';
import { checkOutput } from '../tap/singer.js';

type Row = Record<string, string | number | null>;
type Rec = Record<string, unknown> & { id: number };
const id = (v: unknown): number | false => (Array.isArray(v) ? (v[0] as number) : false);
const RANGE = ['--from', '2026-11-09', '--to', '2026-11-30', '--tz', 'Europe/Brussels', '--rate', '0'];

let odoo: RealOdooHandle;
let env: Record<string, string>;
let rpc: Rpc;
beforeAll(async () => {
  odoo = await startRealOdoo('posshop');
  [env, rpc] = await Promise.all([loginOdoo(odoo, 'admin'), rpcOdoo(odoo, 'admin')]);
}, 600_000);
afterAll(async () => odoo?.stop(), 120_000);

const json = async (args: string[]): Promise<Row[]> => {
  const r = await runCli([...args, '--format', 'json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Row[];
};

describe('pos_hr employees on the real posshop', () => {
  it('summary --by cashier names the four employees, with the orders each rang', async () => {
    const rows = await json(['summary', ...RANGE, '--by', 'cashier']);
    expect(rows.map((r) => r.cashier).sort()).toEqual([
      'Bram Wouters',
      'Femke De Smet',
      'Ilse Janssens',
      'Jonas Mertens',
    ]);
    const orders = await rpc.searchRead<Rec>(
      'pos.order',
      [
        ['state', 'in', ['paid', 'done', 'invoiced']],
        ['employee_id', '!=', false],
      ],
      { fields: ['employee_id', 'amount_total'] },
    );
    const refunds = new Map<number, number>();
    for (const o of orders)
      if ((o.amount_total as number) < 0)
        refunds.set(id(o.employee_id) as number, (refunds.get(id(o.employee_id) as number) ?? 0) + 1);
    for (const r of rows)
      expect(r.refund_count, String(r.cashier)).toBe(refunds.get(r.cashier_id as number) ?? 0);
  });

  it("--loss sets each closing against the employee of its session's last order, none against admin", async () => {
    const rows = await json(['summary', ...RANGE, '--by', 'cashier', '--loss']);
    const sessions = await rpc.searchRead<Rec>(
      'pos.session',
      [
        ['state', '=', 'closed'],
        ['start_at', '>=', '2026-11-09 00:00:00'],
      ],
      { fields: ['id'] },
    );
    const orders = await rpc.searchRead<Rec>(
      'pos.order',
      [
        ['session_id', 'in', sessions.map((s) => s.id)],
        ['employee_id', '!=', false],
      ],
      { fields: ['session_id', 'employee_id'], order: 'id' },
    );
    const last = new Map<number, number>();
    for (const o of orders) last.set(id(o.session_id) as number, id(o.employee_id) as number);
    const want = new Map<number, number>();
    for (const e of last.values()) want.set(e, (want.get(e) ?? 0) + 1);
    const got = new Map(
      rows.filter((r) => (r.closings as number) > 0).map((r) => [r.cashier_id as number, r.closings]),
    );
    expect(got).toEqual(want);
  });

  it('--loss: a closing no employee rang an order in goes with the orders rung by none, never to an id of users', async () => {
    // Odoo's demo sessions POS/00001-00005 (closed 2026-12-01/02) have orders without an
    // employee; admin (user 2) opened them, and employee 2 is Jeffrey Kelly, not admin.
    const rows = await json([
      'summary',
      '--from',
      '2026-11-09',
      '--to',
      '2026-12-02',
      '--tz',
      'UTC',
      '--by',
      'cashier',
      '--loss',
    ]);
    const employees = await rpc.searchRead<Rec>(
      'hr.employee',
      [['id', 'in', rows.flatMap((r) => (typeof r.cashier_id === 'number' ? [r.cashier_id] : []))]],
      { fields: ['name'], context: { active_test: false } },
    );
    const named = new Map(employees.map((e) => [e.id, e.name]));
    for (const r of rows)
      if (r.cashier_id !== null) expect(named.get(r.cashier_id as number), String(r.cashier)).toBe(r.cashier);
    const closed = await rpc.searchRead<Rec>('pos.session', [['state', '=', 'closed']], { fields: ['id'] });
    const rung = await rpc.searchRead<Rec>('pos.order', [['employee_id', '!=', false]], {
      fields: ['session_id'],
    });
    const withEmployee = new Set(rung.map((o) => id(o.session_id)));
    const none = rows.find((r) => r.cashier_id === null) as Row;
    expect(none.closings, 'the sessions no employee rang an order in').toBe(
      closed.filter((s) => !withEmployee.has(s.id)).length,
    );
    expect(none.closings).toBe(5);
    expect(rows.reduce((n, r) => n + (r.closings as number), 0)).toBe(closed.length);
  });
});

describe("summary --loss on the real posshop: the report's loss section", () => {
  it("discounts given on the sales lines, as the report's: a gift card spent, a reward or a global discount is not the cashier's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'posdata-odoo-loss-'));
    try {
      const file = join(dir, 'november.json');
      const report = await runCli(
        ['report', '--month', '2026-11', '--tz', 'Europe/Brussels', '--rate', '0', '-o', file],
        {
          env,
        },
      );
      expect(report.code, report.stderr).toBe(0);
      const loss = (JSON.parse(readFileSync(file, 'utf8')).currencies[0] as { loss: Record<string, Row[]> })
        .loss;
      const month = ['--from', '2026-11-01', '--to', '2026-11-30', '--tz', 'Europe/Brussels', '--rate', '0'];
      const keys = [
        'orders',
        'sales',
        'refunds',
        'cancelled',
        'discounts',
        'discount_share',
        'largest_discount',
      ];
      const cash = ['closings', 'cash_difference', 'cash_short', 'quick_refunds'];
      for (const [by, id, name, section] of [
        ['cashier', 'cashier_id', 'cashier', 'cashiers'],
        ['register', 'config_id', 'register', 'registers'],
      ] as const) {
        const rows = await json(['summary', ...month, '--by', by, '--loss']);
        const want = (loss[section] as Row[]).map((c) => [
          c.id,
          c.name,
          ...[...keys, ...cash].map((k) => c[k]),
          (c.marks as unknown as string[]).join(' '),
        ]);
        expect(
          rows.map((r) => [r[id], r[name], ...[...keys, ...cash].map((k) => r[k]), r.marks]),
          by,
        ).toEqual(want);
        // The summary's own discounts of a row add the shop's lines: the loss's are without them.
        const plain = await json(['summary', ...month, '--by', by]);
        for (const r of rows) {
          const p = plain.find((x) => x[id] === r[id]) as Row;
          const parts = Object.entries(p)
            .filter(
              ([k]) => k === 'global_discounts' || k === 'gift_cards_redeemed' || k.startsWith('reward:'),
            )
            .reduce((n, [, v]) => n + (v as number), 0);
          expect(
            Math.abs((r.discounts as number) + parts - (p.discounts as number)),
            String(r[name]),
          ).toBeLessThan(0.015);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("pos_restaurant's tables and floors on the real posshop", () => {
  it("--by table: each table's orders, items, discounts, total and methods are its orders' own", async () => {
    const rows = await json(['summary', ...RANGE, '--by', 'table']);
    const orders = await rpc.searchRead<Rec>(
      'pos.order',
      [
        ['state', 'in', ['paid', 'done', 'invoiced']],
        ['date_order', '>=', '2026-11-08 23:00:00'],
        ['date_order', '<', '2026-11-30 23:00:00'],
      ],
      { fields: ['table_id', 'amount_total', 'tip_amount'] },
    );
    const tableOf = new Map(orders.map((o) => [o.id, id(o.table_id)]));
    const [lines, payments] = await Promise.all([
      rpc.searchRead<Rec>(
        'pos.order.line',
        [['order_id', 'in', orders.filter((o) => (o.amount_total as number) >= 0).map((o) => o.id)]],
        { fields: ['order_id', 'qty', 'discount', 'price_subtotal_incl'] },
      ),
      rpc.searchRead<Rec>('pos.payment', [['pos_order_id', 'in', orders.map((o) => o.id)]], {
        fields: ['pos_order_id', 'amount', 'payment_method_id'],
      }),
    ]);
    const tables = new Set(orders.map((o) => id(o.table_id)));
    expect(tables.size, 'posshop seats its orders at many tables').toBeGreaterThan(10);
    expect(new Set(rows.map((r) => r.table_id ?? false))).toEqual(tables);
    const cents = (v: number): number => Math.round(v * 100);
    for (const row of rows) {
      const t = row.table_id ?? false;
      const mine = (o: unknown): boolean => tableOf.get(id(o) as number) === t;
      const own = orders.filter((o) => tableOf.get(o.id) === t);
      expect(row.orders, `table ${t}`).toBe(own.length);
      expect(cents(row.total as number), `table ${t}: total`).toBe(
        cents(own.reduce((a, o) => a + (o.amount_total as number), 0)),
      );
      // The shop's own lines come per order too: a table's tips are its orders' tip_amount.
      expect(cents((row.tips as number) ?? 0), `table ${t}: tips`).toBe(
        cents(
          own
            .filter((o) => (o.amount_total as number) >= 0)
            .reduce((a, o) => a + (o.tip_amount as number), 0),
        ),
      );
      const sold = lines.filter((l) => mine(l.order_id));
      expect(row.items, `table ${t}: items`).toBeCloseTo(
        sold.reduce((a, l) => a + (l.qty as number), 0),
        6,
      );
      const given = sold
        .filter((l) => (l.discount as number) > 0 && (l.discount as number) < 100)
        .reduce(
          (a, l) =>
            a + ((l.price_subtotal_incl as number) * (l.discount as number)) / (100 - (l.discount as number)),
          0,
        );
      // Discounts are rounded once a day, the day's tables sharing its cents; they hold the
      // table's global discounts, rewards and cards spent beside its lines' d %.
      const lowering = Object.entries(row)
        .filter(([k]) => k === 'global_discounts' || k === 'gift_cards_redeemed' || k.startsWith('reward:'))
        .reduce((a, [, v]) => a + cents(v as number), 0);
      expect(
        Math.abs(cents(row.discounts as number) - lowering - cents(given)),
        `table ${t}: discounts`,
      ).toBeLessThanOrEqual(3);
      const byMethod = new Map<string, number>();
      for (const p of payments.filter((x) => mine(x.pos_order_id))) {
        const m = (p.payment_method_id as [number, string])[1];
        byMethod.set(m, (byMethod.get(m) ?? 0) + (p.amount as number));
      }
      for (const [m, amount] of byMethod)
        expect(cents(row[`method:${m}`] as number), `table ${t}: ${m}`).toBe(cents(amount));
    }
  });

  it("--by floor: each floor is its tables', and the floors are the Restaurant's", async () => {
    const [floors, tables, registers] = await Promise.all([
      json(['summary', ...RANGE, '--by', 'floor']),
      json(['summary', ...RANGE, '--by', 'table']),
      json(['summary', ...RANGE, '--by', 'register']),
    ]);
    const floorOf = new Map(
      (await rpc.searchRead<Rec>('restaurant.table', [], { fields: ['floor_id'] })).map((t) => [
        t.id,
        id(t.floor_id),
      ]),
    );
    const named = floors.filter((f) => f.floor_id !== null);
    expect(named.map((f) => f.floor).sort()).toEqual(['Main Floor', 'Patio']);
    for (const f of named) {
      const own = tables.filter((t) => floorOf.get(t.table_id as number) === f.floor_id);
      expect(f.orders).toBe(own.reduce((a, t) => a + (t.orders as number), 0));
      expect(Math.round((f.total as number) * 100)).toBe(
        Math.round(own.reduce((a, t) => a + (t.total as number), 0) * 100),
      );
    }
    const restaurant = registers.find((r) => r.register === 'Restaurant') as Row;
    const floorsSum = (k: string) => Math.round(named.reduce((a, f) => a + ((f[k] as number) ?? 0), 0) * 100);
    // The shop's own lines are folded per order too (Odoo 16-18 groups the view by no table):
    // the floors hold the register's global discount, rewards and gift cards spent.
    const lowering = Object.entries(restaurant)
      .filter(([k]) => k === 'global_discounts' || k === 'gift_cards_redeemed' || k.startsWith('reward:'))
      .reduce((a, [, v]) => a + (v as number), 0);
    expect(lowering).toBeGreaterThan(0);
    const shop = Object.keys(restaurant).filter(
      (k) =>
        k === 'tips' || k.startsWith('gift_cards') || k === 'global_discounts' || k.startsWith('reward:'),
    );
    for (const k of ['orders', 'total', 'method:Cash Restaurant', 'method:Bank', ...shop])
      expect(floorsSum(k), `the floors' ${k}`).toBe(Math.round((restaurant[k] as number) * 100));
    // A day's discount is rounded once, its cents shared among the day's groups: a cent a floor at most.
    for (const k of ['gross', 'discounts'])
      expect(
        Math.abs(floorsSum(k) - Math.round((restaurant[k] as number) * 100)),
        `the floors' ${k}`,
      ).toBeLessThanOrEqual(named.length);
  });
});

// The tap (and sync: the same fields, catalog/resources.ts) over the real shop: each sale its
// employee, table, guests and tip with its company and currency, each line its reward and
// card with the card's code never whole.
describe("a real shop's fields through the tap on the real posshop", () => {
  it("sales carry Odoo's employee, table, guests and tip; lines the reward and a masked card", async () => {
    const dir = freshConfigDir();
    const { login, password } = odoo.admin;
    const cfg = writeTapConfig(
      dir,
      'tap.json',
      tapConfig({ url: odoo.url, db: odoo.db, user: login, password }, { streams: ['sales', 'lines'] }),
    );
    const r = await runCli(['tap', '--config', cfg], { env: { POSDATA_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    const cards = await rpc.searchRead<Rec>('loyalty.card', [], { fields: ['code'] });
    expect(cards.length).toBeGreaterThan(3);
    for (const card of cards) expect(r.stdout).not.toContain(String(card.code));
    const out = checkOutput(r.stdout);
    const orders = await rpc.searchRead<Rec>('pos.order', [], {
      fields: ['employee_id', 'table_id', 'customer_count', 'tip_amount', 'company_id'],
    });
    const byId = new Map(orders.map((o) => [o.id, o]));
    const companies = await rpc.searchRead<Rec>('res.company', [], { fields: ['currency_id'] });
    const currencyOf = new Map(companies.map((c) => [c.id, (c.currency_id as [number, string])[1]]));
    const sales = out.records.get('sales') ?? [];
    expect(sales.length).toBe(orders.length);
    const orNull = (v: unknown) => id(v) || null;
    for (const s of sales) {
      const o = byId.get(s.id) as Rec;
      expect(s.employee_id, `order ${s.id}`).toBe(orNull(o.employee_id));
      expect(s.table_id, `order ${s.id}`).toBe(orNull(o.table_id));
      expect(s.customer_count).toBe(o.customer_count);
      expect(s.tip_amount).toBe(o.tip_amount);
      expect(s.company_id).toBe(id(o.company_id));
      expect(s.currency).toBe(currencyOf.get(id(o.company_id) as number));
    }
    expect(sales.some((s) => (s.tip_amount as number) > 0)).toBe(true);
    const carded = (out.records.get('lines') ?? []).filter((l) => l.coupon_id !== null);
    expect(carded.length).toBeGreaterThan(3);
    for (const l of carded) expect(String(l.coupon_name)).toMatch(/: \*+[A-Za-z0-9-]{4}$/);
  });
});
