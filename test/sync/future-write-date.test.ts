// A reply whose records carry a write_date far ahead of the server's clock (a clock that jumped,
// a restored VM, an import, a lying proxy) must not move the sync watermark or the tap's
// bookmark there: every later window would be empty and Odoo's changes would pile up unseen.
// A proxy of the test's own dates the last pos.order of some search_read replies 2099-01-01;
// the run says so in one line, and the next run (an honest reply) still sees a new change.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const FUTURE = '2099-01-01 00:00:00';

let pg: TestPostgres;
let sandbox: SandboxHandle;
let proxy: RpcProxy;
let env: Record<string, string>;

const sync = (args: string[] = []) =>
  runCli(
    [
      'sync',
      'sales',
      '--fields',
      'note',
      '--to',
      pg.url({ password: '' }),
      '--rate',
      '0',
      '--quiet',
      ...args,
    ],
    { env },
  );

/** pos.order search_read replies with their last record dated 2099 (on or off). */
function lie(on: boolean): void {
  proxy.rewrite.clear();
  if (!on) return;
  proxy.rewrite.set('search_read', (result, body) => {
    const args = (JSON.parse(body) as { params: { args: unknown[] } }).params.args;
    if (args[3] !== 'pos.order' || !Array.isArray(result) || result.length === 0) return result;
    const rows = result as Record<string, unknown>[];
    rows[rows.length - 1] = { ...rows[rows.length - 1], write_date: FUTURE };
    return rows;
  });
}

async function touch(): Promise<number> {
  const rpc = rpcClient(sandbox.url);
  const [id] = await rpc.ok<number[]>('pos.order', 'search', [[['state', '=', 'paid']]], {
    limit: 1,
    order: 'id desc',
  });
  await rpc.ok('pos.order', 'write', [[id], { note: `touched ${Date.now()}` }]);
  return id as number;
}

const watermark = async (schema: string) =>
  (
    await pg.query<{ w: string }>(
      `select to_char(watermark at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as w from ${schema}.posdata_sync_state where resource = 'sales'`,
    )
  )[0]?.w;

const aheadLine = (stderr: string, what: 'watermark' | 'bookmark') => {
  const lines = stderr.split('\n').filter((l) => l.includes('ahead of the server'));
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(
    new RegExp(`write_date ${FUTURE} UTC, ahead of the server's clock .*the ${what} stays at`),
  );
};

beforeAll(async () => {
  // A fixed past `now`: the data does not move with the clock; what is written meanwhile
  // gets the server's clock, which is this machine's.
  [pg, sandbox] = await Promise.all([
    startPostgres(),
    startTestSandbox({ seed: 31, orders: 400, now: new Date('2026-03-02T12:00:00Z') }),
  ]);
  proxy = await startRpcProxy(sandbox.url);
  env = { ...(await loginEnv(proxy.url)), PGPASSWORD: pg.password };
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
  await pg?.stop();
});

describe('a write_date ahead of the server clock', () => {
  it('sync: the watermark stays behind the clock, and the next run sees a new change', async () => {
    lie(false);
    expect((await sync(['--schema', 'inc'])).code).toBe(0);
    await touch();
    lie(true);
    const r = await sync(['--schema', 'inc']);
    expect(r.code, r.stderr).toBe(0);
    aheadLine(r.stderr, 'watermark');
    const wm = (await watermark('inc')) as string;
    expect(wm < '2099').toBe(true);
    expect(Date.parse(`${wm.replace(' ', 'T')}Z`)).toBeLessThanOrEqual(Date.now() + 61_000);

    lie(false);
    const id = await touch();
    const next = await sync(['--schema', 'inc']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toBe('');
    const [row] = await pg.query<{ note: string | null }>('select note from inc.sales where id = $1', [id]);
    const [odoo] = await rpcClient(sandbox.url).ok<{ note: string }[]>('pos.order', 'read', [[id], ['note']]);
    expect(row?.note).toBe(odoo?.note);
  });

  it('sync: a first read whose newest record lies ahead does not start the watermark there', async () => {
    lie(true);
    const r = await sync(['--schema', 'first']);
    expect(r.code, r.stderr).toBe(0);
    aheadLine(r.stderr, 'watermark');
    expect(((await watermark('first')) as string) < '2099').toBe(true);
    lie(false);
    const id = await touch();
    expect((await sync(['--schema', 'first'])).code).toBe(0);
    const [row] = await pg.query<{ note: string | null }>('select note from first.sales where id = $1', [id]);
    expect(row?.note).toMatch(/^touched /);
  });

  it('sync: that first read stores the server clock, not a minute past it: with --overlap 0 the next run reads what is written meanwhile', async () => {
    lie(true);
    const r = await sync(['--schema', 'clamp', '--overlap', '0']);
    expect(r.code, r.stderr).toBe(0);
    aheadLine(r.stderr, 'watermark');
    const wm = (await watermark('clamp')) as string;
    // The sandbox's clock is this machine's: the watermark is no later than now.
    expect(Date.parse(`${wm.replace(' ', 'T')}Z`)).toBeLessThanOrEqual(Date.now());
    expect(r.stderr).toContain(`the watermark stays at ${wm} UTC`);
    lie(false);
    const id = await touch();
    expect((await sync(['--schema', 'clamp', '--overlap', '0'])).code).toBe(0);
    const [row] = await pg.query<{ note: string | null }>('select note from clamp.sales where id = $1', [id]);
    expect(row?.note).toMatch(/^touched /);
  });

  it('tap: the bookmark stays behind the clock, and the next run sends a new change', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'posdata-future-'));
    const config = join(dir, 'tap.json');
    const stateFile = join(dir, 'state.json');
    writeFileSync(
      config,
      JSON.stringify({
        url: proxy.url,
        db: 'demo',
        user: 'admin',
        password: 'admin',
        rate: 0,
        streams: ['sales'],
      }),
    );
    const tap = (withState: boolean) =>
      runCli(['tap', '--config', config, ...(withState ? ['--state', stateFile] : [])], { env });
    const lastState = (stdout: string) => {
      const states = stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { type: string; value?: unknown })
        .filter((m) => m.type === 'STATE');
      return states[states.length - 1]?.value as { bookmarks: { sales: { write_date: string } } };
    };
    // A first read whose newest record lies ahead: its bookmark is the server's clock.
    lie(true);
    const clamped = await tap(false);
    expect(clamped.code, clamped.stderr).toBe(0);
    aheadLine(clamped.stderr, 'bookmark');
    const at = lastState(clamped.stdout).bookmarks.sales.write_date;
    expect(Date.parse(at)).toBeLessThanOrEqual(Date.now());
    lie(false);
    const first = await tap(false);
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(stateFile, JSON.stringify(lastState(first.stdout)));
    await touch();
    lie(true);
    const r = await tap(true);
    expect(r.code, r.stderr).toBe(0);
    aheadLine(r.stderr, 'bookmark');
    const state = lastState(r.stdout);
    expect(state.bookmarks.sales.write_date < '2099').toBe(true);
    writeFileSync(stateFile, JSON.stringify(state));

    lie(false);
    const id = await touch();
    const next = await tap(true);
    expect(next.code, next.stderr).toBe(0);
    const sent = next.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; record?: { id: number; note?: string } })
      .filter((m) => m.type === 'RECORD' && m.record?.id === id);
    expect(sent.length).toBe(1);
  });
});
