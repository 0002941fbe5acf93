// posdata sync from the real Odoo 17 into a real PostgreSQL, as the administrator and as a
// POS user (each into its own schema): per table the ids Odoo has (search with active_test
// off where sync reads archived records too), each once, the amounts summed to the cent as
// Odoo's, the watermark at Odoo's latest write_date; a second run finds nothing to upsert.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loginOdoo, rpcOdoo } from '../helpers/odoo17.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import type { Rpc } from '../helpers/rpc.js';
import type { Obj } from './reference.js';
import { expectTables, TABLES } from './tables.js';

const odoo = inject('odoo');

describe('posdata sync into PostgreSQL', () => {
  let pg: TestPostgres;
  const users = ['admin', 'cashier'] as const;
  const envs: Record<string, Record<string, string>> = {};
  const rpcs: Record<string, Rpc> = {};

  beforeAll(async () => {
    const logins = users.map(async (who) => {
      [envs[who], rpcs[who]] = await Promise.all([loginOdoo(odoo, who), rpcOdoo(odoo, who)]);
    });
    [pg] = await Promise.all([startPostgres(), ...logins]);
  });
  afterAll(async () => {
    await pg?.stop();
  });

  const sync = (who: string, args: string[] = []) =>
    runCli(['sync', '--to', pg.url({ password: '' }), '--schema', who, '--rate', '0', ...args], {
      env: { ...envs[who], PGPASSWORD: pg.password },
    });

  it('as the administrator and as a POS user: every table holds what Odoo has, and a second run nothing new', async () => {
    const first = await Promise.all(users.map((who) => sync(who)));
    for (const [i, who] of users.entries()) {
      const r = first[i] as Awaited<ReturnType<typeof sync>>;
      expect(r.code, `${who}: ${r.stderr}`).toBe(0);
      await expectTables(pg, who, rpcs[who] as Rpc, r.stderr);
    }
    const again = await Promise.all(users.map((who) => sync(who)));
    for (const [i, who] of users.entries()) {
      const r = again[i] as Awaited<ReturnType<typeof sync>>;
      expect(r.code, `${who}: ${r.stderr}`).toBe(0);
      for (const [table] of TABLES)
        expect(r.stderr, `${who}: ${table}`).toMatch(new RegExp(`^${table}: 0 upserted, 0 pruned`, 'm'));
    }
  });

  it("a register's rows carry its own name, not Odoo 17's label with the open session's user", async () => {
    // Odoo 16/17 label a register "Shop (Cashier)" while a session is open and "Shop" after:
    // a label stored per row would split one register in two in a GROUP BY, depending on
    // when each row was read. Every table names it by pos.config's name.
    const rpc = rpcs.admin as Rpc;
    const configs = await rpc.searchRead('pos.config', [], {
      fields: ['name'],
      context: { active_test: false },
    });
    const own = new Map(configs.map((c) => [c.id as number, c.name as string]));
    for (const table of ['sessions', 'sales']) {
      const rows = await pg.query<{ config_id: number; config_name: string }>(
        `select distinct config_id, config_name from admin.${table} order by 1`,
      );
      expect(rows.length, table).toBeGreaterThan(0);
      for (const r of rows)
        expect(r.config_name, `${table}: register ${r.config_id}`).toBe(own.get(r.config_id));
    }
  });

  it('sales rows carry the values search_read gives (relations as x_id + x_name, times as instants)', async () => {
    const rpc = rpcs.admin as Rpc;
    const recs = await rpc.searchRead('pos.order', [], {
      fields: ['name', 'date_order', 'state', 'amount_total', 'config_id', 'session_id', 'payment_ids'],
      order: 'id',
    });
    const rows = await pg.query<Obj>(
      `select id, name, extract(epoch from date_order)::bigint as t, state, amount_total::text as amount_total,
              config_id, config_name, session_id, session_name, payment_ids
         from admin.sales order by id`,
    );
    expect(rows.length).toBe(recs.length);
    for (const [i, r] of recs.entries()) {
      const row = rows[i] as Obj;
      expect(row, `sales ${r.id}`).toEqual({
        id: r.id,
        name: r.name,
        t: String(Date.parse(`${(r.date_order as string).replace(' ', 'T')}Z`) / 1000),
        state: r.state,
        amount_total: expect.any(String),
        config_id: (r.config_id as [number, string])[0],
        config_name: expect.any(String),
        session_id: (r.session_id as [number, string])[0],
        session_name: (r.session_id as [number, string])[1],
        payment_ids: r.payment_ids,
      });
      expect(Math.round(Number(row.amount_total) * 100), `sales ${r.id} amount_total`).toBe(
        Math.round((r.amount_total as number) * 100),
      );
    }
  });
});
