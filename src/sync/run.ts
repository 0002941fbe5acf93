// A `posdata sync` run: the database (connection, advisory lock, schema, state rows) → per
// resource: its fields, its table, the incremental load, --prune → one summary line each.
// The command (commands/sync.ts) gives the options and a host: the Odoo session, the progress
// line and standard error.
import {
  companyScope,
  defaultSyncFields,
  isStored,
  type SyncName,
  type SyncResource,
  syncFetch,
  syncFields,
} from '../catalog/resources.js';
import type { OdooClient } from '../core/client.js';
import { isPosdataError, UsageError } from '../core/errors.js';
import type { RateLimiter } from '../core/ratelimit.js';
import { nameList, own, type Said, say } from '../core/redact.js';
import type { FieldMap, OdooRecord } from '../core/types.js';
import { currencyCodes, runCompanyIds } from '../read/companies.js';
import { moneyDigits } from '../read/currency.js';
import { INVOICE, InvoiceNumbers } from '../read/invoices.js';
import { ownNames } from '../read/own-names.js';
import { inCurrency } from '../records/normalize.js';
import { TablePlan } from './columns.js';
import { checkAsked } from './fields.js';
import { loadResource } from './load.js';
import {
  connect,
  DatabaseTimeout,
  type Db,
  databaseError,
  fromDatabase,
  ident,
  type Target,
} from './postgres.js';
import { pruneResource } from './prune.js';
import {
  ensureSchema,
  ensureTable,
  foreignTables,
  lockSchema,
  ownStates,
  type Query,
  readStates,
  STATE_TABLE,
  type SyncState,
} from './state.js';

/** What the run does: the command's options without the Odoo connection's. */
export interface SyncRun {
  /** The resources, parents first. */
  chosen: SyncResource[];
  /** --fields: the extra fields per resource. */
  asked: Map<SyncName, string[]>;
  target: Target;
  schema: string;
  full: boolean;
  prune: boolean;
  /** --prune-max: percent of a table's rows, */
  pruneMax: number;
  /** unless they are this many or fewer. */
  pruneFloor: number;
  overlap: number;
  pageSize: number;
  /** false with --no-wait. */
  wait: boolean;
  /** Sync into tables of the schema that posdata did not create. */
  takeOver: boolean;
}

/** A progress line for one resource. */
export interface Meter {
  readonly enabled: boolean;
  start(total: number): void;
  update(count: number): void;
  done(): void;
}

/** What the run is given by its command: Odoo, the interrupt, the progress line, stderr. */
export interface SyncHost {
  /** The Odoo session, logged in at the first call: after the schema is locked and checked. */
  odoo(): Promise<{ client: OdooClient; url: URL; limiter: RateLimiter }>;
  /** Dropped at once on an interrupt, until released. */
  hold(live: { destroy(): void }): () => void;
  /** A resource's progress line, which shows the rate limit's waits from its first request on. */
  progress(label: string, limiter: RateLimiter): Meter;
  /** Seconds a database request may take (--timeout). */
  timeout: number;
  /** A line on standard error that --quiet leaves out (absent then). */
  note?: (line: Said) => void;
  /** A line on standard error even with --quiet: news about the data, not progress. */
  warn: (line: Said) => void;
  /** --debug: each SQL statement. */
  trace?: (line: Said) => void;
}

/** The tables whose rows hold money: each row says its company and currency. */
const MONEY_TABLES = new Set<string>(['configs', 'sessions', 'sales', 'lines', 'payments']);
/** The column with the currency's code, taken from the row's company. */
const CURRENCY = 'currency';

const count = (n: number) => n.toLocaleString('en-US');

/** The run once the schema is locked and Odoo logged in: what every resource's sync uses. */
interface OpenRun {
  o: SyncRun;
  host: SyncHost;
  db: Db;
  q: Query;
  odoo: OdooClient;
  limiter: RateLimiter;
  /** The Odoo the schema's rows come from: its URL and database. */
  source: string;
  states: Map<string, SyncState>;
  /** The run's companies: its state is theirs, and --prune deletes only their rows. */
  companyIds: number[] | undefined;
  /** The same, as the state rows are keyed. */
  companies: string;
}

/** Rows committed by this run, per resource, for an error that stops it halfway. */
class Committed {
  private readonly done: string[] = [];
  private current = { name: '', rows: 0 };

  begin(name: string): void {
    this.current = { name, rows: 0 };
  }

  rows(n: number): void {
    this.current.rows = n;
  }

  end(): void {
    if (this.current.rows > 0) this.done.push(`${this.current.name} ${count(this.current.rows)}`);
    this.current = { name: '', rows: 0 };
  }

  /** What the run left behind: the resources with rows committed (the one cut short too). */
  list(): string[] {
    this.end();
    return this.done;
  }
}

export async function syncSchema(o: SyncRun, host: SyncHost): Promise<void> {
  const db = await connect(o.target, host.timeout, host.trace);
  const release = host.hold(db);
  let failed = false;
  const committed = new Committed();
  try {
    const run = await openRun(o, host, db);
    for (const r of o.chosen) await syncResource(run, r, committed);
  } catch (err) {
    failed = true;
    throw runError(err, o.target, committed);
  } finally {
    release();
    await db.close(failed);
  }
}

/**
 * The error that stopped the run: the database's in PostgreSQL's words; any other with what
 * the run left behind, which is true of this run, not of the error where it arose.
 */
function runError(err: unknown, target: Target, committed: Committed): unknown {
  if (fromDatabase(err) || err instanceof DatabaseTimeout) return databaseError(err, target);
  const left = committed.list();
  if (isPosdataError(err) && left.length > 0) {
    const said = say`the rows read before it are committed with their watermark (${own(left.join(', '))}), and the next run goes on from there`;
    (err as { hint: Said | undefined }).hint = err.hint ? say`${err.hint}; ${said}` : said;
  }
  return err;
}

/** The schema locked, checked and made; Odoo logged in; the run's state rows read. */
async function openRun(o: SyncRun, host: SyncHost, db: Db): Promise<OpenRun> {
  const q: Query = (sql, values) => db.query(sql, values);
  const { schema } = o;
  await lockSchema(q, schema, o.target, o.wait, () =>
    host.note?.(say`posdata: another posdata sync is running on schema ${schema}; waiting for it to finish`),
  );
  if (!o.takeOver) await refuseForeign(q, o);
  await ensureSchema(q, schema);
  const session = await host.odoo();
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
  const companyIds = await runCompanyIds(odoo);
  const companies = companyIds?.join(',') ?? '';
  const states = await ownStates(q, schema, all, companies);
  return { o, host, db, q, odoo, limiter: session.limiter, source, states, companyIds, companies };
}

/** Tables of the schema that posdata did not create are left alone, unless --take-over. */
async function refuseForeign(q: Query, o: SyncRun): Promise<void> {
  const { schema } = o;
  const foreign = await foreignTables(
    q,
    schema,
    o.chosen.map((r) => r.name),
  );
  if (foreign.length === 0) return;
  const them = foreign.map((n) => `${schema}.${n}`).join(', ');
  const many = foreign.length > 1;
  throw new UsageError(
    say`${own(many ? 'tables' : 'table')} ${them} ${own(many ? 'exist' : 'exists')} and posdata did not create ${own(many ? 'them' : 'it')} (not in ${schema}.${own(STATE_TABLE)}); nothing was changed`,
    say`sync into a schema of its own (--schema NAME), or add --take-over to let posdata add its columns, upsert Odoo's rows by id${own(o.prune ? ' and prune the others' : '')}`,
  );
}

/** A resource's table as this run syncs it: its columns, and the state the load starts from. */
interface ResourceTable {
  /** The model's fields (fields_get). */
  fields: FieldMap;
  /** The fields synced, write_date among them. */
  wanted: string[];
  /** The rows say their company (--prune deletes only the run's companies' rows). */
  byCompany: boolean;
  /** Each company's currency code, where the rows hold money. */
  currencyOf: Map<number, string> | undefined;
  /** The columns' definitions, amounts at their currency's decimals. */
  defs: FieldMap;
  plan: TablePlan;
  /** Undefined where the load starts over (a new table or column, --full, no state). */
  state: SyncState | undefined;
}

/** The fields a resource syncs: those of earlier runs, the defaults, --fields; write_date. */
async function wantedFields(run: OpenRun, r: SyncResource): Promise<{ fields: FieldMap; wanted: string[] }> {
  const fields = syncFields(r, await run.odoo.fieldsGet(r.model));
  const extra = run.o.asked.get(r.name) ?? [];
  checkAsked(r, fields, extra);
  // A column once synced stays synced: the fields of earlier runs, the defaults, and the new ones.
  const kept = (run.states.get(r.name)?.fields ?? []).filter((f) => isStored(fields, f));
  const wanted = [...new Set([...defaultSyncFields(r, fields), ...kept, ...extra])];
  if (!wanted.includes('write_date')) wanted.push('write_date');
  return { fields, wanted };
}

/**
 * The resource's table made or widened, and its state row written. Company and currency on
 * every row of money: company_id read even where Odoo does not store it (pos.session's is
 * related to its register's, which never changes), and `currency` (the code, EUR) taken from
 * the company's, read once per run: SQL groups by it and never adds two currencies.
 * pos.order's currency_id is related, not stored. --prune deletes only rows of the run's
 * companies, which each row must then say.
 */
async function resourceTable(run: OpenRun, r: SyncResource): Promise<ResourceTable> {
  const { o, odoo } = run;
  const { fields, wanted } = await wantedFields(run, r);
  const byCompany = (MONEY_TABLES.has(r.name) || o.prune) && 'company_id' in fields;
  if (byCompany && !wanted.includes('company_id')) wanted.push('company_id');
  const currencyOf = byCompany && MONEY_TABLES.has(r.name) ? await currencyCodes(odoo) : undefined;
  const columns = currencyOf ? [...wanted, CURRENCY] : wanted;
  // Amounts at the decimals of the company's currency (read once per run): numeric keeps them.
  const defs = inCurrency(fields, await moneyDigits(odoo));
  if (currencyOf) defs[CURRENCY] = { type: 'char', string: 'Currency', store: true };
  const plan = new TablePlan(columns, defs);
  const state = run.states.get(r.name);
  const { added, reset } = await ensureTable(
    run.q,
    o.schema,
    r.name,
    plan.columns,
    { resource: r.name, companies: run.companies, model: r.model, source: run.source, fields: wanted },
    { hadState: state !== undefined, full: o.full },
  );
  if (added.length > 0)
    run.host.note?.(
      say`posdata: ${own(r.name)}: added column${own(added.length > 1 ? 's' : '')} ${nameList(added)}; reading every record again to fill them`,
    );
  return { fields, wanted, byCompany, currencyOf, defs, plan, state: reset ? undefined : state };
}

function withCurrency(rec: OdooRecord, currencies: Map<number, string>): void {
  const c = rec.company_id;
  const id = Array.isArray(c) ? (c[0] as number) : undefined;
  rec[CURRENCY] = (id !== undefined ? currencies.get(id) : undefined) ?? false;
}

/** Where the table has `invoice`: each page's invoice numbers, null (said once) where Odoo refuses them. */
function invoiceFiller(run: OpenRun, r: SyncResource, wanted: string[]) {
  if (!wanted.includes(INVOICE)) return undefined;
  const numbers = new InvoiceNumbers(run.odoo, () =>
    run.host.warn(
      say`posdata: ${own(r.name)}: Odoo refuses this user account.move (AccessError), so ${own(INVOICE)} stays empty; sync as a user who may read the invoices, then once with --full to fill it`,
    ),
  );
  return (records: OdooRecord[]) => numbers.fill(records);
}

/** The register names to write for the resource's many2one fields to pos.config, if any. */
async function registerNames(
  run: OpenRun,
  { fields, wanted }: ResourceTable,
): Promise<Record<string, Map<number, string>> | undefined> {
  const regFields = wanted.filter(
    (f) => fields[f]?.type === 'many2one' && fields[f]?.relation === 'pos.config',
  );
  const regs = regFields.length > 0 ? await ownNames(run.odoo, 'pos.config') : undefined;
  return regs && Object.fromEntries(regFields.map((f) => [f, regs]));
}

async function syncResource(run: OpenRun, r: SyncResource, committed: Committed): Promise<void> {
  const { o, host } = run;
  // Watched from the resource's first request on: a wait for the rate limit shows
  // whichever request it holds (fields_get, the register names), not only the pages.
  const progress = host.progress(`${r.name}: `, run.limiter);
  const table = await resourceTable(run, r);
  const { fields, wanted, defs } = table;
  const context = 'active' in fields ? { active_test: false } : undefined;
  const names = await registerNames(run, table);
  committed.begin(r.name);
  /** The ids read this run, which --prune's list must hold. */
  const readIds: number[] = [];
  const currencyOf = table.currencyOf;
  const result = await loadResource({
    odoo: run.odoo,
    db: run.db,
    schema: o.schema,
    table: r.name,
    model: r.model,
    plan: table.plan,
    fetch: syncFetch(
      r,
      wanted.filter((f) => f !== 'id'),
    ),
    manyToOne: wanted.filter((f) => fields[f]?.type === 'many2one'),
    ownNames: names,
    derive: currencyOf && ((rec) => withCurrency(rec, currencyOf)),
    fill: invoiceFiller(run, r, wanted),
    defs,
    context,
    state: table.state,
    companies: run.companies,
    scope: companyScope(r, run.companyIds),
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
      committed.rows(n);
      progress.update(n);
    },
    trace: host.trace,
    warn: host.warn,
  });
  progress.done();
  committed.end();
  const pruned = o.prune
    ? await pruneResource(run.odoo, run.db, {
        schema: o.schema,
        table: r.name,
        model: r.model,
        context,
        maxPercent: o.pruneMax,
        floor: o.pruneFloor,
        read: readIds,
        companies: table.byCompany ? run.companyIds : undefined,
      })
    : 0;
  if (host.note) await sayDone(run, r.name, result.upserted, pruned);
}

/** The resource's line: rows upserted and pruned, and where its watermark is now. */
async function sayDone(run: OpenRun, name: string, upserted: number, pruned: number): Promise<void> {
  const wm = await run.q(
    `SELECT to_char(watermark AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS w FROM ${ident(run.o.schema)}.${STATE_TABLE} WHERE resource = $1 AND companies = $2`,
    [name, run.companies],
  );
  run.host.note?.(
    say`${own(name)}: ${count(upserted)} upserted, ${count(pruned)} pruned, watermark ${wm.rows[0]?.w ? say`${wm.rows[0].w} UTC` : own('none')}`,
  );
}
