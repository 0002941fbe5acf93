// Odoo 19's External JSON-2 API: POST {base}/json/2/<model>/<method> with
// `Authorization: bearer <api-key>`, `X-Odoo-Database` and a body of named arguments.
// Replies are the bare JSON value; errors are real HTTP statuses with Odoo's
// serialize_exception body ({name, message, arguments, context, debug}). Shapes follow the
// recorded exchanges in shared/research/odoo19-wire/ (rpc/controllers/json2.py, http.py
// Json2Dispatcher.handle_error).
//
// Replies → exit codes (the same codes JSON-RPC gives for the same Odoo error):
//   200 JSON of the method's shape → the result; 200 HTML / garbled / wrong shape → 6
//   401 any body (unknown, expired or revoked key; a password as bearer) → 3, "make a new key"
//   403 AccessError → 5 (POS group hint); AccessDenied → 3
//   404 NotFound (unknown model or method) → 5; MissingError → 4 (on res.users: 3)
//   404 HTML "No database is selected" → 3 (check --db); other 404 without JSON → 6 (no JSON-2)
//   422 UnprocessableEntity / UserError → 5 (posdata builds every keyword itself)
//   500 ValueError "Invalid field…" → 2 (a field the user named); any other error body → 5
//   429/502/503/504 → retried by the HTTP layer (reads), then 6; other statuses without an
//   Odoo error body (400/415 HTML, a proxy's 500 page) → 6
import { AuthError, PosdataError, ProtocolError, ServerError } from './errors.js';
import { type Http, type HttpReply, RETRY_STATUS } from './http.js';
import { mapOdooError, type OdooErrorData } from './odoo-errors.js';
import { jsonSaid, MASK, own, type Said, say } from './redact.js';
import type { CallOptions, Credentials, OrmCall, Protocol, Transport } from './transport.js';
import { majorVersion, type ServerVersion } from './types.js';
import { parseReply } from './young-names.js';

/**
 * Positional parameter names of the ORM methods posdata calls, in Odoo 19's order.
 * JSON-2 has no positional arguments (`args` is just an unknown keyword, 422), so the
 * client's execute_kw-style `args` are named here. Record methods take `ids` first.
 */
const MODEL_METHODS: Record<string, readonly string[]> = {
  search_read: ['domain', 'fields', 'offset', 'limit', 'order'],
  search: ['domain', 'offset', 'limit', 'order'],
  search_count: ['domain', 'limit'],
  fields_get: ['allfields', 'attributes'],
  context_get: [],
  read_group: ['domain', 'fields', 'groupby', 'offset', 'limit', 'orderby', 'lazy'],
  formatted_read_group: ['domain', 'groupby', 'aggregates', 'having', 'offset', 'limit', 'order'],
  name_search: ['name', 'domain', 'operator', 'limit'],
  web_search_read: ['domain', 'specification', 'offset', 'limit', 'order', 'count_limit'],
  create: ['vals_list'],
};

const RECORD_METHODS: Record<string, readonly string[]> = {
  read: ['fields', 'load'],
  write: ['vals'],
  unlink: [],
  copy: ['default'],
};

/**
 * The JSON-2 body for one execute_kw-style call: positional `args` named per method,
 * `kwargs` as they are (fields, limit, offset, order, context, attributes...).
 * Throws on a call this table does not know: that is a bug in posdata, not user input.
 */
export function namedArgs(
  model: string,
  method: string,
  args: unknown[],
  kwargs: Record<string, unknown>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  let rest = args;
  let names = MODEL_METHODS[method];
  if (!names && RECORD_METHODS[method]) {
    names = RECORD_METHODS[method];
    if (args.length === 0) throw new Error(`JSON-2: ${model}.${method} needs record ids`);
    body.ids = args[0];
    rest = args.slice(1);
  }
  if (!names) {
    if (args.length > 0) {
      throw new Error(`JSON-2: no named-argument mapping for ${model}.${method} with positional args`);
    }
    names = [];
  }
  if (rest.length > names.length) {
    throw new Error(`JSON-2: ${model}.${method} takes at most ${names.length} positional args`);
  }
  rest.forEach((v, i) => {
    body[names[i]] = v;
  });
  for (const [k, v] of Object.entries(kwargs)) {
    if (v !== undefined) body[k] = v;
  }
  return body;
}

const isList = (v: unknown): boolean => Array.isArray(v);
const isObject = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v);

/** What a successful reply of each method looks like. */
const RESULT_SHAPE: Record<string, (v: unknown) => boolean> = {
  search_read: isList,
  read: isList,
  search: isList,
  search_count: (v) => typeof v === 'number',
  fields_get: isObject,
  context_get: isObject,
  web_search_read: isObject,
};

type Parsed = { json: true; value: unknown } | { json: false; html: boolean };

function parse(reply: HttpReply): Parsed {
  try {
    return { json: true, value: parseReply(reply.text, (doc) => doc) };
  } catch {
    return { json: false, html: /html/i.test(reply.contentType) || /^\s*</.test(reply.text) };
  }
}

function isErrorBody(v: unknown): v is OdooErrorData & { name: string } {
  return v !== null && typeof v === 'object' && typeof (v as { name?: unknown }).name === 'string';
}

const NEW_KEY_HINT = say`make a new one in Odoo → Preferences → Account Security → New API Key, then run posdata login again`;

/** The server major version from `version_info[0]` (19, or 'saas~18' → 18); NaN if unknown. */
export class Json2Transport implements Transport {
  readonly protocol = 'json2' as const;

  constructor(
    private readonly http: Http,
    readonly db: string,
  ) {}

  get requestCount(): number {
    return this.http.requestCount;
  }

  get serverDate(): number | undefined {
    return this.http.serverDate;
  }

  private get host(): string {
    return this.http.base.host;
  }

  /** One JSON-2 call; the bare result, or the typed error for the reply's status and body. */
  async call(
    creds: Credentials,
    model: string,
    method: string,
    body: Record<string, unknown>,
    opts: CallOptions,
  ): Promise<unknown> {
    const path = `json/2/${encodeURIComponent(model)}/${encodeURIComponent(method)}`;
    // Judged inside the HTTP layer's retry loop: a garbled body is retried in the same count.
    const garbled = (parsed: { html: boolean }): ProtocolError =>
      new ProtocolError(
        parsed.html
          ? say`${this.host} answered ${own(model)}.${own(method)} with an HTML page, not JSON`
          : say`${this.host} answered ${own(model)}.${own(method)} with JSON that does not parse`,
        parsed.html
          ? say`check that --url is the Odoo server itself (not a login page or proxy)`
          : say`try again; check any proxy in between`,
        { transient: !parsed.html },
      );
    let ok: Parsed | undefined;
    const reply = await this.http.post(
      path,
      JSON.stringify(body),
      { authorization: `bearer ${creds.secret}`, 'x-odoo-database': creds.db },
      opts.retry,
      (r) => {
        if (r.status !== 200) return;
        ok = parse(r);
        if (!ok.json) throw garbled(ok);
      },
    );
    const parsed = reply.status === 200 && ok ? ok : parse(reply);
    if (reply.status === 200) {
      if (parsed.json) return parsed.value;
      throw garbled(parsed);
    }
    throw this.replyError(reply, parsed, creds, model, method);
  }

  private replyError(
    reply: HttpReply,
    parsed: Parsed,
    creds: Credentials,
    model: string,
    method: string,
  ): PosdataError {
    const host = this.host;
    const status = reply.status;
    if (status === 401) {
      // Odoo says only "Invalid apikey" for an unknown, revoked or expired key and for a
      // password sent as bearer: the message covers all four.
      return new AuthError(
        say`${host} refused the API key for '${creds.login}' (HTTP 401): it is invalid, expired or revoked, or is a password (JSON-2 accepts only API keys)`,
        NEW_KEY_HINT,
      );
    }
    if (parsed.json && isErrorBody(parsed.value)) {
      const data = parsed.value;
      if (data.name === 'werkzeug.exceptions.NotFound') {
        const msg = (data.message ?? '').split('\n')[0];
        const unknownModel = /model .* does not exist/i.test(msg);
        return new ServerError(
          data.name,
          say`Odoo: ${msg || say`${own(model)}.${own(method)} not found`} (HTTP 404)`,
          unknownModel
            ? say`is the Point of Sale app installed on this database?`
            : say`this Odoo version may not offer that method; try --protocol jsonrpc`,
          status,
        );
      }
      return mapOdooError(data, { host, db: this.db, model, status });
    }
    if (status === 404 && !parsed.json && /No database is selected/i.test(reply.text)) {
      return new AuthError(
        say`database '${creds.db}' does not exist on ${host} (or the server does not serve it)`,
        say`check --db (posdata whoami shows the stored one)`,
      );
    }
    if (status === 404) {
      return new ProtocolError(
        say`${host} has no JSON-2 endpoint (HTTP 404 on /json/2/${own(model)}/${own(method)})`,
        say`JSON-2 needs Odoo 19 or later; check --url, or use --protocol jsonrpc`,
      );
    }
    // 429/502/503/504 were already retried by the HTTP layer: this is the last answer.
    const transient = RETRY_STATUS.includes(status);
    const what = parsed.json
      ? 'JSON that is not an Odoo error'
      : parsed.html
        ? 'an HTML page'
        : 'a body that is not JSON';
    return new ProtocolError(
      say`${host} answered HTTP ${status} with ${own(what)}, not JSON-2`,
      status >= 500 || transient
        ? say`the server or a proxy is failing; try again later`
        : say`check that --url is the Odoo server itself (not a proxy)`,
      { transient: false },
    );
  }

  /** GET /json/version (no credentials, no database); /web/version where that is missing. */
  describeCall(_creds: Credentials, _uid: number, { model, method, args, kwargs }: OrmCall): Said {
    let body: Said;
    try {
      body = jsonSaid(namedArgs(model, method, args, kwargs));
    } catch (err) {
      body = err instanceof PosdataError ? say`(${err.said})` : say`(${(err as Error).message})`;
    }
    return say`POST /json/2/${own(model)}/${own(method)} (Authorization: bearer ${own(MASK)}) ${body}`;
  }

  async version(): Promise<ServerVersion> {
    const v = await this.probeVersion();
    if (!v) {
      throw new ProtocolError(
        say`${this.host} did not tell its version (GET /json/version)`,
        say`check that --url is an Odoo 19+ server, or use --protocol jsonrpc`,
      );
    }
    return v;
  }

  /**
   * GET /json/version (/web/version where that is missing): the version, or null when the
   * server has no such page or answers something else (not an Odoo 19+). A server or proxy
   * unavailable (429, 502/503/504 after the retries) or unreachable is an error, not an answer.
   */
  async probeVersion(): Promise<ServerVersion | null> {
    let reply = await this.http.get('json/version', {}, true);
    if (reply.status === 404) reply = await this.http.get('web/version', {}, true);
    failing(reply, this.host, 'GET /json/version');
    const parsed = parse(reply);
    const v = parsed.json ? (parsed.value as { version?: unknown; version_info?: unknown }) : undefined;
    if (reply.status !== 200 || !v || typeof v.version !== 'string' || !Array.isArray(v.version_info))
      return null;
    const info = v.version_info as (string | number)[];
    return {
      server_version: v.version,
      server_version_info: info,
      server_serie: `${info[0]}.${info[1]}`,
    };
  }

  /**
   * JSON-2 has no authenticate: the key is the login. `res.users.context_get` answers
   * the key's `uid` (401 for a bad key). The key's user must be the login given, as
   * JSON-RPC's authenticate(login, key) checks too.
   */
  async authenticate(creds: Credentials): Promise<number> {
    const ctx = (await this.call(creds, 'res.users', 'context_get', {}, { retry: 'auth' })) as {
      uid?: unknown;
    } | null;
    const uid = ctx?.uid;
    if (typeof uid !== 'number' || uid <= 0) {
      throw new ProtocolError(
        say`${this.host} answered res.users.context_get without a uid`,
        say`check that --url is an Odoo 19+ server, or use --protocol jsonrpc`,
      );
    }
    let owner: unknown;
    try {
      const rows = (await this.call(
        creds,
        'res.users',
        'read',
        { ids: [uid], fields: ['login'] },
        { retry: 'auth' },
      )) as { login?: unknown }[] | null;
      owner = Array.isArray(rows) ? rows[0]?.login : undefined;
    } catch (err) {
      if (err instanceof AuthError) throw err;
      owner = undefined; // cannot read its own user: nothing to compare
    }
    if (typeof owner === 'string' && owner.toLowerCase() !== creds.login.toLowerCase()) {
      throw new AuthError(
        say`the API key belongs to '${owner}', not '${creds.login}'`,
        say`log in with --user ${owner}, or use an API key of ${creds.login}`,
      );
    }
    return uid;
  }

  async executeKw(
    creds: Credentials,
    _uid: number,
    { model, method, args, kwargs }: OrmCall,
    opts: CallOptions,
  ): Promise<unknown> {
    const result = await this.call(creds, model, method, namedArgs(model, method, args, kwargs), opts);
    // No envelope to check: a 200 from something that is not Odoo (a proxy, a captive
    // portal answering JSON) is caught by the shape of the result instead.
    const shape = RESULT_SHAPE[method];
    if (shape && !shape(result)) {
      throw new ProtocolError(
        say`${this.host} answered ${own(model)}.${own(method)} with JSON that is not its result`,
        say`check that --url is the Odoo server itself (not a proxy)`,
      );
    }
    return result;
  }

  close(): Promise<void> {
    return this.http.close();
  }

  destroy(): void {
    this.http.destroy();
  }
}

/**
 * `--protocol auto`, once at login: JSON-2 when the server offers it (GET /json/version
 * says 19 or later; when the version cannot be read, an unauthenticated JSON-2 call that
 * answers 401 rather than 404) and the secret works as a bearer API key. JSON-RPC
 * otherwise: a password is refused by JSON-2 but accepted by /jsonrpc.
 */
export async function detectProtocol(
  http: Http,
  db: string,
  login: string,
  secret: string,
): Promise<Protocol> {
  const t = new Json2Transport(http, db);
  // Every probe is retried as a read call is; one that still fails fails login rather than
  // guess JSON-RPC (which would store the wrong protocol for an API key, issue 18).
  const v = await t.probeVersion();
  const major = v ? majorVersion(v) : Number.NaN;
  let offered = major >= 19;
  if (Number.isNaN(major)) {
    const probe = await http.post('json/2/res.users/context_get', '{}', { 'x-odoo-database': db }, true);
    failing(probe, http.base.host, 'POST /json/2/res.users/context_get');
    offered = probe.status === 401;
  }
  if (!offered) return 'jsonrpc';
  try {
    await t.authenticate({ db, login, secret });
    return 'json2';
  } catch (err) {
    // Refused as a bearer key: a password, which JSON-RPC takes. A refused secret shaped like
    // an Odoo API key (40 hex digits) is an expired or revoked key, not a password: stay on
    // JSON-2 so that login says so and how to make a new one. Anything else is no answer.
    if (!(err instanceof AuthError)) throw err;
    return API_KEY_SHAPE.test(secret) ? 'json2' : 'jsonrpc';
  }
}

/**
 * A probe's reply that says the server or a proxy is unavailable, after the retries: exit 6.
 * Other statuses (a 400 or 500 from an older Odoo's route for another request type) are
 * answers: no JSON-2 there.
 */
function failing(reply: HttpReply, host: string, what: string): void {
  if (RETRY_STATUS.includes(reply.status)) {
    throw new ProtocolError(
      say`${host} answered ${own(what)} with HTTP ${reply.status}, so posdata cannot tell which protocol it offers`,
      say`try again later, or choose one with --protocol jsonrpc|json2`,
    );
  }
}

/** Odoo makes API keys as 20 random bytes in hex (res.users.apikeys._generate). */
const API_KEY_SHAPE = /^[0-9a-f]{40}$/;
