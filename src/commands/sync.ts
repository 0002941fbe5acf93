// `posdata sync`: Odoo's POS data into PostgreSQL tables, current and never counted twice.
// Here the flags and their checks; the run (the database, then per resource its fields,
// table, incremental load and prune, one summary line each on stderr) is sync/run.ts.
import { SYNC_NAMES, SYNC_RESOURCES, type SyncName } from '../catalog/resources.js';
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
import { UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import type { SyncRun } from '../sync/run.js';

export interface SyncOptions extends SyncRun {
  connection: ConnectionOptions;
}

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
      pruneFloor: PRUNE_FLOOR,
      overlap: f.overlap,
      pageSize: f.pageSize,
      wait: f.wait,
      takeOver: f.takeOver === true,
    };
  },
  run: runSync,
});

async function runSync(o: SyncOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const { syncSchema } = await import('../sync/run.js');
  await syncSchema(o, {
    odoo: () => ctx.odoo(o.connection),
    hold: (live) => ctx.hold(live),
    progress(label, limiter) {
      const progress = new Progress(io, true, label);
      progress.watch(limiter);
      return progress;
    },
    timeout: o.connection.timeout ?? 60,
    note: io.quiet ? undefined : (line) => io.err.line(line),
    warn: (line) => io.err.line(line),
    trace: io.debug ? (line) => io.err.line(say`[sql] ${line}`) : undefined,
  });
}
