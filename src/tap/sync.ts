// A tap run: per selected stream, its SCHEMA, then its records in (write_date, id) pages
// from the bookmark (less the overlap, as `posdata sync` reads), each page's RECORDs
// followed by a STATE that covers them; a STATE at the end. The pages are the sync's
// (OdooClient's time pages: they end where a second ends, or go through a crowded second by
// id), so a bookmark (T, n) covers every record before second T and those of T up to id n.
// A stream without a bookmark is read whole in id order first (the export's fast pages), up
// to the newest write_date found when it starts; its STATE then says how far by id.
import {
  companyScope,
  type SyncName,
  type SyncResource,
  syncFetch,
  syncFields,
} from '../catalog/resources.js';
import type { OdooClient } from '../core/client.js';
import { ProtocolError } from '../core/errors.js';
import { own, type Said, say } from '../core/redact.js';
import type { Domain, FieldMap, OdooRecord } from '../core/types.js';
import { writeDateWindow } from '../read/checkpoint.js';
import { currencyCodes } from '../read/companies.js';
import {
  clockLimit,
  clockSecond,
  firstReadDomain,
  highestIdOf,
  markBefore,
  newestWriteDate,
  ODOO_TIME,
} from '../read/first-read.js';
import { INVOICE, InvoiceNumbers } from '../read/invoices.js';
import { namedPages } from '../read/names.js';
import { ownNames } from '../read/own-names.js';
import { amountCheck } from '../records/normalize.js';
import { renamed } from '../sync/load.js';
import { KEY, REPLICATION_KEY } from './catalog.js';
import { fromRfc3339, RecordMaker, streamSchema, tapColumns, tapFields } from './schema.js';
import { type Bookmark, BookmarkKeeper, type TapState } from './state.js';

export interface TapStream {
  resource: SyncResource;
  /** Properties the catalog leaves out. */
  deselected: Set<string>;
}

export interface TapJob {
  client: OdooClient;
  streams: TapStream[];
  /** The state given (--state); its bookmarks move as the run goes. */
  state: TapState;
  /** The run's companies (ids, sorted), where Odoo lists them. */
  companies?: number[];
  /** Where a stream without a bookmark starts (Odoo's UTC text). */
  startDate?: string;
  pageSize: number;
  overlapSeconds: number;
  /** Writes messages (whole lines) to standard output. */
  write: (text: string) => Promise<void>;
  /** One line per stream done, on standard error. */
  log?: (line: Said) => void;
  /** One line on standard error (a record dated ahead of the server's clock), even when quiet. */
  warn?: (line: Said) => void;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The server's clock less the overlap (Odoo's UTC text), by the latest reply's Date header and
 * never later than this machine's clock: what was written before it had committed by now (the
 * overlap's own premise), so a read from here on sees it.
 */
function settledNow(client: OdooClient, overlapSeconds: number): string {
  const there = client.transport.serverDate;
  const now = there !== undefined && there < Date.now() ? there : Date.now();
  return new Date(now - overlapSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The stream's bookmark, or none where the run reads a company the bookmark was not read
 * for (a user given a further company): that company's records before the bookmark would
 * never be sent, so the stream is read whole again (a duplicate of what was sent, which
 * Singer allows), and the run says so.
 */
function bookmarkFor(job: TapJob, name: SyncName): Bookmark | undefined {
  const given = job.state.bookmarks[name];
  const had = given?.companies;
  const added = had && job.companies ? job.companies.filter((id) => !had.includes(id)) : [];
  if (added.length === 0) return given;
  job.warn?.(
    say`${own(name)}: this user now reads compan${own(added.length > 1 ? 'ies' : 'y')} ${own(added.join(', '))}, which the state's bookmark was not read for; the stream is sent whole again so that ${own(added.length > 1 ? 'their' : 'its')} earlier records come too`,
  );
  return undefined;
}

/** A first read: every record written up to second `until`, in id order, on after `afterId`. */
interface FirstReadAt {
  until: string;
  afterId: number;
}

/** Where a stream's read goes: a first read's id pages, or the window from its bookmark. */
interface StreamStart {
  firstRead: FirstReadAt | undefined;
  domain: Domain;
}

/** A stream's columns as the catalog keeps them, its SCHEMA message, and how a record is sent. */
interface StreamShape {
  defs: FieldMap;
  maker: RecordMaker;
  /** Fields read from Odoo, write_date among them. */
  fetch: string[];
  schema: string;
  /** Where the stream sends `invoice`: each page's invoice numbers. */
  invoices: InvoiceNumbers | undefined;
}

/** Each company's currency code, read once for the run where a stream sends `currency`. */
type Currencies = () => Promise<Map<number, string>>;

async function streamShape(job: TapJob, { resource: r, deselected }: TapStream, currencies: Currencies) {
  const defs = syncFields(r, await job.client.fieldsGet(r.model));
  const wanted = tapFields(r, defs);
  const currencyOf = deselected.has('currency') ? undefined : await currencies();
  const columns = tapColumns(wanted, defs, currencyOf).filter((c) => !deselected.has(c.name));
  const fetch = syncFetch(
    r,
    columns.map((c) => c.field),
  ).filter((f) => f !== KEY);
  if (!fetch.includes(REPLICATION_KEY)) fetch.push(REPLICATION_KEY);
  const schema = `${JSON.stringify({
    type: 'SCHEMA',
    stream: r.name,
    schema: streamSchema(columns),
    key_properties: [KEY],
    bookmark_properties: [REPLICATION_KEY],
  })}\n`;
  const invoices = columns.some((c) => c.field === INVOICE)
    ? new InvoiceNumbers(job.client, () =>
        job.warn?.(
          say`${own(r.name)}: Odoo refuses this user account.move (AccessError), so ${own(INVOICE)} is sent empty; run as a user who may read the invoices`,
        ),
      )
    : undefined;
  return { defs, maker: new RecordMaker(columns, defs), fetch, schema, invoices } satisfies StreamShape;
}

/**
 * A stream without a bookmark is read whole in id order (the fast pages: no sort by
 * write_date on the server), up to the end of this second; a first read cut short goes on
 * after its last id, up to the same second. Then the bookmark is that second. Undefined where
 * there is nothing to send.
 */
async function streamStart(
  job: TapJob,
  r: SyncResource,
  given: Bookmark | undefined,
  keeper: BookmarkKeeper,
  context: Record<string, unknown> | undefined,
): Promise<StreamStart | undefined> {
  const scope = companyScope(r, job.companies);
  if (keeper.since !== undefined)
    return { firstRead: undefined, domain: [...scope, ...writeDateWindow(keeper.resumeFrom, 0).domain] };
  const from: Domain =
    job.startDate !== undefined ? [...scope, [REPLICATION_KEY, '>=', job.startDate]] : scope;
  const full = given?.full_read;
  const until = (full && fromRfc3339(full.until)) ?? (await firstReadUntil(job, r, from, context));
  if (until === undefined) return undefined;
  const firstRead = { until, afterId: full?.after_id ?? 0 };
  keeper.pageEnds(until);
  return { firstRead, domain: firstReadDomain(firstRead, from) };
}

/**
 * Up to the newest write there is now: what the data says, not the clock, so two runs over
 * the same data write the same STATEs. Never beyond the server's clock: a record dated ahead
 * of it is read when the clock gets there (as the incremental windows, which end now, would
 * read it).
 */
async function firstReadUntil(
  job: TapJob,
  r: SyncResource,
  from: Domain,
  context: Record<string, unknown> | undefined,
): Promise<string | undefined> {
  const { client } = job;
  const wd = await newestWriteDate(client, r.model, from, context);
  if (wd === undefined) return undefined;
  const limit = clockLimit(client);
  const clock = clockSecond(client);
  if (wd > limit)
    job.warn?.(
      say`${own(r.name)}: ${own(r.model)} has a record with write_date ${wd} UTC, ahead of the server's clock (${own(limit)} UTC with a margin); the bookmark stays at ${own(clock)} UTC and records dated after it are sent when the clock gets there`,
    );
  return wd > clock ? clock : wd;
}

/** The stream's pages, register names as the registers' own, amounts checked. */
async function* streamPages(
  job: TapJob,
  r: SyncResource,
  { defs, fetch, invoices }: StreamShape,
  { firstRead, domain }: StreamStart,
  context: Record<string, unknown> | undefined,
): AsyncGenerator<OdooRecord[]> {
  const { client } = job;
  const regFields = fetch.filter((f) => defs[f]?.type === 'many2one' && defs[f]?.relation === 'pos.config');
  const regs = regFields.length > 0 ? await ownNames(client, 'pos.config') : undefined;
  const registerNames = regs && Object.fromEntries(regFields.map((f) => [f, regs]));
  const checkAmounts = amountCheck(
    r.model,
    fetch,
    defs,
    say`correct the record in Odoo; the tap stops before its page until then`,
  );
  const pages = namedPages(
    client,
    {
      model: r.model,
      domain,
      fields: fetch,
      order: firstRead ? 'id' : 'write_date, id',
      pageSize: job.pageSize,
      context,
    },
    fetch.filter((f) => defs[f]?.type === 'many2one'),
  );
  for await (const records of pages) {
    checkAmounts(records);
    if (registerNames) renamed(records, registerNames);
    if (invoices) await invoices.fill(records);
    yield records;
  }
}

/** A stream's pages made RECORD messages, the bookmark moved over each. */
class StreamSender {
  private readonly head: string;
  /**
   * Each key once per run: a record changed while the run reads is sent by the next. (A
   * first read's id pages bring each id once, in ascending order, as the client checks.)
   */
  private readonly sentNow = new Set<number>();
  sent = 0;
  unchanged = 0;
  /** The highest id read of a first read's last second. */
  lastOfUntil = 0;
  private warned = false;

  constructor(
    private readonly job: TapJob,
    private readonly r: SyncResource,
    private readonly keeper: BookmarkKeeper,
    private readonly maker: RecordMaker,
    private readonly firstRead: FirstReadAt | undefined,
  ) {
    this.head = `{"type":"RECORD","stream":${JSON.stringify(r.name)},"record":`;
  }

  /** The page's RECORD lines; the state's bookmark then covers them. */
  page(records: OdooRecord[]): string {
    const to = this.firstRead ? undefined : this.markBefore(records);
    if (to) this.keeper.pageEnds(to.wd);
    let out = '';
    for (const rec of records) out += this.record(rec);
    this.moveBookmark(records, to);
    return out;
  }

  /** Where the bookmark may move: not past a record dated ahead of the server's clock. */
  private markBefore(records: OdooRecord[]): { wd: string; id: number } | undefined {
    const { job, r } = this;
    const limit = clockLimit(job.client);
    const { mark: to, ahead } = markBefore(records, limit);
    if (ahead && !this.warned) {
      this.warned = true;
      const kept = to?.wd ?? this.keeper.since;
      job.warn?.(
        say`${own(r.name)}: ${own(r.model)} ${String(ahead.id)} has write_date ${String(ahead.write_date)} UTC, ahead of the server's clock (${own(limit)} UTC with a margin); the bookmark stays at ${own(kept ?? 'its place')}${own(kept ? ' UTC' : '')} so that the next run still reads what changes meanwhile`,
      );
    }
    return to;
  }

  /** The record's RECORD line, or nothing where it was sent already or is unchanged since the state. */
  private record(rec: OdooRecord): string {
    const wd = rec.write_date;
    if (typeof wd !== 'string' || !ODOO_TIME.test(wd) || !Number.isSafeInteger(rec.id))
      throw new ProtocolError(
        say`Odoo sent ${own(this.r.model)} ${String(rec.id)} without an integer id and a write_date (${String(wd)})`,
        say`posdata tap needs both on every record`,
      );
    if (!this.firstRead && this.sentNow.has(rec.id)) return '';
    const json = this.maker.json(rec);
    if (this.keeper.unchanged(rec.id, wd, json)) {
      this.unchanged++;
      return '';
    }
    if (!this.firstRead) this.sentNow.add(rec.id);
    this.keeper.sending(rec.id, wd, json);
    this.sent++;
    return `${this.head}${json}}\n`;
  }

  private moveBookmark(records: OdooRecord[], to: { wd: string; id: number } | undefined): void {
    const { state } = this.job;
    const name = this.r.name;
    const last = records[records.length - 1] as OdooRecord;
    if (this.firstRead) {
      const until = this.firstRead.until;
      this.lastOfUntil = Math.max(this.lastOfUntil, highestIdOf(records, until));
      state.bookmarks[name] = this.keeper.fullRead(until, last.id);
      return;
    }
    // The page ends where a second ends, or goes through a crowded second by id: what
    // is sent of its last second is up to the highest id of that second in it.
    if (to) this.keeper.advance(to.wd, to.id);
    const bookmark = this.keeper.bookmark();
    if (bookmark) state.bookmarks[name] = bookmark;
  }

  /** The first read is whole: on from its second, as any bookmark. */
  end(): void {
    if (!this.firstRead) return;
    this.keeper.advance(this.firstRead.until, this.lastOfUntil);
    this.job.state.bookmarks[this.r.name] = this.keeper.bookmark();
  }
}

const stateLine = (state: TapState) => `${JSON.stringify({ type: 'STATE', value: state })}\n`;

/** One stream: its SCHEMA, its pages' RECORDs each followed by a STATE; the keeper if it read any. */
async function tapStream(
  job: TapJob,
  stream: TapStream,
  currencies: Currencies,
): Promise<BookmarkKeeper | undefined> {
  const { client } = job;
  const r = stream.resource;
  const shape = await streamShape(job, stream, currencies);
  await job.write(shape.schema);
  const given = bookmarkFor(job, r.name);
  const keeper = new BookmarkKeeper(
    given,
    job.overlapSeconds,
    settledNow(client, job.overlapSeconds),
    job.companies,
  );
  const context = 'active' in shape.defs ? { active_test: false } : undefined;
  const start = await streamStart(job, r, given, keeper, context);
  if (!start) {
    job.log?.(say`${own(r.name)}: nothing to send`);
    return undefined;
  }
  const sender = new StreamSender(job, r, keeper, shape.maker, start.firstRead);
  let paged = false;
  for await (const records of streamPages(job, r, shape, start, context)) {
    paged = true;
    const out = sender.page(records);
    await job.write(out + stateLine(job.state));
  }
  sender.end();
  const bm = job.state.bookmarks[r.name];
  job.log?.(
    say`${own(r.name)}: ${count(sender.sent)} sent, ${count(sender.unchanged)} unchanged since the state, bookmark ${bm?.write_date ?? own('none')}`,
  );
  return paged ? keeper : undefined;
}

export async function runTap(job: TapJob): Promise<void> {
  const { state } = job;
  let currencies: Promise<Map<number, string>> | undefined;
  const currencyCodesOnce: Currencies = () => {
    currencies ??= currencyCodes(job.client);
    return currencies;
  };
  /** The streams read, for the last STATE: each lists every record sent within its overlap. */
  const read: [SyncName, BookmarkKeeper][] = [];
  for (const stream of job.streams) {
    const keeper = await tapStream(job, stream, currencyCodesOnce);
    if (keeper) read.push([stream.resource.name, keeper]);
  }
  // The STATEs along the way list at most MAX_SENT records a stream (their size stays
  // bounded however many pages follow); the last lists all, so that the next run sends
  // again only what changed.
  for (const [name, keeper] of read) {
    const whole = keeper.bookmark(true);
    if (whole && state.bookmarks[name]?.write_date !== undefined) state.bookmarks[name] = whole;
  }
  await job.write(stateLine(state));
}
