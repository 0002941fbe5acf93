// A server that caps search_read (a proxy, a module: `--faults cap=N` on the sandbox) answers
// pages shorter than asked while more records match. Every reader took the first such page
// for the end: the plain lists returned the first N with exit 0, and sync, the tap and the
// checkpointed exports moved their watermark past records never read. Now a short page is
// the end only where Odoo's count agrees: otherwise exit 6, one line naming the cap, and no
// checkpoint, watermark or bookmark past what was read.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const CAP = 25;
let sandbox: SandboxHandle;
let env: Record<string, string>;
let dir: string;
let rpc: Rpc;

beforeAll(async () => {
  sandbox = await startTestSandbox({
    seed: 3,
    orders: 400,
    days: 14,
    adminKey: SUITE_SECRET,
    faults: `cap=${CAP}`,
  });
  env = await loginEnv(sandbox.url, 'admin', SUITE_SECRET);
  rpc = new Rpc(sandbox.url, 'demo', 'admin', SUITE_SECRET);
  dir = mkdtempSync(join(tmpdir(), 'posdata-short-page-'));
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
});

/** The one line a capped read ends on, naming the setting that pages under the cap. */
function cappedLine(stderr: string, setting = `--page-size ${CAP - 1}`): void {
  const lines = stderr.trim().split('\n');
  expect(lines.filter((l) => l.includes(`caps search_read at ${CAP} records`))).toHaveLength(1);
  expect(stderr).toContain(`read in pages under the cap: ${setting}`);
}

describe('a page shorter than asked while more match', () => {
  it('the sandbox caps search_read, and its count still says how many match', async () => {
    const page = await rpc.searchRead('pos.order', [], { fields: ['id'], limit: 500 });
    expect(page).toHaveLength(CAP);
    expect(await rpc.kw('pos.order', 'search_count', [[]])).toBeGreaterThan(CAP);
  });

  for (const [what, args] of [
    ['sales', ['sales', '--from', '2000-01-01', '--to', 'today', '--tz', 'UTC']],
    [
      'sales --sort amount_total (pages by offset)',
      ['sales', '--from', '2000-01-01', '--sort', 'amount_total'],
    ],
    ['closures', ['closures', '--from', '2000-01-01', '--to', 'today']],
  ] as const) {
    it(`${what}: exit 6 naming the cap, no file`, async () => {
      const out = join(dir, `${what.split(' ')[0]}.csv`);
      const r = await runCli([...args, '--rate', '0', '--page-size', '100', '--format', 'csv', '-o', out], {
        env,
      });
      expect(r.code, r.stderr).toBe(6);
      cappedLine(r.stderr);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('reconcile, which takes no --page-size, reads on in pages under the cap: every closed session', async () => {
    const closed = (await rpc.kw('pos.session', 'search_count', [[['state', '=', 'closed']]])) as number;
    expect(closed).toBeGreaterThan(CAP);
    const r = await runCli(
      ['reconcile', '--from', '2000-01-01', '--to', 'today', '--rate', '0', '--format', 'json'],
      {
        env,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(closed);
  });

  it('pages under the cap, as the line advises, read everything', async () => {
    const all = (await rpc.kw('pos.order', 'search_count', [[]])) as number;
    const r = await runCli(
      ['sales', '--from', '2000-01-01', '--rate', '0', '--page-size', String(CAP - 1), '--format', 'json'],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(all);
  });

  it('a short page after a whole one is the end without asking the count', async () => {
    // Whole pages of 24 say a cap is at least 24: the last, shorter page is no cap's doing.
    const all = (await rpc.kw('pos.order', 'search_count', [[]])) as number;
    const r = await runCli(
      ['sales', '--rate', '0', '--page-size', String(CAP - 1), '--format', 'ndjson', '--debug'],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(all);
    expect(all % (CAP - 1)).not.toBe(0);
    expect(r.stderr).toContain('pos.order.search_read');
    expect(r.stderr).not.toContain('search_count');
  });

  it('a checkpointed export writes no checkpoint', async () => {
    const cp = join(dir, 'sales.ckpt');
    const out = join(dir, 'cp.csv');
    const r = await runCli(['sales', '--checkpoint', cp, '--rate', '0', '--page-size', '100', '-o', out], {
      env,
    });
    expect(r.code, r.stderr).toBe(6);
    cappedLine(r.stderr);
    expect(existsSync(cp)).toBe(false);
    expect(existsSync(out)).toBe(false);
  });

  it('the tap moves no bookmark past what it sent', async () => {
    const cfg = join(dir, 'tap.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        url: sandbox.url,
        db: 'demo',
        user: 'admin',
        password: SUITE_SECRET,
        rate: 0,
        page_size: 100,
        streams: ['sales'],
      }),
    );
    const r = await runCli(['tap', '--config', cfg], { env: { POSDATA_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(6);
    // The tap has no --page-size: its config's page_size is what pages under the cap.
    cappedLine(r.stderr, `"page_size": ${CAP - 1} in the config`);
    expect(r.stderr).not.toContain('--page-size');
    // Whatever STATE came out covers no more than the records sent before it.
    const states = r.stdout.split('\n').filter((l) => l.startsWith('{"type":"STATE"'));
    for (const s of states) {
      const b = (JSON.parse(s) as { value: { bookmarks: Record<string, unknown> } }).value.bookmarks.sales;
      expect(b).toBeUndefined();
    }
  });
});

describe('sync over a capped server', () => {
  let pg: TestPostgres;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await pg?.stop();
  });

  it('the first read stores no watermark and no first-read mark past what it committed', async () => {
    const r = await runCli(
      [
        'sync',
        'sales',
        '--to',
        pg.url({ password: '' }),
        '--schema',
        'capped',
        '--rate',
        '0',
        '--page-size',
        '100',
      ],
      { env: { ...env, PGPASSWORD: pg.password } },
    );
    expect(r.code, r.stderr).toBe(6);
    cappedLine(r.stderr);
    const state = await pg.query<{ watermark: string | null; first_read_after_id: number | null }>(
      'select watermark, first_read_after_id from capped.posdata_sync_state',
    );
    expect(state.map((s) => s.watermark)).toEqual([null]);
    expect(state[0]?.first_read_after_id ?? null).toBe(null);
    expect(await pg.query('select id from capped.sales')).toEqual([]);
  });
});
