// posdata sync over a real shop's modules (the sandbox as posshop: pos_hr, pos_restaurant,
// pos_loyalty, pos_discount) into a real PostgreSQL: sales carry the employee at the
// register, the table, the guests, the tip and the invoice's own number, with their company
// and currency; lines the reward and the card it used, masked. A schema of the previous
// posdata (sales without `invoice`) gains the column and has it filled at the next run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, SHOP_MODULES, startTestSandbox } from '../helpers/sandbox.js';

type Obj = Record<string, unknown>;
let pg: TestPostgres;
let sb: SandboxHandle;
let rpc: Rpc;
let env: Record<string, string>;

const sync = (args: string[] = []) =>
  runCli(['sync', '--to', pg.url({ password: '' }), '--rate', '0', ...args], { env });
const m2oId = (v: unknown) => (Array.isArray(v) ? (v[0] as number) : null);
const num = (v: unknown) => (v === null ? null : Number(v));

beforeAll(async () => {
  [pg, sb] = await Promise.all([
    startPostgres(),
    startTestSandbox({ seed: 29, orders: 400, days: 8, ...SHOP_MODULES }),
  ]);
  rpc = new Rpc(sb.url);
  await rpc.auth();
  env = { ...(await loginEnv(sb.url)), PGPASSWORD: pg.password };
}, 120_000);

afterAll(async () => {
  await sb?.close();
  await pg?.stop();
});

/** Each invoiced order's invoice number by order id, as Odoo has it (account.move's name). */
async function invoiceNumbers(): Promise<Map<number, string>> {
  const orders = await rpc.searchRead<Obj & { id: number }>('pos.order', [['account_move', '!=', false]], {
    fields: ['account_move'],
  });
  const moves = await rpc.kw<(Obj & { id: number })[]>('account.move', 'read', [
    orders.map((o) => m2oId(o.account_move)),
    ['name'],
  ]);
  const name = new Map(moves.map((m) => [m.id, String(m.name)]));
  return new Map(orders.map((o) => [o.id, name.get(m2oId(o.account_move) as number) as string]));
}

describe('posdata sync of a real shop', () => {
  it("sales carry employee, table, guests, tip and the invoice's number with company and currency", async () => {
    const r = await sync(['sales', 'lines']);
    expect(r.code, r.stderr).toBe(0);
    const odoo = await rpc.searchRead<Obj & { id: number }>('pos.order', [], {
      fields: ['employee_id', 'table_id', 'customer_count', 'tip_amount', 'company_id'],
    });
    const invoices = await invoiceNumbers();
    expect(invoices.size, 'the sandbox invoices some orders').toBeGreaterThan(0);
    const rows = await pg.query<Obj>(
      'select id, employee_id, employee_name, table_id, customer_count, tip_amount, invoice, company_id, currency from posdata.sales',
    );
    expect(rows.length).toBe(odoo.length);
    const byId = new Map(rows.map((x) => [Number(x.id), x]));
    for (const o of odoo) {
      const row = byId.get(o.id) as Obj;
      expect(row.employee_id, `order ${o.id}`).toBe(m2oId(o.employee_id));
      expect(row.table_id).toBe(m2oId(o.table_id));
      expect(row.customer_count).toBe(o.customer_count);
      expect(num(row.tip_amount)).toBe(o.tip_amount);
      expect(row.invoice, `order ${o.id}`).toBe(invoices.get(o.id) ?? null);
      expect(row.company_id).toBe(m2oId(o.company_id));
      expect(row.currency).toBe('EUR');
    }
    expect(rows.some((x) => num(x.tip_amount) !== 0 && x.table_id !== null)).toBe(true);
    expect(rows.some((x) => x.employee_name !== null)).toBe(true);
    const lines = await pg.query<Obj>(
      'select reward_name, coupon_name, currency from posdata.lines where coupon_id is not null',
    );
    expect(lines.length).toBeGreaterThan(3);
    const codes = (await rpc.searchRead<Obj>('loyalty.card', [], { fields: ['code'] })).map((c) => c.code);
    for (const l of lines) {
      expect(String(l.reward_name)).toMatch(/^(Gift Cards|Shop Points) - /);
      expect(String(l.coupon_name)).toMatch(/^(Gift Cards|Shop Points): \*+\d{4}$/);
      expect(l.currency).toBe('EUR');
    }
    const all = JSON.stringify(await pg.query('select * from posdata.lines'));
    for (const code of codes) expect(all).not.toContain(code);
  });

  it('a sales table of the previous posdata gains invoice, filled at the next run', async () => {
    // The previous version's schema: no column, and its state row never listed the field.
    await pg.query('alter table posdata.sales drop column invoice');
    await pg.query(
      "update posdata.posdata_sync_state set fields = array_remove(fields, 'invoice') where resource = 'sales'",
    );
    const r = await sync(['sales']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('sales: added column invoice; reading every record again to fill them');
    const invoices = await invoiceNumbers();
    const rows = await pg.query<{ id: number; invoice: string | null }>(
      'select id, invoice from posdata.sales where invoice is not null',
    );
    expect(new Map(rows.map((x) => [Number(x.id), x.invoice]))).toEqual(invoices);
    // And the next run is incremental again (the watermark is set).
    const again = await sync(['sales']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^sales: 0 upserted/m);
  });
});
