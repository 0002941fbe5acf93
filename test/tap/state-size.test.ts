// The size of the tap's STATE after a bulk edit: each STATE along the way carries at most
// MAX_SENT digests per stream (not one per record changed within the overlap, repeated after
// every page), the run's last one all of them, and records written before the settled time
// (the server's clock less the overlap) none at all. What a STATE leaves out is sent again
// by a run resumed from it (a duplicate), never lost.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SENT } from '../../src/tap/state.js';
import { freshConfigDir, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { tapConfig } from './config.js';
import { checkOutput, type StateValue } from './singer.js';

let sandbox: SandboxHandle;
let rpc: Rpc;
let dir: string;
let n = 0;

const file = (doc: unknown): string => {
  const p = join(dir, `s${++n}.json`);
  writeFileSync(p, JSON.stringify(doc));
  return p;
};

const tap = (state?: StateValue) =>
  runCli(
    [
      'tap',
      '--config',
      file(tapConfig(sandbox, { page_size: 500, streams: ['sales'] })),
      ...(state ? ['--state', file(state)] : []),
    ],
    { env: { POSDATA_CONFIG_DIR: dir } },
  );

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 21, orders: 2500, days: 5, adminKey: SUITE_SECRET });
  rpc = new Rpc(sandbox.url, 'demo', 'admin', SUITE_SECRET);
  dir = freshConfigDir();
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
});

describe('the STATE after a bulk edit', () => {
  it('carries no digest for records older than the settled time', async () => {
    // The data end at the test's fixed day, long before the server's clock: all settled, the
    // bookmark's own second too (its records are done by id).
    const r = await tap();
    expect(r.code).toBe(0);
    const c = checkOutput(r.stdout);
    const b = c.last.bookmarks.sales as { write_date: string; settled?: string; sent: unknown[] };
    expect(b.sent).toEqual([]);
    expect(Date.parse(b.settled ?? '') - Date.parse(b.write_date)).toBe(1000);
    // From it, nothing is sent again.
    const again = checkOutput((await tap(c.last)).stdout);
    expect(again.records.get('sales') ?? []).toEqual([]);
  }, 60_000);

  it('a run reads from the settled time its STATE carries, not its own: what committed late meanwhile comes', async () => {
    // A STATE written when the records since `settled` could still commit late: a later run,
    // whose own clock has settled past the bookmark, still reads from there.
    const c = checkOutput((await tap()).stdout);
    const b = c.last.bookmarks.sales as { write_date: string; id: number };
    const back = new Date(Date.parse(b.write_date) - 300_000).toISOString().slice(0, 19);
    const late = (c.records.get('sales') ?? []).filter(
      (r) => r.write_date.slice(0, 19) >= back && r.write_date < b.write_date,
    );
    expect(late.length).toBeGreaterThan(0);
    const settled = late.map((r) => r.write_date).sort()[0] as string;
    const r = await tap({ bookmarks: { sales: { write_date: b.write_date, id: b.id, settled, sent: [] } } });
    expect(r.code).toBe(0);
    const again = (checkOutput(r.stdout).records.get('sales') ?? []).map((x) => x.id);
    for (const x of late) expect(again).toContain(x.id);
  }, 60_000);

  it(`carries at most ${MAX_SENT} digests along the way and all of them last: the next run sends again only what changed`, async () => {
    const first = checkOutput((await tap()).stdout);
    const ids = (await rpc.kw('pos.order', 'search', [[]], { order: 'id', limit: 2000 })) as number[];
    expect(ids.length).toBe(2000);
    // A steady load: more than MAX_SENT records written within the overlap, in batches.
    for (let i = 0; i < ids.length; i += 400)
      await rpc.kw('pos.order', 'write', [ids.slice(i, i + 400), { note: 'load' }]);
    const r = await tap(first.last);
    expect(r.code).toBe(0);
    const c = checkOutput(r.stdout);
    expect(
      c.records
        .get('sales')
        ?.map((x) => x.id)
        .sort((a, b) => a - b),
    ).toEqual(ids);
    const states = r.stdout.split('\n').filter((l) => l.startsWith('{"type":"STATE"'));
    // 4 pages: 20,000 bytes of digests each at most, rather than 2,000 × 47; the last lists all.
    for (const l of states.slice(0, -1)) expect(l.length).toBeLessThan(MAX_SENT * 50 + 500);
    expect(c.last.bookmarks.sales?.sent.length).toBe(ids.length);
    // From that STATE at once: nothing again (a fixed cap sent the 1,000 it left out again,
    // each run, as long as the load went on).
    // (Not checkOutput: its rule that nothing comes after a STATE covering it is what a
    // duplicate breaks.)
    const sentBy = (stdout: string) =>
      stdout
        .split('\n')
        .filter((l) => l.startsWith('{"type":"RECORD"'))
        .map((l) => (JSON.parse(l) as { record: { id: number } }).record.id)
        .sort((a, b) => a - b);
    const again = await tap(c.last);
    expect(again.code).toBe(0);
    expect(sentBy(again.stdout)).toEqual([]);
    // The load goes on: the next run sends what it wrote, and no more. Its writes fall in a
    // later second: a write within the second already sent changes no field the stream
    // carries (write_date included), so it is the same record, rightly not sent twice (on an
    // idle machine the two runs above take less than that second).
    await new Promise((r) => setTimeout(r, 1100));
    const more = ids.slice(0, 300);
    await rpc.kw('pos.order', 'write', [more, { note: 'more load' }]);
    const next = await tap(c.last);
    expect(next.code).toBe(0);
    expect(sentBy(next.stdout)).toEqual(more);
  }, 120_000);
});
