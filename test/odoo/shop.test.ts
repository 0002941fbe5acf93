// The figures of a real shop against Odoo's own reports, on the real Odoo 17's posshop database
// (../shared/odoo17/README.md, posshop): a shop and a restaurant with pos_hr, tips, pos_discount,
// loyalty, gift cards, invoices and a take-away fiscal position. This file starts its own posshop
// server. Odoo's Sales Details (report.point_of_sale.report_saledetails.get_sale_details) of each
// business day and of each session is the answer; posdata's discounts are those of Odoo's lines
// (Σ price_subtotal_incl × d / (100 − d)), read line by line here.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loginOdoo, type RealOdooHandle, rpcOdoo, startRealOdoo } from '../helpers/odoo17.js';
import { column, readPage, reportData, UNREADABLE } from '../helpers/report.js';
import type { Rpc } from '../helpers/rpc.js';

type Row = Record<string, string | number | null>;
type Rec = Record<string, unknown> & { id: number };

const ZONE = 'Europe/Brussels';
const COUNTED = ['paid', 'done', 'invoiced'];
const id = (v: unknown): number => (Array.isArray(v) ? (v[0] as number) : (v as number));
const cents = (v: unknown): number => Math.round(Number(v) * 100);
const dayOf = (utc: string): string =>
  DateTime.fromSQL(utc, { zone: 'UTC' }).setZone(ZONE).toISODate() as string;

interface Details {
  nbr_orders: number;
  currency: { total_paid: number };
  payments: { id?: number; name: string; session: number; total: number }[];
}

let odoo: RealOdooHandle;
let env: Record<string, string>;
let rpc: Rpc;
/** Each payment method's name, by id. */
const methodNames = new Map<number, string>();

beforeAll(async () => {
  odoo = await startRealOdoo('posshop');
  [env, rpc] = await Promise.all([loginOdoo(odoo, 'admin'), rpcOdoo(odoo, 'admin')]);
  for (const m of await rpc.searchRead<Rec>('pos.payment.method', [], { fields: ['name'] }))
    methodNames.set(m.id, m.name as string);
}, 600_000);
afterAll(async () => odoo?.stop(), 120_000);

const summary = async (args: string[]): Promise<Row[]> => {
  const r = await runCli(['summary', '--rate', '0', '--tz', ZONE, '--format', 'json', ...args], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Row[];
};

/** Odoo's Sales Details of the business day `day` (in ZONE), or of sessions. */
function saleDetails(what: { day: string } | { sessions: number[] }): Promise<Details> {
  if ('sessions' in what)
    return rpc.kw<Details>('report.point_of_sale.report_saledetails', 'get_sale_details', [], {
      session_ids: what.sessions,
    });
  const start = DateTime.fromISO(what.day, { zone: ZONE });
  const utc = (t: DateTime) => t.toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
  return rpc.kw<Details>('report.point_of_sale.report_saledetails', 'get_sale_details', [], {
    date_start: utc(start),
    date_stop: utc(start.plus({ days: 1 }).minus({ seconds: 1 })),
    config_ids: false,
    session_ids: false,
  });
}

/** Sales Details' payments summed per method name (it lists them per method and session). */
function methodsOf(d: Details): Map<string, number> {
  const m = new Map<string, number>();
  for (const p of d.payments) {
    if (p.id === undefined) continue;
    const name = methodNames.get(p.id) as string;
    m.set(name, (m.get(name) ?? 0) + p.total);
  }
  return m;
}

/**
 * A row's line discounts (the d % of its lines): its discounts less the global discounts,
 * rewards and cards spent it also holds, in cents.
 */
const lineDiscounts = (row: Row | undefined): number =>
  cents(row?.discounts) -
  cents(row?.global_discounts ?? 0) -
  cents(row?.['reward:Shop Points'] ?? 0) -
  cents(row?.gift_cards_redeemed ?? 0);

/** A summary row's orders, total and methods are those of Sales Details. */
function agrees(row: Row | undefined, d: Details, what: string): void {
  expect(row, what).toBeDefined();
  expect(row?.orders, `${what}: orders`).toBe(d.nbr_orders);
  expect(cents(row?.total), `${what}: total`).toBe(cents(d.currency.total_paid));
  for (const [name, total] of methodsOf(d))
    expect(cents(row?.[`method:${name}`] ?? 0), `${what}: method ${name}`).toBe(cents(total));
}

describe('posshop: payment methods by day, as Odoo buckets them', () => {
  it("the change of an offline evening, synced the next morning, is on its order's day", async () => {
    // The change rows Odoo dated on another day than their order: the register synced late.
    const change = await rpc.searchRead<Rec>(
      'pos.payment',
      [
        ['is_change', '=', true],
        ['pos_order_id.state', 'in', COUNTED],
      ],
      { fields: ['payment_date', 'pos_order_id'] },
    );
    const orders = new Map(
      (
        await rpc.searchRead<Rec>('pos.order', [['id', 'in', change.map((p) => id(p.pos_order_id))]], {
          fields: ['date_order'],
        })
      ).map((o) => [o.id, o.date_order as string]),
    );
    const late = [
      ...new Set(
        change
          .map((p) => dayOf(orders.get(id(p.pos_order_id)) as string))
          .filter((day, i) => day !== dayOf(change[i]?.payment_date as string)),
      ),
    ].sort();
    expect(late.length, 'posshop has offline evenings').toBeGreaterThan(0);
    for (const day of late) {
      // The day alone: one row, its own (the next day is not in the range asked).
      const rows = await summary(['--date', day, '--by', 'day']);
      expect(rows.map((r) => r.day)).toEqual([day]);
      agrees(rows[0], await saleDetails({ day }), `--date ${day} --by day`);
    }
  });

  it('a month --by day: every day has the orders, total and methods of its Sales Details', async () => {
    const rows = await summary(['--from', '2026-11-09', '--to', '2026-11-30', '--by', 'day']);
    expect(rows).toHaveLength(22);
    for (const row of rows) agrees(row, await saleDetails({ day: row.day as string }), `day ${row.day}`);
  });
});

describe('posshop: line discounts under the take-away fiscal position', () => {
  it("each day's and each session's discounts are those of Odoo's lines, eaten in or taken away", async () => {
    const orders = await rpc.searchRead<Rec>(
      'pos.order',
      [
        ['state', 'in', COUNTED],
        ['amount_total', '>=', 0],
      ],
      { fields: ['date_order', 'session_id', 'fiscal_position_id'] },
    );
    const order = new Map(orders.map((o) => [o.id, o]));
    const lines = await rpc.searchRead<Rec>(
      'pos.order.line',
      [
        ['order_id', 'in', [...order.keys()]],
        ['discount', '>', 0],
        ['discount', '<', 100],
      ],
      { fields: ['order_id', 'discount', 'price_subtotal_incl'] },
    );
    // The lines' discounts, tax included, by business day and by session.
    const byDay = new Map<string, number>();
    const bySession = new Map<number, number>();
    let takeAway = 0;
    for (const l of lines) {
      const o = order.get(id(l.order_id)) as Rec;
      const d = l.discount as number;
      const given = ((l.price_subtotal_incl as number) * d) / (100 - d);
      const day = dayOf(o.date_order as string);
      byDay.set(day, (byDay.get(day) ?? 0) + given);
      bySession.set(id(o.session_id), (bySession.get(id(o.session_id)) ?? 0) + given);
      if (o.fiscal_position_id) takeAway++;
    }
    expect(takeAway, 'posshop has discounted take-away lines').toBeGreaterThan(0);
    const rows = await summary(['--from', '2026-11-09', '--to', '2026-11-30', '--by', 'day']);
    // A day's discount is rounded once: report.pos.order rounds each line's amount, a cent a day at most.
    for (const row of rows) {
      expect(
        Math.abs(lineDiscounts(row) - cents(byDay.get(row.day as string) ?? 0)),
        `day ${row.day}`,
      ).toBeLessThanOrEqual(1);
      expect(cents(row.gross) - cents(row.discounts) + cents(row.refunds), `day ${row.day}: gross`).toBe(
        cents(row.total),
      );
    }
    for (const [sid, given] of bySession) {
      const [row] = await summary(['--session-id', String(sid), '--by', 'session']);
      // A session of n business days: its days' discounts, each rounded once.
      const days = new Set(
        orders.filter((o) => id(o.session_id) === sid).map((o) => dayOf(o.date_order as string)),
      );
      expect(Math.abs(lineDiscounts(row) - cents(given)), `session ${sid}`).toBeLessThanOrEqual(days.size);
    }
  });
});

interface SessionDetails extends Details {
  discount_amount: number;
}

describe('posshop: tips, gift cards, global discounts and rewards beside Sales Details', () => {
  it("each session's special lines have their own columns, equal to Odoo's records; the rest is Sales Details'", async () => {
    const orders = await rpc.searchRead<Rec>(
      'pos.order',
      [
        ['state', 'in', COUNTED],
        ['amount_total', '>=', 0],
      ],
      { fields: ['session_id', 'tip_amount'] },
    );
    const sessionOf = new Map(orders.map((o) => [o.id, id(o.session_id)]));
    const programOf = new Map(
      (await rpc.searchRead<Rec>('loyalty.reward', [], { fields: ['program_id'] })).map((r) => [
        r.id,
        (r.program_id as [number, string])[1],
      ]),
    );
    const lines = await rpc.searchRead<Rec>(
      'pos.order.line',
      [
        ['order_id', 'in', [...sessionOf.keys()]],
        '|',
        '|',
        ['is_reward_line', '=', true],
        ['product_id.default_code', '=', 'DISC'],
        ['product_id.name', '=', 'Gift Card'],
      ],
      { fields: ['order_id', 'price_subtotal_incl', 'is_reward_line', 'reward_id', 'product_id'] },
    );
    // The expected columns of each session, from the records: the tip is the order's tip_amount.
    const want = new Map<number, Record<string, number>>();
    const add = (sid: number, k: string, v: number) => {
      const m = want.get(sid) ?? {};
      want.set(sid, m);
      m[k] = (m[k] ?? 0) + v;
    };
    for (const o of orders) add(id(o.session_id), 'tips', o.tip_amount as number);
    for (const l of lines) {
      const sid = sessionOf.get(id(l.order_id)) as number;
      const v = l.price_subtotal_incl as number;
      if (l.is_reward_line) {
        const p = programOf.get(id(l.reward_id));
        add(sid, p === 'Gift Cards' ? 'gift_cards_redeemed' : `reward:${p}`, -v);
      } else if ((l.product_id as [number, string])[1] === '[DISC] Discount')
        add(sid, 'global_discounts', -v);
      else add(sid, 'gift_cards_sold', v);
    }
    const totals: Record<string, number> = {};
    for (const [sid, expected] of want) {
      const [row] = await summary(['--session-id', String(sid), '--by', 'session']);
      const details = await saleDetails({ sessions: [sid] });
      agrees(row, details, `session ${sid}`);
      for (const [k, v] of Object.entries(expected)) {
        expect(cents(row?.[k] ?? 0), `session ${sid}: ${k}`).toBe(cents(v));
        totals[k] = (totals[k] ?? 0) + v;
      }
      expect(cents(row?.gross) - cents(row?.discounts) + cents(row?.refunds), `session ${sid}: gross`).toBe(
        cents(row?.total),
      );
    }
    // posshop has each of them.
    for (const k of [
      'tips',
      'global_discounts',
      'reward:Shop Points',
      'gift_cards_redeemed',
      'gift_cards_sold',
    ])
      expect(totals[k], k).toBeGreaterThan(0);
  });

  it("Sales Details' discounts are the sessions' line discounts less those its refunds gave back", async () => {
    // get_total_discount (pos.session) sums every discounted line of the session's orders,
    // refund lines included (negative: a refund of a discounted line returns its discount),
    // each line's undiscounted price rounded by compute_all; global discounts, rewards and
    // cards spent are lines of products of their own and are not in it.
    const refundLines = await rpc.searchRead<Rec>(
      'pos.order.line',
      [
        ['order_id.state', 'in', COUNTED],
        ['order_id.amount_total', '<', 0],
        ['discount', '>', 0],
        ['discount', '<', 100],
      ],
      { fields: ['order_id', 'discount', 'price_subtotal_incl'] },
    );
    const refundOrders = await rpc.searchRead<Rec>(
      'pos.order',
      [['id', 'in', [...new Set(refundLines.map((l) => id(l.order_id)))]]],
      { fields: ['session_id'] },
    );
    const sessionOf = new Map(refundOrders.map((o) => [o.id, id(o.session_id)]));
    const back = new Map<number, number>();
    for (const l of refundLines) {
      const sid = sessionOf.get(id(l.order_id)) as number;
      const d = l.discount as number;
      back.set(sid, (back.get(sid) ?? 0) + ((l.price_subtotal_incl as number) * d) / (100 - d));
    }
    expect(back.size, 'posshop has refunds of discounted lines').toBeGreaterThan(0);
    const sessions = await rpc.searchRead<Rec>('pos.session', [['order_ids', '!=', false]], {
      fields: ['id'],
    });
    for (const { id: sid } of sessions) {
      const [row] = await summary(['--session-id', String(sid), '--by', 'session']);
      if (!row) continue;
      const details = (await saleDetails({ sessions: [sid] })) as SessionDetails;
      // Each line's price is rounded by compute_all in Odoo's: a few cents a session at most.
      expect(
        Math.abs(lineDiscounts(row) + cents(back.get(sid) ?? 0) - cents(details.discount_amount)),
        `session ${sid}`,
      ).toBeLessThanOrEqual(5);
    }
  });
});

describe('posshop: take-away, the tax actually charged per rate', () => {
  it("a month --by tax: each rate's tax and base are Sales Details', take-away's 6 % apart from the 15 % eaten in", async () => {
    type Tax = { name: string; tax_amount: number; base_amount: number };
    const start = DateTime.fromISO('2026-11-09', { zone: ZONE });
    const utc = (t: DateTime) => t.toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
    const d = await rpc.kw<{ taxes: Tax[]; refund_taxes: Tax[] }>(
      'report.point_of_sale.report_saledetails',
      'get_sale_details',
      [],
      {
        date_start: utc(start),
        date_stop: utc(DateTime.fromISO('2026-12-01', { zone: ZONE }).minus({ seconds: 1 })),
        config_ids: false,
        session_ids: false,
      },
    );
    // Sales Details lists the sales' taxes and the refunds' apart; a rate's figure is both.
    const odoo = new Map<string, { tax: number; base: number }>();
    for (const t of [...d.taxes, ...d.refund_taxes]) {
      const name = t.name === 'No Taxes' ? '' : t.name;
      const o = odoo.get(name) ?? { tax: 0, base: 0 };
      odoo.set(name, { tax: o.tax + t.tax_amount, base: o.base + t.base_amount });
    }
    expect(odoo.has('Take-away 6%'), 'posshop sells take-away').toBe(true);
    const rows = await summary(['--from', '2026-11-09', '--to', '2026-11-30', '--by', 'tax']);
    expect(new Set(rows.map((r) => r.tax_name ?? ''))).toEqual(new Set(odoo.keys()));
    for (const row of rows) {
      const o = odoo.get((row.tax_name as string | null) ?? '') as { tax: number; base: number };
      // Odoo recomputes each line's tax; posdata's is the orders' amount_tax: a cent apart at most.
      expect(Math.abs(cents(row.tax) - cents(o.tax)), `${row.tax_name}: tax`).toBeLessThanOrEqual(1);
      expect(Math.abs(cents(row.net) - cents(o.base)), `${row.tax_name}: base`).toBeLessThanOrEqual(1);
    }
  });
});

describe('posshop: tips by cashier and by method', () => {
  it("a month --by cashier gives each employee's tips, --by method each tip on the payment Odoo added it to", async () => {
    const range = ['--from', '2026-11-09', '--to', '2026-11-30'];
    const tipped = await rpc.searchRead<Rec>(
      'pos.order',
      [
        ['state', 'in', COUNTED],
        ['amount_total', '>=', 0],
        ['tip_amount', '>', 0],
      ],
      { fields: ['employee_id', 'tip_amount'] },
    );
    // set_tip adds the tip to the order's first payment that is not change.
    const payments = await rpc.searchRead<Rec>(
      'pos.payment',
      [
        ['pos_order_id', 'in', tipped.map((o) => o.id)],
        ['is_change', '=', false],
      ],
      { fields: ['pos_order_id', 'payment_method_id'], order: 'id' },
    );
    const byCashier = new Map<string, number>();
    const byMethod = new Map<string, number>();
    for (const o of tipped) {
      const e = (o.employee_id as [number, string])[1];
      byCashier.set(e, (byCashier.get(e) ?? 0) + (o.tip_amount as number));
      const p = payments.find((x) => id(x.pos_order_id) === o.id) as Rec;
      const m = methodNames.get(id(p.payment_method_id)) as string;
      byMethod.set(m, (byMethod.get(m) ?? 0) + (o.tip_amount as number));
    }
    expect(byMethod.size, 'posshop has tips').toBeGreaterThan(0);
    const [cashiers, methods] = await Promise.all([
      summary([...range, '--by', 'cashier']),
      summary([...range, '--by', 'method']),
    ]);
    for (const row of cashiers)
      expect(cents(row.tips), `${row.cashier}: tips`).toBe(cents(byCashier.get(row.cashier as string) ?? 0));
    for (const row of methods)
      expect(cents(row.tips), `${row.method}: tips`).toBe(cents(byMethod.get(row.method as string) ?? 0));
    const all = tipped.reduce((a, o) => a + (o.tip_amount as number), 0);
    for (const rows of [cashiers, methods])
      expect(cents(rows.reduce((a, r) => a + (r.tips as number), 0))).toBe(cents(all));
  });
});

describe("posshop: the figures add up, per tax and per method, and the cash closings are Odoo's", () => {
  const month = ['--from', '2026-11-09', '--to', '2026-11-30'];

  it("a month --by tax and --by method: each tax row adds up, and taxes and methods make Sales Details' total", async () => {
    const start = DateTime.fromISO('2026-11-09', { zone: ZONE });
    const utc = (t: DateTime) => t.toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
    const d = await rpc.kw<Details>('report.point_of_sale.report_saledetails', 'get_sale_details', [], {
      date_start: utc(start),
      date_stop: utc(DateTime.fromISO('2026-12-01', { zone: ZONE }).minus({ seconds: 1 })),
      config_ids: false,
      session_ids: false,
    });
    const [taxes, methods, registers] = await Promise.all([
      summary([...month, '--by', 'tax']),
      summary([...month, '--by', 'method']),
      summary([...month, '--by', 'register']),
    ]);
    // Global discounts and rewards are negative lines of each tax group, gift cards and tips
    // untaxed lines: each rate's row holds its own, and adds up.
    for (const row of taxes)
      expect(cents(row.gross) - cents(row.discounts) + cents(row.refunds), `${row.tax_name}`).toBe(
        cents(row.total),
      );
    const sum = (rows: Row[], k: string) => rows.reduce((a, r) => a + cents(r[k]), 0);
    expect(sum(taxes, 'total')).toBe(cents(d.currency.total_paid));
    expect(sum(methods, 'total')).toBe(cents(d.currency.total_paid));
    expect(sum(registers, 'total')).toBe(cents(d.currency.total_paid));
    for (const [name, total] of methodsOf(d))
      expect(cents(methods.find((r) => r.method === name)?.total ?? 0), `method ${name}`).toBe(cents(total));
    // The shop's own lines are in them: the registers' tips, cards and discounts are the month's.
    for (const k of [
      'tips',
      'gift_cards_sold',
      'gift_cards_redeemed',
      'global_discounts',
      'reward:Shop Points',
    ])
      expect(sum(registers, k), k).toBeGreaterThan(0);
    expect(sum(methods, 'tips')).toBe(sum(registers, 'tips'));
  });

  it("reconcile: each closed session's opening, counted cash, difference and payments are Odoo's closing's", async () => {
    const r = await runCli(['reconcile', '--rate', '0', '--tz', ZONE, '--format', 'json', ...month], { env });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    const sessions = await rpc.searchRead<Rec>('pos.session', [['id', 'in', rows.map((x) => x.session_id)]], {
      fields: [
        'cash_control',
        'cash_register_balance_start',
        'cash_register_balance_end',
        'cash_register_balance_end_real',
        'cash_register_difference',
      ],
    });
    const payments = await rpc.searchRead<Rec>(
      'pos.payment',
      [['session_id', 'in', sessions.map((s) => s.id)]],
      {
        fields: ['session_id', 'payment_method_id', 'amount'],
      },
    );
    expect(rows.length, 'the month has its ten closings').toBe(10);
    for (const row of rows) {
      const s = sessions.find((x) => x.id === row.session_id) as Rec;
      const where = `session ${row.session}`;
      expect(cents(row.opening_cash), `${where} opening`).toBe(cents(s.cash_register_balance_start));
      expect(cents(row.counted_cash), `${where} counted`).toBe(cents(s.cash_register_balance_end_real));
      expect(cents(row.difference), `${where} difference`).toBe(cents(s.cash_register_difference));
      if (s.cash_control)
        expect(cents(row.expected_cash), `${where} expected`).toBe(cents(s.cash_register_balance_end));
      const byMethod = new Map<string, number>();
      for (const p of payments.filter((x) => id(x.session_id) === s.id)) {
        const m = methodNames.get(id(p.payment_method_id)) as string;
        byMethod.set(m, (byMethod.get(m) ?? 0) + cents(p.amount));
      }
      for (const k of Object.keys(row).filter((k) => k.startsWith('method:')))
        expect(cents(row[k]), `${where} ${k}`).toBe(byMethod.get(k.slice(7)) ?? 0);
    }
  });
});

describe('posshop: invoiced orders carry their invoice number', () => {
  it("sales --fields invoice gives account.move's own name, where Odoo's label adds the order's", async () => {
    const invoiced = await rpc.searchRead<Rec>('pos.order', [['account_move', '!=', false]], {
      fields: ['name', 'account_move'],
    });
    expect(invoiced.length, 'posshop has invoiced orders').toBeGreaterThan(0);
    const moves = new Map(
      (
        await rpc.searchRead<Rec>('account.move', [['id', 'in', invoiced.map((o) => id(o.account_move))]], {
          fields: ['name'],
        })
      ).map((m) => [m.id, m.name as string]),
    );
    const r = await runCli(
      ['sales', '--state', 'invoiced', '--fields', 'id,name,invoice', '--format', 'json'],
      {
        env,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.map((x) => x.id).sort()).toEqual(invoiced.map((o) => o.id).sort());
    for (const o of invoiced) {
      const number = moves.get(id(o.account_move)) as string;
      expect(number).toMatch(/^INV\/\d{4}\/\d+$/);
      // Odoo 17's label: "INV/2026/00005 (Shop/0008)".
      expect((o.account_move as [number, string])[1]).toBe(`${number} (${o.name})`);
      expect(rows.find((x) => x.id === o.id)?.invoice, String(o.name)).toBe(number);
    }
  });
});

describe("posshop: the report's month shows the shop's lines and each employee's tips", () => {
  const dir = mkdtempSync(join(tmpdir(), 'posdata-odoo-shop-report-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("beside the products: summary's parts by register; per cashier: each employee's tips; the glance Sales Details'", async () => {
    const file = join(dir, 'november.html');
    const r = await runCli(['report', '--month', '2026-11', '--tz', ZONE, '--rate', '0', '-o', file], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    const data = reportData(readFileSync(file, 'utf8'));
    expect(data.requests as number).toBeLessThanOrEqual(60);
    const section = (data.currencies as Record<string, unknown>[])[0] as {
      glance: Record<string, number>;
      shop: { keys: string[]; period: Record<string, number>; previous: Record<string, number> };
      summary: { cashier: Row[] };
    };
    const month = ['--from', '2026-11-01', '--to', '2026-11-30'];
    const [registers, cashiers, october] = await Promise.all([
      summary([...month, '--by', 'register']),
      summary([...month, '--by', 'cashier']),
      summary(['--from', '2026-10-01', '--to', '2026-10-31', '--by', 'register']),
    ]);
    const sum = (rows: Row[], k: string): number => rows.reduce((a, x) => a + cents(x[k] ?? 0), 0);
    const keys = ['global_discounts', 'reward:Shop Points', 'gift_cards_redeemed', 'gift_cards_sold', 'tips'];
    expect(section.shop.keys).toEqual(keys);
    for (const k of keys) {
      expect(sum(registers, k), k).toBeGreaterThan(0);
      expect(cents(section.shop.period[k]), k).toBe(sum(registers, k));
      expect(cents(section.shop.previous[k]), `${k} in October`).toBe(sum(october, k));
    }
    // posshop's README: 25 tipped orders, 71.30 of tips, all at the Restaurant.
    expect(cents(section.shop.period.tips)).toBe(7130);
    // Each employee's tips, as summary --by cashier gives them (pos_hr: the employee at the register).
    const tips = new Map(cashiers.map((x) => [String(x.cashier), cents(x.tips)]));
    expect([...tips.keys()]).toEqual(
      expect.arrayContaining(['Ilse Janssens', 'Femke De Smet', 'Bram Wouters']),
    );
    for (const x of section.summary.cashier)
      expect(cents(x.tips), String(x.cashier)).toBe(tips.get(String(x.cashier)));
    // The glance is Sales Details': global discounts, rewards and cards redeemed are not in its discounts.
    const lowering = keys.slice(0, 3).reduce((a, k) => a + sum(registers, k), 0);
    expect(cents(section.glance.discounts)).toBe(sum(registers, 'discounts') - lowering);
    expect(cents(section.glance.gross)).toBe(sum(registers, 'gross') - lowering);
    if (!existsSync('/usr/bin/chromium')) return;
    const page = await readPage(file);
    expect(page.text.match(UNREADABLE)?.[0]).toBeUndefined();
    const given = page.figures.filter((f) => f.kind === 'loss')[1]?.rows ?? [];
    const shown = column(given, 'Tips');
    for (const [i, name] of column(given, 'Cashier').entries())
      expect(cents(String(shown[i]).replace(/,/g, '')), name).toBe(tips.get(name) ?? 0);
  });
});
