// Paging by write_date through a second crowded with writes, against the sandbox: it keeps
// write_date to the microsecond and sends it cut to the second, as Odoo does, and its default
// data has a session close that wrote more than 500 orders in one transaction. With a page
// smaller than that second, a checkpointed export and a sync still read every record once.
// (test/odoo/paging.test.ts does the same against a real Odoo 17.)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { crowdest, expectSyncedOnce, writeDates } from '../helpers/write-dates.js';

const PAGE = 100;

let sandbox: SandboxHandle;
let pg: TestPostgres;
let env: Record<string, string>;
let rpc: Rpc;
let dir: string;

beforeAll(async () => {
  // The default data, as `posdata sandbox` starts it.
  [sandbox, pg] = await Promise.all([
    startTestSandbox({ now: new Date('2026-11-25T12:00:00Z') }),
    startPostgres(),
  ]);
  env = { ...(await loginEnv(sandbox.url)), PGPASSWORD: pg.password };
  rpc = new Rpc(sandbox.url);
  dir = mkdtempSync(join(tmpdir(), 'posdata-paging-'));
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await pg?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a second with more records than a page (sandbox)', () => {
  it(`sales --checkpoint --page-size ${PAGE}: every order once, and the next run goes on`, async () => {
    const want = await writeDates(rpc, 'pos.order');
    expect(crowdest(want)).toBeGreaterThan(5 * PAGE);
    const cp = join(dir, 'sales.ckpt');
    const run = (out: string) =>
      runCli(['sales', '--checkpoint', cp, '--page-size', String(PAGE), '--rate', '0', '-o', out], { env });
    const out = join(dir, 'sales.json');
    const r = await run(out);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const got = (JSON.parse(readFileSync(out, 'utf8')) as { id: number }[]).map((x) => x.id);
    expect(got.length).toBe(new Set(got).size);
    expect(new Set(got)).toEqual(new Set(want.keys()));
    const again = await run(join(dir, 'sales-2.json'));
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
  });

  it(`sync --page-size ${PAGE}: the tables hold the records, each once, run after run`, async () => {
    const sync = () =>
      runCli(
        [
          ...['sync', 'sales', 'payments', '--to', pg.url({ password: '' })],
          ...['--page-size', String(PAGE), '--rate', '0', '--quiet'],
        ],
        { env },
      );
    for (let run = 1; run <= 2; run++) {
      const r = await sync();
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      await expectSyncedOnce(pg, rpc, [
        ['sales', 'pos.order'],
        ['payments', 'pos.payment'],
      ]);
    }
  });
});
