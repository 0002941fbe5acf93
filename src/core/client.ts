// The Odoo client: the ORM calls posdata uses, on top of a transport, with --debug traces
// (secret masked) and streaming reads. No terminal knowledge here.
import { isTransient, ProtocolError } from './errors.js';
import { redactor } from './redact.js';
import type { CallOptions, Credentials, TraceFn, Transport } from './transport.js';
import type { Domain, FieldMap, OdooRecord, SearchReadKw, ServerVersion } from './types.js';

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

function afterDomain(keyset: Keyset, last: OdooRecord): Domain {
  if (keyset === 'id') return [['id', '>', last.id]];
  if (keyset === 'id desc') return [['id', '<', last.id]];
  const w = last.write_date as string;
  return ['|', ['write_date', '>', w], '&', ['write_date', '=', w], ['id', '>', last.id]];
}

interface Request {
  slot: object;
  page: Promise<OdooRecord[]>;
}

/** One turn of the event loop: undici writes a request only then, not while a page is worked on. */
function leave(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The record count and last id of a search_read reply's raw text, read without parsing it:
 * Odoo writes each record as `{"id": N, …`. A hint only; the parsed page decides.
 */
export function sniffPage(text: string): { count: number; lastId: number } | undefined {
  const key = '{"id":';
  let count = 0;
  let last = -1;
  for (let at = text.indexOf(key); at !== -1; at = text.indexOf(key, at + key.length)) {
    count++;
    last = at;
  }
  if (last < 0) return undefined;
  const m = /^\s*(\d+)[,}\s]/.exec(text.slice(last + key.length, last + key.length + 32));
  return m ? { count, lastId: Number(m[1]) } : undefined;
}

export interface ClientOptions {
  /** Extra tries for a reply cut short after its headers or garbled (undici retries statuses and connections). */
  bodyRetries?: number;
  trace?: TraceFn;
  context?: Record<string, unknown>;
}

export class OdooClient {
  private uidValue: number | undefined;
  private readonly fieldsCache = new Map<string, FieldMap>();
  private versionCache: ServerVersion | undefined;
  private readonly releaseSecret: () => void;

  constructor(
    readonly transport: Transport,
    private readonly creds: Credentials,
    uid?: number,
    private readonly opts: ClientOptions = {},
  ) {
    this.uidValue = uid;
    this.releaseSecret = redactor.add(creds.secret);
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

  get db(): string {
    return this.creds.db;
  }

  get login(): string {
    return this.creds.login;
  }

  get requestCount(): number {
    return this.transport.requestCount;
  }

  private trace(line: string): void {
    if (this.opts.trace) this.opts.trace(redactor.text(line));
  }

  async version(): Promise<ServerVersion> {
    if (!this.versionCache) {
      const t = Date.now();
      this.trace(`→ ${this.transport.protocol} common.version`);
      this.versionCache = await this.transport.version();
      this.trace(`← ${this.versionCache.server_version} (${Date.now() - t} ms)`);
    }
    return this.versionCache;
  }

  /** Authenticates (never retried) and remembers the uid. */
  async authenticate(): Promise<number> {
    const t = Date.now();
    this.trace(
      `→ ${this.transport.protocol} common.authenticate ["${this.creds.db}", "${this.creds.login}", "***", {}]`,
    );
    const uid = await this.transport.authenticate(this.creds);
    this.trace(`← uid ${uid} (${Date.now() - t} ms)`);
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

  async ensureUid(): Promise<number> {
    return this.uidValue ?? (await this.authenticate());
  }

  async executeKw(
    model: string,
    method: string,
    args: unknown[],
    kwargs: Record<string, unknown> = {},
    retry = true,
    onText?: CallOptions['onText'],
  ): Promise<unknown> {
    const uid = await this.ensureUid();
    const kw = this.opts.context && !kwargs.context ? { ...kwargs, context: this.opts.context } : kwargs;
    const tries = retry ? (this.opts.bodyRetries ?? 3) + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      const t = Date.now();
      if (this.opts.trace) {
        const call = this.transport.describeCall(this.creds, uid, model, method, args, kw);
        this.trace(`→ ${this.transport.protocol} ${model}.${method} ${call}`);
      }
      try {
        const result = await this.transport.executeKw(this.creds, uid, model, method, args, kw, {
          retry,
          onText,
        });
        if (this.opts.trace) {
          const size = Array.isArray(result)
            ? `${result.length} records`
            : JSON.stringify(result)?.slice(0, 80);
          this.trace(`← ${size} (${Date.now() - t} ms)`);
        }
        return result;
      } catch (err) {
        this.trace(`← error (${Date.now() - t} ms): ${(err as Error).message}`);
        // undici already retried statuses and connection errors; a body cut short after
        // the headers arrived, or a garbled reply, is retried here.
        if (attempt >= tries || !(err instanceof ProtocolError) || !isTransient(err)) throw err;
        const wait = Math.min(500 * 2 ** (attempt - 1), 10_000) * (0.5 + Math.random() / 2);
        this.trace(`  retrying in ${Math.round(wait)} ms`);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  async searchRead(
    model: string,
    domain: Domain,
    kw: SearchReadKw = {},
    onText?: CallOptions['onText'],
  ): Promise<OdooRecord[]> {
    return (await this.executeKw(model, 'search_read', [domain], { ...kw }, true, onText)) as OdooRecord[];
  }

  async read(model: string, ids: number[], fields: string[]): Promise<OdooRecord[]> {
    if (ids.length === 0) return [];
    return (await this.executeKw(model, 'read', [ids], { fields })) as OdooRecord[];
  }

  async searchCount(model: string, domain: Domain): Promise<number> {
    return (await this.executeKw(model, 'search_count', [domain], {})) as number;
  }

  /** The model's fields, once per run. */
  async fieldsGet(model: string): Promise<FieldMap> {
    let f = this.fieldsCache.get(model);
    if (!f) {
      f = (await this.executeKw(model, 'fields_get', [], {
        attributes: ['type', 'string', 'store', 'relation', 'selection', 'digits', 'searchable', 'related'],
      })) as FieldMap;
      this.fieldsCache.set(model, f);
    }
    return f;
  }

  /**
   * Every matching record, page by page. Pages are fetched one ahead: the next request is
   * in flight while the caller writes the current page. Orders by id (asc or desc) and by
   * (write_date, id) page by key ranges, which stay stable while the server changes
   * underneath; any other order pages by offset.
   *
   * A key range needs the last id of the page before, so each request would wait for the
   * previous reply to be parsed. On id orders without a limit the next request leaves as
   * soon as a full page's raw text has arrived, keyed on the last id read from the text
   * (sniffPage), while that text is parsed; the parsed page then decides: a request on
   * another key, or after a short page, is dropped (left to finish, its answer unused) and
   * the right one sent. Each page starts at most one such request, and only while it is the
   * page the loop waits for: with right hints two requests are out at a time.
   */
  async *pages(q: PageQuery): AsyncGenerator<OdooRecord[]> {
    const keyset = q.offset ? null : keysetOf(q.order);
    const fields = [...q.fields];
    if (keyset && !fields.includes('id')) fields.push('id');
    if (keyset === 'write_date,id' && !fields.includes('write_date')) fields.push('write_date');
    let remaining = q.limit ?? Number.POSITIVE_INFINITY;
    let offset = keyset ? 0 : (q.offset ?? 0);
    const early = (keyset === 'id' || keyset === 'id desc') && q.limit === undefined;
    let waitedFor: object | undefined;
    let ahead: (Request & { id: number }) | undefined;
    const request = (last: OdooRecord | undefined): Request | null => {
      if (remaining <= 0) return null;
      const limit = Math.min(q.pageSize, remaining);
      const domain: Domain = keyset && last ? [...q.domain, ...afterDomain(keyset, last)] : q.domain;
      const kw: SearchReadKw = { fields, limit, order: q.order };
      if (!keyset && offset > 0) kw.offset = offset;
      if (q.context) kw.context = q.context;
      const slot = {};
      const onText = early
        ? async (text: string) => {
            if (ahead || slot !== waitedFor) return;
            const hint = sniffPage(text);
            if (!hint || hint.count < limit) return;
            const next = request({ id: hint.lastId } as OdooRecord);
            if (!next) return;
            ahead = { ...next, id: hint.lastId };
            await leave();
          }
        : undefined;
      const page = this.searchRead(q.model, domain, kw, onText);
      // A page not waited for yet may fail first: that is reported when it is waited for.
      page.catch(() => undefined);
      return { slot, page };
    };
    let startAfter: OdooRecord | undefined = q.after
      ? ({ id: q.after.id, write_date: q.after.write_date } as OdooRecord)
      : undefined;
    let next = request(startAfter);
    try {
      while (next) {
        waitedFor = next.slot;
        const page = await next.page;
        const want = Math.min(q.pageSize, remaining);
        remaining -= page.length;
        offset += page.length;
        startAfter = page[page.length - 1];
        const sent = ahead;
        ahead = undefined;
        // A short page is the last one; otherwise ask for the next before handing this one out.
        if (page.length < want) next = null;
        else if (sent && sent.id === startAfter?.id) next = sent;
        else next = request(startAfter);
        if (next) {
          waitedFor = next.slot;
          await leave();
        }
        if (page.length > 0) yield page;
      }
    } finally {
      // A consumer that stops early (head, a closed HTTP client) leaves requests in flight:
      // their failures are already caught above, and no reply may start another request.
      waitedFor = undefined;
    }
  }

  async close(): Promise<void> {
    await this.transport.close();
  }

  destroy(): void {
    this.transport.destroy();
  }
}
