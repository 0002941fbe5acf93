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
  /** Sets a page's columns read from another model (the invoice's number), as the page is read. */
  fill?: (records: OdooRecord[]) => Promise<void>;
  /** The model's fields (fields_get). */
  defs: FieldMap;
  context?: Record<string, unknown>;
  state: SyncState | undefined;
  /** The run's companies as its state row is keyed (SyncState.companies). */
  companies: string;
  /** What keeps the read to those companies where Odoo does not (companyScope). */
  scope: Domain;
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

/** The statements of one table's load, written once. */
interface LoadSql {
  /** The table, schema-qualified. */
  table: string;
  stage: string;
  colList: string;
  /** Rows that come again unchanged (the overlap) are neither rewritten nor counted. */
  upsert: string;
  stateTable: string;
  /** The run's state row: its resource and its companies (literals: the page's commit is one string). */
  ownRow: string;
}

function loadSql(job: LoadJob): LoadSql {
  const table = `${ident(job.schema)}.${ident(job.table)}`;
  const stage = ident(`posdata_stage_${job.table}`);
  const cols = job.plan.columns.map((c) => ident(c.name));
  const colList = cols.join(', ');
  const updates = cols.filter((c) => c !== '"id"');
  const upsert =
    `INSERT INTO ${table} AS t (${colList}) SELECT ${colList} FROM ${stage} ` +
    (updates.length > 0
      ? `ON CONFLICT (id) DO UPDATE SET ${updates.map((c) => `${c} = EXCLUDED.${c}`).join(', ')} ` +
        `WHERE (${updates.map((c) => `t.${c}`).join(', ')}) IS DISTINCT FROM (${updates
          .map((c) => `EXCLUDED.${c}`)
          .join(', ')})`
      : 'ON CONFLICT (id) DO NOTHING');
  const literal = (v: string) => `'${v.replace(/'/g, "''")}'`;
  return {
    table,
    stage,
    colList,
    upsert,
    stateTable: `${ident(job.schema)}.${STATE_TABLE}`,
    ownRow: `resource = ${literal(job.table)} AND companies = ${literal(job.companies)}`,
  };
}

/** Where the load reads from: a first read's id pages, or the window from the watermark. */
interface Start {
  first: FirstRead | undefined;
  domain: Domain;
}

/**
 * No watermark: a first read, from scratch or on after the last id a cut-short one committed;
 * undefined where Odoo has nothing (the next run looks again).
 */
async function startFrom(job: LoadJob): Promise<Start | undefined> {
  if (job.state?.watermark !== undefined)
    return {
      first: undefined,
      domain: [...job.scope, ...writeDateWindow(job.state.watermark, job.overlapSeconds).domain],
    };
  const first = (job.state?.firstRead && { ...job.state.firstRead }) ?? (await newFirstRead(job));
  return first && { first, domain: firstReadDomain(first, job.scope) };
}

/** A first read from scratch: up to the newest write_date there is now. */
async function newFirstRead(job: LoadJob): Promise<FirstRead | undefined> {
  const until = await newestWriteDate(job.odoo, job.model, job.scope, job.context);
  if (until === undefined) return undefined;
  // Never beyond the server's clock: a record dated ahead of it is read when the clock
  // gets there (as the incremental windows, which end now, would read it).
  const limit = clockLimit(job.odoo);
  const clock = clockSecond(job.odoo);
  if (until > limit)
    job.warn?.(
      say`posdata: ${own(job.table)}: ${own(job.model)} has a record with write_date ${until} UTC, ahead of the server's clock (${own(limit)} UTC with a margin); the watermark stays at ${own(clock)} UTC and records dated after it are read when the clock gets there`,
    );
  return { until: until > clock ? clock : until, afterId: 0 };
}

/** What a page's commit sets in the state row, and how far that is (for --debug). */
interface PageMark {
  mark: string;
  upTo: string;
}

/** Id pages: every record up to this id written before the end of second `until` is in. */
function firstReadMark(first: FirstRead, last: OdooRecord, sql: LoadSql): PageMark {
  first.afterId = last.id;
  return {
    upTo: `#${last.id} (first read, up to ${first.until})`,
    mark: `first_read_until = '${first.until}+00', first_read_after_id = ${last.id}, synced_at = now() WHERE ${sql.ownRow}`,
  };
}

/**
 * The pages end where a second ends, or go through a crowded second by id: the rows of
 * second wd committed so far are those up to the highest id of it seen. A record dated
 * ahead of the server's clock does not move it (nor anything after it in the page: the
 * pages go on from its second); the first such record of the load is said once.
 */
function watermarkMarker(job: LoadJob, sql: LoadSql): (records: OdooRecord[]) => PageMark {
  let warned = false;
  return (records) => {
    const limit = clockLimit(job.odoo);
    const { mark: to, ahead } = markBefore(records, limit);
    if (ahead && !warned) {
      warned = true;
      job.warn?.(
        say`posdata: ${own(job.table)}: ${own(job.model)} ${String(ahead.id)} has write_date ${String(ahead.write_date)} UTC, ahead of the server's clock (${own(limit)} UTC with a margin); the watermark stays at ${own(to ? to.wd : (job.state?.watermark ?? 'its place'))}${own(to || job.state?.watermark ? ' UTC' : '')} so that the next run still reads what changes meanwhile`,
      );
    }
    // The watermark only moves forward: re-reading the overlap does not take it back.
    return {
      upTo: to ? `${to.wd} #${to.id}` : 'the watermark as it was',
      mark: to
        ? `watermark = '${to.wd}+00', watermark_id = ${to.id}, synced_at = now() ` +
          `WHERE ${sql.ownRow} AND (watermark IS NULL OR (watermark, watermark_id) < ('${to.wd}+00', ${to.id}))`
        : `synced_at = now() WHERE ${sql.ownRow}`,
    };
  };
}

/** The page's last record, which must carry an integer id and a write_date. */
function lastOfPage(job: LoadJob, records: OdooRecord[]): OdooRecord {
  const last = records[records.length - 1] as OdooRecord;
  const wd = last.write_date;
  if (typeof wd !== 'string' || !ODOO_TIME.test(wd) || !Number.isSafeInteger(last.id))
    throw new ProtocolError(
      say`Odoo sent ${own(job.model)} ${String(last.id)} without an integer id and a write_date (${String(wd)})`,
      say`posdata sync needs both on every record`,
    );
  return last;
}

/** The columns posdata sets itself (own names, the currency) and the ids --prune checks. */
function prepare(job: LoadJob, records: OdooRecord[]): void {
  if (job.ownNames) renamed(records, job.ownNames);
  if (job.derive) for (const r of records) job.derive(r);
  if (job.readIds) for (const r of records) job.readIds.push(r.id);
}

/** A page to commit: its COPY text, its mark, its size, and whether it goes straight in. */
interface Page {
  body: Buffer;
  mark: string;
  rows: number;
  straight: boolean;
}

/**
 * A page's rows and its mark in one transaction; the rows upserted. Straight: COPYed into the
 * table itself (no row of the page can be there), else through the staging table.
 *
 * The commit does not wait for its WAL to reach the disk: rows and watermark are in one
 * transaction, so a PostgreSQL crash loses the last pages and their watermark together (the
 * next run reads them again), never one without the other. The run's last commit
 * (completed_at, in finishLoad) waits as usual, and with it every page before: exit 0 means
 * durable.
 */
async function commitPage(db: Db, sql: LoadSql, { body, mark, rows, straight }: Page): Promise<number> {
  await db.query('BEGIN; SET LOCAL synchronous_commit TO off');
  try {
    if (straight) {
      await db.copyIn(`COPY ${sql.table} (${sql.colList}) FROM STDIN`, body);
      await db.query(`UPDATE ${sql.stateTable} SET ${mark}; COMMIT`);
      return rows;
    }
    await db.copyIn(`COPY ${sql.stage} (${sql.colList}) FROM STDIN`, body);
    const results = (await db.query(
      `${sql.upsert}; UPDATE ${sql.stateTable} SET ${mark}; COMMIT`,
    )) as unknown as pg.QueryResult[];
    return results[0]?.rowCount ?? 0;
  } catch (err) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * The load's last commit. A first read is whole: the watermark is its second (with the
 * highest id read, so that every row committed is covered), and the next run goes on from
 * there, less the overlap, as any incremental one.
 */
async function finishLoad(job: LoadJob, sql: LoadSql, first: FirstRead | undefined): Promise<void> {
  if (first)
    await job.db.query(
      `UPDATE ${sql.stateTable} SET watermark = $2::timestamptz, watermark_id = $3, first_read_until = NULL,
         first_read_after_id = NULL, synced_at = now(), completed_at = now() WHERE resource = $1 AND companies = $4`,
      [job.table, `${first.until}+00`, first.afterId, job.companies],
    );
  else await job.db.query(`UPDATE ${sql.stateTable} SET completed_at = now() WHERE ${sql.ownRow}`);
  await job.db.query(`DROP TABLE IF EXISTS pg_temp.${sql.stage}`);
}

/**
 * The pages of the load. The next page is read while this one is COPYed and committed
 * (readAhead); the watermark (or the first read's last id) still moves only with a page's own
 * commit, in order.
 */
function loadPages(job: LoadJob, { first, domain }: Start): AsyncIterable<OdooRecord[]> {
  const pages = namedPages(
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
  );
  return readAhead(job.fill ? filled(pages, job.fill) : pages);
}

/** Each page once `fill` has set its columns: within the page read ahead. */
async function* filled(
  pages: AsyncIterable<OdooRecord[]>,
  fill: (records: OdooRecord[]) => Promise<void>,
): AsyncGenerator<OdooRecord[]> {
  for await (const records of pages) {
    await fill(records);
    yield records;
  }
}

/**
 * A first read's page whose ids are all above every id the table holds (an empty table, or
 * the rest of a first read cut short) cannot meet a row of its own: it is COPYed straight
 * into the table, without the staging table and the upsert's comparison, row by row, with
 * what is there. Any other page (--full over rows already there) is upserted.
 */
async function highestId(job: LoadJob, sql: LoadSql, first: FirstRead | undefined): Promise<number> {
  if (!first) return Number.POSITIVE_INFINITY;
  const r = (await job.db.query(`SELECT coalesce(max(id), 0) AS m FROM ${sql.table}`)) as pg.QueryResult;
  return Number(r.rows[0]?.m ?? 0);
}

export async function loadResource(job: LoadJob): Promise<LoadResult> {
  const sql = loadSql(job);
  const start = await startFrom(job);
  if (!start) {
    if (job.total) job.total(0);
    await job.db.query(`UPDATE ${sql.stateTable} SET completed_at = now() WHERE ${sql.ownRow}`);
    return { upserted: 0 };
  }
  const { first } = start;
  await job.db.query(`DROP TABLE IF EXISTS pg_temp.${sql.stage}`);
  await job.db.query(`CREATE TEMP TABLE ${sql.stage} (LIKE ${sql.table}) ON COMMIT DELETE ROWS`);
  if (job.total) job.total(await job.odoo.searchCount(job.model, start.domain, job.context));
  const pages = loadPages(job, start);
  const checkAmounts = amountCheck(
    job.model,
    job.fetch,
    job.defs,
    say`correct the record in Odoo; the sync stops before its page until then`,
  );
  const watermarkMark = watermarkMarker(job, sql);
  let highest = await highestId(job, sql, first);
  let read = 0;
  let upserted = 0;
  const copyText = new CopyText();
  for await (const records of pages) {
    checkAmounts(records);
    const last = lastOfPage(job, records);
    prepare(job, records);
    const { mark, upTo } = first ? firstReadMark(first, last, sql) : watermarkMark(records);
    const body = copyText.page(records, (r) => job.plan.line(r));
    const straight = (records[0] as OdooRecord).id > highest;
    upserted += await commitPage(job.db, sql, { body, mark, rows: records.length, straight });
    if (straight) highest = last.id;
    read += records.length;
    job.trace?.(
      say`${own(job.table)}: committed ${records.length} rows up to ${own(upTo)}${own(straight ? ', copied into the table' : '')}`,
    );
    job.onPage?.(read);
  }
  await finishLoad(job, sql, first);
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
