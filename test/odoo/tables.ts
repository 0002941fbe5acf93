// The tables of `posdata sync` checked against direct RPC to the Odoo they were synced from
// (shared by the read-only sync test and the test that writes to its own Odoo).
import { expect } from 'vitest';
import type { TestPostgres } from '../helpers/postgres.js';
import type { Rpc } from '../helpers/rpc.js';
import type { Fields } from './reference.js';

/** The tables of `posdata sync` (README) and the models they mirror. */
export const TABLES = [
  ['configs', 'pos.config'],
  ['payment_methods', 'pos.payment.method'],
  ['sessions', 'pos.session'],
  ['sales', 'pos.order'],
  ['lines', 'pos.order.line'],
  ['payments', 'pos.payment'],
  ['products', 'product.template'],
] as const;

/**
 * Each table against Odoo: the same ids once each, every numeric column summed to the
 * cent as Odoo's values are, and Odoo's latest write_date as the reported watermark.
 */
export async function expectTables(
  pg: TestPostgres,
  schema: string,
  rpc: Rpc,
  stderr: string,
): Promise<void> {
  for (const [table, model] of TABLES) {
    const fields = await rpc.kw<Fields>(model, 'fields_get', [], { attributes: ['type', 'store'] });
    const context = { active_test: !('active' in fields) };
    const columns = (
      await pg.query<{ column_name: string }>(
        'select column_name from information_schema.columns where table_schema = $1 and table_name = $2',
        [schema, table],
      )
    ).map((c) => c.column_name);
    const numeric = columns.filter((c) => ['float', 'monetary'].includes(fields[c]?.type as string));
    const recs = await rpc.searchRead(model, [], {
      fields: [...numeric, 'write_date'],
      order: 'id',
      context,
    });
    const rows = await pg.query<{ id: number }>(`select id from "${schema}"."${table}" order by id`);
    expect(
      rows.map((r) => r.id),
      `${schema}.${table}: the ids of ${model}`,
    ).toEqual(recs.map((r) => r.id));
    expect(recs.length, `${model}: search_count = search_read`).toBe(
      await rpc.kw<number>(model, 'search_count', [[]], { context }),
    );
    for (const c of numeric) {
      const [s] = await pg.query<{ s: string | null }>(
        `select sum("${c}")::text as s from "${schema}"."${table}"`,
      );
      const cents = recs.reduce((a, r) => a + Math.round(((r[c] as number) || 0) * 100), 0);
      expect(Math.round(Number(s?.s ?? 0) * 100), `${schema}.${table}.${c}: the sum of Odoo's`).toBe(cents);
    }
    const latest = recs.reduce((a, r) => ((r.write_date as string) > a ? (r.write_date as string) : a), '');
    expect(stderr, `${table}: watermark`).toMatch(
      new RegExp(`^${table}: [\\d,]+ upserted, 0 pruned, watermark ${latest} UTC$`, 'm'),
    );
  }
}
