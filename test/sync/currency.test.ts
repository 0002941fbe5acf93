// posdata sync keeps amounts at the decimals of the company's currency: a sandbox in KWD
// (3 decimals) gives tables whose amounts are Odoo's at 3 decimals, not cut to cents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roundAt } from '../../src/records/normalize.js';
import { loginEnv, runCli } from '../helpers/cli.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let pg: TestPostgres;
let sandbox: SandboxHandle;
let rpc: Rpc;
let env: Record<string, string>;

beforeAll(async () => {
  [pg, sandbox] = await Promise.all([
    startPostgres(),
    startTestSandbox({
      seed: 4,
      orders: 300,
      days: 3,
      currency: 'KWD',
      now: new Date('2026-11-20T12:00:00Z'),
    }),
  ]);
  rpc = new Rpc(sandbox.url);
  await rpc.auth();
  env = { ...(await loginEnv(sandbox.url)), PGPASSWORD: pg.password };
});
afterAll(async () => {
  await sandbox?.close();
  await pg?.stop();
});

describe('posdata sync in a 3-decimal currency', () => {
  it("the tables' amounts are Odoo's at 3 decimals", async () => {
    const r = await runCli(['sync', '--to', pg.url({ password: '' }), '--rate', '0', 'sales', 'payments'], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    const odoo = await rpc.searchRead<{ id: number; amount_total: number }>('pos.order', [], {
      fields: ['amount_total'],
    });
    const rows = await pg.query<{ id: number; amount_total: string }>(
      'select id, amount_total::text from posdata.sales order by id',
    );
    expect(rows).toHaveLength(odoo.length);
    const byId = new Map(odoo.map((o) => [o.id, o.amount_total]));
    for (const row of rows) expect(Number(row.amount_total)).toBe(roundAt(byId.get(row.id) as number, 3));
    expect(
      rows.filter((row) => /\.\d{3}$/.test(row.amount_total) && !row.amount_total.endsWith('0')).length,
    ).toBeGreaterThan(10);
    // Payments too: amounts whose third decimal is not 0.
    const third = await pg.query<{ n: string }>(
      "select count(*)::text as n from posdata.payments where amount::text ~ '\\.\\d\\d[1-9]$'",
    );
    expect(Number(third[0]?.n)).toBeGreaterThan(10);
  });
});
