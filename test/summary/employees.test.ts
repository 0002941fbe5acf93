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
  it('summary --by cashier --loss names only employees, the refunds by whoever rang them', async () => {
    const other = await startTestSandbox({ seed: 5, orders: 500, days: 10, odooVersion, ...SHOP_MODULES });
    try {
      const e = await loginEnv(other.url);
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
    } finally {
      await other.close();
    }
  });
});
