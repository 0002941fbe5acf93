// What the database itself remembers of a sync: the schema's tables, and one row per
// resource in `posdata_sync_state` (the Odoo it came from, the fields it holds, and the
// watermark: the (write_date, id) of the last record committed). The watermark is written
// in the transaction of the rows it covers, so it can never run ahead of them. A resource
// without a watermark is read whole in id order first (read/first-read.ts); while that read
// goes on, its row holds how far it is (first_read_until, first_read_after_id: every record
// written before the end of that second, up to that id, is committed), and the watermark
// becomes that second only once the first read is complete.
import type pg from 'pg';
import { ServerError } from '../core/errors.js';
import { say } from '../core/redact.js';
import type { FirstRead } from '../read/first-read.js';
import type { TableColumn } from './columns.js';
import { ident, type Target } from './postgres.js';

export const STATE_TABLE = 'posdata_sync_state';

export interface SyncState {
  resource: string;
  /**
   * The companies the rows were read for (their ids, sorted, comma-separated; '' by a posdata
   * that did not say): a state row per resource and set of companies, so two crons with
   * their own --company into one schema each keep their own watermark.
   */
  companies: string;
  model: string;
  source: string;
  fields: string[];
  /** UTC, Odoo's format (`YYYY-MM-DD HH:MM:SS`); undefined = nothing committed yet. */
  watermark: string | undefined;
  watermarkId: number | undefined;
  /** A first read cut short (no watermark yet): where it goes on. */
  firstRead?: FirstRead;
}

export type Query = (sql: string, values?: unknown[]) => Promise<pg.QueryResult>;

/** The schema and the state table, created where missing (and only then: CREATE needs rights). */
export async function ensureSchema(q: Query, schema: string): Promise<void> {
  const s = ident(schema);
  const has = await q('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (has.rowCount === 0) await q(`CREATE SCHEMA IF NOT EXISTS ${s}`);
  const table = await q('SELECT to_regclass($1) AS t', [`${s}.${STATE_TABLE}`]);
  if (table.rows[0]?.t === null) {
    await q(`CREATE TABLE IF NOT EXISTS ${s}.${STATE_TABLE} (
      resource text NOT NULL,
      companies text NOT NULL DEFAULT '',
      model text NOT NULL,
      source text NOT NULL,
      fields text[] NOT NULL,
      watermark timestamptz,
      watermark_id integer,
      synced_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz,
      first_read_until timestamptz,
      first_read_after_id integer,
      PRIMARY KEY (resource, companies)
    )`);
    return;
  }
  // A state table of an older posdata: the first read's columns and the companies added (and
  // only then: ALTER needs the table's owner). Its rows say no companies ('').
  const cols = await q(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2
        AND column_name IN ('first_read_until', 'first_read_after_id', 'companies')`,
    [schema, STATE_TABLE],
  );
  if (cols.rowCount !== 3) {
    const key = await q(`SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p'`, [
      `${s}.${STATE_TABLE}`,
    ]);
    const pk = key.rows[0]?.conname as string | undefined;
    await q(
      `ALTER TABLE ${s}.${STATE_TABLE} ADD COLUMN IF NOT EXISTS first_read_until timestamptz,
         ADD COLUMN IF NOT EXISTS first_read_after_id integer,
         ADD COLUMN IF NOT EXISTS companies text NOT NULL DEFAULT ''${pk ? `, DROP CONSTRAINT ${ident(pk)}` : ''},
         ADD PRIMARY KEY (resource, companies)`,
    );
  }
}

/**
 * The tables among `names` that `schema` already has (tables, views and the like) and that its
 * state table does not list as posdata's: a user's own `public.sales`, which a sync would
 * otherwise alter, overwrite by id and prune. Read-only: nothing is created to find out.
 */
export async function foreignTables(q: Query, schema: string, names: string[]): Promise<string[]> {
  const found = await q(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = ANY($2) AND c.relkind IN ('r', 'p', 'v', 'm', 'f')`,
    [schema, names],
  );
  if (found.rowCount === 0) return [];
  const state = await q('SELECT to_regclass($1) AS t', [`${ident(schema)}.${STATE_TABLE}`]);
  const own = new Set<string>();
  if (state.rows[0]?.t !== null) {
    const rows = await q(`SELECT resource FROM ${ident(schema)}.${STATE_TABLE}`);
    for (const row of rows.rows) own.add(row.resource as string);
  }
  const existing = new Set(found.rows.map((row) => row.relname as string));
  return names.filter((n) => existing.has(n) && !own.has(n));
}

/**
 * Every state row of the schema: a resource's rows, one per set of companies synced into it.
 * The run's own are picked by ownStates.
 */
export async function readStates(q: Query, schema: string): Promise<SyncState[]> {
  const r = await q(
    `SELECT resource, companies, model, source, fields,
            to_char(watermark AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS watermark, watermark_id,
            to_char(first_read_until AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS first_until, first_read_after_id
       FROM ${ident(schema)}.${STATE_TABLE}`,
  );
  const out: SyncState[] = [];
  for (const row of r.rows) {
    out.push({
      resource: row.resource,
      companies: row.companies,
      model: row.model,
      source: row.source,
      fields: row.fields,
      watermark: row.watermark ?? undefined,
      watermarkId: row.watermark_id ?? undefined,
      firstRead:
        row.watermark === null && row.first_until !== null
          ? { until: row.first_until, afterId: row.first_read_after_id ?? 0 }
          : undefined,
    });
  }
  return out;
}

/**
 * The run's state per resource: the row of its companies, or else a row that says none (an
 * older posdata's), which this run then takes as its own. A set of companies never synced
 * (a --company widened, a user given a further company) has none: its first read reads them
 * all, so the companies added come with their history.
 */
export async function ownStates(
  q: Query,
  schema: string,
  all: SyncState[],
  companies: string,
): Promise<Map<string, SyncState>> {
  const out = new Map<string, SyncState>();
  for (const st of all) if (st.companies === companies) out.set(st.resource, st);
  for (const st of all) {
    if (st.companies !== '' || out.has(st.resource)) continue;
    await q(
      `UPDATE ${ident(schema)}.${STATE_TABLE} SET companies = $2 WHERE resource = $1 AND companies = ''`,
      [st.resource, companies],
    );
    out.set(st.resource, { ...st, companies });
  }
  return out;
}

/** Columns the table has now (lower-case names as PostgreSQL folds them); empty if it does not exist. */
async function tableColumns(q: Query, schema: string, table: string): Promise<Set<string>> {
  const r = await q(
    'SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2',
    [schema, table],
  );
  return new Set(r.rows.map((row) => row.column_name as string));
}

/**
 * The resource's table with every planned column, and its state row with these fields, in
 * one transaction. New columns reset the watermark (and a first read cut short): the next
 * pages read every record again, so that rows synced before hold the new column's values too. `reset` says the watermark
 * was cleared (a new table or column, --full, or no state before): the load starts over.
 */
export async function ensureTable(
  q: Query,
  schema: string,
  table: string,
  columns: TableColumn[],
  state: Omit<SyncState, 'watermark' | 'watermarkId' | 'firstRead'>,
  opts: { hadState: boolean; full: boolean },
): Promise<{ added: string[]; reset: boolean }> {
  const t = `${ident(schema)}.${ident(table)}`;
  const existing = await tableColumns(q, schema, table);
  const created = existing.size === 0;
  const added = created ? [] : columns.filter((c) => !existing.has(c.name)).map((c) => c.name);
  const reset = created || added.length > 0 || opts.full || !opts.hadState;
  await q('BEGIN');
  try {
    if (created) {
      const cols = columns.map((c) => `${ident(c.name)} ${c.type}${c.name === 'id' ? ' PRIMARY KEY' : ''}`);
      await q(`CREATE TABLE ${t} (${cols.join(', ')})`);
    }
    for (const c of columns)
      if (added.includes(c.name))
        await q(`ALTER TABLE ${t} ADD COLUMN IF NOT EXISTS ${ident(c.name)} ${c.type}`);
    await q(
      `INSERT INTO ${ident(schema)}.${STATE_TABLE} (resource, companies, model, source, fields)
       VALUES ($1, $5, $2, $3, $4)
       ON CONFLICT (resource, companies) DO UPDATE SET model = EXCLUDED.model, source = EXCLUDED.source, fields = EXCLUDED.fields
         ${reset ? ', watermark = NULL, watermark_id = NULL, first_read_until = NULL, first_read_after_id = NULL' : ''}`,
      [state.resource, state.model, state.source, state.fields, state.companies],
    );
    await q('COMMIT');
  } catch (err) {
    await q('ROLLBACK').catch(() => undefined);
    throw err;
  }
  return { added, reset };
}

/** The advisory lock's first key: 'posd'. The second is the schema's hash. */
const LOCK_KEY = 0x706f7364;
const LOCK_POLL_MS = 1000;

/**
 * The schema's advisory lock: one sync at a time per schema. Without `wait`, a held lock is
 * refused (exit 5); with it, `waiting` is told once and the lock is asked for again every
 * second (each request stays within --timeout, so a database that stops answering
 * meanwhile is noticed).
 */
export async function lockSchema(
  q: Query,
  schema: string,
  t: Target,
  wait: boolean,
  waiting: () => void,
): Promise<void> {
  const got = await q('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [LOCK_KEY, schema]);
  if (got.rows[0]?.ok === true) return;
  if (!wait)
    throw new ServerError(
      'lock',
      say`another posdata sync is running on schema ${schema} of ${t.where}`,
      say`try again when it is done, or leave out --no-wait to wait for it`,
    );
  waiting();
  for (;;) {
    await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
    const again = await q('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [LOCK_KEY, schema]);
    if (again.rows[0]?.ok === true) return;
  }
}
