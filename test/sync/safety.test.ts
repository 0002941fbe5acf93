// posdata sync leaves alone what is not its own, and says truly what it left behind: tables of
// the schema that its state table does not list are refused before anything changes, and an
// Odoo that breaks halfway leaves the committed pages (and says so).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type Hostile, startHostile } from '../helpers/hostile-proxy.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let pg: TestPostgres;
let sandbox: SandboxHandle;
let env: Record<string, string>;

const sync = (args: string[], e = env) =>
  runCli(['sync', '--to', pg.url({ password: '' }), '--rate', '0', ...args], { env: e });

/** A table's columns and rows, to see that nothing changed. */
async function snapshot(table: string): Promise<unknown> {
  const [schema, name] = table.split('.');
  return {
    columns: await pg.query(
      'select column_name, data_type from information_schema.columns where table_schema = $1 and table_name = $2 order by ordinal_position',
      [schema, name],
    ),
    rows: await pg.query(`select * from ${table} order by id`),
  };
}

const oneLine = (stderr: string) => expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);

beforeAll(async () => {
  [pg, sandbox] = await Promise.all([startPostgres(), startTestSandbox({ seed: 21, orders: 600 })]);
  env = { ...(await loginEnv(sandbox.url)), PGPASSWORD: pg.password };
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await pg?.stop();
});

describe('sync and tables it did not create', () => {
  for (const schema of ['shop', 'public']) {
    it(`--schema ${schema} with the user's own ${schema}.sales: exit 2, one line, nothing changed`, async () => {
      await pg.query(`create schema if not exists ${schema}`);
      await pg.query(`create table ${schema}.sales (id integer primary key, note text)`);
      await pg.query(
        `insert into ${schema}.sales values (1, 'mine'), (2, 'mine too'), (999999, 'not in Odoo')`,
      );
      const before = await snapshot(`${schema}.sales`);
      try {
        for (const args of [[], ['--prune'], ['sales', '--full']]) {
          const r = await sync(['--schema', schema, ...args]);
          expect(r.code, r.stderr).toBe(2);
          oneLine(r.stderr);
          expect(r.stderr).toMatch(
            new RegExp(
              `^posdata: table ${schema}\\.sales exists and posdata did not create it .*--take-over`,
            ),
          );
          expect(await snapshot(`${schema}.sales`)).toEqual(before);
          // Not even the state table or another resource's table was made.
          expect(
            await pg.query('select table_name from information_schema.tables where table_schema = $1', [
              schema,
            ]),
          ).toEqual([{ table_name: 'sales' }]);
        }
      } finally {
        await pg.query(`drop table ${schema}.sales`);
        if (schema !== 'public') await pg.query(`drop schema ${schema} cascade`);
      }
    });
  }

  it('names every such table at once', async () => {
    await pg.query('create schema wh');
    await pg.query('create table wh.sales (id integer primary key)');
    await pg.query('create view wh.products as select 1 as id');
    const r = await sync(['--schema', 'wh']);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(
      /^posdata: tables wh\.sales, wh\.products exist and posdata did not create them/,
    );
    await pg.query('drop schema wh cascade');
  });

  it('--take-over syncs into it: columns added, rows upserted by id, its own kept without --prune', async () => {
    await pg.query('create schema adopt');
    await pg.query('create table adopt.sales (id integer primary key, note text)');
    await pg.query("insert into adopt.sales values (1, 'mine'), (999999, 'not in Odoo')");
    const r = await sync(['--schema', 'adopt', '--take-over', 'sales', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const orders = await pg.query<{ n: string }>(
      'select count(*) as n from adopt.sales where amount_total is not null',
    );
    expect(Number(orders[0]?.n)).toBe(600);
    expect(await pg.query('select id, note from adopt.sales where id in (1, 999999) order by id')).toEqual([
      { id: 1, note: 'mine' },
      { id: 999999, note: 'not in Odoo' },
    ]);
    // Listed as posdata's from now on: the next run needs no flag.
    const again = await sync(['--schema', 'adopt', 'sales', '--quiet']);
    expect(again.code, again.stderr).toBe(0);
    await pg.query('drop schema adopt cascade');
  });

  it("the tables of posdata's own schema sync as before", async () => {
    expect((await sync(['--schema', 'mine', 'sales', 'lines', '--quiet'])).code).toBe(0);
    const r = await sync(['--schema', 'mine', 'sales', 'lines', 'payments', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('an Odoo that breaks halfway through a sync', () => {
  let hostile: Hostile;
  let hEnv: Record<string, string>;
  beforeAll(async () => {
    hostile = await startHostile(sandbox.url);
    hEnv = { ...(await loginEnv(hostile.url)), PGPASSWORD: pg.password };
  });
  afterAll(async () => {
    await hostile?.close();
  });

  it('exit 6, one line that says the pages before were committed (not that nothing was written)', async () => {
    hostile.mode = 'ignore-domain';
    hostile.passFirst = 2;
    const r = await sync(['sales', '--schema', 'halfway', '--page-size', '100'], hEnv);
    expect(r.code).toBe(6);
    oneLine(r.stderr);
    const rows = Number((await pg.query<{ n: string }>('select count(*) as n from halfway.sales'))[0]?.n);
    expect(rows).toBeGreaterThan(0);
    expect(r.stderr).not.toMatch(/nothing was written/);
    expect(r.stderr).toMatch(
      new RegExp(`^posdata: .*reply.*committed with their watermark \\(sales ${rows}\\).*next run goes on`),
    );
  });
});

describe('an amount a double cannot carry to the cent', () => {
  it('sync refuses it (exit 6, one line naming the field and the record), as the exports do', async () => {
    const rpc = rpcClient(sandbox.url).as(2, 'admin');
    const [o] = await rpc.ok<{ id: number }[]>('pos.order', 'search_read', [[]], {
      fields: ['id'],
      limit: 1,
    });
    const id = o?.id as number;
    await rpc.ok('pos.order', 'write', [[id], { amount_total: 1e20 }]);
    try {
      const r = await sync(['sales', '--schema', 'money']);
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(
        new RegExp(
          `^posdata: the server sent 100000000000000000000 for amount_total of pos\\.order ${id}: an amount of 2 decimals is carried exactly only below 70,368,744,177,664 \\(2\\^46\\); `,
        ),
      );
      oneLine(r.stderr);
      expect(await pg.query('select id from money.sales where id = $1', [id])).toEqual([]);
    } finally {
      await rpc.ok('pos.order', 'write', [[id], { amount_total: 1 }]);
    }
  });
});
