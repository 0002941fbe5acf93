// `posdata sync`: Odoo's POS data into PostgreSQL tables, current and never counted twice.
// flags → the database (connection, advisory lock, schema) → per resource: fields, table,
// incremental load, prune → one summary line each on stderr.

import { type ConnectionOptions, openSession } from '../cli/connection.js';
import type { IO } from '../cli/io.js';
import { liveClients } from '../cli/live.js';
import { Progress } from '../cli/progress.js';
import { PosdataError, ServerError, UsageError } from '../core/errors.js';
import { nameList, own, type Said, say } from '../core/redact.js';
import type { FieldMap } from '../core/types.js';
import { TablePlan } from './columns.js';
import { loadResource } from './load.js';
import { connect, DatabaseTimeout, databaseError, ident, parseTarget, type Target } from './postgres.js';
import { pruneResource } from './prune.js';
import {
  defaultSyncFields,
  isStored,
  SYNC_NAMES,
  SYNC_RESOURCES,
  type SyncName,
  type SyncResource,
} from './resources.js';
import { ensureSchema, ensureTable, foreignTables, type Query, readStates, STATE_TABLE } from './state.js';

export interface SyncOptions extends ConnectionOptions {
  to?: string;
  schema?: string;
  fields?: string[];
  full?: boolean;
  prune?: boolean;
  overlap?: number;
  pageSize?: number;
  /** false with --no-wait. */
  wait?: boolean;
  /** Sync into tables of the schema that posdata did not create. */
  takeOver?: boolean;
}

/** The advisory lock's first key: 'posd'. The second is the schema's hash. */
const LOCK_KEY = 0x706f7364;
const LOCK_POLL_MS = 1000;

const count = (n: number) => n.toLocaleString('en-US');

/** `--fields sales:a,b` (or `a,b` when one resource is named): the fields asked for per resource. */
export function parseFieldSpecs(specs: string[], chosen: SyncName[]): Map<SyncName, string[]> {
  const out = new Map<SyncName, string[]>();
  for (const spec of specs) {
    const m = /^([a-z_]+):(.*)$/.exec(spec);
    let name: SyncName;
    let list: string;
    if (m) {
      if (!SYNC_NAMES.includes(m[1] as SyncName))
        throw new UsageError(
          say`--fields names unknown resource '${m[1]}'`,
          say`use one of ${own(SYNC_NAMES.join(', '))}`,
        );
      name = m[1] as SyncName;
      list = m[2] as string;
    } else if (chosen.length === 1) {
      name = chosen[0] as SyncName;
      list = spec;
    } else {
      throw new UsageError(
        say`--fields '${spec}' does not say which resource`,
        say`write it as RESOURCE:field,field, e.g. --fields sales:partner_id,user_id`,
      );
    }
    const fields = list
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    if (fields.length === 0)
      throw new UsageError(say`--fields '${spec}' names no field`, say`e.g. --fields sales:partner_id`);
    out.set(name, [...(out.get(name) ?? []), ...fields]);
  }
  return out;
}

function checkAsked(r: SyncResource, fields: FieldMap, asked: string[]): void {
  for (const f of asked) {
    if (!(f in fields)) {
      throw new UsageError(
        say`unknown field '${f}' on ${own(r.model)}`,
        say`valid fields: ${nameList(
          Object.keys(fields)
            .filter((k) => isStored(fields, k))
            .sort(),
        )}`,
      );
    }
    if (!isStored(fields, f)) {
      throw new UsageError(
        say`field '${f}' of ${own(r.model)} is computed and not stored by Odoo`,
        say`its changes do not move write_date, so a sync could not keep it current; pick a stored field`,
      );
    }
  }
}

/** Which errors come from the database side (the driver, its socket), as opposed to Odoo or a bug. */
function fromDatabase(err: unknown): boolean {
  if (err instanceof PosdataError) return false;
  const e = err as { code?: unknown; severity?: unknown; message?: unknown };
  if (typeof e?.severity === 'string' || typeof e?.code === 'string') return true;
  return /connection|terminated|not queryable|timeout/i.test(String(e?.message ?? ''));
}

export async function runSync(names: string[], o: SyncOptions, io: IO): Promise<void> {
  // Everything that can be checked without a server is checked first.
  const unknown = names.filter((n) => !SYNC_NAMES.includes(n as SyncName));
  if (unknown.length > 0)
    throw new UsageError(
      say`unknown resource '${unknown[0]}'`,
      say`use some of ${own(SYNC_NAMES.join(', '))} (all by default)`,
    );
  const chosen = SYNC_RESOURCES.filter((r) => names.length === 0 || names.includes(r.name));
  const asked = parseFieldSpecs(
    o.fields ?? [],
    chosen.map((r) => r.name),
  );
  for (const name of asked.keys())
    if (!chosen.some((r) => r.name === name))
      throw new UsageError(
        say`--fields names ${name}, which this run does not sync`,
        say`add ${name} to the resources`,
      );
  const schema = o.schema ?? 'posdata';
  if (schema === '' || schema.length > 63)
    throw new UsageError(say`--schema '${schema}' is not a schema name`, say`use e.g. --schema posdata`);
  const target = parseTarget(o.to);
  if (o.to !== undefined && target.passwordInUrl && !io.quiet)
    io.err(
      'posdata: warning: the password in --to is visible to other users of this machine (process list); use PGPASSWORD, ~/.pgpass or POSDATA_SYNC_URL',
    );
  if (target.sslNote && !io.quiet) io.err(`posdata: warning: ${target.sslNote}`);
  const overlap = o.overlap ?? 300;
  const trace = io.debug ? (line: string) => io.err(`[sql] ${line}`) : undefined;

  const db = await connect(target, o.timeout ?? 60, trace);
  const live = { destroy: () => db.destroy() };
  liveClients.add(live);
  let failed = false;
  /** Rows committed by this run, per resource, for an error that stops it halfway. */
  const committed: string[] = [];
  let current = { name: '', rows: 0 };
  const q: Query = (sql, values) => db.query(sql, values);
  try {
    await lock(q, schema, target, o.wait !== false, io);
    if (!o.takeOver) {
      const foreign = await foreignTables(
        q,
        schema,
        chosen.map((r) => r.name),
      );
      if (foreign.length > 0) {
        const them = foreign.map((n) => `${schema}.${n}`).join(', ');
        throw new UsageError(
          say`${own(foreign.length > 1 ? 'tables' : 'table')} ${them} ${own(foreign.length > 1 ? 'exist' : 'exists')} and posdata did not create ${own(foreign.length > 1 ? 'them' : 'it')} (not in ${schema}.${own(STATE_TABLE)}); nothing was changed`,
          say`sync into a schema of its own (--schema NAME), or add --take-over to let posdata add its columns, upsert Odoo's rows by id${own(o.prune ? ' and prune the others' : '')}`,
        );
      }
    }
    await ensureSchema(q, schema);
    const session = await openSession(o, io);
    const odoo = session.client;
    const source = `${session.url.href}|${odoo.db}`;
    const states = await readStates(q, schema);
    for (const st of states.values()) {
      if (st.source !== source)
        throw new UsageError(
          say`schema ${schema} holds data synced from ${st.source.replace('|', ' database ')}`,
          say`sync this Odoo into another --schema`,
        );
    }
    // Registers by their own name (read once, archived ones too): Odoo 16/17 label one
    // "Shop (Cashier)" while a session is open and "Shop" after, and a label stored per row
    // would split a register in two in a GROUP BY, by when each row was read.
    let registers: Promise<Map<number, string>> | undefined;
    const registerNames = () =>
      (registers ??= odoo
        .searchRead('pos.config', [], {
          fields: ['name'],
          context: { ...(o.odooContext ?? {}), active_test: false },
        })
        .then((rs) => new Map(rs.map((c) => [c.id, String(c.name)]))));
    for (const r of chosen) {
      // Watched from the resource's first request on: a wait for the rate limit shows
      // whichever request it holds (fields_get, the register names), not only the pages.
      const progress = new Progress(io, true, `${r.name}: `);
      progress.watch(session.limiter);
      const fields = await odoo.fieldsGet(r.model);
      const extra = asked.get(r.name) ?? [];
      checkAsked(r, fields, extra);
      const state = states.get(r.name);
      // A column once synced stays synced: the fields of earlier runs, the defaults, and the new ones.
      const kept = (state?.fields ?? []).filter((f) => isStored(fields, f));
      const wanted = [...new Set([...defaultSyncFields(r, fields), ...kept, ...extra])];
      if (!wanted.includes('write_date')) wanted.push('write_date');
      const plan = new TablePlan(wanted, fields);
      const { added, reset } = await ensureTable(
        q,
        schema,
        r.name,
        plan.columns,
        { resource: r.name, model: r.model, source, fields: wanted },
        { hadState: state !== undefined, full: Boolean(o.full) },
      );
      if (added.length > 0 && !io.quiet)
        io.err(
          `posdata: ${r.name}: added column${added.length > 1 ? 's' : ''} ${added.join(', ')}; reading every record again to fill them`,
        );
      const context = 'active' in fields ? { ...(o.odooContext ?? {}), active_test: false } : o.odooContext;
      const regFields = wanted.filter(
        (f) => fields[f]?.type === 'many2one' && fields[f]?.relation === 'pos.config',
      );
      const regs = regFields.length > 0 ? await registerNames() : undefined;
      current = { name: r.name, rows: 0 };
      const result = await loadResource({
        odoo,
        db,
        schema,
        table: r.name,
        model: r.model,
        plan,
        fetch: wanted.filter((f) => f !== 'id'),
        manyToOne: wanted.filter((f) => fields[f]?.type === 'many2one'),
        ownNames: regs && Object.fromEntries(regFields.map((f) => [f, regs])),
        defs: fields,
        context,
        state: reset ? undefined : state,
        overlapSeconds: overlap,
        pageSize: o.pageSize ?? 2000,
        total: progress.enabled
          ? (n) => {
              progress.start(n);
              progress.update(0);
            }
          : undefined,
        onPage: (n) => {
          current.rows = n;
          progress.update(n);
        },
        trace,
      });
      progress.done();
      if (current.rows > 0) committed.push(`${r.name} ${count(current.rows)}`);
      current = { name: '', rows: 0 };
      const pruned = o.prune
        ? await pruneResource(odoo, db, { schema, table: r.name, model: r.model, context })
        : 0;
      if (!io.quiet) {
        const wm = await q(
          `SELECT to_char(watermark AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS w FROM ${ident(schema)}.posdata_sync_state WHERE resource = $1`,
          [r.name],
        );
        io.err(
          `${r.name}: ${count(result.upserted)} upserted, ${count(pruned)} pruned, watermark ${wm.rows[0]?.w ?? 'none'}`,
        );
      }
    }
    await odoo.close();
  } catch (err) {
    failed = true;
    if (fromDatabase(err) || err instanceof DatabaseTimeout) throw databaseError(err, target);
    if (current.rows > 0) committed.push(`${current.name} ${count(current.rows)}`);
    if (err instanceof PosdataError && committed.length > 0) {
      // What the run left behind is true of this run, not of the error where it arose.
      const left = say`the rows read before it are committed with their watermark (${own(committed.join(', '))}), and the next run goes on from there`;
      (err as { hint: Said | undefined }).hint = err.hint ? say`${err.hint}; ${left}` : left;
    }
    throw err;
  } finally {
    liveClients.delete(live);
    await db.close(failed);
  }
}

async function lock(q: Query, schema: string, t: Target, wait: boolean, io: IO): Promise<void> {
  const got = await q('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [LOCK_KEY, schema]);
  if (got.rows[0]?.ok === true) return;
  if (!wait)
    throw new ServerError(
      'lock',
      say`another posdata sync is running on schema ${schema} of ${t.where}`,
      say`try again when it is done, or leave out --no-wait to wait for it`,
    );
  if (!io.quiet)
    io.err(`posdata: another posdata sync is running on schema ${schema}; waiting for it to finish`);
  // Asked again every second rather than waited for in one statement: each request stays
  // within --timeout, so a database that stops answering meanwhile is noticed.
  for (;;) {
    await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
    const again = await q('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [LOCK_KEY, schema]);
    if (again.rows[0]?.ok === true) return;
  }
}
