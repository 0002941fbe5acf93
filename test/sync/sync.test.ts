// posdata sync against a real PostgreSQL (a throwaway cluster) and the sandbox: the first
// sync, incremental runs after creates and writes, a late offline order, pruning and a
// schema change. The tables are compared with what the sandbox answers over JSON-RPC.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { SETUPS, stage } from '../helpers/protocols.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { hasScript, onTerminal } from '../helpers/terminal.js';

let pg: TestPostgres;
let sandbox: SandboxHandle;
let rpc: Rpc;
let env: Record<string, string>;

const sync = (args: string[] = []) =>
  runCli(['sync', '--to', pg.url({ password: '' }), '--rate', '0', ...args], { env });

const one = async <T>(sql: string, values?: unknown[]): Promise<T> =>
  Object.values((await pg.query(sql, values))[0] ?? {})[0] as T;

beforeAll(async () => {
  [pg, sandbox] = await Promise.all([startPostgres(), startTestSandbox({ seed: 11, orders: 3000 })]);
  rpc = new Rpc(sandbox.url);
  await rpc.auth();
  env = { ...(await loginEnv(sandbox.url)), PGPASSWORD: pg.password };
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await pg?.stop();
});

describe('posdata sync', () => {
  it('creates one typed table per resource and fills it with what Odoo has', async () => {
    const r = await sync();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    // Nothing on stderr but the summary lines (no driver warning, no notice).
    for (const line of r.stderr.trim().split('\n'))
      expect(line).toMatch(
        /^[a-z_]+: [\d,]+ upserted, [\d,]+ pruned, watermark (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC|none)$/,
      );
    const orders = await rpc.count('pos.order', []);
    expect(r.stderr).toContain(`sales: ${orders.toLocaleString('en-US')} upserted, 0 pruned, watermark 20`);
    for (const [table, model] of [
      ['configs', 'pos.config'],
      ['payment_methods', 'pos.payment.method'],
      ['sessions', 'pos.session'],
      ['sales', 'pos.order'],
      ['lines', 'pos.order.line'],
      ['payments', 'pos.payment'],
      ['products', 'product.template'],
    ] as const) {
      const want = await rpc.kw<number>(model, 'search_count', [[]], { context: { active_test: false } });
      expect(Number(await one(`select count(*) from posdata.${table}`)), table).toBe(want);
      expect(r.stderr).toMatch(new RegExp(`^${table}: [\\d,]+ upserted, 0 pruned, watermark`, 'm'));
    }
    const types = Object.fromEntries(
      (
        await pg.query<{ column_name: string; data_type: string }>(
          "select column_name, data_type from information_schema.columns where table_schema = 'posdata' and table_name = 'sales'",
        )
      ).map((c) => [c.column_name, c.data_type]),
    );
    expect(types).toMatchObject({
      id: 'integer',
      name: 'text',
      amount_total: 'numeric',
      date_order: 'timestamp with time zone',
      config_id: 'integer',
      config_name: 'text',
      payment_ids: 'ARRAY',
      write_date: 'timestamp with time zone',
    });
    const pk = await one<string>(
      "select string_agg(a.attname, ',') from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey) where i.indrelid = 'posdata.sales'::regclass and i.indisprimary",
    );
    expect(pk).toBe('id');
    // Values: amounts to the cent, UTC datetimes, relations as id and name, id lists.
    const sent = await rpc.searchRead('pos.order', [], {
      fields: ['amount_total', 'date_order', 'config_id', 'payment_ids'],
      order: 'id',
      limit: 50,
    });
    const rows = await pg.query<{
      id: number;
      amount_total: string;
      date_order: string;
      config_id: number;
      config_name: string;
      payment_ids: number[];
    }>(
      "select id, amount_total::text, to_char(date_order at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as date_order, config_id, config_name, payment_ids from posdata.sales order by id limit 50",
    );
    // A register by its own name, not Odoo's label with the open session's user.
    const registers = await rpc.searchRead('pos.config', [], { fields: ['name'] });
    const own = new Map(registers.map((c) => [c.id as number, c.name as string]));
    for (const [i, o] of sent.entries()) {
      const row = rows[i];
      expect(row?.id).toBe(o.id);
      expect(Number(row?.amount_total)).toBeCloseTo(o.amount_total as number, 2);
      expect(row?.date_order).toBe(o.date_order);
      const reg = (o.config_id as [number, string])[0];
      expect([row?.config_id, row?.config_name]).toEqual([reg, own.get(reg)]);
      expect(row?.payment_ids).toEqual(o.payment_ids);
    }
    const all = await rpc.searchRead('pos.order', [], { fields: ['amount_total'] });
    const total = Math.round(all.reduce((a, o) => a + (o.amount_total as number), 0) * 100) / 100;
    expect(Number(await one('select sum(amount_total) from posdata.sales'))).toBeCloseTo(total, 2);
  });

  it('a second run with nothing new upserts nothing', async () => {
    const r = await sync(['sales', 'lines']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^sales: 0 upserted, 0 pruned/m);
    expect(r.stderr).toMatch(/^lines: 0 upserted, 0 pruned/m);
  });

  it('picks up creates, writes and a late offline order, once each', async () => {
    const [old] = await rpc.searchRead('pos.order', [['state', '=', 'paid']], {
      fields: ['id', 'session_id', 'config_id'],
      order: 'id',
      limit: 1,
    });
    const session = (old?.session_id as [number, string] | undefined)?.[0];
    await rpc.kw('pos.order', 'write', [[old?.id], { state: 'done' }]);
    const product = (await rpc.searchRead('product.product', [], { fields: ['id'], limit: 1 }))[0]?.id;
    const fresh = await rpc.kw<number>('pos.order', 'create', [
      {
        name: 'POS/NEW-1',
        session_id: session,
        amount_total: 7.5,
        amount_paid: 7.5,
        state: 'paid',
        lines: [
          [0, 0, { product_id: product, qty: 3, price_unit: 2.5, full_product_name: 'Tea\tpot "x"\n2' }],
        ],
      },
    ]);
    // An offline register syncs an order sold long ago: old date_order, new write_date.
    const late = await rpc.kw<number>('pos.order', 'create', [
      {
        name: 'POS/LATE-1',
        date_order: '2020-01-01 09:00:00',
        session_id: session,
        amount_total: 12.5,
        state: 'paid',
      },
    ]);
    const r = await sync(['sales', 'lines']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^sales: 3 upserted, 0 pruned/m);
    expect(r.stderr).toMatch(/^lines: 1 upserted, 0 pruned/m);
    expect(await one('select state from posdata.sales where id = $1', [old?.id])).toBe('done');
    expect(
      await one(
        "select to_char(date_order at time zone 'UTC', 'YYYY-MM-DD HH24:MI') from posdata.sales where id = $1",
        [late],
      ),
    ).toBe('2020-01-01 09:00');
    expect(await one('select full_product_name from posdata.lines where order_id = $1', [fresh])).toBe(
      'Tea\tpot "x"\n2',
    );
    expect(Number(await one('select count(*) - count(distinct id) from posdata.sales'))).toBe(0);
    expect(Number(await one('select count(*) from posdata.sales'))).toBe(await rpc.count('pos.order', []));
    // The watermark is the last record's write_date, in the state table.
    const wm = await one<string>(
      "select to_char(watermark at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') from posdata.posdata_sync_state where resource = 'sales'",
    );
    const [newest] = await rpc.searchRead('pos.order', [], {
      fields: ['write_date'],
      order: 'write_date desc, id desc',
      limit: 1,
    });
    expect(wm).toBe(newest?.write_date);
  });

  it('--prune removes a deleted draft and its lines, nothing else', async () => {
    const [any] = await rpc.searchRead('pos.order', [], { fields: ['session_id'], limit: 1 });
    const product = (await rpc.searchRead('product.product', [], { fields: ['id'], limit: 1 }))[0]?.id;
    const draft = await rpc.kw<number>('pos.order', 'create', [
      {
        session_id: (any?.session_id as [number, string] | undefined)?.[0],
        state: 'draft',
        lines: [[0, 0, { product_id: product, qty: 1, price_unit: 4 }]],
      },
    ]);
    expect((await sync(['sales', 'lines'])).code).toBe(0);
    expect(Number(await one('select count(*) from posdata.lines where order_id = $1', [draft]))).toBe(1);
    const before = Number(await one('select count(*) from posdata.sales'));
    await rpc.kw('pos.order', 'unlink', [[draft]]);

    const plain = await sync(['sales', 'lines']);
    expect(plain.code).toBe(0);
    expect(Number(await one('select count(*) from posdata.sales where id = $1', [draft]))).toBe(1);

    const r = await sync(['sales', 'lines', '--prune']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^sales: 0 upserted, 1 pruned/m);
    expect(r.stderr).toMatch(/^lines: 0 upserted, 1 pruned/m);
    expect(Number(await one('select count(*) from posdata.sales where id = $1', [draft]))).toBe(0);
    expect(Number(await one('select count(*) from posdata.lines where order_id = $1', [draft]))).toBe(0);
    expect(Number(await one('select count(*) from posdata.sales'))).toBe(before - 1);
    expect(Number(await one('select count(*) from posdata.lines'))).toBe(
      await rpc.count('pos.order.line', []),
    );
  });

  it('a new field adds a column, filled for every row, and stays synced', async () => {
    const r = await sync(['sales', '--fields', 'sales:to_invoice,note']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('sales: added columns to_invoice, note');
    const types = await pg.query<{ column_name: string; data_type: string }>(
      "select column_name, data_type from information_schema.columns where table_schema = 'posdata' and table_name = 'sales' and column_name in ('to_invoice', 'note') order by 1",
    );
    expect(types).toEqual([
      { column_name: 'note', data_type: 'text' },
      { column_name: 'to_invoice', data_type: 'boolean' },
    ]);
    const total = await rpc.count('pos.order', []);
    expect(Number(await one('select count(to_invoice) from posdata.sales'))).toBe(total);
    const invoiced = await rpc.count('pos.order', [['to_invoice', '=', true]]);
    expect(Number(await one('select count(*) from posdata.sales where to_invoice'))).toBe(invoiced);

    // Later runs keep the column current without --fields.
    const [o] = await rpc.searchRead('pos.order', [['to_invoice', '=', false]], { fields: ['id'], limit: 1 });
    await rpc.kw('pos.order', 'write', [[o?.id], { to_invoice: true }]);
    const again = await sync(['sales']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('added column');
    expect(await one('select to_invoice from posdata.sales where id = $1', [o?.id])).toBe(true);
  });

  it('refuses fields it cannot keep current, and unknown ones (exit 2, one line)', async () => {
    for (const [args, want] of [
      [['sales', '--fields', 'sales:is_invoiced'], /computed and not stored/],
      [
        ['sales', '--fields', 'sales:no_such_field'],
        /unknown field 'no_such_field' on pos\.order; valid fields: /,
      ],
      [['--fields', 'amount_total'], /does not say which resource/],
      [['orders'], /unknown resource 'orders'/],
    ] as const) {
      const r = await sync([...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(want);
    }
  });

  it('refuses to mix another Odoo into the same schema', async () => {
    const other = await startTestSandbox({ seed: 12, orders: 10 });
    try {
      const otherEnv = { ...(await loginEnv(other.url)), PGPASSWORD: pg.password };
      const r = await runCli(['sync', '--to', pg.url({ password: '' }), '--rate', '0', 'sales'], {
        env: otherEnv,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^posdata: schema posdata holds data synced from http:\/\/127\.0\.0\.1:\d+\/ database demo; sync this Odoo into another --schema\n$/,
      );
      const ok = await runCli(
        ['sync', '--to', pg.url({ password: '' }), '--rate', '0', '--schema', 'shop2', 'sales'],
        {
          env: otherEnv,
        },
      );
      expect(ok.code, ok.stderr).toBe(0);
      expect(Number(await one('select count(*) from shop2.sales'))).toBe(10);
    } finally {
      await other.close();
    }
  });

  it.skipIf(!hasScript)('shows a progress line per resource on a terminal', async () => {
    const { screen } = await onTerminal(
      ['sync', 'sales', '--full', '--page-size', '300', '--to', pg.url({ password: '' }), '--rate', '0'],
      { ...env, NO_COLOR: '1', COLUMNS: '100' },
    );
    expect(screen).toMatch(/sales: \d+ of \d+ records \(\d+%\)/);
    expect(screen).toMatch(/sales: [\d,]+ upserted, 0 pruned, watermark 20/);
  });

  it('syncs from Odoo 19 over JSON-2 as well', async () => {
    const setup = SETUPS.find((x) => x.protocol === 'json2');
    if (!setup) throw new Error('no JSON-2 setup');
    const s19 = await stage(setup, { seed: 13, orders: 500 });
    try {
      const r = await runCli(
        ['sync', '--to', pg.url({ password: '' }), '--schema', 'odoo19', '--rate', '0', '--debug'],
        {
          env: { ...s19.env, PGPASSWORD: pg.password },
        },
      );
      expect(r.code, r.stderr.slice(-500)).toBe(0);
      expect(r.stderr).toMatch(/\[rpc\] → json2 pos\.order\.search_read/);
      expect(Number(await one('select count(*) from odoo19.sales'))).toBe(
        await s19.rpc.count('pos.order', []),
      );
      expect(Number(await one('select count(*) from odoo19.lines'))).toBe(
        await s19.rpc.count('pos.order.line', []),
      );
    } finally {
      await s19.sandbox.close();
    }
  });

  it('--debug: the [sql] lines mask the secret in the names they carry (issue 23)', async () => {
    // The database's password (PGPASSWORD) is a secret of this run; a schema named so
    // carries it into every statement. posdata's own words in the statements stay whole.
    const r = await sync(['configs', '--schema', pg.password, '--debug']);
    expect(r.code, r.stderr).toBe(0);
    const sql = r.stderr.split('\n').filter((l) => l.startsWith('[sql] '));
    expect(sql.length).toBeGreaterThan(3);
    expect(sql.some((l) => l.includes('"***".posdata_sync_state'))).toBe(true);
    expect(sql.filter((l) => l.includes(pg.password))).toEqual([]);
  });
});
