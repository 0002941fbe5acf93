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

const odoo = inject('odoo');
const PAGE = 10;

/** Odoo's records of the model: id → write_date. */
async function odooRecords(rpc: Rpc, model: string): Promise<Map<number, string>> {
  const rows = await rpc.searchRead<{ id: number; write_date: string }>(model, [], {
    fields: ['write_date'],
    context: { active_test: false },
  });
  return new Map(rows.map((r) => [r.id, r.write_date]));
}

/** The most records sharing one write_date second. */
function crowdest(records: Map<number, string>): number {
  const per = new Map<string, number>();
  for (const w of records.values()) per.set(w, (per.get(w) ?? 0) + 1);
  return Math.max(...per.values());
}

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
      const want = await odooRecords(rpc, model);
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
        for (const [table, model] of [
          ['sales', 'pos.order'],
          ['lines', 'pos.order.line'],
          ['payments', 'pos.payment'],
        ] as const) {
          const want = await odooRecords(rpc, model);
          expect(crowdest(want)).toBeGreaterThan(PAGE);
          const rows = await pg.query<{ id: number; w: string }>(
            `select id, to_char(write_date at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as w from posdata.${table}`,
          );
          expect(rows.length).toBe(want.size);
          expect(new Map(rows.map((x) => [x.id, x.w]))).toEqual(want);
        }
      }
    });
  });
});
