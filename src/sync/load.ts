// One resource's incremental load: pages in (write_date, id) order from the watermark (less
// the overlap) up to the moment the run started; each page is COPYed into a staging table
// and upserted, and the watermark moves to the page's last second and the highest id of that
// second in it, in one transaction. Pages end where a second ends, or go through a crowded
// second by id (OdooClient.pages), so a watermark (T, n) covers exactly the records written
// before second T and those of T up to id n. A run killed at any point leaves every committed
// watermark covering exactly committed rows; the next run re-reads from there (less the
// overlap).
import type pg from 'pg';
import type { OdooClient } from '../core/client.js';
import { ProtocolError } from '../core/errors.js';
import { own, type Said, say } from '../core/redact.js';
import type { FieldMap, OdooRecord } from '../core/types.js';
import { readAhead } from '../read/ahead.js';
import { writeDateWindow } from '../read/checkpoint.js';
import { namedPages } from '../read/names.js';
import { amountCheck } from '../records/normalize.js';
import type { TablePlan } from './columns.js';
import { type Db, ident } from './postgres.js';
import { STATE_TABLE, type SyncState } from './state.js';

export interface LoadJob {
  odoo: OdooClient;
  db: Db;
  schema: string;
  table: string;
  model: string;
  plan: TablePlan;
  /** Fields read from Odoo (the plan's, and write_date for the watermark). */
  fetch: string[];
  manyToOne: string[];
  /**
   * Names that replace Odoo's label of a many2one, by field and id: a register's own name,
   * as Odoo 16/17 label it "Shop (Cashier)" only while a session is open.
   */
  ownNames?: Record<string, Map<number, string>>;
  /** The model's fields (fields_get). */
  defs: FieldMap;
  context?: Record<string, unknown>;
  state: SyncState | undefined;
  overlapSeconds: number;
  pageSize: number;
  /** Called with the running count of records read, for a progress line. */
  onPage?: (read: number) => void;
  /** Called once with the number of records in the window (only when a progress line shows). */
  total?: (n: number) => void;
  trace?: (line: Said) => void;
}

export interface LoadResult {
  upserted: number;
}

const ODOO_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

export async function loadResource(job: LoadJob): Promise<LoadResult> {
  const { db, plan } = job;
  const t = `${ident(job.schema)}.${ident(job.table)}`;
  const stage = ident(`posdata_stage_${job.table}`);
  const cols = plan.columns.map((c) => ident(c.name));
  const colList = cols.join(', ');
  const updates = cols.filter((c) => c !== '"id"');
  // Rows that come again unchanged (the overlap) are neither rewritten nor counted.
  const upsert =
    `INSERT INTO ${t} AS t (${colList}) SELECT ${colList} FROM ${stage} ` +
    (updates.length > 0
      ? `ON CONFLICT (id) DO UPDATE SET ${updates.map((c) => `${c} = EXCLUDED.${c}`).join(', ')} ` +
        `WHERE (${updates.map((c) => `t.${c}`).join(', ')}) IS DISTINCT FROM (${updates
          .map((c) => `EXCLUDED.${c}`)
          .join(', ')})`
      : 'ON CONFLICT (id) DO NOTHING');
  const stateTable = `${ident(job.schema)}.${STATE_TABLE}`;
  const resource = job.table.replace(/'/g, "''");

  await db.query(`DROP TABLE IF EXISTS pg_temp.${stage}`);
  await db.query(`CREATE TEMP TABLE ${stage} (LIKE ${t}) ON COMMIT DELETE ROWS`);

  const window = writeDateWindow(job.state?.watermark, job.overlapSeconds);
  if (job.total) job.total(await job.odoo.searchCount(job.model, window.domain, job.context));
  // The next page is read while this one is COPYed and committed (readAhead); the watermark
  // still moves only with a page's own commit, in order.
  const pages = readAhead(
    namedPages(
      job.odoo,
      {
        model: job.model,
        domain: window.domain,
        fields: job.fetch,
        order: 'write_date, id',
        pageSize: job.pageSize,
        context: job.context,
      },
      job.manyToOne,
    ),
  );
  const checkAmounts = amountCheck(
    job.model,
    job.fetch,
    job.defs,
    say`correct the record in Odoo; the sync stops before its page until then`,
  );
  let read = 0;
  let upserted = 0;
  for await (const records of pages) {
    checkAmounts(records);
    const last = records[records.length - 1] as OdooRecord;
    const wd = last.write_date;
    if (typeof wd !== 'string' || !ODOO_TIME.test(wd) || !Number.isSafeInteger(last.id)) {
      throw new ProtocolError(
        say`Odoo sent ${own(job.model)} ${String(last.id)} without an integer id and a write_date (${String(wd)})`,
        say`posdata sync needs both on every record`,
      );
    }
    if (job.ownNames) renamed(records, job.ownNames);
    // The pages end where a second ends, or go through a crowded second by id: the rows of
    // second wd committed so far are those up to the highest id of it seen.
    let wid = last.id;
    for (let i = records.length - 2; i >= 0 && (records[i] as OdooRecord).write_date === wd; i--)
      wid = Math.max(wid, (records[i] as OdooRecord).id);
    let body = '';
    for (let i = 0; i < records.length; i++) body += plan.line(records[i] as OdooRecord);
    await db.query('BEGIN');
    try {
      await db.copyIn(`COPY ${stage} (${colList}) FROM STDIN`, body);
      // The watermark only moves forward: re-reading the overlap does not take it back.
      const results = (await db.query(
        `${upsert}; UPDATE ${stateTable} SET watermark = '${wd}+00', watermark_id = ${wid}, synced_at = now() ` +
          `WHERE resource = '${resource}' AND (watermark IS NULL OR (watermark, watermark_id) < ('${wd}+00', ${wid})); COMMIT`,
      )) as unknown as pg.QueryResult[];
      upserted += results[0]?.rowCount ?? 0;
    } catch (err) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
    read += records.length;
    job.trace?.(say`${own(job.table)}: committed ${records.length} rows up to ${wd} #${wid}`);
    job.onPage?.(read);
  }
  await db.query(`UPDATE ${stateTable} SET completed_at = now() WHERE resource = $1`, [job.table]);
  await db.query(`DROP TABLE IF EXISTS pg_temp.${stage}`);
  return { upserted };
}

/** Each [id, label] of those fields as [id, own name], where the name is known. */
export function renamed(records: OdooRecord[], names: Record<string, Map<number, string>>): void {
  for (const [f, byId] of Object.entries(names)) {
    for (const r of records) {
      const v = r[f];
      if (!Array.isArray(v)) continue;
      const name = byId.get(v[0] as number);
      if (name !== undefined && name !== v[1]) r[f] = [v[0], name];
    }
  }
}
