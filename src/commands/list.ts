// The list commands, one per list resource of the catalog (configs, sales, lines, refunds,
// cancellations, closures, payments, products): flags → a query → pages of records → a
// renderer → a sink (standard output or -o), with --checkpoint's window and progress.
import type { Resource, ResourceName } from '../catalog/resources.js';
import { COUNTED_STATES, RESOURCES } from '../catalog/resources.js';
import { type Command, command } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import {
  COMPANY,
  CONFIG_ID,
  CONNECTION,
  type ConnectionOptions,
  connectionOptions,
  type FlagValues,
  flag,
  GLOBAL,
  group,
  SERVERS,
  SESSION_ID,
  when,
} from '../cli/flags.js';
import type { IO } from '../cli/io.js';
import {
  type AfterWriting,
  chooseFormat,
  OUTPUT,
  type OutputOptions,
  outputOptions,
  tableLook,
  writeOutput,
} from '../cli/output.js';
import type { Progress } from '../cli/progress.js';
import type { Session } from '../cli/session.js';
import { number, positiveInt } from '../cli/values.js';
import type { OdooClient } from '../core/client.js';
import { NotFoundError, UsageError } from '../core/errors.js';
import { nameList, own, say } from '../core/redact.js';
import type { Domain, OdooRecord } from '../core/types.js';
import type { QueryFlags } from '../query/build.js';
import { checkJsonValue, checkSortShape, commaList, parseDomain } from '../query/domain.js';
import { checkZone, tzHelp, zoneFor } from '../query/zone.js';
import type { Checkpoint, CheckpointRun } from '../read/checkpoint.js';
import type { BareNames } from '../read/names.js';
import { ownNames } from '../read/own-names.js';
import type { Prepared } from '../read/stream.js';
import { MAX_OVERLAP, WINDOW_NAME, windowFileName } from '../read/window.js';
import type { Row, Value } from '../records/normalize.js';
import type { CsvLead, Renderer } from '../render/formats.js';
import type { Sink } from '../sink/sink.js';
import { resolveTarget, sameFile } from '../sink/target.js';

export interface ListOptions {
  resource: Resource;
  connection: ConnectionOptions;
  output: OutputOptions;
  /** `lines`: the sales ticket whose lines are listed (else those of a range of tickets). */
  orderId?: number;
  configId?: number;
  sessionId?: number;
  state?: string[];
  from?: string;
  to?: string;
  tz?: string;
  fields?: string[];
  limit?: number;
  sort?: string;
  domain?: Domain;
  pageSize: number;
  withPayments: boolean;
  /** --lang, --include-archived and --context as one Odoo context (--company is the session's). */
  odooContext?: Record<string, unknown>;
  /** --lang: checked against the languages Odoo has installed. */
  lang?: string;
  count: boolean;
  dryRun: boolean;
  /** --checkpoint as given, and as the file it really is. */
  checkpoint?: { file: string; path: string };
  full: boolean;
  overlap: number;
  /** -o names the run's window ({from}, {to}): its file is known once the window is. */
  named: boolean;
}

const ORDER_STATES = ['draft', 'paid', 'done', 'cancel', 'invoiced'];

/**
 * The query flags of a resource: its filters, then those every list takes. A description
 * names only flags and fields the command has (`lines` has no --from, nor date_order).
 */
function queryFlags(r: Resource) {
  const ff = { ...r.filterFields, ...r.rangeFields };
  return group('query', [
    ...when(ff.config, [CONFIG_ID]),
    ...when(ff.session, [SESSION_ID]),
    ...when(ff.state, [
      flag({
        spec: '--state <states>',
        description: 'order states, comma-separated (draft, paid, done, cancel, invoiced)',
        offer: ORDER_STATES,
        list: true,
      }),
    ]),
    ...when(ff.time, [
      flag({
        spec: '--from <when>',
        description: `from this time on ${ff.time}: YYYY-MM-DD, "YYYY-MM-DD HH:MM", ISO 8601, today, yesterday, 2h, 7d`,
      }),
      flag({
        spec: '--to <when>',
        description: 'up to this time; a date-only value includes that whole day',
      }),
    ]),
    {
      spec: '--tz <zone>',
      description: tzHelp(ff.time ? '--from/--to' : undefined),
      value: 'zone',
    },
    {
      spec: '--fields <list>',
      description: 'fields to return, comma-separated',
      list: true,
      fieldsOf: r.model,
    },
    { spec: '--limit <n>', description: 'at most N records (default all)', parse: positiveInt('--limit') },
    {
      spec: '--sort <order>',
      // Odoo orders by a model's own fields only: a range's field on another model is no sort.
      description: `sort, as Odoo's order: ${r.filterFields.time ? `"${r.filterFields.time} desc, id"` : '"id desc"'}`,
    },
    { spec: '--domain <json>', description: 'an extra Odoo domain, ANDed with the other filters' },
    {
      spec: '--page-size <n>',
      description: 'records per request when reading many',
      parse: positiveInt('--page-size'),
      default: 2000,
    },
    ...when(r.name === 'sales', [
      flag({ spec: '--with-payments', description: 'each order carries its payments with method names' }),
    ]),
    { spec: '--lang <code>', description: 'language of translated names (Odoo context lang, e.g. fr_BE)' },
    COMPANY,
    {
      spec: '--include-archived',
      description: 'also archived registers, methods and products (active_test off)',
    },
    { spec: '--context <json>', description: 'extra Odoo context, as JSON' },
    { spec: '--count', description: 'print only how many records match' },
    { spec: '--dry-run', description: 'print the request that would be sent, and send no data request' },
    ...when(r.checkpoint, [
      flag({
        spec: '--checkpoint <file>',
        description: 'export only what changed since the last run with FILE (write_date, id)',
        value: 'file',
      }),
      flag({
        spec: '--full',
        description: 'with --checkpoint: export everything and start the checkpoint again',
      }),
      flag({
        spec: '--overlap <seconds>',
        description: 'with --checkpoint: re-read this much before the last window end',
        parse: number('--overlap', 0),
        default: 300,
      }),
    ]),
  ]);
}

const LIST_FLAGS = (r: Resource) => [queryFlags(r), OUTPUT, CONNECTION, SERVERS, GLOBAL] as const;
type ListFlags = FlagValues<ReturnType<typeof LIST_FLAGS>>;

export function listCommand(name: ResourceName): Command<ListOptions, ReturnType<typeof LIST_FLAGS>> {
  const resource = RESOURCES[name];
  return command({
    name,
    args:
      name === 'lines'
        ? [
            {
              spec: '[order-id]',
              description:
                'the sales ticket id; without it, the lines of the tickets --from/--to, --session-id or --config-id select',
            },
          ]
        : [],
    // A chain without --checkpoint writes the servers' rows to -o as given: {from} and {to}
    // are refused there as a single run refuses them, not left in the file's name.
    servers: {
      check(f) {
        if (windowNamed(f.output) && typeof f.checkpoint !== 'string') throw windowWithoutCheckpoint();
      },
    },
    flags: LIST_FLAGS(resource),
    examples: resource.examples,
    options: async (f, args, { io }) => {
      const o = listOptions(resource, f, args[0] as string | undefined, io);
      // The times with the module that reads them (luxon), loaded only where they are given.
      if (o.from !== undefined || o.to !== undefined)
        (await import('../query/time.js')).checkRange(o.from, o.to, o.tz);
      return o;
    },
    run: (o, ctx) => runList(o, ctx),
  });
}

/** -o names the run's window ({from}, {to}): a file, not standard output. */
function windowNamed(file: unknown): boolean {
  return typeof file === 'string' && file !== '-' && WINDOW_NAME.test(file);
}

/** {from} and {to} without --checkpoint: no window to name the file by (a single run and a chain alike). */
function windowWithoutCheckpoint(): UsageError {
  return new UsageError(
    say`{from} and {to} in -o name the window of a checkpointed run`,
    say`add --checkpoint FILE, or leave them out of -o`,
  );
}

/** Everything that can be checked without the server, in the order a user meets it. */
function listOptions(resource: Resource, f: ListFlags, arg: string | undefined, io: IO): ListOptions {
  const name = resource.name;
  chooseFormat(f.format, f.output, io);
  const tz = f.tz;
  if (tz) checkZone(tz);
  if (f.sort !== undefined) checkSortShape(f.sort);
  const checkpointFile = f.checkpoint;
  if (checkpointFile && !resource.checkpoint) {
    throw new UsageError(
      say`--checkpoint does not apply to ${own(name)}`,
      say`use it with sales, refunds, cancellations, closures or payments`,
    );
  }
  if (checkpointFile && f.sort)
    throw new UsageError(say`--checkpoint exports in write_date order`, say`drop --sort`);
  const overlap = f.overlap ?? 300;
  if (overlap > MAX_OVERLAP)
    throw new UsageError(
      say`--overlap ${overlap} is longer than a century`,
      say`give it in seconds, e.g. 300`,
    );
  if (f.full && !checkpointFile)
    throw new UsageError(say`--full goes with --checkpoint`, say`add --checkpoint FILE`);
  if (f.withPayments && name !== 'sales')
    throw new UsageError(say`--with-payments applies to sales`, say`use posdata payments`);
  let orderId: number | undefined;
  if (name === 'lines') {
    const ranged = [f.from, f.to, f.sessionId, f.configId].some((v) => v !== undefined);
    if (arg === undefined && !ranged) {
      throw new UsageError(
        say`no sales ticket given`,
        say`give a ticket id (posdata lines 42), or a range: --from yesterday, --session-id N, --config-id N`,
      );
    }
    if (arg !== undefined) {
      if (!/^\d+$/.test(arg) || Number(arg) < 1) {
        throw new UsageError(
          say`'${arg}' is not an order id`,
          say`give the numeric id of a sales ticket, the id column of posdata sales: posdata lines 42`,
        );
      }
      orderId = Number(arg);
    }
  }
  const file = f.output;
  const named = windowNamed(file);
  if (named && !checkpointFile) throw windowWithoutCheckpoint();
  // -o and the checkpoint as the files they really are (symlinks followed); a folder or a
  // device is refused before anything is asked of the server.
  const out = outputOptions(f, io);
  const checkpoint = checkpointFile
    ? { file: checkpointFile, path: resolveTarget(checkpointFile, '--checkpoint') }
    : undefined;
  notSameFile(out, checkpoint);
  const odooContext = contextFrom(f);
  return {
    resource,
    connection: connectionOptions(f),
    output: out,
    orderId,
    configId: f.configId,
    sessionId: f.sessionId,
    state: states(f.state),
    from: f.from,
    to: f.to,
    tz,
    fields: f.fields !== undefined ? commaList(f.fields) : undefined,
    limit: f.limit,
    sort: f.sort,
    domain: f.domain !== undefined ? parseDomain(f.domain) : undefined,
    pageSize: f.pageSize,
    withPayments: f.withPayments === true,
    odooContext,
    lang: f.lang,
    count: f.count === true,
    dryRun: f.dryRun === true,
    checkpoint,
    full: f.full === true,
    overlap,
    named,
  };
}

/** --state as a list; given empty (an unset variable in a cron line), it is refused, not every state. */
function states(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = commaList(raw);
  if (list.length === 0)
    throw new UsageError(
      say`--state is empty`,
      say`give order states, comma-separated (${own(ORDER_STATES.join(', '))}), or leave --state out for every state`,
    );
  return list;
}

/** The checkpoint would overwrite the export it describes. */
function notSameFile(out: { path?: string; file?: string }, cp: { path: string } | undefined): void {
  if (out.path && cp && sameFile(out.path, cp.path)) {
    throw new UsageError(
      say`--checkpoint and -o are the same file (${out.file}); the checkpoint would overwrite the export`,
      say`give the checkpoint a file of its own, e.g. --checkpoint sales.ckpt`,
    );
  }
}

/** --lang, --include-archived and --context as one Odoo context (--company is the session's). */
function contextFrom(f: ListFlags): Record<string, unknown> | undefined {
  let ctx: Record<string, unknown> = {};
  const { context, lang } = f;
  if (context !== undefined) {
    let v: unknown;
    try {
      v = JSON.parse(context);
    } catch {
      throw new UsageError(
        say`--context is not JSON`,
        say`write it as a JSON object, e.g. --context '{"lang": "fr_BE"}'`,
      );
    }
    checkJsonValue(v, '--context', 'a flat JSON object, e.g. --context \'{"lang": "fr_BE"}\'');
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      throw new UsageError(
        say`--context is not a JSON object`,
        say`write it as a JSON object, e.g. --context '{"lang": "fr_BE"}'`,
      );
    }
    ctx = { ...(v as Record<string, unknown>) };
  }
  if (lang !== undefined) {
    if (!/^[a-z]{2,3}(_[A-Z]{2})?(@\w+)?$/.test(lang))
      throw new UsageError(say`--lang '${lang}' is not a language code`, say`use e.g. en_US or fr_BE`);
    ctx.lang = lang;
  }
  if (f.includeArchived) ctx.active_test = false;
  return Object.keys(ctx).length > 0 ? ctx : undefined;
}

/**
 * The run's companies, as a checkpoint keeps them. Others than the checkpoint's are refused: a
 * company added (a --company widened, a user given a further company) because carrying on from
 * its window would never read the added companies' earlier records; a company lost (a
 * --company narrowed, a user who lost one) because the window would move on past that
 * company's records without reading them.
 */
async function checkpointCompanies(
  client: OdooClient,
  cp: Checkpoint | undefined,
  file: string,
): Promise<number[] | undefined> {
  const ids = await (await import('../read/companies.js')).runCompanyIds(client);
  if (!cp?.companies || !ids || cp.companies.join(',') === ids.join(',')) return ids;
  const lost = cp.companies.filter((c) => !ids.includes(c));
  const why =
    lost.length > 0 && ids.every((c) => cp.companies?.includes(c))
      ? say`going on from its window would move it past the records of ${own(lost.length > 1 ? 'companies' : 'company')} ${own(lost.join(', '))} without reading them`
      : say`going on from its window would never read the earlier records of a company added`;
  throw new UsageError(
    say`checkpoint ${file} was made for companies ${own(cp.companies.join(', '))}, and this run reads companies ${own(ids.join(', '))}: ${why}`,
    say`run once with --full to read the whole range for these companies, or keep a checkpoint file per set of companies (--company)`,
  );
}

async function runList(o: ListOptions, ctx: Context): Promise<void> {
  const { resource } = o;
  const { CheckpointRun, loadCheckpoint, lockCheckpoint, queryHash, refuseReplace, windowFor } = await import(
    '../read/checkpoint.js'
  );
  const writes = !o.dryRun && !o.count;
  if (o.checkpoint && writes) ctx.atEnd(lockCheckpoint(o.checkpoint.path));
  const cp = o.checkpoint && !o.full ? loadCheckpoint(o.checkpoint.path) : undefined;
  if (cp && o.output.path && !o.named && writes)
    refuseReplace(o.output.path, String(o.output.file), o.checkpoint?.file ?? '', resource.name);

  const session = await ctx.odoo({ ...o.connection, odooContext: o.odooContext });
  const { client } = session;
  if (o.lang !== undefined) await (await import('../read/lang.js')).checkLang(client, o.lang);
  const zone = zoneFor('range', o.tz, session.profile.tz);
  // Where an earlier run's fields are remembered, the export starts from them; the server's
  // own come meanwhile and decide whether what was asked from the guess is kept.
  const guessed = await guessQuery(o, client, zone);
  const preparing = prepareQuery(o, client, zone);
  if (guessed) preparing.catch(() => undefined);
  // A checkpoint's companies are read with the fields, not a round trip after them; a query
  // or server that is not the checkpoint's is still the error the run ends with.
  const companiesRead = o.checkpoint ? checkpointCompanies(client, cp, o.checkpoint.file) : undefined;
  companiesRead?.catch(() => undefined);
  const prepared = guessed ?? (await preparing);

  // The query's flags as typed: `--from 2h` or `today` resolve to another instant every run
  // and are still the same query. (Checkpoints made before hashed the resolved domain;
  // such a hash is still taken, and replaced at the next save.)
  const typed = {
    configId: o.configId ?? null,
    sessionId: o.sessionId ?? null,
    state: o.state ?? null,
    from: o.from ?? null,
    to: o.to ?? null,
    zone: o.from !== undefined || o.to !== undefined ? zone : null,
    domain: o.domain ?? null,
  };
  const hash = queryHash([resource.name, typed, prepared.query.fields, o.withPayments]);
  const legacyHash = queryHash([resource.name, prepared.query.domain, prepared.query.fields, o.withPayments]);
  const server = `${session.url.href}|${client.db}`;
  if (cp && ((cp.query !== hash && cp.query !== legacyHash) || cp.server !== server)) {
    throw new UsageError(
      say`checkpoint ${o.checkpoint?.file} was made for another query or server`,
      say`use a checkpoint file per query, or --full to start it again`,
    );
  }
  const companies = await companiesRead;
  // The window ends at the server's time, which its write_date stamps follow: a client clock
  // ahead of Odoo's by more than --overlap would otherwise skip what was written meanwhile.
  const window = o.checkpoint ? windowFor(cp, o.overlap, client.serverNow(), o.checkpoint.file) : undefined;
  let output = o.output;
  if (o.named && window && writes) {
    const file = windowFileName(String(o.output.file), cp?.windowEnd, window);
    output = { ...output, file, path: resolveTarget(file) };
    notSameFile(output, o.checkpoint);
    if (cp) refuseReplace(output.path as string, file, o.checkpoint?.file ?? '', resource.name);
  }
  const domain = window ? [...prepared.query.domain, ...window.domain] : prepared.query.domain;
  if (o.dryRun) {
    const call = {
      model: resource.model,
      method: 'search_read',
      domain,
      fields: prepared.query.fetchFields,
      order: window ? 'write_date, id' : prepared.query.order,
      page_size: o.pageSize,
      limit: prepared.query.limit ?? null,
      context: o.odooContext ?? null,
    };
    ctx.io.out.write(`${JSON.stringify(call, null, 2)}\n`);
    return;
  }
  if (o.count) {
    const n = await client.searchCount(resource.model, domain);
    if (n === 0) await (await import('../read/exists.js')).mustExist(client, o);
    ctx.io.out.write(`${o.limit !== undefined ? Math.min(n, o.limit) : n}\n`);
    return;
  }
  const run =
    o.checkpoint && window
      ? new CheckpointRun(o.checkpoint, cp, window, {
          resource: resource.name,
          model: resource.model,
          server,
          query: hash,
          overlapSeconds: o.overlap,
          limit: o.limit,
          companies,
        })
      : undefined;
  await exportRecords({ ...o, output }, ctx, session, prepared, run, guessed && preparing);
}

function flagsOf(o: ListOptions, tz: string): QueryFlags {
  return {
    configId: o.configId,
    sessionId: o.sessionId,
    state: o.state,
    from: o.from,
    to: o.to,
    tz,
    fields: o.fields,
    limit: o.limit,
    sort: o.sort,
    domain: o.domain,
  };
}

const fixedOf = (o: ListOptions): Domain => (o.orderId !== undefined ? [['order_id', '=', o.orderId]] : []);

/** The query against the server's fields; for `lines`, the ticket must exist. */
async function prepareQuery(o: ListOptions, client: OdooClient, tz: string): Promise<Prepared> {
  if (o.fields !== undefined && o.fields.length === 0) {
    const f = await client.fieldsGet(o.resource.model);
    throw new UsageError(say`--fields is empty`, say`valid fields: ${nameList(Object.keys(f).sort())}`);
  }
  const { prepare } = await import('../read/stream.js');
  const preparing = prepare(client, o.resource, flagsOf(o, tz), {
    fixed: fixedOf(o),
    withPayments: o.withPayments,
  });
  // The ticket is looked up with the fields, not a round trip after them; theirs is the
  // error first.
  const finding = o.orderId !== undefined ? client.read('pos.order', [o.orderId], ['name']) : undefined;
  finding?.catch(() => undefined);
  const prepared = await preparing;
  if (finding) {
    const found = await finding;
    if (found.length === 0)
      throw new NotFoundError(
        say`sales ticket ${o.orderId} does not exist`,
        say`list ticket ids with posdata sales`,
      );
  }
  return prepared;
}

/**
 * The query from the fields_get reply an earlier run had of this server, without a request:
 * an export asks its first pages from it while the server's own reply is on its way, and
 * keeps them where that reply is the same (renderRecords). Undefined where none is
 * remembered, where it builds no query (the server's own fields say what is wrong), and for
 * runs that do something else first: --dry-run, --count, a checkpoint's window.
 */
async function guessQuery(o: ListOptions, client: OdooClient, tz: string): Promise<Prepared | undefined> {
  if (o.dryRun || o.count || o.checkpoint || o.fields?.length === 0) return undefined;
  const fields = client.rememberedFields(o.resource.model);
  if (!fields) return undefined;
  const { prepareFrom } = await import('../read/stream.js');
  try {
    return prepareFrom(fields, o.resource, flagsOf(o, tz), {
      fixed: fixedOf(o),
      withPayments: o.withPayments,
    });
  } catch {
    return undefined;
  }
}

/**
 * What a table shows by name: registers by their own name (on 16/17 Odoo's label carries the
 * session user), and a register's payment methods rather than their ids (a many2one's label
 * is a method's name already). Both models are read at once.
 */
async function tableNames(
  client: OdooClient,
  prepared: Prepared,
): Promise<Record<string, Map<number, string>>> {
  const linked: [string, string][] = [];
  for (const f of prepared.outFields) {
    const def = prepared.defs[f];
    if (def?.relation === 'pos.config' || (def?.relation === 'pos.payment.method' && def.type !== 'many2one'))
      linked.push([f, def.relation]);
  }
  return Object.fromEntries(
    await Promise.all(
      linked.map(
        async ([f, model]): Promise<[string, Map<number, string>]> => [f, await ownNames(client, model)],
      ),
    ),
  );
}

/** The export's own layers, loaded at once when it runs (not for --help). */
async function exportLayers() {
  const [stream, render, progress, checkpoint, exists, companies] = await Promise.all([
    import('../read/stream.js'),
    import('../render/renderer.js'),
    import('../cli/progress.js'),
    import('../read/checkpoint.js'),
    import('../read/exists.js'),
    import('../read/companies.js'),
  ]);
  return { stream, render, progress, checkpoint, exists, companies };
}

/** What one export works with, from its options to its progress bar. */
interface Export {
  o: ListOptions;
  io: IO;
  /** One server's CSV of a chain: its records led by the profile's cell (Context.csvLead). */
  lead: CsvLead | undefined;
  client: OdooClient;
  session: Session;
  run: CheckpointRun | undefined;
  layers: Awaited<ReturnType<typeof exportLayers>>;
  progress: Progress;
}

/** The records, page by page, into the output; then the checkpoint, if any, moves on. */
async function exportRecords(
  o: ListOptions,
  ctx: Context,
  session: Session,
  unpriced: Prepared,
  run: CheckpointRun | undefined,
  /** The server's own query, where `unpriced` was built from remembered fields. */
  fresh?: Promise<Prepared>,
): Promise<void> {
  const { io } = ctx;
  const layers = await exportLayers();
  const { resource, output } = o;
  const toFile = output.file !== undefined;
  const progress = new layers.progress.Progress(io, toFile || !io.out.isTTY);
  progress.watch(session.limiter);
  const x: Export = { o, io, lead: ctx.csvLead, client: session.client, session, run, layers, progress };
  let count = 0;
  const render = async (sink: Sink): Promise<AfterWriting> => {
    count = await renderRecords(x, unpriced, sink, fresh);
    // The checkpoint's new state is written first, then -o replaced, then the checkpoint:
    // a checkpoint that cannot be written leaves both as they were.
    // Checked again at the end: a file that appeared meanwhile is not replaced either.
    if (run?.previous && output.path)
      layers.checkpoint.refuseReplace(output.path, String(output.file), run.file.file, resource.name);
    const staged = run?.stage(count, (line) => {
      if (!io.quiet) io.err.line(line);
    });
    return { committed: () => staged?.commit(), aborted: () => staged?.discard() };
  };
  await writeOutput(ctx, output.path, render, output.format === 'table');
  if (toFile && !io.quiet && io.err.isTTY)
    io.err.line(say`posdata: wrote ${count} ${own(resource.name)} to ${output.file}`);
}

/**
 * The export into an open output; answers how many records it wrote. Once the output is open,
 * as every request of the export, the first pages go out with the early reads. From a guessed
 * query (remembered fields) they go out before the server's fields are in, and nothing is
 * written before they are: the same fields keep what was asked, other fields drop it and the
 * export starts again from them, as it would have without the guess.
 */
async function renderRecords(
  x: Export,
  unpriced: Prepared,
  sink: Sink,
  fresh?: Promise<Prepared>,
): Promise<number> {
  const { stream } = x.layers;
  try {
    if (fresh) {
      try {
        return await renderFrom(
          x,
          unpriced,
          sink,
          fresh.then((p) => stream.sameFields(unpriced, p)),
        );
      } catch (err) {
        if (!(err instanceof stream.FieldsMoved)) throw err;
      }
      return await renderFrom(x, await fresh, sink);
    }
    return await renderFrom(x, unpriced, sink);
  } finally {
    x.progress.done();
  }
}

/** The export from this query; `kept` (a guessed query's) settles before anything is written. */
async function renderFrom(
  x: Export,
  unpriced: Prepared,
  sink: Sink,
  kept?: Promise<boolean>,
): Promise<number> {
  const { o, client, progress, layers } = x;
  const early = earlyReads(x, unpriced);
  // The server's fields first: where they fail, theirs is the error the run ends with.
  const pricing = kept
    ? kept.then((same) => {
        if (!same) throw new layers.stream.FieldsMoved();
        return early.pricing;
      })
    : early.pricing;
  pricing.catch(() => undefined);
  const window = x.run?.window;
  const pages = layers.stream.streamRows(client, unpriced, {
    pageSize: o.pageSize,
    extraDomain: window?.domain,
    order: window ? 'write_date, id' : undefined,
    tz: zoneFor('data', o.tz),
    rows: !fromRecords(o),
    // The CSV writer looks the many2one names of the pages' bare ids up itself.
    bareNames: o.output.format === 'csv',
    priced: pricing,
    warn: (line) => x.io.err.line(line),
  });
  let renderer: Renderer;
  try {
    renderer = await openRenderer(x, sink, await pricing, early);
  } catch (err) {
    // The pages asked from other fields stop (streamRows lets go of them at the same error).
    if (err instanceof layers.stream.FieldsMoved) await pages.next().catch(() => undefined);
    throw err;
  }
  if (early.counting) {
    const total = await early.counting;
    progress.start(o.limit !== undefined ? Math.min(total, o.limit) : total);
  }
  return await writePages(x, renderer, pages, early.byCompany);
}

// CSV and Parquet are written from Odoo's records directly, the other formats from rows.
function fromRecords(o: ListOptions): boolean {
  return o.output.format === 'csv' || o.output.format === 'parquet';
}

/** What the export asks Odoo for beside its first pages. */
interface EarlyReads {
  counting: Promise<number> | undefined;
  naming: Promise<Record<string, Map<number, string>> | undefined>;
  pricing: Promise<Prepared>;
  currencies: Promise<Map<number, { code: string; digits: number }> | undefined>;
  /** A table's total is split by currency, each record's company read with it. */
  byCompany: boolean;
  summed: boolean;
}

/**
 * The money's decimals (the company's currency, read once where records are shown), a table's
 * names and the count for the progress bar are asked for at once, not one round trip after
 * another: against a distant Odoo, the first record comes one round trip after the query's
 * fields, not three or four.
 */
function earlyReads(x: Export, prepared: Prepared): EarlyReads {
  const { o, client, layers } = x;
  const { resource, output } = o;
  const window = x.run?.window;
  const counted = window ? [...prepared.query.domain, ...window.domain] : prepared.query.domain;
  const counting = x.progress.enabled ? client.searchCount(resource.model, counted) : undefined;
  counting?.catch(() => undefined);
  const naming = output.format === 'table' ? tableNames(client, prepared) : Promise.resolve(undefined);
  naming.catch(() => undefined);
  // Where the companies keep several currencies, data (not a table, which totals each
  // currency apart) says each record's company and currency.
  const data = output.format !== 'table';
  if (data) layers.stream.readCompany(prepared);
  const priced = layers.stream.inCompanyCurrency(client, prepared);
  const pricing = data ? priced.then((p) => layers.stream.withCurrencies(client, p)) : priced;
  pricing.catch(() => undefined);
  // A table's total is split by currency where the run's companies have several: each
  // record's company_id (a stored field) is read with it, its currency the company's.
  const summed = output.format === 'table' && prepared.outFields.includes(resource.sumField ?? '');
  const byCompany = summed && 'company_id' in prepared.fields;
  if (byCompany && !prepared.query.fetchFields.includes('company_id'))
    prepared.query.fetchFields.push('company_id');
  const currencies = byCompany ? layers.companies.tableCurrencies(client) : Promise.resolve(undefined);
  currencies.catch(() => undefined);
  return { counting, naming, pricing, currencies, byCompany, summed };
}

/** The renderer for the export's format, with the money, names and currencies read early. */
async function openRenderer(x: Export, sink: Sink, prepared: Prepared, early: EarlyReads): Promise<Renderer> {
  const { o, io } = x;
  const { resource, output } = o;
  return x.layers.render.makeRenderer({
    format: output.format,
    sink,
    fields: prepared.outFields,
    defs: prepared.defs,
    excel: output.excel,
    delimiter: output.delimiter,
    decimal: output.decimal,
    ...tableLook(io, output.file !== undefined),
    tz: zoneFor('table', o.tz, x.session.profile.tz),
    // One ticket's lines need not say which ticket first; a range's do.
    preferred: o.fields
      ? []
      : resource.tableColumns.filter((f) => o.orderId === undefined || f !== 'order_id'),
    sumField: early.summed ? resource.sumField : undefined,
    moneyDigits: prepared.moneyDigits,
    currencies: (await early.currencies) ?? prepared.currencies,
    // A sales table totals what posdata summary counts: a cancelled or draft ticket is no sale.
    countedStates: resource.name === 'sales' ? COUNTED_STATES : undefined,
    noun: resource.name,
    names: await early.naming,
    normalizer: fromRecords(o) ? x.layers.stream.normalizerFor(prepared, zoneFor('data', o.tz)) : undefined,
    lead: x.lead,
  });
}

/**
 * Each page into the renderer (each record once a run, even if it moved while we read); the
 * header waits for the first page, so that a refusal on the first read prints nothing.
 */
async function writePages(
  x: Export,
  renderer: Renderer,
  pages: AsyncIterable<{ rows: Row[]; records: OdooRecord[]; names?: BareNames }>,
  byCompany: boolean,
): Promise<number> {
  let count = 0;
  let begun = false;
  const begin = async () => {
    if (!begun) await renderer.begin();
    begun = true;
  };
  const direct = renderer.pageRecords;
  for await (const { rows, records, names } of pages) {
    const keep = x.run?.keep(records);
    await begin();
    if (direct) {
      const recs = keep ? records.filter((_, i) => keep[i]) : records;
      await direct(recs, names);
      count += recs.length;
    } else {
      if (byCompany)
        for (let i = 0; i < rows.length; i++)
          (rows[i] as Row).company_id ??= (records[i] as OdooRecord).company_id as Value;
      const out = keep ? rows.filter((_, i) => keep[i]) : rows;
      await renderer.page(out);
      count += out.length;
    }
    x.progress.update(count);
  }
  // Before the header: a register that does not exist writes nothing.
  if (count === 0) await x.layers.exists.mustExist(x.client, x.o);
  await begin();
  await renderer.end();
  return count;
}
