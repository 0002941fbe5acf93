// An invoiced order's invoice number on the sales export: `--fields …,invoice` gives
// account.move's own name (INV/2026/00005), where Odoo's label of account_move adds the
// order's name (`INV/2026/00005 (Shop/0008)` on a real 17); the default columns stay as they
// were. On Odoo 17 (state invoiced) and 19 (no such state: done, with its invoice).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TIME, loginEnv, runCli } from '../helpers/cli.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type Rec = Record<string, unknown> & { id: number };

describe.each([17, 19] as const)('sales --fields invoice on Odoo %i', (odooVersion) => {
  let sb: SandboxHandle;
  let env: Record<string, string>;
  beforeAll(async () => {
    sb = await startTestSandbox({ seed: 7, orders: 400, odooVersion });
    env = await loginEnv(sb.url);
  });
  afterAll(async () => sb?.close());

  it("gives each invoiced order its invoice's own number, null for the others", async () => {
    const c = rpcClient(sb.url);
    const orders = await c.ok<Rec[]>('pos.order', 'search_read', [[], ['account_move']]);
    const invoiced = orders.filter((o) => Array.isArray(o.account_move));
    expect(invoiced.length, 'the sandbox invoices some orders').toBeGreaterThan(0);
    const moves = new Map(
      (
        await c.ok<Rec[]>('account.move', 'read', [
          invoiced.map((o) => (o.account_move as [number])[0]),
          ['name'],
        ])
      ).map((m) => [m.id, m.name as string]),
    );
    const r = await runCli(['sales', ...ALL_TIME, '--fields', 'id,name,invoice', '--format', 'json'], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Rec[];
    expect(rows).toHaveLength(orders.length);
    for (const row of rows) {
      const o = orders.find((x) => x.id === row.id) as Rec;
      const m = Array.isArray(o.account_move) ? moves.get(o.account_move[0] as number) : undefined;
      expect(row.invoice, `order ${row.name}`).toBe(m ?? null);
      // The label carries the order's name; the number does not.
      if (m) expect((o.account_move as [number, string])[1]).toBe(`${m} (${row.name})`);
    }
    const csv = await runCli(['sales', ...ALL_TIME, '--fields', 'name,invoice', '--format', 'csv'], { env });
    expect(csv.stdout.split('\n')[0]).toBe('name,invoice');
  });

  it('leaves the default columns as they were', async () => {
    const r = await runCli(['sales', ...ALL_TIME, '--limit', '1', '--format', 'csv'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).not.toMatch(/invoice/);
  });
});
