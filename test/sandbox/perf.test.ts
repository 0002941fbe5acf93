// Volume: 100k orders generated and served in pages of 5,000. Timings are printed, not asserted
// (machines differ); the figures in the report come from `node test/sandbox/bench.mjs 1000000`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let rpc: ReturnType<typeof rpcClient>;
let startMs = 0;
const FIELDS = [
  'id',
  'name',
  'date_order',
  'amount_total',
  'amount_paid',
  'amount_tax',
  'state',
  'config_id',
  'session_id',
  'payment_ids',
];

beforeAll(async () => {
  const t = performance.now();
  sandbox = await startTestSandbox({ seed: 1, orders: 100_000 });
  startMs = performance.now() - t;
  rpc = rpcClient(sandbox.url);
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
});

const timed = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
  const t = performance.now();
  const r = await f();
  return [r, performance.now() - t];
};

describe('100k orders', () => {
  it('generates them and pages through them by id', async () => {
    console.log(
      `sandbox: 100k orders started in ${startMs.toFixed(0)} ms (generation ${sandbox.stats?.ms.toFixed(0)} ms)`,
    );
    const [count, countMs] = await timed(() => rpc.ok<number>('pos.order', 'search_count', [[]]));
    expect(count).toBe(100_000);
    let last = 0;
    const times: number[] = [];
    let seen = 0;
    for (let i = 0; i < 20; i++) {
      const [page, ms] = await timed(() =>
        rpc.ok<{ id: number }[]>('pos.order', 'search_read', [[['id', '>', last]]], {
          fields: FIELDS,
          order: 'id',
          limit: 5000,
        }),
      );
      times.push(ms);
      seen += page.length;
      last = page[page.length - 1]?.id ?? last;
    }
    expect(seen).toBe(100_000);
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `sandbox: search_count [] ${countMs.toFixed(1)} ms; 5,000-order pages by id: first ${times[0]?.toFixed(1)} ms, median ${sorted[10]?.toFixed(1)} ms, max ${sorted[19]?.toFixed(1)} ms`,
    );
    const [, firstDefault] = await timed(() =>
      rpc.ok('pos.order', 'search_read', [[]], { fields: FIELDS, limit: 5000 }),
    );
    const [, nextDefault] = await timed(() =>
      rpc.ok('pos.order', 'search_read', [[]], { fields: FIELDS, limit: 5000, offset: 5000 }),
    );
    console.log(
      `sandbox: default order (date_order desc, name desc, id desc): first page ${firstDefault.toFixed(0)} ms (builds the sort), next ${nextDefault.toFixed(1)} ms`,
    );
  });
});

// One million orders: opt-in (POSDATA_SANDBOX_1M=1 npx vitest run test/sandbox/perf.test.ts),
// so that `npm test` stays quick. Prints the time; asserts only the volume.
describe.skipIf(!process.env.POSDATA_SANDBOX_1M)('1M orders', () => {
  it('generates them', async () => {
    const t = performance.now();
    const big = await startTestSandbox({ seed: 1, orders: 1_000_000 });
    try {
      const ms = performance.now() - t;
      console.log(
        `sandbox: 1M orders started in ${ms.toFixed(0)} ms (generation ${big.stats?.ms.toFixed(0)} ms), ${JSON.stringify(big.stats)}`,
      );
      expect(await rpcClient(big.url).ok<number>('pos.order', 'search_count', [[]])).toBe(1_000_000);
    } finally {
      await big.close();
    }
  }, 300_000);
});
