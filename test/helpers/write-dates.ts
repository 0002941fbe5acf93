// What a paging test compares with: each record's write_date as the server sends it (cut to
// the second), how crowded the most crowded second is (to show that a test's page size is
// smaller than it), and a synced table's rows against them.
import { expect } from 'vitest';
import type { TestPostgres } from './postgres.js';
import type { Rpc } from './rpc.js';

/** The model's records, archived ones too: id → write_date. */
export async function writeDates(rpc: Rpc, model: string): Promise<Map<number, string>> {
  const rows = await rpc.searchRead<{ id: number; write_date: string }>(model, [], {
    fields: ['write_date'],
    context: { active_test: false },
  });
  return new Map(rows.map((r) => [r.id, r.write_date]));
}

/** The most records sharing one write_date second. */
export function crowdest(records: Map<number, string>): number {
  const per = new Map<string, number>();
  for (const w of records.values()) per.set(w, (per.get(w) ?? 0) + 1);
  return Math.max(...per.values());
}

/** A synced table's rows: id → write_date (UTC, Odoo's format); a repeated id would show in `rows`. */
export async function tableWriteDates(
  pg: TestPostgres,
  table: string,
): Promise<{ rows: number; dates: Map<number, string> }> {
  const rows = await pg.query<{ id: number; w: string }>(
    `select id, to_char(write_date at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as w from ${table}`,
  );
  return { rows: rows.length, dates: new Map(rows.map((x) => [x.id, x.w])) };
}

/**
 * Each synced table holds the model's records, each once, with their write_date; and, given
 * `page`, each model has a second more crowded than a page (the case the test is about).
 */
export async function expectSyncedOnce(
  pg: TestPostgres,
  rpc: Rpc,
  tables: (readonly [string, string])[],
  page?: number,
): Promise<void> {
  for (const [table, model] of tables) {
    const want = await writeDates(rpc, model);
    if (page !== undefined)
      expect(crowdest(want), `${model}: a second with more records than a page`).toBeGreaterThan(page);
    const got = await tableWriteDates(pg, `posdata.${table}`);
    expect(got.rows, table).toBe(want.size);
    expect(got.dates).toEqual(want);
  }
}
