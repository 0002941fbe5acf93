// Employees as cashiers on the real Odoo 17's posshop (pos_hr): admin is every order's user and
// opened every session, the four employees at the register have no user. summary --by cashier
// and its --loss (the report's leaks) name the employees; each closing goes to the employee who
// rang its session's last order. This file starts its own posshop server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loginOdoo, type RealOdooHandle, rpcOdoo, startRealOdoo } from '../helpers/odoo17.js';
import type { Rpc } from '../helpers/rpc.js';

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
});
