// Parquet files from the built CLI against a sandbox, read back by two readers that are not
// posdata: hyparquet (values) and DuckDB (the types a warehouse sees), and compared row by
// row with the JSON output of the same command. Every test runs against an Odoo-17 sandbox
// over JSON-RPC and an Odoo-19 sandbox over JSON-2.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli, spawnCli } from '../helpers/cli.js';
import { SETUPS, type Stage, stage } from '../helpers/protocols.js';

const ORDERS = 25_000;
type Obj = Record<string, unknown>;

const arrayBuffer = (b: Buffer): ArrayBuffer =>
  b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;

/** Rows as hyparquet reads them. */
async function readParquet(bytes: Buffer): Promise<Obj[]> {
  return (await parquetReadObjects({ file: arrayBuffer(bytes) })) as Obj[];
}

let duck: DuckDBInstance;
async function sql(query: string): Promise<Obj[]> {
  const c = await duck.connect();
  try {
    return (await c.runAndReadAll(query)).getRowObjectsJson() as Obj[];
  } finally {
    c.closeSync();
  }
}
/** Column name → type, as DuckDB's read_parquet sees the file. */
async function duckTypes(file: string): Promise<Record<string, string>> {
  const rows = await sql(`describe select * from read_parquet('${file}')`);
  return Object.fromEntries(rows.map((r) => [String(r.column_name), String(r.column_type)]));
}

const utcInstant = (s: string): number =>
  /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(s) ? Date.parse(`${s.replace(' ', 'T')}Z`) : Date.parse(s);

/**
 * Each JSON row against its Parquet row, by the type DuckDB reports for the column: a
 * relation `x_id: [id, name]` is the two columns `x_id` and `x_name`, a datetime the same
 * instant, an amount the same cents, a date the same day, lists and nulls as they are.
 */
function expectSameRows(json: Obj[], pq: Obj[], types: Record<string, string>): void {
  expect(pq.length).toBe(json.length);
  const many2one = (key: string) => `${key.endsWith('_id') ? key.slice(0, -3) : key}_name`;
  const expectedColumns = Object.keys(json[0] ?? {}).flatMap((k) =>
    many2one(k) in types && !(json[0] as Obj)[many2one(k)] ? [k, many2one(k)] : [k],
  );
  if (json.length > 0) expect(Object.keys(types)).toEqual(expectedColumns);
  for (let i = 0; i < json.length; i++) {
    const j = json[i] as Obj;
    const p = pq[i] as Obj;
    for (const [k, v] of Object.entries(j)) {
      const type = types[k] as string;
      const where = `row ${i} (id ${j.id}) ${k}`;
      if (many2one(k) in types && !(many2one(k) in j)) {
        expect(type, where).toBe('INTEGER');
        expect(types[many2one(k)], where).toBe('VARCHAR');
        const pair = v as [number, string] | null;
        expect([p[k], p[many2one(k)]], where).toEqual(pair === null ? [null, null] : pair);
      } else if (v === null) {
        expect(p[k], where).toBeNull();
      } else if (type === 'TIMESTAMP WITH TIME ZONE') {
        expect(p[k], where).toBeInstanceOf(Date);
        expect((p[k] as Date).getTime(), where).toBe(utcInstant(v as string));
      } else if (type.startsWith('DECIMAL(18,')) {
        const scale = Number(type.slice(11, -1));
        expect(typeof p[k], where).toBe('number');
        expect(Math.round((p[k] as number) * 10 ** scale), where).toBe(
          Math.round((v as number) * 10 ** scale),
        );
      } else if (type === 'DATE') {
        expect((p[k] as Date).toISOString().slice(0, 10), where).toBe(v);
      } else {
        // INTEGER, DOUBLE, VARCHAR, BOOLEAN, INTEGER[], JSON: the same value.
        expect(p[k], where).toEqual(v);
      }
    }
  }
}

describe.each(SETUPS)('$name', (setup) => {
  let sandbox: Stage['sandbox'];
  let rpc: Stage['rpc'];
  let env: Record<string, string>;
  let dir: string;
  let n = 0;

  beforeAll(async () => {
    ({ sandbox, rpc, env } = await stage(setup, { seed: 11, orders: ORDERS }));
    dir = mkdtempSync(join(tmpdir(), 'posdata-parquet-'));
    duck ??= await DuckDBInstance.create(':memory:');
  }, 180_000);

  afterAll(async () => {
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const temps = () => readdirSync(dir).filter((f) => f.includes('posdata-tmp'));

  /** The command to a .parquet file and as JSON; both read back. */
  async function both(args: string[]) {
    const file = join(dir, `out-${++n}.parquet`);
    const r = await runCli([...args, '--rate', '0', '-o', file], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const j = await runCli([...args, '--rate', '0', '--format', 'json'], { env });
    expect(j.code).toBe(0);
    return {
      file,
      json: JSON.parse(j.stdout) as Obj[],
      rows: await readParquet(readFileSync(file)),
      types: await duckTypes(file),
    };
  }

  it('sales: typed columns as DuckDB reads them, every row equal to the JSON output', async () => {
    // The order's note, a text column: `note` on 17, `internal_note` on 19.
    const note = setup.odooVersion >= 19 ? 'internal_note' : 'note';
    const fields = `id,name,date_order,amount_total,amount_tax,state,config_id,session_id,partner_id,is_invoiced,${note},payment_ids,lines`;
    const { file, json, rows, types } = await both(['sales', '--limit', '3000', '--fields', fields]);
    expect(types).toMatchObject({
      id: 'INTEGER',
      name: 'VARCHAR',
      date_order: 'TIMESTAMP WITH TIME ZONE',
      amount_total: 'DECIMAL(18,2)',
      amount_tax: 'DECIMAL(18,2)',
      config_id: 'INTEGER',
      config_name: 'VARCHAR',
      partner_id: 'INTEGER',
      partner_name: 'VARCHAR',
      is_invoiced: 'BOOLEAN',
      payment_ids: 'INTEGER[]',
      lines: 'INTEGER[]',
    });
    expect(json.length).toBe(3000);
    expectSameRows(json, rows, types);
    // The data has what the comparison must cover: nulls, both booleans, lists of 0 and 2+.
    expect(rows.some((r) => r.partner_id === null && r.partner_name === null)).toBe(true);
    expect(new Set(rows.map((r) => r.is_invoiced))).toEqual(new Set([true, false]));
    expect(rows.some((r) => (r.payment_ids as number[]).length >= 2)).toBe(true);
    expect(rows.some((r) => (r.payment_ids as number[]).length === 0)).toBe(true);
    // DuckDB sums the decimals exactly: the cents of the JSON amounts, added as integers.
    const cents = json.reduce((a, r) => a + Math.round((r.amount_total as number) * 100), 0);
    const [sum] = await sql(`select sum(amount_total)::varchar as s from read_parquet('${file}')`);
    expect(sum?.s).toBe((cents / 100).toFixed(2));
  });

  it('--tz moves the JSON times, not the Parquet instants', async () => {
    const { json, rows, types } = await both(['sales', '--limit', '200', '--tz', 'Pacific/Auckland']);
    expect(json[0]?.date_order).toMatch(/\+1[23]:00$/);
    expectSameRows(json, rows, types);
  });

  it('--with-payments: the payments as a JSON column', async () => {
    const { json, rows, types } = await both(['sales', '--limit', '100', '--with-payments']);
    expect(types.payments).toBe('JSON');
    expectSameRows(json, rows, types);
    expect((rows[0] as Obj).payments).toEqual(json[0]?.payments);
    expect(((rows[0] as Obj).payments as Obj[])[0]).toHaveProperty('payment_method_id');
  });

  for (const command of [
    'configs',
    'refunds',
    'cancellations',
    'closures',
    'payments',
    'products',
    'lines',
  ]) {
    it(`${command}: every row equal to the JSON output`, async () => {
      const args = [command];
      if (command === 'lines') {
        const [order] = await rpc.searchRead('pos.order', [['lines', '!=', false]], {
          fields: ['id'],
          limit: 1,
        });
        args.push(String(order?.id));
      }
      if (command === 'payments') args.push('--limit', '2000');
      const { json, rows, types } = await both(args);
      expect(json.length).toBeGreaterThan(0);
      expectSameRows(json, rows, types);
      if (command === 'configs') {
        expect(types.last_session_closing_date).toBe('DATE');
        expect(rows.some((r) => r.current_session_id === null)).toBe(true);
      }
      if (command === 'refunds') {
        expect(types.refunded_order_id).toBe('INTEGER');
        expect(rows.every((r) => typeof r.refunded_order_name === 'string')).toBe(true);
        expect(rows.some((r) => (r.amount_total as number) < 0)).toBe(true);
      }
      // Odoo gives qty digits [16, 2] (Product Unit of Measure): a decimal, as on a real server.
      if (command === 'lines') expect(types.qty).toBe('DECIMAL(18,2)');
    });
  }

  it('reconcile: one row per closed session, amounts as decimals, times as instants', async () => {
    const { json, rows, types } = await both(['reconcile', '--from', '60d']);
    expect(json.length).toBeGreaterThan(0);
    expect(types).toMatchObject({
      session_id: 'INTEGER',
      opened: 'TIMESTAMP WITH TIME ZONE',
      counted_cash: 'DECIMAL(18,2)',
    });
    expectSameRows(json, rows, types);
  });

  it(`a full export of ${ORDERS} orders: row groups as pages arrive, every order once`, async () => {
    const total = await rpc.count('pos.order', []);
    const file = join(dir, 'all.parquet');
    const r = await runCli(['sales', '-o', file, '--rate', '0', '--page-size', '2000'], { env });
    expect(r.code).toBe(0);
    const meta = parquetMetadata(arrayBuffer(readFileSync(file)));
    expect(Number(meta.num_rows)).toBe(total);
    // 10,000 rows a group: the writer never held more than that.
    expect(meta.row_groups.length).toBe(Math.ceil(total / 10_000));
    expect(meta.row_groups.every((g) => Number(g.num_rows) <= 10_000)).toBe(true);
    const [c] = await sql(
      `select count(*)::int as n, count(distinct id)::int as d from read_parquet('${file}')`,
    );
    expect(c).toEqual({ n: total, d: total });
    expect(temps()).toEqual([]);
  }, 120_000);

  it('no record matched: a valid file with the typed columns and no rows', async () => {
    const file = join(dir, 'none.parquet');
    const r = await runCli(['sales', '--domain', '[["id", "<", 0]]', '--rate', '0', '-o', file], { env });
    expect(r.code).toBe(0);
    const types = await duckTypes(file);
    expect(types).toMatchObject({ id: 'INTEGER', amount_total: 'DECIMAL(18,2)', config_name: 'VARCHAR' });
    expect(await readParquet(readFileSync(file))).toEqual([]);
  });

  it('piped to standard output: the same file, streamed', async () => {
    const args = ['sales', '--limit', '500', '--rate', '0'];
    const piped = await runCli([...args, '--format', 'parquet'], { env });
    expect(piped.code).toBe(0);
    expect(piped.stdoutBytes.subarray(0, 4).toString()).toBe('PAR1');
    const file = join(dir, 'same.parquet');
    expect((await runCli([...args, '-o', file], { env })).code).toBe(0);
    expect(await readParquet(piped.stdoutBytes)).toEqual(await readParquet(readFileSync(file)));
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`interrupted (${signal}) after a row group was written: no file and no temporary file`, async () => {
      const file = join(dir, `cut-${signal}.parquet`);
      // 60 pages of 200 (--debug shows each request): the first row group of 10,000 is out.
      const pages = (stderr: string) =>
        stderr.match(/\[rpc\] → \S+ pos\.order\.search_read .*"fields":\["id",/g)?.length ?? 0;
      const r = await spawnCli(['sales', '-o', file, '--rate', '0', '--page-size', '200', '--debug'], {
        env,
        killSignal: signal,
        killWhen: (stderr) => pages(stderr) > 60,
      });
      expect(pages(r.stderr)).toBeGreaterThan(60);
      expect(pages(r.stderr)).toBeLessThan(ORDERS / 200);
      expect(r.code).toBe(130);
      expect(existsSync(file)).toBe(false);
      expect(temps()).toEqual([]);
    });
  }

  it('--checkpoint: the changes since the last run, the checkpoint advanced after each file', async () => {
    const cp = join(dir, 'sales.ckpt');
    const a = join(dir, 'a.parquet');
    expect((await runCli(['sales', '--checkpoint', cp, '-o', a, '--rate', '0'], { env })).code).toBe(0);
    const total = await rpc.count('pos.order', []);
    const first = await readParquet(readFileSync(a));
    expect(first.length).toBe(total);
    const firstCp = readFileSync(cp, 'utf8');

    const [old] = await rpc.searchRead('pos.order', [['state', '=', 'paid']], { fields: ['id'], limit: 1 });
    await rpc.kw('pos.order', 'write', [[old?.id], { state: 'done' }]);
    const b = join(dir, 'b.parquet');
    expect((await runCli(['sales', '--checkpoint', cp, '-o', b, '--rate', '0'], { env })).code).toBe(0);
    const second = await readParquet(readFileSync(b));
    const changed = second.find((r) => r.id === old?.id);
    expect(changed?.state).toBe('done');
    expect(second.length).toBeLessThan(total);
    expect(new Set(second.map((r) => r.id)).size).toBe(second.length);
    expect(readFileSync(cp, 'utf8')).not.toBe(firstCp);
  });
});

const EXPORT = ['sales', '--rate', '0', '--page-size', '1000', '-o'];

describe('a failed export', () => {
  let env: Record<string, string>;
  let dir: string;
  // biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
  let faulty: any;
  // biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
  let clean: any;

  beforeAll(async () => {
    const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
    dir = mkdtempSync(join(tmpdir(), 'posdata-parquet-fail-'));
    // The export's requests, counted on a clean twin (same data, same requests); then the
    // twin with a fault fails near the end: 20,000 orders in pages of 1,000 are two row
    // groups, the first of them already written by then.
    clean = await startSandbox({ port: 0, seed: 5, orders: 20_000 });
    await loginEnv(clean.url);
    const login = clean.requestCount() as number;
    const ok = await runCli([...EXPORT, join(dir, 'clean.parquet')], { env: await loginEnv(clean.url) });
    expect(ok.code).toBe(0);
    const all = (clean.requestCount() as number) - 2 * login;
    rmSync(join(dir, 'clean.parquet'));
    // The count varies by a request or two (names are read as pages arrive): a few in a row fail.
    const at = Array.from({ length: 12 }, (_, i) => login + all - 3 + i).join(',');
    faulty = await startSandbox({ port: 0, seed: 5, orders: 20_000, faults: `500@${at}` });
    env = await loginEnv(faulty.url);
  }, 120_000);

  afterAll(async () => {
    await clean?.close();
    await faulty?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the old file, leaves no temporary file, exits 6 with one line', async () => {
    const file = join(dir, 'sales.parquet');
    writeFileSync(file, 'OLD');
    const r = await runCli([...EXPORT, file], { env });
    expect(r.stderr).toMatch(/^posdata: .*answered HTTP 500/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.code).toBe(6);
    expect(readFileSync(file, 'utf8')).toBe('OLD');
    expect(readdirSync(dir)).toEqual(['sales.parquet']);
  });
});

afterAll(() => {
  duck?.closeSync();
});
