// pos_hr as on the real posshop: one user opens every session and is every order's user, while
// the employees at the register (who need not be users) ring the sales. Every per-cashier
// figure names the employee: summary --by cashier and its --loss (the report's leaks), whose
// closings are set against the employee at the register when the cash was counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { rpcClient, type SandboxHandle, SHOP_MODULES, startTestSandbox } from '../helpers/sandbox.js';

type Row = Record<string, string | number | null>;
type Rec = Record<string, unknown> & { id: number };
const id = (v: unknown): number | false => (Array.isArray(v) ? (v[0] as number) : false);
const PERIOD = ['--from', '2026-11-01', '--to', '2026-11-26', '--tz', 'UTC', '--rate', '0'];

let sb: SandboxHandle;
let env: Record<string, string>;
beforeAll(async () => {
  sb = await startTestSandbox({ seed: 29, orders: 1200, days: 21, ...SHOP_MODULES });
  env = await loginEnv(sb.url);
});
afterAll(async () => {
  await sb?.close();
});

describe('employees as cashiers (pos_hr)', () => {
  it("--loss sets each closing against the employee who rang the session's last order, not the user's", async () => {
    const r = await runCli(['summary', ...PERIOD, '--by', 'cashier', '--loss', '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    const rec = await runCli(['reconcile', ...PERIOD, '--format', 'json'], { env });
    expect(rec.code, rec.stderr).toBe(0);
    const sessions = (JSON.parse(rec.stdout) as Row[]).map((s) => s.session_id as number);
    const c = rpcClient(sb.url);
    const orders = await c.ok<Rec[]>('pos.order', 'search_read', [[['session_id', 'in', sessions]]], {
      fields: ['session_id', 'employee_id'],
      order: 'id',
    });
    const lastOf = new Map<number, number>();
    for (const o of orders)
      if (id(o.employee_id)) lastOf.set(id(o.session_id) as number, id(o.employee_id) as number);
    const want = new Map<number, number>();
    for (const s of sessions) {
      const e = lastOf.get(s) as number;
      want.set(e, (want.get(e) ?? 0) + 1);
    }
    const got = new Map(
      rows.filter((x) => (x.closings as number) > 0).map((x) => [x.cashier_id as number, x.closings]),
    );
    expect(got).toEqual(want);
    // The session's user (admin, or the POS user) is no row: employees are not users here.
    const employees = await c.ok<Rec[]>('hr.employee', 'search_read', [[]], { fields: ['name'] });
    const names = new Set(employees.map((e) => e.name));
    for (const x of rows) expect(names.has(x.cashier)).toBe(true);
  });
});

describe.each([16, 18, 19] as const)('employees as cashiers on Odoo %i', (odooVersion) => {
  let other: SandboxHandle;
  let e: Record<string, string>;
  beforeAll(async () => {
    other = await startTestSandbox({ seed: 5, orders: 500, days: 10, odooVersion, ...SHOP_MODULES });
    e = await loginEnv(other.url);
  });
  afterAll(async () => {
    await other?.close();
  });

  it('summary --by cashier --loss names only employees, the refunds by whoever rang them', async () => {
    const r = await runCli(['summary', ...PERIOD, '--by', 'cashier', '--loss', '--format', 'json'], {
      env: e,
    });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    const c = rpcClient(other.url);
    const employees = await c.ok<Rec[]>('hr.employee', 'search_read', [[]], { fields: ['name'] });
    expect(new Set(rows.map((x) => x.cashier))).toEqual(new Set(employees.map((x) => x.name)));
    const refunds = await c.ok<Rec[]>(
      'pos.order',
      'search_read',
      [
        [
          ['amount_total', '<', 0],
          ['state', 'in', ['paid', 'done', 'invoiced']],
        ],
      ],
      { fields: ['employee_id'] },
    );
    const perEmployee = new Map<number, number>();
    for (const o of refunds)
      perEmployee.set(id(o.employee_id) as number, (perEmployee.get(id(o.employee_id) as number) ?? 0) + 1);
    for (const x of rows) expect(x.refund_count).toBe(perEmployee.get(x.cashier_id as number) ?? 0);
  });

  // pos_hr's own fields per version (its source): 18 and 19 add the session's employee at the
  // register and the payment's, 16 and 17 have the order's alone.
  it('the session and the payment carry an employee from 18 on; a closing goes to the session employee there', async () => {
    const c = rpcClient(other.url);
    const [session, payment] = await Promise.all([
      c.ok<Record<string, { relation?: string; store?: boolean }>>('pos.session', 'fields_get', [], {
        attributes: ['relation', 'store'],
      }),
      c.ok<Record<string, { relation?: string; store?: boolean }>>('pos.payment', 'fields_get', [], {
        attributes: ['relation', 'store'],
      }),
    ]);
    if (odooVersion < 18) {
      expect(session.employee_id).toBeUndefined();
      expect(payment.employee_id).toBeUndefined();
      return;
    }
    expect(session.employee_id).toMatchObject({ relation: 'hr.employee', store: true });
    expect(payment.employee_id).toMatchObject({ relation: 'hr.employee', store: true });
    const r = await runCli(['summary', ...PERIOD, '--by', 'cashier', '--loss', '--format', 'json'], {
      env: e,
    });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    const sessions = await c.ok<Rec[]>('pos.session', 'search_read', [[['state', '=', 'closed']]], {
      fields: ['employee_id', 'cash_register_balance_end_real'],
    });
    const orders = await c.ok<Rec[]>(
      'pos.order',
      'search_read',
      [[['session_id', 'in', sessions.map((s) => s.id)]]],
      {
        fields: ['session_id', 'employee_id'],
        order: 'id',
      },
    );
    const lastOf = new Map<number, number>();
    for (const o of orders) lastOf.set(id(o.session_id) as number, id(o.employee_id) as number);
    // Someone else than the last order's employee counted the cash at some closings.
    expect(sessions.some((s) => id(s.employee_id) !== lastOf.get(s.id))).toBe(true);
    const want = new Map<number, number>();
    for (const s of sessions)
      want.set(id(s.employee_id) as number, (want.get(id(s.employee_id) as number) ?? 0) + 1);
    const got = new Map(
      rows.filter((x) => (x.closings as number) > 0).map((x) => [x.cashier_id as number, x.closings]),
    );
    expect(got).toEqual(want);
  });

  it('--by cashier,day gives each group its payment methods, each the payments of its orders', async () => {
    const r = await runCli(['summary', ...PERIOD, '--by', 'cashier,day', '--format', 'json'], { env: e });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.length).toBeGreaterThan(6);
    if (odooVersion === 16) {
      // 16's payments know no cashier: more groups than a request each is worth, left empty.
      expect(r.stderr).toMatch(/cannot group payments by their order's cashier/);
      return;
    }
    const c = rpcClient(other.url);
    const orders = await c.ok<Rec[]>(
      'pos.order',
      'search_read',
      [[['state', 'in', ['paid', 'done', 'invoiced']]]],
      { fields: ['employee_id', 'date_order'] },
    );
    const payments = await c.ok<Rec[]>(
      'pos.payment',
      'search_read',
      [[['pos_order_id', 'in', orders.map((o) => o.id)]]],
      { fields: ['pos_order_id', 'amount', 'payment_method_id'] },
    );
    const orderOf = new Map(orders.map((o) => [o.id, o]));
    const want = new Map<string, number>();
    for (const p of payments) {
      if ((p.payment_method_id as [number, string])[1] !== 'Card') continue;
      const o = orderOf.get(id(p.pos_order_id) as number) as Rec;
      const key = `${id(o.employee_id)} ${String(o.date_order).slice(0, 10)}`;
      want.set(key, (want.get(key) ?? 0) + (p.amount as number));
    }
    for (const x of rows) {
      const card = want.get(`${x.cashier_id} ${x.day}`) ?? 0;
      expect(
        Math.abs(((x['method:Card'] as number | null) ?? 0) - card),
        `${x.cashier} ${x.day}`,
      ).toBeLessThan(0.011);
    }
    expect([...want.values()].some((v) => v > 0)).toBe(true);
  });
});
