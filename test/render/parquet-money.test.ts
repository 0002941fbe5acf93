// Money beyond what a double carries to the cent (issue 22). JSON's numbers are doubles: below
// 2^46 = 70,368,744,177,664 every amount of 2 decimals has a double of its own, past it two
// amounts a cent apart can share one. Parquet wrote 43069124697332.27 as …332.28 (its writer's
// v × 100 lands a unit off), 12345678901234567.68 with digits JSON does not have, and crashed on
// 1e20 (exit 1). Now every format carries the amounts below the bound to the same cent, and
// refuses one at or past it with exit 6, naming the field and the record. The amounts are
// written into a sandbox and read over its socket, as a real Odoo 17 sends them (Python's
// float repr: 1e+20, 1.2345678901234568e+16).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountBound, unscaled } from '../../src/records/normalize.js';
import { loginEnv, runCli } from '../helpers/cli.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const BOUND = 70_368_744_177_664;
/** Below the bound: …332.27 is the one Parquet made …332.28; the largest amounts either side. */
const KEPT = [43069124697332.27, -43069124697332.27, 70368744177663.99, -70368744177663.99, 0.01];
/** At the bound and past it; the 12345678901234567.68 is already …568 as a double. */
const REFUSED = [BOUND, -BOUND, 70368744177664.02, 1e20, Number('12345678901234567.68')];

let sandbox: SandboxHandle;
let env: Record<string, string>;
let rpc: ReturnType<ReturnType<typeof rpcClient>['as']>;
let dir: string;
let orders: { id: number; payment_ids: number[] }[];
let duck: DuckDBInstance;

async function duckText(file: string, column: string): Promise<string[]> {
  const c = await duck.connect();
  try {
    const rows = (
      await c.runAndReadAll(`select ${column}::varchar as v from read_parquet('${file}') order by id`)
    ).getRowObjectsJson();
    return rows.map((r) => String(r.v));
  } finally {
    c.closeSync();
  }
}

/** 43069124697332.27 → "43069124697332.27", 0.01 → "0.01": the amount as DuckDB prints DECIMAL(18, 2). */
const cents = (v: number): string => {
  const n = BigInt(unscaled(v, 2));
  const a = n < 0n ? -n : n;
  return `${n < 0n ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
};

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 46, orders: 40 });
  env = await loginEnv(sandbox.url);
  rpc = rpcClient(sandbox.url).as(2, 'admin');
  orders = await rpc.ok('pos.order', 'search_read', [[['payment_ids', '!=', false]]], {
    fields: ['payment_ids'],
    limit: KEPT.length + 1,
    order: 'id',
  });
  dir = mkdtempSync(join(tmpdir(), 'posdata-money-'));
  duck = await DuckDBInstance.create(':memory:');
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the bound', () => {
  it('is 2^46 for cents: below it each amount prints back as itself, at it two cents share a double', () => {
    expect(amountBound(2)).toBe(BOUND);
    expect(amountBound(2)).toBe(2 ** 46);
    expect(amountBound(0)).toBe(2 ** 53);
    // Just below: the doubles lie 2^-7 apart, each cent its own and printed as itself.
    for (let n = BOUND * 100 - 5000; n < BOUND * 100; n++) {
      expect(String(n / 100)).toBe(cents(n / 100).replace(/\.?0+$/, ''));
      expect(unscaled(n / 100, 2)).toBe(n);
    }
    // From the bound on, 2^-6 apart: cents collide (…664.01 and …664.02 are one double).
    expect((BOUND * 100 + 1) / 100).toBe((BOUND * 100 + 2) / 100);
  });
});

describe('amounts below the bound: JSON, CSV and Parquet agree to the cent', () => {
  beforeAll(async () => {
    for (const [i, v] of KEPT.entries()) {
      const o = orders[i] as { id: number; payment_ids: number[] };
      await rpc.ok('pos.order', 'write', [[o.id], { amount_total: v }]);
    }
  });
  const ids = () => JSON.stringify([['id', 'in', orders.slice(0, KEPT.length).map((o) => o.id)]]);
  const args = (fmt: string) => [
    'sales',
    '--domain',
    ids(),
    '--fields',
    'id,amount_total',
    '--format',
    fmt,
    '--rate',
    '0',
  ];

  it('json and csv print each amount as it is, and Parquet holds the same decimal', async () => {
    const want = KEPT.map(cents);
    const json = await runCli(args('json'), { env });
    expect(json.code, json.stderr).toBe(0);
    const fromJson = (JSON.parse(json.stdout) as { id: number; amount_total: number }[])
      .sort((a, b) => a.id - b.id)
      .map((r) => cents(r.amount_total));
    expect(fromJson).toEqual(want);
    expect((JSON.parse(json.stdout) as { amount_total: number }[]).map((r) => r.amount_total)).toEqual(KEPT);
    const csv = await runCli(args('csv'), { env });
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\n')[0]).toBe('id,amount_total');
    const fromCsv = csv.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','))
      .sort((a, b) => Number(a[0]) - Number(b[0]))
      .map((c) => cents(Number(c[1])));
    expect(fromCsv).toEqual(want);
    const file = join(dir, 'kept.parquet');
    const pq = await runCli([...args('parquet'), '-o', file], { env });
    expect(pq.code, pq.stderr).toBe(0);
    expect(await duckText(file, 'amount_total')).toEqual(want);
  });
});

describe('amounts at or past the bound: exit 6, one line, naming the field and the record', () => {
  const refused = () => orders[KEPT.length] as { id: number; payment_ids: number[] };
  for (const v of REFUSED) {
    it(`${v}: refused in every format, nothing written`, async () => {
      const o = refused();
      await rpc.ok('pos.order', 'write', [[o.id], { amount_total: v }]);
      try {
        for (const fmt of ['json', 'ndjson', 'csv', 'parquet', 'table']) {
          const file = join(dir, `refused.${fmt}`);
          const r = await runCli(
            [
              'sales',
              '--domain',
              JSON.stringify([['id', '>=', o.id - 1]]),
              '--format',
              fmt,
              '-o',
              file,
              '--rate',
              '0',
            ],
            { env },
          );
          expect(r.code, `${fmt}: ${r.stderr}`).toBe(6);
          expect(r.stderr).toBe(
            `posdata: the server sent ${v} for amount_total of pos.order ${o.id}: an amount of 2 decimals is carried exactly only below 70,368,744,177,664 (2^46); correct the record in Odoo, or leave the field out with --fields\n`,
          );
          expect(existsSync(file)).toBe(false);
        }
        // Left out, the rest of the record exports.
        const without = await runCli(
          ['sales', '--domain', JSON.stringify([['id', '=', o.id]]), '--fields', 'name,state', '--rate', '0'],
          { env },
        );
        expect(without.code, without.stderr).toBe(0);
      } finally {
        await rpc.ok('pos.order', 'write', [[o.id], { amount_total: 1 }]);
      }
    });
  }

  it('a payment amount carried by --with-payments names the payment', async () => {
    const o = refused();
    const pay = o.payment_ids[0] as number;
    await rpc.ok('pos.payment', 'write', [[pay], { amount: 1e20 }]);
    try {
      const file = join(dir, 'payments.parquet');
      const r = await runCli(
        [
          'sales',
          '--domain',
          JSON.stringify([['id', '=', o.id]]),
          '--with-payments',
          '-o',
          file,
          '--rate',
          '0',
        ],
        { env },
      );
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(
        /^posdata: the server sent 100000000000000000000 for amount of pos\.payment \d+: /,
      );
      expect(r.stderr).toContain(`pos.payment ${pay}:`);
      expect(existsSync(file)).toBe(false);
      const payments = await runCli(
        [
          'payments',
          '--domain',
          JSON.stringify([['id', '=', pay]]),
          '--format',
          'parquet',
          '-o',
          file,
          '--rate',
          '0',
        ],
        { env },
      );
      expect(payments.code).toBe(6);
      expect(payments.stderr).toContain(`for amount of pos.payment ${pay}:`);
    } finally {
      await rpc.ok('pos.payment', 'write', [[pay], { amount: 1 }]);
    }
  });
});
