// sync --prune does not trust a short id list: a `search` reply cut to 1,000 ids or empty (a
// proxy or a module that caps results, a lying server) is checked against search_count and
// against the ids the run read, and a prune of a large share of a table needs --prune-max.
// Each refusal is one line, a non-zero exit, and no row deleted. A proxy of the test's own
// changes the replies; the sandbox answers the rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let pg: TestPostgres;
let sandbox: SandboxHandle;
let proxy: RpcProxy;
let env: Record<string, string>;
let orders = 0;

const sync = (args: string[] = []) =>
  runCli(['sync', 'sales', '--to', pg.url({ password: '' }), '--rate', '0', '--quiet', ...args], { env });

const rows = async () =>
  Number((await pg.query<{ n: string }>('select count(*) as n from posdata.sales'))[0]?.n);

const onPosOrder = (change: (result: unknown) => unknown) => (result: unknown, body: string) =>
  (JSON.parse(body) as { params: { args: unknown[] } }).params.args[3] === 'pos.order'
    ? change(result)
    : result;

const oneLine = (stderr: string) => {
  const lines = stderr.split('\n').filter(Boolean);
  expect(lines, stderr).toHaveLength(1);
  return lines[0] as string;
};

beforeAll(async () => {
  [pg, sandbox] = await Promise.all([
    startPostgres(),
    startTestSandbox({ seed: 32, orders: 5000, now: new Date('2026-03-02T12:00:00Z') }),
  ]);
  proxy = await startRpcProxy(sandbox.url);
  env = { ...(await loginEnv(proxy.url)), PGPASSWORD: pg.password };
  orders = await rpcClient(sandbox.url).ok<number>('pos.order', 'search_count', [[]]);
  const r = await sync();
  expect(r.code, r.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
  await pg?.stop();
});

describe('sync --prune and a short id list', () => {
  it('a search reply capped at 1,000 ids: exit 6, one line, nothing pruned', async () => {
    proxy.rewrite.clear();
    proxy.rewrite.set(
      'search',
      onPosOrder((ids) => (ids as number[]).slice(0, 1000)),
    );
    const r = await sync(['--prune']);
    proxy.rewrite.clear();
    expect(r.code).toBe(6);
    expect(oneLine(r.stderr)).toMatch(
      new RegExp(
        `^posdata: Odoo listed 1,000 ids of pos\\.order but counts ${orders.toLocaleString('en-US')}; nothing was pruned in sales; `,
      ),
    );
    expect(await rows()).toBe(orders);
  });

  it('an empty search reply: exit 6, one line, nothing pruned', async () => {
    proxy.rewrite.set(
      'search',
      onPosOrder(() => []),
    );
    const r = await sync(['--prune']);
    proxy.rewrite.clear();
    expect(r.code).toBe(6);
    expect(oneLine(r.stderr)).toMatch(
      /^posdata: Odoo listed 0 ids of pos\.order but counts [\d,]+; nothing was pruned/,
    );
    expect(await rows()).toBe(orders);
  });

  it('a list that agrees with search_count but leaves out a record this run read: exit 6', async () => {
    const rpc = rpcClient(sandbox.url);
    const [id] = await rpc.ok<number[]>('pos.order', 'search', [[]], { limit: 1, order: 'id desc' });
    await rpc.ok('pos.order', 'write', [[id], { state: 'done' }]);
    proxy.rewrite.set(
      'search',
      onPosOrder((ids) => (ids as number[]).filter((i) => i !== id)),
    );
    proxy.rewrite.set(
      'search_count',
      onPosOrder((n) => (n as number) - 1),
    );
    const r = await sync(['--prune']);
    proxy.rewrite.clear();
    expect(r.code).toBe(6);
    expect(oneLine(r.stderr)).toMatch(
      new RegExp(
        `^posdata: Odoo's list of pos\\.order ids leaves out ${id}, which this run just read; nothing was pruned`,
      ),
    );
    expect(await rows()).toBe(orders);
  });

  it('more than --prune-max of a table is refused (exit 2, nothing pruned); --prune-max lets it go', async () => {
    // 1,000 rows Odoo does not have: a fifth of the table.
    await pg.query('insert into posdata.sales (id) select generate_series(50000001, 50001000)');
    const r = await sync(['--prune']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(
      /^posdata: --prune would delete 1,000 of the [\d,]+ rows of sales \(\d+ %\), more than --prune-max 10 %; nothing was pruned; .*--prune-max \d+/,
    );
    expect(await rows()).toBe(orders + 1000);
    const ok = await sync(['--prune', '--prune-max', '25']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(await rows()).toBe(orders);
  });

  it('--prune-max is a percentage', async () => {
    for (const bad of ['-1', '101', 'lots']) {
      const r = await sync(['--prune', '--prune-max', bad]);
      expect(r.code).toBe(2);
      expect(oneLine(r.stderr)).toMatch(/^posdata: --prune-max '.*' is not a percentage from 0 to 100; /);
    }
  });
});
