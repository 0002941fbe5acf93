// --prune: rows whose record Odoo no longer has (a deleted draft order, its lines) are
// deleted. Odoo's ids come page by page in id order; each page covers an id range, and the
// rows of that range that are not in the page go. Only one page of ids is held at a time.
import type { OdooClient } from '../core/client.js';
import { type Db, ident } from './postgres.js';

/** Ids per `search` request. */
const IDS_PER_PAGE = 20_000;

export async function pruneResource(
  odoo: OdooClient,
  db: Db,
  o: { schema: string; table: string; model: string; context?: Record<string, unknown> },
): Promise<number> {
  const t = `${ident(o.schema)}.${ident(o.table)}`;
  const kw: Record<string, unknown> = { order: 'id', limit: IDS_PER_PAGE };
  if (o.context) kw.context = o.context;
  let after = 0;
  let pruned = 0;
  for (;;) {
    const ids = (await odoo.executeKw(o.model, 'search', [[['id', '>', after]]], kw)) as number[];
    if (ids.length < IDS_PER_PAGE) {
      // The last range is open: every row above the last id Odoo has goes too.
      const r = await db.query(`DELETE FROM ${t} WHERE id > $1 AND NOT (id = ANY($2::integer[]))`, [
        after,
        ids,
      ]);
      return pruned + (r.rowCount ?? 0);
    }
    const high = ids[ids.length - 1] as number;
    const r = await db.query(
      `DELETE FROM ${t} WHERE id > $1 AND id <= $2 AND NOT (id = ANY($3::integer[]))`,
      [after, high, ids],
    );
    pruned += r.rowCount ?? 0;
    after = high;
  }
}
