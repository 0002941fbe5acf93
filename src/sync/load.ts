// One resource's load. Without a watermark (an empty table, --full, new columns), a first read
// (read/first-read.ts): every record written up to the newest write_date there is when it
// starts, in id order (no sort by write_date on the server), each page COPYed and upserted
// with, in its transaction, how far the first read is (that second, the page's last id); a
// run killed meanwhile goes on after that id, up to the same second. Only when the first
// read is complete does the watermark become that second; the runs after it go on as below,
// from that second less the overlap (what was written in it, or changed, while the first
// read went on comes then).
//
// With a watermark, an incremental load: pages in (write_date, id) order from the watermark (less
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
import type { Domain, FieldMap, OdooRecord } from '../core/types.js';
import { readAhead } from '../read/ahead.js';
import { writeDateWindow } from '../read/checkpoint.js';
import {
  clockLimit,
  clockSecond,
  type FirstRead,
  firstReadDomain,
  markBefore,
  newestWriteDate,
  ODOO_TIME,
} from '../read/first-read.js';
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
  /** Sets the row's columns that are not Odoo's fields (the currency of its company). */
  derive?: (rec: OdooRecord) => void;
  /** The model's fields (fields_get). */
  defs: FieldMap;
  context?: Record<string, unknown>;
  state: SyncState | undefined;
  /** The run's companies as its state row is keyed (SyncState.companies). */
  companies: string;
  overlapSeconds: number;
  pageSize: number;
  /** Where the ids read are pushed (for --prune's check), if given. */
  readIds?: number[];
  /** Called with the running count of records read, for a progress line. */
  onPage?: (read: number) => void;
  /** Called once with the number of records in the window (only when a progress line shows). */
  total?: (n: number) => void;
  trace?: (line: Said) => void;
  /** One line on standard error (a record dated ahead of the server's clock). */
  warn?: (line: Said) => void;
}

export interface LoadResult {
  upserted: number;
}

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
  // The run's state row: its resource and its companies (literals: the page's commit is one string).
  const ownRow = `resource = '${job.table.replace(/'/g, "''")}' AND companies = '${job.companies.replace(/'/g, "''")}'`;

  // No watermark: a first read, from scratch or on after the last id a cut-short one committed.
  let first: FirstRead | undefined;
  let domain: Domain;
  if (job.state?.watermark === undefined) {
    first = job.state?.firstRead && { ...job.state.firstRead };
    if (!first) {
      const until = await newestWriteDate(job.odoo, job.model, [], job.context);
      if (until === undefined) {
        // Nothing in Odoo: the next run looks again.
        if (job.total) job.total(0);
        await db.query(`UPDATE ${stateTable} SET completed_at = now() WHERE ${ownRow}`);
        return { upserted: 0 };
      }
      // Never beyond the server's clock: a record dated ahead of it is read when the clock
      // gets there (as the incremental windows, which end now, would read it).
      const limit = clockLimit(job.odoo);
      const clock = clockSecond(job.odoo);
      if (until > limit)
        job.warn?.(
          say`posdata: ${own(job.table)}: ${own(job.model)} has a record with write_date ${until} UTC, ahead of the server's clock (${own(limit)} UTC with a margin); the watermark stays at ${own(clock)} UTC and records dated after it are read when the clock gets there`,
        );
      first = { until: until > clock ? clock : until, afterId: 0 };
    }
    domain = firstReadDomain(first);
  } else {
    domain = writeDateWindow(job.state.watermark, job.overlapSeconds).domain;
  }

  await db.query(`DROP TABLE IF EXISTS pg_temp.${stage}`);
  await db.query(`CREATE TEMP TABLE ${stage} (LIKE ${t}) ON COMMIT DELETE ROWS`);

  if (job.total) job.total(await job.odoo.searchCount(job.model, domain, job.context));
  // The next page is read while this one is COPYed and committed (readAhead); the watermark
  // (or the first read's last id) still moves only with a page's own commit, in order.
  const pages = readAhead(
    namedPages(
      job.odoo,
      {
        model: job.model,
        domain,
        fields: job.fetch,
        order: first ? 'id' : 'write_date, id',
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
  // A first read's page whose ids are all above every id the table holds (an empty table, or
  // the rest of a first read cut short) cannot meet a row of its own: it is COPYed straight
  // into the table, without the staging table and the upsert's comparison, row by row, with
  // what is there. Any other page (--full over rows already there) is upserted.
  let highest = first
    ? Number(
        ((await db.query(`SELECT coalesce(max(id), 0) AS m FROM ${t}`)) as pg.QueryResult).rows[0]?.m ?? 0,
      )
    : Number.POSITIVE_INFINITY;
  let read = 0;
  let upserted = 0;
  const copyText = new CopyText();
  let warned = false;
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
    if (job.derive) for (const r of records) job.derive(r);
    if (job.readIds) for (const r of records) job.readIds.push(r.id);
    let mark: string;
    let upTo: string;
    if (first) {
      // Id pages: every record up to this id written before the end of second `until` is in.
      first.afterId = last.id;
      upTo = `#${last.id} (first read, up to ${first.until})`;
      mark = `first_read_until = '${first.until}+00', first_read_after_id = ${last.id}, synced_at = now() WHERE ${ownRow}`;
    } else {
      // The pages end where a second ends, or go through a crowded second by id: the rows of
      // second wd committed so far are those up to the highest id of it seen. A record dated
      // ahead of the server's clock does not move it (nor anything after it in the page: the
      // pages go on from its second).
      const limit = clockLimit(job.odoo);
      const { mark: to, ahead } = markBefore(records, limit);
      if (ahead && !warned) {
        warned = true;
        job.warn?.(
          say`posdata: ${own(job.table)}: ${own(job.model)} ${String(ahead.id)} has write_date ${String(ahead.write_date)} UTC, ahead of the server's clock (${own(limit)} UTC with a margin); the watermark stays at ${own(to ? to.wd : (job.state?.watermark ?? 'its place'))}${own(to || job.state?.watermark ? ' UTC' : '')} so that the next run still reads what changes meanwhile`,
        );
      }
      upTo = to ? `${to.wd} #${to.id}` : 'the watermark as it was';
      // The watermark only moves forward: re-reading the overlap does not take it back.
      mark = to
        ? `watermark = '${to.wd}+00', watermark_id = ${to.id}, synced_at = now() ` +
          `WHERE ${ownRow} AND (watermark IS NULL OR (watermark, watermark_id) < ('${to.wd}+00', ${to.id}))`
        : `synced_at = now() WHERE ${ownRow}`;
    }
    const body = copyText.page(records, (r) => plan.line(r));
    const straight = (records[0] as OdooRecord).id > highest;
    // A page's commit does not wait for its WAL to reach the disk: rows and watermark are in
    // one transaction, so a PostgreSQL crash loses the last pages and their watermark together
    // (the next run reads them again), never one without the other. The run's last commit
    // (completed_at, below) waits as usual, and with it every page before: exit 0 means durable.
    await db.query('BEGIN; SET LOCAL synchronous_commit TO off');
    try {
      if (straight) {
        await db.copyIn(`COPY ${t} (${colList}) FROM STDIN`, body);
        await db.query(`UPDATE ${stateTable} SET ${mark}; COMMIT`);
        upserted += records.length;
        highest = last.id;
      } else {
        await db.copyIn(`COPY ${stage} (${colList}) FROM STDIN`, body);
        const results = (await db.query(
          `${upsert}; UPDATE ${stateTable} SET ${mark}; COMMIT`,
        )) as unknown as pg.QueryResult[];
        upserted += results[0]?.rowCount ?? 0;
      }
    } catch (err) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
    read += records.length;
    job.trace?.(
      say`${own(job.table)}: committed ${records.length} rows up to ${own(upTo)}${own(straight ? ', copied into the table' : '')}`,
    );
    job.onPage?.(read);
  }
  if (first) {
    // The first read is whole: the watermark is its second (with the highest id read, so
    // that every row committed is covered), and the next run goes on from there, less the
    // overlap, as any incremental one.
    await db.query(
      `UPDATE ${stateTable} SET watermark = $2::timestamptz, watermark_id = $3, first_read_until = NULL,
         first_read_after_id = NULL, synced_at = now(), completed_at = now() WHERE resource = $1 AND companies = $4`,
      [job.table, `${first.until}+00`, first.afterId, job.companies],
    );
  } else {
    await db.query(`UPDATE ${stateTable} SET completed_at = now() WHERE ${ownRow}`);
  }
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

/**
 * A page's COPY text, encoded line by line into one buffer kept from page to page: no
 * page-long string (one large object in the old generation per page, and its copy as bytes),
 * which made the sync's heap grow and the collector run. The bytes are the caller's until the
 * next page.
 */
export class CopyText {
  constructor(private buf = Buffer.allocUnsafe(1 << 20)) {}

  page(records: readonly OdooRecord[], line: (r: OdooRecord) => string): Buffer {
    let used = 0;
    for (const r of records) {
      const text = line(r);
      // At most 3 bytes of UTF-8 per UTF-16 unit.
      if (used + text.length * 3 > this.buf.length) {
        const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, used + text.length * 3));
        this.buf.copy(bigger, 0, 0, used);
        this.buf = bigger;
      }
      used += this.buf.write(text, used);
    }
    return this.buf.subarray(0, used);
  }
}
