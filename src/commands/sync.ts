// `posdata sync`: Odoo's POS data into PostgreSQL tables, current and never counted twice.
// flags → the database (connection, advisory lock, schema) → per resource: fields, table,
// incremental load, prune → one summary line each on stderr.
import {
  defaultSyncFields,
  isStored,
  SYNC_NAMES,
  SYNC_RESOURCES,
  type SyncName,
  type SyncResource,
} from '../catalog/resources.js';
import { command } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import {
  COMPANY,
  CONNECTION,
  type ConnectionOptions,
  connectionOptions,
  GLOBAL,
  group,
  SERVERS,
} from '../cli/flags.js';
import { Progress } from '../cli/progress.js';
import { number, positiveInt } from '../cli/values.js';
import type { OdooClient } from '../core/client.js';
import { isPosdataError, UsageError } from '../core/errors.js';
import { nameList, own, type Said, say } from '../core/redact.js';
import type { OdooRecord } from '../core/types.js';
import { moneyDigits } from '../read/currency.js';
import { ownNames } from '../read/own-names.js';
import { inCurrency } from '../records/normalize.js';
import type { Target } from '../sync/postgres.js';

export interface SyncOptions {
  connection: ConnectionOptions;
  /** The resources, parents first. */
  chosen: SyncResource[];
  /** --fields: the extra fields per resource. */
  asked: Map<SyncName, string[]>;
  target: Target;
  schema: string;
  full: boolean;
  prune: boolean;
  /** --prune-max: percent of a table's rows. */
  pruneMax: number;
  overlap: number;
  pageSize: number;
  /** false with --no-wait. */
  wait: boolean;
  /** Sync into tables of the schema that posdata did not create. */
  takeOver: boolean;
}

const count = (n: number) => n.toLocaleString('en-US');

/** --prune-max by default: a run may delete at most this percent of a table's rows, */
const PRUNE_MAX_PERCENT = 10;
/** unless they are this many or fewer. */
const PRUNE_FLOOR = 10;

function percent(flag: string) {
  return (raw: string): number => {
    const n = Number(raw.trim().replace(/%$/, ''));
    if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100)
      throw new UsageError(
        say`${own(flag)} '${raw}' is not a percentage from 0 to 100`,
        say`give e.g. ${own(flag)} 10`,
      );
    return n;
  };
}

export const sync = command({
  name: 'sync',
  servers: {
    // A schema's keys are Odoo's ids: each server into a schema of its own.
    places: ['schema'],
    // Its per-table lines are a cron log's account of what it did: each server's, led by its name.
    speaks: true,
    check(f) {
      if (!String(f.schema).includes('{profile}'))
        throw new UsageError(
          say`several servers in one schema ${String(f.schema)} would collide: each table's key is Odoo's id`,
          say`put ${own('{profile}')} in --schema (e.g. --schema pos_${own('{profile}')}): one schema per server, read together with UNION ALL`,
        );
    },
  },
  args: [
    {
      spec: '[resource...]',
      description: 'configs, payment_methods, sessions, sales, lines, payments, products (default all)',
      offer: SYNC_NAMES,
    },
  ],
  flags: [
    group('own', [
      {
        spec: '--to <url>',
        description:
          'postgres://USER@HOST:PORT/DB (env POSDATA_SYNC_URL; password from PGPASSWORD or ~/.pgpass)',
      },
      {
        spec: '--schema <name>',
        description: "PostgreSQL schema of the tables; with several profiles one per server: 'pos_{profile}'",
        default: 'posdata',
      },
      {
        spec: '--fields <spec>',
        description: 'more columns: RESOURCE:field,field (repeatable; just field,field with one resource)',
        parse: (v: string, prev: string[] = []) => [...prev, v],
      },
      { spec: '--full', description: 'read every record again (the tables stay; rows are upserted)' },
      {
        spec: '--prune',
        description: 'delete rows whose record Odoo no longer has (deleted drafts and their lines)',
      },
      {
        spec: '--prune-max <percent>',
        description: `the largest share of a table's rows --prune may delete (more than ${PRUNE_FLOOR} rows); more is refused`,
        parse: percent('--prune-max'),
        default: PRUNE_MAX_PERCENT,
      },
      {
        spec: '--overlap <seconds>',
        description: 're-read this much before the watermark',
        parse: number('--overlap', 0),
        default: 300,
      },
      {
        spec: '--page-size <n>',
        description: 'records per request and per transaction',
        parse: positiveInt('--page-size'),
        default: 2000,
      },
      { spec: '--no-wait', description: 'exit 5 instead of waiting when another sync holds the schema' },
      {
        spec: '--take-over',
        description: 'sync into existing tables of the schema that posdata did not create',
      },
      COMPANY,
    ]),
    CONNECTION,
    SERVERS,
    GLOBAL,
  ],
  examples: [
    'posdata sync --to postgres://posdata@db.example.com/warehouse',
    'POSDATA_SYNC_URL=postgres://posdata@localhost/pos posdata sync --quiet --prune',
    'posdata sync sales lines --fields sales:partner_id,user_id --to postgres://posdata@localhost/pos',
  ],
  async options(f, args, { io, env }): Promise<SyncOptions> {
    const { parseFieldSpecs } = await import('../sync/fields.js');
    const { parseTarget } = await import('../sync/postgres.js');
    // A schema's keys are Odoo's ids: each server syncs into a schema of its own (--schema
    // 'pos_{profile}', which the run over several servers fills in per profile).
    if (f.schema.includes('{profile}'))
      throw new UsageError(
        say`--schema ${f.schema} names a schema per profile, and this run has one`,
        say`give several (--profile a,b, a pattern, --all-profiles), or a schema name`,
      );
    const names = (args[0] as string[] | undefined) ?? [];
    const unknown = names.filter((n) => !SYNC_NAMES.includes(n as SyncName));
    if (unknown.length > 0)
      throw new UsageError(
        say`unknown resource '${unknown[0]}'`,
        say`use some of ${own(SYNC_NAMES.join(', '))} (all by default)`,
      );
    const chosen = SYNC_RESOURCES.filter((r) => names.length === 0 || names.includes(r.name));
    const asked = parseFieldSpecs(
      f.fields ?? [],
      chosen.map((r) => r.name),
    );
    for (const name of asked.keys())
      if (!chosen.some((r) => r.name === name))
        throw new UsageError(
          say`--fields names ${name}, which this run does not sync`,
          say`add ${name} to the resources`,
        );
    const schema = f.schema;
    if (schema === '')
      throw new UsageError(say`--schema '' is not a schema name`, say`use e.g. --schema posdata`);
    // PostgreSQL keeps the first 63 bytes of a name, not characters: 40 letters of two bytes
    // would be cut silently, and two long names could become one schema.
    const bytes = Buffer.byteLength(schema, 'utf8');
    if (bytes > 63)
      throw new UsageError(
        say`--schema '${schema}' is ${bytes} bytes, and PostgreSQL cuts a name at 63 bytes`,
        say`give a shorter schema name (letters outside ASCII take 2 to 4 bytes each)`,
      );
    const to = f.to;
    const target = parseTarget(to, env, io.redactor);
    if (to !== undefined && target.passwordInUrl && !io.quiet)
      io.err.line(
        say`posdata: warning: the password in --to is visible to other users of this machine (process list); use PGPASSWORD, ~/.pgpass or POSDATA_SYNC_URL`,
      );
    if (target.sslNote && !io.quiet) io.err.line(say`posdata: warning: ${own(target.sslNote)}`);
    return {
      connection: connectionOptions(f),
      chosen,
      asked,
      target,
      schema,
      full: f.full === true,
      prune: f.prune === true,
      pruneMax: f.pruneMax ?? PRUNE_MAX_PERCENT,
      overlap: f.overlap,
      pageSize: f.pageSize,
      wait: f.wait,
      takeOver: f.takeOver === true,
    };
  },
  run: runSync,
});

/** The tables whose rows hold money: each row says its company and currency. */
const MONEY_TABLES = new Set<string>(['configs', 'sessions', 'sales', 'lines', 'payments']);
/** The column with the currency's code, taken from the row's company. */
const CURRENCY = 'currency';

/** Each company's currency code, as the user sees the companies (one read per login). */
async function companyCurrencies(odoo: OdooClient): Promise<Map<number, string>> {
  return (await import('../read/companies.js')).currencyCodes(odoo);
}

function withCurrency(rec: OdooRecord, currencies: Map<number, string>): void {
  const c = rec.company_id;
  const id = Array.isArray(c) ? (c[0] as number) : undefined;
  rec[CURRENCY] = (id !== undefined ? currencies.get(id) : undefined) ?? false;
}

async function runSync(o: SyncOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const { connect, DatabaseTimeout, databaseError, fromDatabase, ident } = await import(
    '../sync/postgres.js'
  );
  const { checkAsked } = await import('../sync/fields.js');
  const { TablePlan } = await import('../sync/columns.js');
  const { loadResource } = await import('../sync/load.js');
  const { pruneResource } = await import('../sync/prune.js');
  const { ensureSchema, ensureTable, foreignTables, lockSchema, ownStates, readStates, STATE_TABLE } =
    await import('../sync/state.js');
  const { chosen, asked, target, schema } = o;
  const trace = io.debug ? (line: Said) => io.err.line(say`[sql] ${line}`) : undefined;

  const db = await connect(target, o.connection.timeout ?? 60, trace);
  const release = ctx.hold(db);
  let failed = false;
  /** Rows committed by this run, per resource, for an error that stops it halfway. */
  const committed: string[] = [];
  let current = { name: '', rows: 0 };
  const q = (sql: string, values?: unknown[]) => db.query(sql, values);
  try {
    await lockSchema(q, schema, target, o.wait, () => {
      if (!io.quiet)
        io.err.line(
          say`posdata: another posdata sync is running on schema ${schema}; waiting for it to finish`,
        );
    });
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
    const session = await ctx.odoo(o.connection);
    const odoo = session.client;
    const source = `${session.url.href}|${odoo.db}`;
    const all = await readStates(q, schema);
    for (const st of all) {
      if (st.source !== source)
        throw new UsageError(
          say`schema ${schema} holds data synced from ${st.source.replace('|', ' database ')}`,
          say`sync this Odoo into another --schema`,
        );
    }
    // The run's companies: its state is theirs, and --prune deletes only their rows.
    const companyIds = await (await import('../read/companies.js')).runCompanyIds(odoo);
    const companies = companyIds?.join(',') ?? '';
    const states = await ownStates(q, schema, all, companies);
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
      // Company and currency on every row of money: company_id read even where Odoo does not
      // store it (pos.session's is related to its register's, which never changes), and
      // `currency` (the code, EUR) taken from the company's, read once per run: SQL groups by
      // it and never adds two currencies. pos.order's currency_id is related, not stored.
      // --prune deletes only rows of the run's companies, which each row must then say.
      const byCompany = (MONEY_TABLES.has(r.name) || o.prune) && 'company_id' in fields;
      if (byCompany && !wanted.includes('company_id')) wanted.push('company_id');
      const currencyOf = byCompany && MONEY_TABLES.has(r.name) ? await companyCurrencies(odoo) : undefined;
      const columns = currencyOf ? [...wanted, CURRENCY] : wanted;
      // Amounts at the decimals of the company's currency (read once per run): numeric keeps them.
      const defs = inCurrency(fields, await moneyDigits(odoo));
      if (currencyOf) defs[CURRENCY] = { type: 'char', string: 'Currency', store: true };
      const plan = new TablePlan(columns, defs);
      const { added, reset } = await ensureTable(
        q,
        schema,
        r.name,
        plan.columns,
        { resource: r.name, companies, model: r.model, source, fields: wanted },
        { hadState: state !== undefined, full: Boolean(o.full) },
      );
      if (added.length > 0 && !io.quiet)
        io.err.line(
          say`posdata: ${own(r.name)}: added column${own(added.length > 1 ? 's' : '')} ${nameList(added)}; reading every record again to fill them`,
        );
      const context = 'active' in fields ? { active_test: false } : undefined;
      const regFields = wanted.filter(
        (f) => fields[f]?.type === 'many2one' && fields[f]?.relation === 'pos.config',
      );
      const regs = regFields.length > 0 ? await ownNames(odoo, 'pos.config') : undefined;
      current = { name: r.name, rows: 0 };
      /** The ids read this run, which --prune's list must hold. */
      const readIds: number[] = [];
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
        derive: currencyOf && ((rec) => withCurrency(rec, currencyOf)),
        defs,
        context,
        state: reset ? undefined : state,
        companies,
        readIds: o.prune ? readIds : undefined,
        overlapSeconds: o.overlap,
        pageSize: o.pageSize,
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
        // Even with --quiet: the watermark held back is news about the data, not progress.
        warn: (line) => io.err.line(line),
      });
      progress.done();
      if (current.rows > 0) committed.push(`${r.name} ${count(current.rows)}`);
      current = { name: '', rows: 0 };
      const pruned = o.prune
        ? await pruneResource(odoo, db, {
            schema,
            table: r.name,
            model: r.model,
            context,
            maxPercent: o.pruneMax,
            floor: PRUNE_FLOOR,
            read: readIds,
            companies: byCompany ? companyIds : undefined,
          })
        : 0;
      if (!io.quiet) {
        const wm = await q(
          `SELECT to_char(watermark AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS w FROM ${ident(schema)}.posdata_sync_state WHERE resource = $1 AND companies = $2`,
          [r.name, companies],
        );
        io.err.line(
          say`${own(r.name)}: ${count(result.upserted)} upserted, ${count(pruned)} pruned, watermark ${wm.rows[0]?.w ? say`${wm.rows[0].w} UTC` : own('none')}`,
        );
      }
    }
  } catch (err) {
    failed = true;
    if (fromDatabase(err) || err instanceof DatabaseTimeout) throw databaseError(err, target);
    if (current.rows > 0) committed.push(`${current.name} ${count(current.rows)}`);
    if (isPosdataError(err) && committed.length > 0) {
      // What the run left behind is true of this run, not of the error where it arose.
      const left = say`the rows read before it are committed with their watermark (${own(committed.join(', '))}), and the next run goes on from there`;
      (err as { hint: Said | undefined }).hint = err.hint ? say`${err.hint}; ${left}` : left;
    }
    throw err;
  } finally {
    release();
    await db.close(failed);
  }
}
