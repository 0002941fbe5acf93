// Paging by write_date on a real Odoo 17: Odoo keeps write_date to the microsecond but answers
// whole seconds, and its bundled data has sessions closed in one transaction (dozens of
// orders, lines and payments in one second). With a page smaller than such a second, a
// checkpointed export and a sync must still read every record, each once.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loginOdoo, rpcOdoo } from '../helpers/odoo17.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import type { Rpc } from '../helpers/rpc.js';
import { crowdest, expectSyncedOnce, writeDates } from '../helpers/write-dates.js';

const odoo = inject('odoo');
const PAGE = 10;

describe('a second with more records than a page, on a real Odoo 17', () => {
  let rpc: Rpc;
  let env: Record<string, string>;
  let dir: string;
  beforeAll(async () => {
    rpc = await rpcOdoo(odoo);
    env = await loginOdoo(odoo);
    dir = mkdtempSync(join(tmpdir(), 'posdata-paging-'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const [name, model] of [
    ['sales', 'pos.order'],
    ['payments', 'pos.payment'],
  ] as const) {
    it(`${name} --checkpoint --page-size ${PAGE}: every record once, and the next run goes on`, async () => {
      const want = await writeDates(rpc, model);
      // The data must show the case: more records in one second than a page holds.
      expect(crowdest(want)).toBeGreaterThan(PAGE);
      const cp = join(dir, `${name}.ckpt`);
      const out = join(dir, `${name}.json`);
      const run = (o: string) =>
        runCli([name, '--checkpoint', cp, '--page-size', String(PAGE), '--rate', '0', '-o', o], { env });
      const r = await run(out);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const got = (JSON.parse(readFileSync(out, 'utf8')) as { id: number }[]).map((x) => x.id);
      expect(got.length).toBe(new Set(got).size);
      expect(new Set(got)).toEqual(new Set(want.keys()));
      // The next run re-reads the overlap (these seconds again) and ends as well.
      const again = await run(join(dir, `${name}-2.json`));
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
    });
  }

  describe('sync', () => {
    let pg: TestPostgres;
    beforeAll(async () => {
      pg = await startPostgres();
    });
    afterAll(async () => {
      await pg?.stop();
    });

    it(`--page-size ${PAGE}: the tables hold Odoo's records, each once, run after run`, async () => {
      const sync = () =>
        runCli(
          [
            'sync',
            'sales',
            'lines',
            'payments',
            '--to',
            pg.url(),
            '--page-size',
            String(PAGE),
            '--rate',
            '0',
            '--quiet',
          ],
          { env },
        );
      for (let run = 1; run <= 2; run++) {
        const r = await sync();
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        await expectSyncedOnce(
          pg,
          rpc,
          [
            ['sales', 'pos.order'],
            ['lines', 'pos.order.line'],
            ['payments', 'pos.payment'],
          ],
          PAGE,
        );
      }
    });
  });
});
