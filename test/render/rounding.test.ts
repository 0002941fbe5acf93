// Issue 18, case 20: amounts are rounded half away from zero on their shortest decimal
// text (what JavaScript prints), so a refund mirrors its sale (-2.675 → -2.68 as 2.675 →
// 2.68) and an amount that already has its decimals is never changed, at any size a
// double holds to the cent. Every output path: json, csv (the compiled fast path and
// csv-stringify's), the table, payments carried by sales, reconcile.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedDecimals, roundAt } from '../../src/records/normalize.js';
import { loginEnv, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { rpcClient } from '../helpers/sandbox.js';

/**
 * Cents up to 2^53 are whole doubles, and roundAt returns n / 100 unchanged for each. (Past
 * 2^46, that is 70,368,744,177,664, two amounts a cent apart can be one double: outputs
 * refuse those, test/render/parquet-money.test.ts.)
 */
const MAX_CENTS = 2 ** 53;

describe('roundAt', () => {
  it('rounds half away from zero on the shortest decimal text', () => {
    expect(roundAt(2.675, 2)).toBe(2.68);
    expect(roundAt(-2.675, 2)).toBe(-2.68);
    expect(roundAt(1.005, 2)).toBe(1.01);
    expect(roundAt(-1.005, 2)).toBe(-1.01);
    expect(roundAt(0.285, 2)).toBe(0.29);
    expect(roundAt(-0.5, 0)).toBe(-1);
    expect(roundAt(2.5, 0)).toBe(3);
    expect(roundAt(-14.540000000000001, 2)).toBe(-14.54);
    expect(roundAt(0.1 + 0.2, 2)).toBe(0.3);
    expect(roundAt(1.5e-7, 8)).toBe(1.5e-7);
    expect(roundAt(1.5e-7, 6)).toBe(0);
    expect(roundAt(9.995, 2)).toBe(10);
    expect(roundAt(-9.995, 2)).toBe(-10);
    expect(Object.is(roundAt(-0.001, 2), 0)).toBe(true);
    expect(roundAt(1e21, 2)).toBe(1e21);
  });

  it('leaves amounts above 2.25e13 alone (they used to gain a cent)', () => {
    expect(roundAt(22500000000000.01, 2)).toBe(22500000000000.01);
    expect(roundAt(-22500000000000.01, 2)).toBe(-22500000000000.01);
    expect(roundAt(70000000000000.01, 2)).toBe(70000000000000.01);
  });

  it('is symmetric: round(-x) = -round(x), for any double and any digits', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1000),
          fc.integer({ min: -1e7, max: 1e7 }).map((n) => n / 1000 + 0.0005),
        ),
        fc.integer({ min: 0, max: 6 }),
        (v, digits) => {
          expect(roundAt(-v, digits)).toBe(-roundAt(v, digits) + 0);
        },
      ),
      { numRuns: 20000 },
    );
  });

  it('never changes an amount with at most 2 decimals, up to 2^53/100', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -MAX_CENTS, max: MAX_CENTS }),
          fc.integer({ min: -1e6, max: 1e6 }),
          fc.integer({ min: 2.25e15, max: MAX_CENTS }),
        ),
        (cents) => {
          const v = cents / 100;
          expect(roundAt(v, 2)).toBe(v + 0);
        },
      ),
      { numRuns: 20000 },
    );
  });

  it('agrees with rounding the decimal text by hand', () => {
    // Reference: the shortest text, its digit after the last kept one decides.
    const byHand = (v: number, d: number): number => {
      const s = String(Math.abs(v));
      if (/e/.test(s)) return roundAt(v, d);
      const [int, frac = ''] = s.split('.');
      if (frac.length <= d) return v;
      const kept = BigInt(`${int}${frac.slice(0, d)}`) + (Number(frac[d]) >= 5 ? 1n : 0n);
      const r = Number(kept) / 10 ** d;
      return v < 0 && r !== 0 ? -Number(`${kept}e-${d}`) : Number(`${kept}e-${d}`);
    };
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ min: -1e12, max: 1e12, noNaN: true }),
          fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1000),
          // Halves and binary noise next to them and next to whole cents, at every size.
          fc
            .tuple(fc.integer({ min: -(2 ** 50), max: 2 ** 50 }), fc.constantFrom(5, 4, 6, 0, 1, 9))
            .map(([n, last]) => (n * 10 + last) / 1000),
          fc
            .tuple(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: -4, max: 4 }))
            .map(([n, k]) => n / 100 + k * Number.EPSILON * Math.abs(n / 100)),
          fc
            .tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 1, max: 4 }))
            .map(([n, k]) => (n + 0.5) / 100 + k * Number.EPSILON * ((n + 0.5) / 100)),
        ),
        fc.integer({ min: 0, max: 4 }),
        (v, d) => {
          expect(roundAt(v, d)).toBe(byHand(v, d) + 0);
        },
      ),
      { numRuns: 50000 },
    );
  });
});

describe('fixedDecimals', () => {
  /** Reference: roundAt, its shortest text, padded with zeros to `d` decimals. */
  const padded = (v: number, d: number): string => {
    const r = roundAt(v, d);
    const s = String(r);
    if (s.includes('e')) return r.toFixed(d);
    const frac = s.split('.')[1] ?? '';
    return d === 0 ? s : `${s}${frac === '' ? '.' : ''}${'0'.repeat(d - frac.length)}`;
  };

  it('prints the rounded amount with exactly its currency decimals', () => {
    expect(fixedDecimals(12.5, 2)).toBe('12.50');
    expect(fixedDecimals(-0.05, 2)).toBe('-0.05');
    expect(fixedDecimals(0.05, 3)).toBe('0.050');
    expect(fixedDecimals(-0, 2)).toBe('0.00');
    expect(fixedDecimals(-0.001, 2)).toBe('0.00');
    expect(fixedDecimals(1458, 0)).toBe('1458');
    expect(fixedDecimals(2.675, 2)).toBe('2.68');
    expect(fixedDecimals(21474836.47, 2)).toBe('21474836.47');
    expect(fixedDecimals(21474836.48, 2)).toBe('21474836.48');
    expect(fixedDecimals(-21474836.48, 2)).toBe('-21474836.48');
    expect(fixedDecimals(70000000000000.01, 2)).toBe('70000000000000.01');
  });

  it('whole hundredths (the integer path) and every other double print as the reference does', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -(2 ** 33), max: 2 ** 33 }).map((n) => n / 100),
          fc.integer({ min: -(2 ** 33), max: 2 ** 33 }).map((n) => n / 1000),
          fc.integer({ min: -1e6, max: 1e6 }),
          fc.double({ min: -1e15, max: 1e15, noNaN: true }),
          fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 100 + 1e-9),
        ),
        fc.integer({ min: 0, max: 4 }),
        (v, d) => {
          expect(fixedDecimals(v, d)).toBe(padded(v, d));
        },
      ),
      { numRuns: 50000 },
    );
  });
});

// The same amounts through the built CLI, against the sandbox.
// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
let sandbox: any;
let env: Record<string, string>;
const AMOUNTS = [2.675, -2.675, 1.005, -1.005, 22500000000000.01, -22500000000000.01, 70000000000000.01];
const EXPECTED = [
  '2.68',
  '-2.68',
  '1.01',
  '-1.01',
  '22500000000000.01',
  '-22500000000000.01',
  '70000000000000.01',
];
let ids: number[] = [];

beforeAll(async () => {
  const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
  sandbox = await startSandbox({ port: 0, seed: 3, orders: 40, adminKey: SUITE_SECRET });
  env = await loginEnv(sandbox.url, 'admin', SUITE_SECRET);
  const rpc = rpcClient(sandbox.url).as(2, SUITE_SECRET);
  const orders = await rpc.ok<{ id: number; payment_ids: number[] }[]>(
    'pos.order',
    'search_read',
    [[['payment_ids', '!=', false]]],
    { fields: ['payment_ids'], limit: AMOUNTS.length, order: 'id' },
  );
  ids = orders.map((o) => o.id);
  for (const [i, o] of orders.entries()) {
    await rpc.ok('pos.order', 'write', [[o.id], { amount_total: AMOUNTS[i] }]);
    await rpc.ok('pos.payment', 'write', [o.payment_ids, { amount: AMOUNTS[i] }]);
  }
});

afterAll(async () => {
  await sandbox?.close();
});

const domain = () => JSON.stringify([['id', 'in', ids]]);

describe('amounts through the CLI', () => {
  it('json: each amount rounded half away from zero, refunds mirroring sales', async () => {
    const r = await runCli(
      ['sales', '--format', 'json', '--domain', domain(), '--rate', '0', '--with-payments'],
      {
        env,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { amount_total: number; payments: { amount: number }[] }[];
    expect(rows.map((x) => String(x.amount_total))).toEqual(EXPECTED);
    expect(rows.map((x) => String(x.payments[0]?.amount))).toEqual(EXPECTED);
  });

  it('csv (the compiled fast path and csv-stringify) prints the same amounts', async () => {
    for (const extra of [[], ['--excel'], ['--delimiter', ';', '--decimal', ',']]) {
      const r = await runCli(
        [
          'sales',
          '--format',
          'csv',
          '--fields',
          'id,name,amount_total',
          '--domain',
          domain(),
          '--rate',
          '0',
          ...extra,
        ],
        { env },
      );
      expect(r.code, r.stderr).toBe(0);
      const cells = r.stdout
        .trim()
        .split(/\r?\n/)
        .slice(1)
        .map((l) => l.split(extra[0] === '--delimiter' ? ';' : ',')[2]);
      const want = extra[0] === '--delimiter' ? EXPECTED.map((e) => e.replace('.', ',')) : EXPECTED;
      expect(cells).toEqual(want);
    }
  });

  it('the table shows them with two decimals and the right total', async () => {
    const r = await runCli(
      ['sales', '--format', 'table', '--fields', 'name,amount_total', '--domain', domain(), '--rate', '0'],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    for (const e of ['2.68', '-2.68', '1.01', '-1.01', '22500000000000.01', '70000000000000.01'])
      expect(r.stdout).toContain(` ${e} `);
    expect(r.stdout).toMatch(/7 sales, total 70000000000000\.01 of every state\n$/);
  });
});
