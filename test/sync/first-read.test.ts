// A first sync (no watermark: an empty schema, --full) reads the whole table in id order up
// to the newest write_date there was when it started (read/first-read.ts, shared with the
// tap), then goes on incrementally from that second. The requests are watched through a
// proxy in front of the sandbox: their order, their domains, and a write made while the
// first read goes on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { Rpc } from '../helpers/rpc.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let pg: TestPostgres;
let sandbox: SandboxHandle;
let proxy: RpcProxy;
let rpc: Rpc;
let env: Record<string, string>;

const sync = (args: string[]) =>
  runCli(['sync', '--to', pg.url({ password: '' }), '--rate', '0', '--page-size', '500', ...args], { env });

const one = async <T>(sql: string, values?: unknown[]): Promise<T> =>
  Object.values((await pg.query(sql, values))[0] ?? {})[0] as T;

interface Read {
  model: string;
  domain: unknown[];
  order: string | undefined;
}

/** The search_read requests the proxy saw for pages (not names by id): model, domain, order. */
function reads(): Read[] {
  return (proxy.seen.get('search_read') ?? [])
    .map((b) => {
      const a = (JSON.parse(b) as { params: { args: unknown[] } }).params.args;
      const kw = (a[6] ?? {}) as { order?: string; domain?: unknown[] };
      return { model: a[3] as string, domain: (a[5] as unknown[])[0] as unknown[], order: kw.order };
    })
    .filter((q) => !q.domain.some((c) => Array.isArray(c) && c[0] === 'id' && c[1] === 'in'));
}

beforeAll(async () => {
  [pg, sandbox] = await Promise.all([startPostgres(), startTestSandbox({ seed: 13, orders: 3000 })]);
  rpc = new Rpc(sandbox.url);
  await rpc.auth();
  proxy = await startRpcProxy(sandbox.url);
  env = { ...(await loginEnv(proxy.url)), PGPASSWORD: pg.password };
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
  await pg?.stop();
});

async function equalsOdoo(schema: string): Promise<void> {
  const odoo = await rpc.searchRead<{ id: number; amount_total: number }>('pos.order', [], {
    fields: ['amount_total'],
    order: 'id',
  });
  const rows = await pg.query<{ id: number }>(`select id from ${schema}.sales order by id`);
  expect(rows.map((r) => r.id)).toEqual(odoo.map((o) => o.id));
  const total = Math.round(odoo.reduce((a, o) => a + o.amount_total, 0) * 100) / 100;
  expect(Number(await one(`select sum(amount_total) from ${schema}.sales`))).toBeCloseTo(total, 2);
}

describe('posdata sync, the first read', () => {
  it('reads a resource without a watermark in id order, equal to Odoo; the next run goes on by write_date', async () => {
    proxy.reset();
    const r = await sync(['sales', '--schema', 'first']);
    expect(r.code, r.stderr).toBe(0);
    const orders = reads().filter((q) => q.model === 'pos.order');
    // One request for the newest write_date, then pages by id (3000 sales, 500 a page).
    expect(orders[0]?.order).toBe('write_date desc, id desc');
    const pages = orders.slice(1);
    expect(pages.length).toBeGreaterThanOrEqual(6);
    for (const p of pages) expect(p.order).toBe('id');
    await equalsOdoo('first');
    const [newest] = await rpc.searchRead('pos.order', [], {
      fields: ['write_date'],
      order: 'write_date desc, id desc',
      limit: 1,
    });
    const state = await pg.query<{ wm: string; fu: string | null }>(
      `select to_char(watermark at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as wm, first_read_until as fu
         from first.posdata_sync_state where resource = 'sales'`,
    );
    expect(state[0]).toEqual({ wm: newest?.write_date, fu: null });

    // A state table of an older posdata (without the first read's columns, nor the companies
    // in its key) takes them on, and its rows go on as the run's own: no read from scratch.
    await pg.query(
      'alter table first.posdata_sync_state drop column first_read_until, drop column first_read_after_id, drop column companies, add primary key (resource)',
    );
    proxy.reset();
    const again = await sync(['sales', '--schema', 'first']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^sales: 0 upserted/m);
    const next = reads().filter((q) => q.model === 'pos.order');
    expect(next.length).toBeGreaterThan(0);
    for (const p of next) expect(p.order).toBe('write_date, id');
    expect(
      Number(
        await one(
          "select count(*) from information_schema.columns where table_schema = 'first' and table_name = 'posdata_sync_state' and column_name like 'first_read_%'",
        ),
      ),
    ).toBe(2);
    expect(await one("select companies from first.posdata_sync_state where resource = 'sales'")).toBe('1');
  });

  it('a record written while the first read goes on is in the table after the next run', async () => {
    const all = await rpc.searchRead<{ id: number; pos_reference: string }>('pos.order', [], {
      fields: ['pos_reference'],
      order: 'id',
    });
    const early = all[0]?.id as number;
    const late = all[all.length - 1]?.id as number;
    proxy.reset();
    let after: number | undefined;
    proxy.before.set('search_read', async (body) => {
      const page = /"pos\.order","search_read",\[\[.*\["id",">",(\d+)\]/.exec(body);
      if (after !== undefined || !page || !/"order":"id"/.test(body)) return;
      // When a page after the first is asked for: one sale already read, one not yet.
      after = Number(page[1]);
      await rpc.kw('pos.order', 'write', [[early, late], { pos_reference: 'Order 99999-999-9999' }]);
    });
    const r = await sync(['sales', '--schema', 'during']);
    proxy.before.clear();
    expect(r.code, r.stderr).toBe(0);
    expect(after).toBeGreaterThanOrEqual(early);
    expect(after).toBeLessThan(late);
    // The first read goes up to the newest write_date there was when it started: the early
    // sale as it was read, the late one (written after that second) left to the next run.
    expect(await one('select pos_reference from during.sales where id = $1', [early])).toBe(
      all[0]?.pos_reference,
    );
    expect(Number(await one('select count(*) from during.sales where id = $1', [late]))).toBe(0);
    const next = await sync(['sales', '--schema', 'during']);
    expect(next.code, next.stderr).toBe(0);
    for (const id of [early, late])
      expect(await one('select pos_reference from during.sales where id = $1', [id])).toBe(
        'Order 99999-999-9999',
      );
    await equalsOdoo('during');
  });

  it('a first read cut short goes on after the last id it committed, to the same second', async () => {
    const all = await rpc.searchRead<{ id: number }>('pos.order', [], { fields: ['id'], order: 'id' });
    const bad = all[Math.floor(all.length / 2)]?.id as number;
    await pg.query('drop schema if exists cut cascade');
    await pg.query('create schema cut');
    await pg.query('create table cut.sales (id integer primary key)');
    await pg.query(`create function cut.refuse() returns trigger language plpgsql as $$
      begin if new.id = ${bad} then raise exception 'refused sale %', new.id; end if; return new; end $$`);
    await pg.query(
      'create trigger refuse before insert or update on cut.sales for each row execute function cut.refuse()',
    );
    const r = await sync(['sales', '--schema', 'cut', '--take-over', '--quiet']);
    expect(r.code, r.stderr).not.toBe(0);
    expect(r.stderr).toMatch(/refused sale/);
    const [state] = await pg.query<{ wm: string | null; fu: string; fa: number }>(
      `select watermark as wm, to_char(first_read_until at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as fu,
              first_read_after_id as fa from cut.posdata_sync_state where resource = 'sales'`,
    );
    // No watermark yet; the first read's state covers exactly the rows committed.
    expect(state?.wm).toBeNull();
    const fa = state?.fa as number;
    expect(fa).toBeGreaterThan(0);
    expect(fa).toBeLessThan(bad);
    expect(Number(await one('select count(*) from cut.sales'))).toBe(all.filter((o) => o.id <= fa).length);
    expect(Number(await one('select max(id) from cut.sales'))).toBe(fa);

    await pg.query('drop trigger refuse on cut.sales');
    proxy.reset();
    const again = await sync(['sales', '--schema', 'cut']);
    expect(again.code, again.stderr).toBe(0);
    const orders = reads().filter((q) => q.model === 'pos.order');
    // No new `until` asked for: the first page goes on after the last id, to the same second.
    expect(orders[0]?.order).toBe('id');
    expect(orders[0]?.domain).toEqual(
      expect.arrayContaining([
        ['id', '>', fa],
        ['write_date', '<', expect.any(String)],
      ]),
    );
    expect(Number(await one('select count(*) - count(distinct id) from cut.sales'))).toBe(0);
    await equalsOdoo('cut');
    expect(
      await one("select first_read_until from cut.posdata_sync_state where resource = 'sales'"),
    ).toBeNull();
  });
  // Last: its write to a sale would make the newest write_date the others' tests start from.
  it('copies a first read straight into an empty table, and upserts where the table holds rows (--full)', async () => {
    const first = await sync(['sales', '--schema', 'straight', '--debug']);
    expect(first.code, first.stderr).toBe(0);
    // Every page of the first read into the empty table: COPY into the table itself, no upsert.
    const copies = first.stderr.split('\n').filter((l) => /\[sql\] COPY /.test(l));
    expect(copies.length).toBeGreaterThanOrEqual(6);
    for (const c of copies) expect(c).toMatch(/COPY "straight"\."sales" \(/);
    expect(first.stderr).not.toMatch(/INSERT INTO "straight"\."sales"/);
    await equalsOdoo('straight');
    // --full over the rows already there: the pages meet them, so each goes through the
    // staging table and the upsert (a straight COPY would fail on their ids).
    await rpc.kw('pos.order', 'write', [
      [
        (await rpc.searchRead<{ id: number }>('pos.order', [], { fields: ['id'], limit: 1, order: 'id' }))[0]
          ?.id,
      ],
      { note: 'again' },
    ]);
    const full = await sync(['sales', '--schema', 'straight', '--full', '--debug']);
    expect(full.code, full.stderr).toBe(0);
    expect(full.stderr).toMatch(/COPY "posdata_stage_sales"|COPY posdata_stage_sales/);
    expect(full.stderr).not.toMatch(/COPY "straight"\."sales" \(/);
    expect(full.stderr).toMatch(/INSERT INTO "straight"\."sales"/);
    await equalsOdoo('straight');
  });
});
