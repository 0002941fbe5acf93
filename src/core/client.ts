// The Odoo client: the ORM calls posdata uses, on top of a transport, with --debug traces
// (secret masked) and streaming reads. No terminal knowledge here.
import { ConnectionError, PosdataError, ProtocolError } from './errors.js';
import type { RetryPolicy } from './http.js';
import { jsonSaid, MASK, own, type Redactor, type Said, say } from './redact.js';
import type { Credentials, TraceFn, Transport } from './transport.js';
import type { Domain, FieldMap, OdooRecord, SearchReadKw, ServerVersion } from './types.js';
import { majorVersion } from './types.js';

export interface PageQuery {
  model: string;
  domain: Domain;
  fields: string[];
  /** Odoo `order`. With `id`, `id desc` or `write_date, id` paging is by key ranges. */
  order: string;
  /** At most this many records in all; undefined = all. */
  limit?: number;
  pageSize: number;
  context?: Record<string, unknown>;
  /** Resume after this key (keyset paging). */
  after?: { id: number; write_date?: string };
  /** Skip this many first (offset paging only). */
  offset?: number;
  /** read()'s `load` for the next request, asked as each one is sent. */
  load?: () => string | undefined;
  /** Sees each page as soon as it has arrived (a page may be dropped after). */
  arrived?: (records: OdooRecord[]) => void;
  /**
   * The caller sets what it read against Odoo's count itself (doctor's count check): a
   * short page is the end, so that a count that differs is its finding, not a cap.
   */
  countedByCaller?: boolean;
}

type Keyset = 'id' | 'id desc' | 'write_date,id' | null;

function keysetOf(order: string): Keyset {
  const o = order.toLowerCase().replace(/\s+/g, ' ').replace(/ ?, ?/g, ',').trim();
  if (o === 'id' || o === 'id asc') return 'id';
  if (o === 'id desc') return 'id desc';
  if (
    o === 'write_date,id' ||
    o === 'write_date asc,id asc' ||
    o === 'write_date,id asc' ||
    o === 'write_date asc,id'
  )
    return 'write_date,id';
  return null;
}

function afterDomain(keyset: 'id' | 'id desc', last: OdooRecord): Domain {
  return [['id', keyset === 'id' ? '>' : '<', last.id]];
}

function badReply(model: string, method: string, why: string): ProtocolError {
  return new ProtocolError(
    say`the server's reply to ${own(model)}.${own(method)} is not what was asked (${why})`,
    say`check that --url points at Odoo itself`,
  );
}

/** Counts of a short page's query before it is taken for the end while records keep coming. */
const RECOUNTS = 3;

/**
 * A search_read capped below the page asked: the rest would be lost as if there were none.
 * Its hint names the flag that sets the page's size; `under` names another (the tap's config).
 */
export class CappedRead extends ProtocolError {
  constructor(
    private readonly what: Said,
    readonly under: number,
    setting: (n: number) => Said = (n) => say`--page-size ${n}`,
  ) {
    super(what, say`read in pages under the cap: ${setting(under)}`);
  }

  /** The same, its hint naming `setting` instead of --page-size. */
  with(setting: (n: number) => Said): CappedRead {
    return new CappedRead(this.what, this.under, setting);
  }
}

function capped(model: string, got: number, asked: number, more: number): CappedRead {
  return new CappedRead(
    say`Odoo answered ${own(model)}.search_read with ${got} records where ${asked} were asked, and its count says ${more} more match: something caps search_read at ${got} records (a proxy, a module, a server limit); nothing past them was taken as read`,
    Math.max(1, got - 1),
  );
}

/** A reply that should be records: a list of objects, each with its id. */
function records(model: string, method: string, result: unknown): OdooRecord[] {
  if (!Array.isArray(result)) throw badReply(model, method, 'not a list of records');
  for (const r of result) {
    const id = (r as OdooRecord | null)?.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1)
      throw badReply(model, method, 'a record without an id');
  }
  return result as OdooRecord[];
}

/** The second of a record's write_date (Odoo answers whole seconds), '' without one. */
const second = (r: OdooRecord): string => (typeof r.write_date === 'string' ? r.write_date.slice(0, 19) : '');

const ODOO_SECOND = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** `YYYY-MM-DD HH:MM:SS` (UTC) one second later. */
export function nextSecond(s: string): string {
  return new Date(Date.parse(`${s.replace(' ', 'T')}Z`) + 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A key-range page by id must move on from the page before it: a server that repeats ids, or
 * ignores the domain or the order asked, would otherwise give an endless export, or one that
 * misses records. Each id comes after the one before it.
 */
function checkKeyset(
  model: string,
  keyset: 'id' | 'id desc',
  prev: OdooRecord | undefined,
  page: OdooRecord[],
): void {
  let last = prev;
  for (const r of page) {
    if (last && (keyset === 'id' ? r.id <= last.id : r.id >= last.id))
      throw badReply(
        model,
        'search_read',
        `record ${r.id} came after ${last.id} against the ${keyset} order asked: repeated, or the domain ignored`,
      );
    last = r;
  }
}

/** A costly call that timed out: it was sent once, and the way out is a smaller range. */
function costlyTimeout(model: string, method: string, err: ConnectionError): ConnectionError {
  return new ConnectionError(
    say`${err.said}; ${own(model)}.${own(method)} was sent once, not retried (its cost grows with the range: a retry would have Odoo compute it again)`,
    say`narrow the range (--date, --from/--to, --config-id) or raise --timeout`,
    { cause: err, timedOut: true },
  );
}

/** Overlapping requests that missed (and half of all at least) before paging by id asks one page at a time. */
const MISSES = 3;
/**
 * A write_date page whose last second takes at least 1/CROWDED_TAIL of it goes on with that
 * second read by id. Sync of 200k sandbox sales (180k of them in 51 seconds of session
 * closes, pages of 2000): 390k records received in 248 requests before, 290k in 198 after.
 */
const CROWDED_TAIL = 4;

/** One turn of the event loop: undici writes a request only then, not while a page is worked on. */
function leave(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** What posdata asks fields_get for: the field attributes it reads, and no more. */
export const FIELD_ATTRIBUTES = [
  'type',
  'string',
  'store',
  'relation',
  'selection',
  'digits',
  'searchable',
  'related',
];

/**
 * Calls whose cost grows with the range they cover: Odoo's grouping (over months of orders)
 * and its Sales Details report (36 s on a quarter of 50,000 orders). They are sent once: a
 * timeout says nothing of the server, which may still be computing the first copy, so a retry
 * would only make it compute another at the same time. Everything else (pages of a read,
 * counts, single records) costs at most a page and is retried as before.
 */
const COSTLY_METHODS = new Set(['read_group', 'formatted_read_group', 'web_read_group', 'get_sale_details']);

/** How a call is retried when its caller does not say: costly calls as `'costly'`, the rest as reads. */
export function retryPolicyOf(method: string): RetryPolicy {
  return COSTLY_METHODS.has(method) ? 'costly' : true;
}

export interface ClientOptions {
  trace?: TraceFn;
  context?: Record<string, unknown>;
  /** Masks this client's secret from now on (the run's IO, or `posdata serve`'s log). */
  redactor?: Redactor;
  /**
   * The server's version as login found it (`17.0-20240709`): a hint for the shape of a
   * request that has a fallback (the currency's decimals), never for what a command computes.
   */
  rememberedVersion?: string;
  /**
   * The fields_get replies by model an earlier run had from this server as this user under
   * this context: a guess at the query's shape, never taken for the server's word.
   */
  rememberedFields?: (context: Record<string, unknown> | undefined) => Record<string, FieldMap>;
  /**
   * What a call waits for before it is sent, where it must (a summary started before the run
   * knows it is the one wanted: OdooClient.held).
   */
  hold?: () => Promise<void> | undefined;
}

export class OdooClient {
  private uidValue: number | undefined;
  private fieldsCache = new Map<string, FieldMap>();
  /** Registers (pos.config) read in this run, by id: their names, for shell completion. */
  private registerNames = new Map<number, string>();
  private versionCache: ServerVersion | undefined;
  private readonly releaseSecret: () => void;

  constructor(
    readonly transport: Transport,
    private readonly creds: Credentials,
    uid?: number,
    private readonly opts: ClientOptions = {},
  ) {
    this.uidValue = uid;
    this.releaseSecret = opts.redactor?.add(creds.secret) ?? (() => undefined);
  }

  /**
   * Stops masking this client's secret, for hosts that outlive their clients (`posdata
   * serve` when a token ends). The CLI never calls it: its last error line is masked too.
   */
  forgetSecret(): void {
    this.releaseSecret();
  }

  get uid(): number | undefined {
    return this.uidValue;
  }

  /** The Odoo context every call carries that gives none of its own. */
  get context(): Record<string, unknown> | undefined {
    return this.opts.context;
  }

  /** The run's companies (`--company`): Odoo's allowed_company_ids on every call from now on. */
  allowCompanies(ids: number[]): void {
    this.opts.context = { ...this.opts.context, allowed_company_ids: ids };
  }

  /**
   * The same login over the same transport, reading only these companies (Odoo's
   * allowed_company_ids): one part of a run that splits its figures by company or currency.
   */
  forCompanies(ids: number[]): OdooClient {
    const version = this.versionCache?.server_version ?? this.opts.rememberedVersion;
    const c = new OdooClient(this.transport, this.creds, this.uidValue, {
      ...this.opts,
      context: { ...this.opts.context, allowed_company_ids: ids },
      rememberedVersion: version,
    });
    c.versionCache = this.versionCache;
    return c;
  }

  /**
   * The same login, transport and context, each call first waiting for what `hold` gives (none:
   * sent at once; a rejection: not sent, the call fails with it). What it learns is this
   * client's (fields, registers' names), as completion keeps them.
   */
  held(hold: () => Promise<void> | undefined): OdooClient {
    const c = new OdooClient(this.transport, this.creds, this.uidValue, { ...this.opts, hold });
    c.versionCache = this.versionCache;
    c.fieldsCache = this.fieldsCache;
    c.registerNames = this.registerNames;
    return c;
  }

  get db(): string {
    return this.creds.db;
  }

  get login(): string {
    return this.creds.login;
  }

  get requestCount(): number {
    return this.transport.requestCount;
  }

  /**
   * Now by the server's clock where its replies say (their Date header), never later than
   * this machine's: a window end past the server's clock would skip what it writes meanwhile.
   */
  serverNow(): Date {
    const here = Date.now();
    const there = this.transport.serverDate;
    return new Date(there !== undefined ? Math.min(here, there) : here);
  }

  /** A --debug line: its holes are masked where it is printed, posdata's words and Odoo's names never. */
  private trace(line: Said): void {
    this.opts.trace?.(line);
  }

  /**
   * The server's major version without a request: this run's answer if it asked, else the one
   * login stored (a hint: the server may have been upgraded since). NaN when neither is there.
   */
  get majorHint(): number {
    if (this.versionCache) return majorVersion(this.versionCache);
    return Number.parseInt(this.opts.rememberedVersion?.replace(/^saas~/, '') ?? '', 10);
  }

  async version(): Promise<ServerVersion> {
    if (!this.versionCache) {
      const t = Date.now();
      this.trace(say`→ ${own(this.transport.protocol)} common.version`);
      this.versionCache = await this.transport.version();
      this.trace(say`← ${this.versionCache.server_version} (${Date.now() - t} ms)`);
    }
    return this.versionCache;
  }

  /** Authenticates (never retried) and remembers the uid. */
  async authenticate(): Promise<number> {
    const t = Date.now();
    this.trace(
      say`→ ${own(this.transport.protocol)} common.authenticate ${jsonSaid([this.creds.db, this.creds.login, MASK, {}])}`,
    );
    const uid = await this.transport.authenticate(this.creds);
    this.trace(say`← uid ${uid} (${Date.now() - t} ms)`);
    this.uidValue = uid;
    return uid;
  }

  /** The Odoo user's time zone (`res.users.context_get`); null when unset or unreadable. */
  async userZone(): Promise<string | null> {
    try {
      const ctx = (await this.executeKw('res.users', 'context_get', [], {})) as { tz?: string | false };
      return ctx?.tz || null;
    } catch {
      return null;
    }
  }

  /** The authentication under way: calls started together share it instead of each logging in. */
  private authPending: Promise<number> | undefined;

  async ensureUid(): Promise<number> {
    if (this.uidValue !== undefined) return this.uidValue;
    this.authPending ??= this.authenticate().finally(() => {
      this.authPending = undefined;
    });
    return this.authPending;
  }

  async executeKw(
    model: string,
    method: string,
    args: unknown[],
    kwargs: Record<string, unknown> = {},
    retry: RetryPolicy = retryPolicyOf(method),
  ): Promise<unknown> {
    const hold = this.opts.hold?.();
    if (hold) await hold;
    const uid = await this.ensureUid();
    // The run's context (--company, --lang, …) under the call's own keys: a call that gives a
    // context (a zone for grouping) still reads only the run's companies.
    const given = kwargs.context as Record<string, unknown> | undefined;
    const kw = this.opts.context
      ? { ...kwargs, context: given ? { ...this.opts.context, ...given } : this.opts.context }
      : kwargs;
    const call = { model, method, args, kwargs: kw };
    const t = Date.now();
    if (this.opts.trace) {
      const described = this.transport.describeCall(this.creds, uid, call);
      this.trace(say`→ ${own(this.transport.protocol)} ${own(model)}.${own(method)} ${described}`);
    }
    try {
      // Retried by the HTTP layer, under one policy and one count (--retries).
      const result = await this.transport.executeKw(this.creds, uid, call, { retry });
      if (this.opts.trace) {
        const size = Array.isArray(result)
          ? say`${result.length} records`
          : say`${JSON.stringify(result)?.slice(0, 80)}`;
        this.trace(say`← ${size} (${Date.now() - t} ms)`);
      }
      return result;
    } catch (err) {
      this.trace(
        say`← error (${Date.now() - t} ms): ${err instanceof PosdataError ? err.said : (err as Error)?.message}`,
      );
      if (retry === 'costly' && err instanceof ConnectionError && err.timedOut)
        throw costlyTimeout(model, method, err);
      throw err;
    }
  }

  async searchRead(model: string, domain: Domain, kw: SearchReadKw = {}): Promise<OdooRecord[]> {
    const got = await this.executeKw(model, 'search_read', [domain], { ...kw });
    return this.noted(model, records(model, 'search_read', got));
  }

  async read(model: string, ids: number[], fields: string[]): Promise<OdooRecord[]> {
    if (ids.length === 0) return [];
    return this.noted(model, records(model, 'read', await this.executeKw(model, 'read', [ids], { fields })));
  }

  /** Registers' names as they pass (what completion offers for --config-id next time). */
  private noted(model: string, rows: OdooRecord[]): OdooRecord[] {
    if (model === 'pos.config')
      for (const r of rows)
        if (typeof r.id === 'number' && typeof r.name === 'string') this.registerNames.set(r.id, r.name);
    return rows;
  }

  /** What this run learnt of the server that completion can offer later: fields_get replies, registers. */
  learnt(): { fields: ReadonlyMap<string, FieldMap>; registers: ReadonlyMap<number, string> } {
    return { fields: this.fieldsCache, registers: this.registerNames };
  }

  async searchCount(model: string, domain: Domain, context?: Record<string, unknown>): Promise<number> {
    const kw = context ? { context } : {};
    const n = await this.executeKw(model, 'search_count', [domain], kw);
    if (!Number.isSafeInteger(n) || (n as number) < 0)
      throw badReply(model, 'search_count', `${JSON.stringify(n)?.slice(0, 40)} is not a count`);
    return n as number;
  }

  /**
   * The model's fields as an earlier run had them (ClientOptions.rememberedFields), where this
   * run has not asked for them yet; fieldsGet is still the server's word.
   */
  rememberedFields(model: string): FieldMap | undefined {
    if (this.fieldsCache.has(model)) return undefined;
    return this.opts.rememberedFields?.(this.opts.context)[model];
  }

  /** The model's fields, once per run. */
  async fieldsGet(model: string): Promise<FieldMap> {
    let f = this.fieldsCache.get(model);
    if (!f) {
      f = (await this.executeKw(model, 'fields_get', [], { attributes: FIELD_ATTRIBUTES })) as FieldMap;
      this.fieldsCache.set(model, f);
    }
    return f;
  }

  /** One page's search_read, with the query's context and load, shown to `arrived`. */
  private async pageRead(
    q: PageQuery,
    domain: Domain,
    kw: SearchReadKw,
    live: () => boolean,
  ): Promise<OdooRecord[]> {
    if (q.context) kw.context = q.context;
    const load = q.load?.();
    if (load !== undefined) kw.load = load;
    // The replies asked before this one, once in (wholePage's count may wait for them).
    const before = this.sent.get(q);
    const reply = this.searchRead(q.model, domain, kw);
    const seen = reply.then(
      (got) => this.proves(q, got.length),
      () => undefined,
    );
    this.sent.set(q, before ? Promise.all([before, seen]).then(() => undefined) : seen);
    const page = await this.wholePage(q, domain, kw, await reply, before);
    this.proves(q, page.length);
    // A page that arrives after the consumer stopped starts nothing more.
    if (live()) q.arrived?.(page);
    return page;
  }

  /** The longest reply each read has had so far: no cap below it (wholePage). */
  private readonly whole = new WeakMap<PageQuery, number>();
  /** Each read's replies asked so far, settled once all are in. */
  private readonly sent = new WeakMap<PageQuery, Promise<unknown>>();

  /** A reply of n records says that a cap, if any, is at least n. */
  private proves(q: PageQuery, n: number): void {
    if (n > (this.whole.get(q) ?? 0)) this.whole.set(q, n);
  }

  /**
   * `page` if it is all there is: a page shorter than asked is the end only where Odoo's
   * count agrees. A server, a proxy or a module that caps search_read (at 1,000 records,
   * say) answers short pages while more match, and every reader would take the first for
   * the end and move its watermark past records it never read. Records committed meanwhile
   * also make the count larger: the page is asked again, and one that grows was not capped
   * at its length (a cap answers the same length again). Past a few rounds of growth the
   * data is moving faster than it is read, and what came since is the next read's.
   * A page shorter than a reply the same read has had already is the end without the
   * count: a cap would have cut that reply too (an export's last page, one request less).
   * The replies asked before it (`before`) are waited for first: a short page read ahead
   * often comes in before the whole one asked with it.
   */
  private async wholePage(
    q: PageQuery,
    domain: Domain,
    kw: SearchReadKw,
    page: OdooRecord[],
    before: Promise<unknown> | undefined,
  ): Promise<OdooRecord[]> {
    const skipped = kw.offset ?? 0;
    const asked = kw.limit ?? Number.POSITIVE_INFINITY;
    if (q.countedByCaller) return page;
    if (page.length > 0 && page.length < asked && before) await before;
    if (page.length < (this.whole.get(q) ?? 0)) return page;
    for (let round = 0; page.length > 0 && page.length < asked && round < RECOUNTS; round++) {
      const total = await this.searchCount(q.model, domain, q.context);
      if (total <= skipped + page.length) return page;
      const again = await this.searchRead(q.model, domain, kw);
      if (again.length <= page.length)
        throw capped(q.model, page.length, asked, total - skipped - page.length);
      page = again;
    }
    return page;
  }

  /**
   * Every matching record, page by page. Orders by id (asc or desc) and by (write_date, id)
   * page by key ranges, which stay stable while the server changes underneath; any other
   * order pages by offset. The next request is in flight while the caller writes a page.
   */
  async *pages(q: PageQuery): AsyncGenerator<OdooRecord[]> {
    const keyset = q.offset ? null : keysetOf(q.order);
    if (keyset === 'write_date,id') {
      yield* this.timePages(q);
      return;
    }
    if ((keyset === 'id' || keyset === 'id desc') && q.limit === undefined) {
      yield* this.idPages(q, keyset);
      return;
    }
    const fields = [...q.fields];
    if (keyset && !fields.includes('id')) fields.push('id');
    let remaining = q.limit ?? Number.POSITIVE_INFINITY;
    let offset = keyset ? 0 : (q.offset ?? 0);
    const request = (last: OdooRecord | undefined): Promise<OdooRecord[]> | null => {
      if (remaining <= 0) return null;
      const domain: Domain = keyset && last ? [...q.domain, ...afterDomain(keyset, last)] : q.domain;
      const kw: SearchReadKw = { fields, limit: Math.min(q.pageSize, remaining), order: q.order };
      if (!keyset && offset > 0) kw.offset = offset;
      return this.pageRead(q, domain, kw, () => live);
    };
    let live = true;
    let next = request(
      q.after ? ({ id: q.after.id, write_date: q.after.write_date } as OdooRecord) : undefined,
    );
    let prev: OdooRecord | undefined = q.after
      ? ({ id: q.after.id, write_date: q.after.write_date } as OdooRecord)
      : undefined;
    let firstId: number | undefined;
    try {
      while (next) {
        const page = await next;
        if (keyset) checkKeyset(q.model, keyset, prev, page);
        else {
          // Offset pages may share a record when the data moves, never a whole page: a server
          // that ignores the offset answers the same page again and again.
          if (page.length > 0 && page[0]?.id === firstId)
            throw badReply(q.model, 'search_read', 'the same page again: the offset was ignored');
          firstId = page[0]?.id;
          if (new Set(page.map((r) => r.id)).size !== page.length)
            throw badReply(q.model, 'search_read', 'a record twice in one page');
        }
        prev = page[page.length - 1] ?? prev;
        const want = Math.min(q.pageSize, remaining);
        remaining -= page.length;
        offset += page.length;
        // A short page is the last one; otherwise ask for the next before handing this one out.
        next = page.length < want ? null : request(page[page.length - 1]);
        if (next) {
          // A consumer that stops early leaves this request in flight: its failure is not theirs.
          next.catch(() => undefined);
          await leave();
        }
        if (page.length > 0) yield page;
      }
    } finally {
      live = false;
    }
  }

  /**
   * All records in (write_date, id) order, each once, in pages that end where a second ends.
   * Odoo keeps write_date to the microsecond but answers whole seconds, so a page cannot be
   * continued "after (T, id)": `write_date = T` matches nothing of second T and
   * `write_date > T` all of it again. So a page hands out only its complete seconds: the
   * records of its last second T are left for the next page, which starts at T
   * (`write_date >= T`). A full page inside one second (a session closed with more orders
   * than a page, a bulk import) cannot move on that way: that second is read by id
   * (`write_date >= T` and `< T+1s`, keyset on id), then the pages go on from T+1s. So
   * whatever was handed out is every record of the seconds before the last one handed out,
   * and of that second every record (or, read by id, those up to the last id): a sync's
   * watermark covers exactly its rows. Every request starts at a later second or after a
   * higher id, so a server that ignores the domain is caught, never read forever.
   */
  private async *timePages(q: PageQuery): AsyncGenerator<OdooRecord[]> {
    const fields = [...q.fields];
    if (!fields.includes('id')) fields.push('id');
    if (!fields.includes('write_date')) fields.push('write_date');
    let remaining = q.limit ?? Number.POSITIVE_INFINITY;
    /** Where the next page starts (write_date >=), undefined = the query's start. */
    let from: string | undefined;
    /** A second with more records than a page, read by id after `after`. */
    let crowd: { second: string; after: number } | undefined;
    let live = true;
    const request = (): { page: Promise<OdooRecord[]>; want: number } => {
      const want = Math.min(q.pageSize, remaining);
      const kw: SearchReadKw = { fields, limit: want, order: crowd ? 'id' : q.order };
      const domain: Domain = crowd
        ? [
            ...q.domain,
            ['write_date', '>=', crowd.second],
            ['write_date', '<', nextSecond(crowd.second)],
            ['id', '>', crowd.after],
          ]
        : from !== undefined
          ? [...q.domain, ['write_date', '>=', from]]
          : q.domain;
      const page = this.pageRead(q, domain, kw, () => live);
      // A consumer that stops early leaves this request in flight: its failure is not theirs.
      page.catch(() => undefined);
      return { page, want };
    };
    const bad = (why: string) => badReply(q.model, 'search_read', why);
    try {
      for (let next = request(); ; ) {
        const page = await next.page;
        const ids = new Set<number>();
        let prev: OdooRecord | undefined;
        for (const r of page) {
          const s = second(r);
          if (!ODOO_SECOND.test(s)) throw bad(`record ${r.id} without a write_date`);
          if (ids.has(r.id)) throw bad(`record ${r.id} twice in one page`);
          ids.add(r.id);
          if (crowd) {
            if (s !== crowd.second || r.id <= (prev?.id ?? crowd.after))
              throw bad(
                `record ${r.id} is not after ${prev?.id ?? crowd.after} of second ${crowd.second}: the domain or the order was ignored`,
              );
          } else if ((from !== undefined && s < from) || (prev && s < second(prev))) {
            throw bad(
              `record ${r.id} of ${s} came after ${prev ? second(prev) : from}: the domain or the order was ignored`,
            );
          }
          prev = r;
        }
        const full = page.length === next.want;
        let out = page;
        let done = false;
        if (crowd) {
          if (full) crowd.after = (prev as OdooRecord).id;
          else {
            // The crowded second is read: on from the next one.
            from = nextSecond(crowd.second);
            crowd = undefined;
          }
        } else if (!full) {
          done = true;
        } else {
          const last = second(prev as OdooRecord);
          if (second(page[0] as OdooRecord) === last) {
            // A full page in one second: that second again, by id.
            crowd = { second: last, after: 0 };
            out = [];
          } else {
            // Its last second may go on in the next page: that page brings it whole. Where
            // it fills a good part of this page already (a bulk write: a session closed),
            // it is read by id straight away, as a crowded second is: asked again with the
            // seconds after it, it would likely fill a whole page, to be read by id anyway.
            let end = page.length;
            while (end > 0 && second(page[end - 1] as OdooRecord) === last) end--;
            out = page.slice(0, end);
            if (page.length - end >= Math.max(2, page.length / CROWDED_TAIL))
              crowd = { second: last, after: 0 };
            else from = last;
          }
        }
        if (out.length > remaining) out = out.slice(0, remaining);
        remaining -= out.length;
        if (remaining <= 0) done = true;
        if (!done) {
          next = request();
          await leave();
        }
        if (out.length > 0) yield out;
        if (done) return;
      }
    } finally {
      live = false;
    }
  }

  /**
   * All records in id order, two requests ahead. The page after next is asked for before
   * the next one has arrived, so its key is not known yet: it is asked as "after the last
   * id known, skip a page less one, one more than a page", and its first record must be
   * the last record of the page before it. Then it holds exactly the page a key-range
   * request would have returned at that moment. If not (a record in between was deleted,
   * or committed late with a lower id), it is asked again by key. On a server that runs
   * requests in parallel (Odoo with workers) the two overlap; on any server the next reply
   * is ready when the caller is done with a page.
   */
  private async *idPages(q: PageQuery, keyset: 'id' | 'id desc'): AsyncGenerator<OdooRecord[]> {
    const fields = q.fields.includes('id') ? q.fields : [...q.fields, 'id'];
    const size = q.pageSize;
    const op = keyset === 'id' ? '>' : '<';
    let live = true;
    const ask = (after: number | undefined, overlap: boolean): Promise<OdooRecord[]> => {
      const domain: Domain = after === undefined ? q.domain : [...q.domain, ['id', op, after]];
      const kw: SearchReadKw = { fields, limit: overlap ? size + 1 : size, order: q.order };
      if (overlap && size > 1) kw.offset = size - 1;
      const page = this.pageRead(q, domain, kw, () => live);
      // A request the loop never waits for (after the last page, or an early stop) may fail.
      page.catch(() => undefined);
      return page;
    };
    let last = q.after?.id;
    const queue = [
      { page: ask(last, false), overlap: false },
      { page: ask(last, true), overlap: true },
    ];
    // Where records keep leaving the range behind the cursor (a filter on a field that
    // changes while the export runs), overlaps miss and each costs a second request: once
    // MISSES have missed and at least half of all, the next page is asked by key once the
    // page before is in, for the rest of the export.
    let misses = 0;
    let checks = 0;
    let byKey = false;
    try {
      for (let head = queue.shift(); head; head = queue.shift()) {
        let page = await head.page;
        if (head.overlap) {
          checks++;
          if (page.length === 0 || page[0]?.id !== last) {
            misses++;
            byKey ||= misses >= MISSES && misses * 2 >= checks;
            queue.unshift({ page: ask(last, false), overlap: false });
            continue;
          }
          page = page.slice(1);
        }
        checkKeyset(q.model, keyset, last === undefined ? undefined : ({ id: last } as OdooRecord), page);
        if (page.length < size) {
          if (page.length > 0) yield page;
          return;
        }
        last = page[page.length - 1]?.id;
        if (!byKey) queue.push({ page: ask(last, true), overlap: true });
        else if (queue.length === 0) queue.push({ page: ask(last, false), overlap: false });
        await leave();
        yield page;
      }
    } finally {
      live = false;
    }
  }

  async close(): Promise<void> {
    await this.transport.close();
  }

  destroy(): void {
    this.transport.destroy();
  }
}
