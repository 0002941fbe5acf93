// The sync reads the next page while the one before is COPYed and committed (read/ahead.ts).
// When the database refuses a page halfway through, nothing read ahead of it is committed:
// the watermark covers exactly the rows in the table, the refused page's rows are not there,
// and the rerun, once the database takes them, completes the table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let pg: TestPostgres;
let sandbox: SandboxHandle;
let rpc: Rpc;
let env: Record<string, string>;

const sync = (args: string[]) =>
  runCli(['sync', '--to', pg.url({ password: '' }), '--rate', '0', ...args], { env });

const one = async <T>(sql: string, values?: unknown[]): Promise<T> =>
  Object.values((await pg.query(sql, values))[0] ?? {})[0] as T;

beforeAll(async () => {
  [pg, sandbox] = await Promise.all([startPostgres(), startTestSandbox({ seed: 5, orders: 3000, days: 6 })]);
  rpc = new Rpc(sandbox.url);
  await rpc.auth();
  env = { ...(await loginEnv(sandbox.url)), PGPASSWORD: pg.password };
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await pg?.stop();
});

describe('sync reading ahead', () => {
  it('a page the database refuses halfway: nothing after it committed, the watermark covers the rows', async () => {
    const total = await rpc.count('pos.order', []);
    // The sale halfway through the sync's order: the database refuses the page that holds it.
    const [mid] = await rpc.searchRead<{ id: number }>('pos.order', [], {
      fields: ['id'],
      order: 'write_date, id',
      offset: Math.floor(total / 2),
      limit: 1,
    });
    const bad = mid?.id as number;
    await pg.query('create schema ahead');
    await pg.query('create table ahead.sales (id integer primary key)');
    await pg.query(`create function ahead.refuse() returns trigger language plpgsql as $$
      begin if new.id = ${bad} then raise exception 'refused sale %', new.id; end if; return new; end $$`);
    await pg.query(
      'create trigger refuse before insert or update on ahead.sales for each row execute function ahead.refuse()',
    );
    const r = await sync(['sales', '--schema', 'ahead', '--take-over', '--page-size', '100', '--quiet']);
    expect(r.code, r.stderr).not.toBe(0);
    expect(r.stderr.split('\n').filter(Boolean), r.stderr).toHaveLength(1);
    expect(r.stderr).toMatch(/refused sale/);

    const rows = Number(await one('select count(*) from ahead.sales'));
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(total);
    expect(Number(await one('select count(*) from ahead.sales where id = $1', [bad]))).toBe(0);
    const [state] = await pg.query<{ wm: string; wid: number }>(
      "select to_char(watermark at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as wm, watermark_id as wid from ahead.posdata_sync_state where resource = 'sales'",
    );
    expect(state?.wm).toBeTruthy();
    const { wm, wid } = state as { wm: string; wid: number };
    // Nothing in the table past the watermark: no page read ahead was committed.
    expect(
      Number(
        await one(
          'select count(*) from ahead.sales where (write_date, id) > ($1::timestamptz, $2::integer)',
          [`${wm}+00`, wid],
        ),
      ),
    ).toBe(0);
    // And the watermark claims no row the table lacks: Odoo's records up to it are all there.
    const next = new Date(Date.parse(`${wm.replace(' ', 'T')}Z`) + 1000)
      .toISOString()
      .slice(0, 19)
      .replace('T', ' ');
    const covered = await rpc.count('pos.order', [
      '|',
      ['write_date', '<', wm],
      '&',
      '&',
      ['write_date', '>=', wm],
      ['write_date', '<', next],
      ['id', '<=', wid],
    ]);
    expect(rows).toBe(covered);

    // The database takes the sale again: the rerun goes on from the watermark and completes.
    await pg.query('drop trigger refuse on ahead.sales');
    const again = await sync(['sales', '--schema', 'ahead', '--page-size', '100']);
    expect(again.code, again.stderr).toBe(0);
    expect(Number(await one('select count(*) from ahead.sales'))).toBe(total);
    expect(Number(await one('select count(distinct id) from ahead.sales'))).toBe(total);
  }, 120_000);
});
