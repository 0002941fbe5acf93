// Odoo 17 has no company record rule on pos.order.line (point_of_sale_security.xml rules
// pos.order, pos.session, pos.config, pos.payment and pos.payment.method, not the lines), so
// a read of the lines with allowed_company_ids [1], or by a user allowed in company 1 only,
// answers every company's lines. posdata sync and the tap read the lines whole: the cashier
// of posmc's EUR company synced the US shop's 261 lines too (with no currency, beside 219
// sales of its own), and `sync --company 1` put company 2's lines into company 1's schema.
// The lines of a run are its companies' lines, as its sales are. This file starts its own
// posmc server (read-only).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli } from '../helpers/cli.js';
import { loginOdoo, type OdooUser, type RealOdooHandle, rpcOdoo, startRealOdoo } from '../helpers/odoo17.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import type { Rpc } from '../helpers/rpc.js';
import { tapConfig, writeTapConfig } from '../tap/config.js';
import { checkOutput } from '../tap/singer.js';

let odoo: RealOdooHandle;
let pg: TestPostgres;
let admin: Rpc;
const envs = {} as Record<OdooUser, Record<string, string>>;

beforeAll(async () => {
  odoo = await startRealOdoo('posmc');
  [pg, admin, envs.admin, envs.cashier] = await Promise.all([
    startPostgres(),
    rpcOdoo(odoo, 'admin'),
    loginOdoo(odoo, 'admin'),
    loginOdoo(odoo, 'cashier'),
  ]);
}, 600_000);
afterAll(async () => {
  await pg?.stop();
  await odoo?.stop();
}, 120_000);

/** The ids of company `c`'s lines, as the administrator reads them with that company alone. */
async function linesOf(c: number): Promise<number[]> {
  const ids = await admin.kw<number[]>('pos.order.line', 'search', [[['company_id', '=', c]]], {
    context: { allowed_company_ids: [1, 2] },
  });
  return ids.sort((a, b) => a - b);
}

const sync = (who: OdooUser, schema: string, args: string[] = []) =>
  runCli(
    ['sync', 'sales', 'lines', '--to', pg.url({ password: '' }), '--schema', schema, '--rate', '0', ...args],
    {
      env: { ...envs[who], PGPASSWORD: pg.password },
    },
  );

describe("a run's lines are its companies' lines", () => {
  it("Odoo itself answers company 2's lines to a user of company 1 (no record rule on the lines)", async () => {
    const cashier = await rpcOdoo(odoo, 'cashier');
    const c2 = await linesOf(2);
    expect(c2.length).toBeGreaterThan(0);
    const seen = await cashier.kw<number>('pos.order.line', 'search_count', [[['company_id', '=', 2]]]);
    expect(seen).toBe(c2.length);
  });

  it('sync as a user of company 1: its lines only, each in EUR, each of a sale it synced', async () => {
    const r = await sync('cashier', 'cashier');
    expect(r.code, r.stderr).toBe(0);
    const rows = await pg.query<{ id: number; company_id: number; currency: string | null }>(
      'select id, company_id, currency from cashier.lines order by id',
    );
    expect(rows.map((x) => x.id)).toEqual(await linesOf(1));
    expect(new Set(rows.map((x) => `${x.company_id} ${x.currency}`))).toEqual(new Set(['1 EUR']));
    const orphans = await pg.query(
      'select l.id from cashier.lines l left join cashier.sales s on s.id = l.order_id where s.id is null',
    );
    expect(orphans).toEqual([]);
    const again = await sync('cashier', 'cashier', ['--prune']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^lines: 0 upserted, 0 pruned/m);
  });

  it("sync --company 2 as the administrator: company 2's lines only, in USD", async () => {
    const r = await sync('admin', 'us', ['--company', '2']);
    expect(r.code, r.stderr).toBe(0);
    const rows = await pg.query<{ id: number; company_id: number; currency: string | null }>(
      'select id, company_id, currency from us.lines order by id',
    );
    expect(rows.map((x) => x.id)).toEqual(await linesOf(2));
    expect(new Set(rows.map((x) => `${x.company_id} ${x.currency}`))).toEqual(new Set(['2 USD']));
  });

  it("the tap as a user of company 1: the lines stream holds company 1's lines, in EUR", async () => {
    const dir = freshConfigDir();
    const { login, password } = odoo.cashier;
    const config = writeTapConfig(
      dir,
      'tap.json',
      tapConfig({ url: odoo.url, db: odoo.db, user: login, password }, { streams: ['lines'] }),
    );
    const env = { POSDATA_CONFIG_DIR: dir };
    const r = await runCli(['tap', '--config', config], { env });
    expect(r.code, r.stderr).toBe(0);
    const c = checkOutput(r.stdout);
    const lines = c.records.get('lines') ?? [];
    expect(lines.map((x) => x.id).sort((a, b) => a - b)).toEqual(await linesOf(1));
    expect(new Set(lines.map((x) => `${x.company_id} ${x.currency}`))).toEqual(new Set(['1 EUR']));
    // From its last STATE, nothing again.
    const state = join(dir, 'state.json');
    writeFileSync(state, JSON.stringify(c.last));
    const again = await runCli(['tap', '--config', config, '--state', state], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(checkOutput(again.stdout).records.get('lines') ?? []).toEqual([]);
  });
});
