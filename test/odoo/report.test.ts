// posdata report against the real Odoo 17: the figures of the HTML's JSON block for November
// equal `summary` and `reconcile` JSON for the same period, and the loss-prevention figures
// per cashier equal sums made directly over RPC (refunds, discounts on sales lines, cash
// differences of the closings each user ran).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loginOdoo, rpcOdoo } from '../helpers/odoo17.js';
import { column, readPage, reportData, UNREADABLE } from '../helpers/report.js';
import type { Rpc } from '../helpers/rpc.js';

const odoo = inject('odoo');
const ZONE = 'Europe/Brussels';
const PERIOD = ['--from', '2026-11-01', '--to', '2026-11-30', '--tz', ZONE];
const dir = mkdtempSync(join(tmpdir(), 'posdata-odoo-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Obj = Record<string, unknown>;
type LossRow = {
  id: number | null;
  name: string;
  refunds: number;
  discounts: number | null;
  cash_difference: number | null;
  closings: number;
  cancelled: number;
  cancelled_amount: number;
  largest_discount: number | null;
};
const m2o = (v: unknown): number | null => (Array.isArray(v) ? (v[0] as number) : null);
const cents = (v: unknown): number => Math.round(Number(v) * 100);
const utc = (d: string) => DateTime.fromISO(d, { zone: ZONE }).toUTC().toFormat('yyyy-MM-dd HH:mm:ss');

describe('report on the real Odoo 17', { timeout: 240_000 }, () => {
  let env: Record<string, string>;
  let rpc: Rpc;
  let section: Obj;
  const file = join(dir, 'november.html');

  beforeAll(async () => {
    [env, rpc] = await Promise.all([loginOdoo(odoo, 'admin'), rpcOdoo(odoo, 'admin')]);
    const r = await runCli(['report', ...PERIOD, '-o', file], { env });
    expect(r.code, r.stderr).toBe(0);
    section = (reportData(readFileSync(file, 'utf8')).currencies as Obj[])[0] as Obj;
  });

  it("equals summary's JSON (by register, cashier, day, method) and reconcile's", async () => {
    const figures = [
      'orders',
      'items',
      'gross',
      'discounts',
      'refund_count',
      'refunds',
      'net',
      'tax',
      'total',
    ];
    const pick = (rows: Obj[], keys: string[]) =>
      rows.map((x) => Object.fromEntries([...keys, ...figures].map((k) => [k, x[k]])));
    const summary = section.summary as Record<string, Obj[]>;
    for (const [name, by, keys] of [
      ['register', 'register', ['config_id']],
      ['cashier', 'cashier', ['cashier_id']],
      ['day', 'day', ['day']],
      ['method', 'method', ['method_id']],
    ] as [string, string, string[]][]) {
      const r = await runCli(['summary', ...PERIOD, '--by', by, '--format', 'json'], { env });
      expect(r.code, r.stderr).toBe(0);
      const theirs = JSON.parse(r.stdout) as Obj[];
      expect(theirs.length, name).toBeGreaterThan(0);
      expect(pick(summary[name] as Obj[], keys), name).toEqual(pick(theirs, keys));
    }
    const rec = await runCli(['reconcile', ...PERIOD, '--format', 'json'], { env });
    expect(rec.code, rec.stderr).toBe(0);
    const keys = ['session_id', 'register', 'expected_cash', 'counted_cash', 'difference'];
    const pickR = (rows: Obj[]) => rows.map((x) => Object.fromEntries(keys.map((k) => [k, x[k]])));
    expect(pickR(section.reconcile as Obj[])).toEqual(pickR(JSON.parse(rec.stdout) as Obj[]));
  });

  it('reads as a person would: every closing has its time, every ticket its register by name', async () => {
    const { text, tables } = await readPage(file);
    expect(text.match(UNREADABLE)?.[0]).toBeUndefined();
    const closings = tables.find((t) => t[0]?.[0] === 'Session' && t[0]?.includes('Expected')) ?? [];
    expect(closings.length - 1).toBe((section.reconcile as Obj[]).length);
    expect(closings.length).toBeGreaterThan(1);
    for (const closed of column(closings, 'Closed')) expect(closed).toMatch(/^2026-1[12]-\d\d \d\d:\d\d$/);
    // A register is its name, not Odoo 17's label of it ("Shop (Mitchell Admin)", "Bar (not used)").
    const names = new Set((section.registers as { name: string }[]).map((x) => x.name));
    const listed = tables.flatMap((t) => column(t, 'Register'));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((n) => !names.has(n))).toEqual([]);
  });

  it('the loss figures per cashier equal sums made over RPC', async () => {
    const loss = section.loss as { cashierField: string; cashiers: LossRow[] };
    const who = loss.cashierField;
    const range = [
      ['date_order', '>=', utc('2026-11-01')],
      ['date_order', '<', utc('2026-12-01')],
    ];
    const counted = [['state', 'in', ['paid', 'done', 'invoiced']], ...range];
    const [refunds, sales, sessions] = await Promise.all([
      rpc.searchRead('pos.order', [...counted, ['amount_total', '<', 0]], { fields: [who, 'amount_total'] }),
      rpc.searchRead('pos.order', [...counted, ['amount_total', '>=', 0]], { fields: [who] }),
      rpc.searchRead(
        'pos.session',
        [
          ['state', '=', 'closed'],
          ['stop_at', '>=', utc('2026-11-01')],
          ['stop_at', '<', utc('2026-12-01')],
        ],
        { fields: ['user_id', 'cash_register_difference'] },
      ),
    ]);
    const lines = await rpc.searchRead(
      'pos.order.line',
      [
        ['order_id', 'in', sales.map((o) => o.id)],
        ['discount', '>', 0],
      ],
      { fields: ['order_id', 'discount', 'price_subtotal_incl'] },
    );
    const cashierOf = new Map(sales.map((o) => [o.id as number, m2o(o[who])]));
    const refundsBy = new Map<number | null, number>();
    for (const o of refunds)
      refundsBy.set(m2o(o[who]), (refundsBy.get(m2o(o[who])) ?? 0) + cents(o.amount_total));
    const discountsBy = new Map<number | null, number>();
    for (const l of lines) {
      const d = l.discount as number;
      const given = d >= 100 ? 0 : ((l.price_subtotal_incl as number) * d) / (100 - d);
      const c = cashierOf.get(m2o(l.order_id) as number) ?? null;
      discountsBy.set(c, (discountsBy.get(c) ?? 0) + given * 100);
    }
    expect(sales.length).toBeGreaterThan(0);
    expect(loss.cashiers.length).toBeGreaterThan(0);
    expect(loss.cashiers.some((c) => c.refunds < 0 && (c.discounts ?? 0) > 0)).toBe(true);
    for (const c of loss.cashiers) {
      expect(cents(c.refunds), c.name).toBe(refundsBy.get(c.id) ?? 0);
      expect(Math.abs(cents(c.discounts ?? 0) - (discountsBy.get(c.id) ?? 0)), c.name).toBeLessThanOrEqual(5);
    }
    // The cancelled orders (grouped by Odoo) and the largest discount of one order (its sales'
    // ids grouped by Odoo) per cashier, against the same read order by order.
    const cancelled = await rpc.searchRead('pos.order', [['state', '=', 'cancel'], ...range], {
      fields: [who, 'amount_total'],
    });
    const cancelledBy = new Map<number | null, [number, number]>();
    for (const o of cancelled) {
      const [n, amount] = cancelledBy.get(m2o(o[who])) ?? [0, 0];
      cancelledBy.set(m2o(o[who]), [n + 1, amount + cents(o.amount_total)]);
    }
    const perOrder = new Map<number, number>();
    for (const l of lines) {
      const d = l.discount as number;
      const given = d >= 100 ? 0 : ((l.price_subtotal_incl as number) * d) / (100 - d);
      perOrder.set(m2o(l.order_id) as number, (perOrder.get(m2o(l.order_id) as number) ?? 0) + given);
    }
    const largestBy = new Map<number | null, number>();
    for (const [o, d] of perOrder) {
      const c = cashierOf.get(o) ?? null;
      largestBy.set(c, Math.max(largestBy.get(c) ?? 0, cents(d)));
    }
    expect(cancelled.length).toBeGreaterThan(0);
    for (const c of loss.cashiers) {
      expect([c.cancelled, cents(c.cancelled_amount)], c.name).toEqual(cancelledBy.get(c.id) ?? [0, 0]);
      expect(c.largest_discount === null ? 0 : cents(c.largest_discount), c.name).toBe(
        largestBy.get(c.id) ?? 0,
      );
    }
    const exact = [...discountsBy.values()].reduce((a, b) => a + b, 0);
    expect(
      Math.abs(loss.cashiers.reduce((a, c) => a + cents(c.discounts ?? 0), 0) - exact),
    ).toBeLessThanOrEqual(1);
    // A closing is its session's user's (with pos_hr, the employee of that user): the sums match by count and amount.
    const cash = sessions.reduce((a, s) => a + cents(s.cash_register_difference), 0);
    expect(loss.cashiers.reduce((a, c) => a + cents(c.cash_difference ?? 0), 0)).toBe(cash);
    expect(loss.cashiers.reduce((a, c) => a + c.closings, 0)).toBe(sessions.length);
    if (who === 'user_id') {
      const byUser = new Map<number | null, number>();
      for (const s of sessions)
        byUser.set(m2o(s.user_id), (byUser.get(m2o(s.user_id)) ?? 0) + cents(s.cash_register_difference));
      for (const c of loss.cashiers)
        if (c.closings > 0) expect(cents(c.cash_difference), c.name).toBe(byUser.get(c.id));
    }
  });
});
