// --prune: rows whose record Odoo no longer has (a deleted draft order, its lines) are
// deleted. A short id list would delete rows Odoo still has (a proxy or a module that caps
// replies, a narrower company context than earlier runs, a lying server), so the list is
// checked before anything goes: it is read whole (in id pages, each after the last), it must
// be as long as Odoo's `search_count` of the same domain (asked first, so records created
// meanwhile make it only longer), and it must hold every id this run read. Then the rows
// that are not in it are deleted in one transaction, which is rolled back when it would
// delete more than --prune-max percent of the table's rows (and more than `floor` rows).
import type { OdooClient } from '../core/client.js';
import { ProtocolError, UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import { type Db, ident } from './postgres.js';

/** Ids per `search` request, and per DELETE. */
const IDS_PER_PAGE = 20_000;

const count = (n: number) => n.toLocaleString('en-US');

/** What pruneResource is asked: the table, its model, the limits and what the run read. */
export interface PruneOptions {
  schema: string;
  table: string;
  model: string;
  context?: Record<string, unknown>;
  /** --prune-max: the largest share of the table's rows (percent) a run may delete. */
  maxPercent: number;
  /** So many rows may always be pruned, whatever share of the table they are. */
  floor: number;
  /** The ids this run read from Odoo: each must be in the list. */
  read: readonly number[];
  /**
   * The run's companies, where the table's rows say theirs (company_id): only their rows
   * (and those of no company, which every company sees) are pruned; another cron's
   * companies' rows are not in this run's list and stay.
   */
  companies?: readonly number[];
}

export async function pruneResource(odoo: OdooClient, db: Db, o: PruneOptions): Promise<number> {
  const counted = await odoo.searchCount(o.model, [], o.context);
  const ids = await everyId(odoo, o);
  checkWhole(ids, counted, o);
  const scope = o.companies
    ? ` AND (company_id IS NULL OR company_id = ANY('{${o.companies.join(',')}}'::integer[]))`
    : '';
  const t = `${ident(o.schema)}.${ident(o.table)}`;
  const rows = Number((await db.query(`SELECT count(*) AS n FROM ${t} WHERE true${scope}`)).rows[0]?.n ?? 0);
  const pruned = await deleteOthers(db, t, scope, ids, (n) => n > o.floor && n * 100 > o.maxPercent * rows);
  if (pruned.rolledBack) {
    const share = Math.ceil((pruned.rows * 100) / rows);
    throw new UsageError(
      say`--prune would delete ${count(pruned.rows)} of the ${count(rows)} rows of ${own(o.table)} (${own(String(share))} %), more than --prune-max ${own(String(o.maxPercent))} %; nothing was pruned`,
      say`check that Odoo really deleted them (${own(o.model)}); if so, run again with --prune-max ${own(String(share))}`,
    );
  }
  return pruned.rows;
}

/** Every id of the model Odoo lists, in id pages each after the last, checked ascending. */
async function everyId(odoo: OdooClient, o: PruneOptions): Promise<number[]> {
  const kw: Record<string, unknown> = { order: 'id', limit: IDS_PER_PAGE };
  if (o.context) kw.context = o.context;
  const ids: number[] = [];
  for (let after = 0; ; ) {
    const page = (await odoo.executeKw(o.model, 'search', [[['id', '>', after]]], kw)) as unknown;
    if (!Array.isArray(page))
      throw new ProtocolError(
        say`the server's reply to ${own(o.model)}.search is not a list of ids; nothing was pruned in ${own(o.table)}`,
        say`check that --url points at Odoo itself`,
      );
    for (const id of page) {
      if (!Number.isSafeInteger(id) || (id as number) <= after)
        throw new ProtocolError(
          say`the server's reply to ${own(o.model)}.search is not ids in ascending order (${String(id)} after ${String(after)}); nothing was pruned in ${own(o.table)}`,
          say`check that --url points at Odoo itself`,
        );
      ids.push(id as number);
      after = id as number;
    }
    if (page.length < IDS_PER_PAGE) break;
  }
  return ids;
}

/** The list is whole: as long as Odoo's count, and holding every id this run read. */
function checkWhole(ids: readonly number[], counted: number, o: PruneOptions): void {
  const short = say`a proxy or a module that caps replies, or another company context than the earlier runs, can cut the list; rows Odoo still has would have been deleted. Run again; if it persists, sync without --prune`;
  if (ids.length < counted)
    throw new ProtocolError(
      say`Odoo listed ${count(ids.length)} ids of ${own(o.model)} but counts ${count(counted)}; nothing was pruned in ${own(o.table)}`,
      short,
    );
  const read = [...o.read].sort((a, b) => a - b);
  for (let i = 0, j = 0; i < read.length; i++) {
    const id = read[i] as number;
    while (j < ids.length && (ids[j] as number) < id) j++;
    if (ids[j] !== id)
      throw new ProtocolError(
        say`Odoo's list of ${own(o.model)} ids leaves out ${String(id)}, which this run just read; nothing was pruned in ${own(o.table)}`,
        short,
      );
  }
}

/**
 * The rows of table `t` (within `scope`) whose id is not in `ids` deleted in one
 * transaction, rolled back when `tooMany` says of their count.
 */
async function deleteOthers(
  db: Db,
  t: string,
  scope: string,
  ids: readonly number[],
  tooMany: (rows: number) => boolean,
): Promise<{ rows: number; rolledBack: boolean }> {
  let pruned = 0;
  let rolledBack = false;
  await db.query('BEGIN');
  try {
    for (let i = 0, after = 0; ; i += IDS_PER_PAGE) {
      const chunk = ids.slice(i, i + IDS_PER_PAGE);
      const last = i + IDS_PER_PAGE >= ids.length;
      // The last range is open: every row above the last id Odoo has goes too.
      const r = last
        ? await db.query(`DELETE FROM ${t} WHERE id > $1 AND NOT (id = ANY($2::integer[]))${scope}`, [
            after,
            chunk,
          ])
        : await db.query(
            `DELETE FROM ${t} WHERE id > $1 AND id <= $2 AND NOT (id = ANY($3::integer[]))${scope}`,
            [after, chunk[chunk.length - 1], chunk],
          );
      pruned += r.rowCount ?? 0;
      if (last) break;
      after = chunk[chunk.length - 1] as number;
    }
    rolledBack = tooMany(pruned);
    await db.query(rolledBack ? 'ROLLBACK' : 'COMMIT');
  } catch (err) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
  return { rows: pruned, rolledBack };
}
