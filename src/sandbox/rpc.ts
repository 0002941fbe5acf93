/**
 * Odoo's JSON-RPC endpoint (`POST /jsonrpc`): the `common`, `db` and `object` services, the error
 * envelope of each version (17: code 200, data keys name/debug/message/arguments/context; 19: code 0,
 * keys name/message/arguments/context/debug), credentials by password or API key.
 */
import { accessDenied, accessError, missingError, OdooError, typeError } from './errors.js';
import { execute } from './orm.js';
import type { Db } from './store.js';
import type { Env, Json, OdooVersion, Role } from './types.js';

export interface SandboxAccount {
  login: string;
  password: string;
  uid: number;
  role: Role;
  tz: string | false;
  /** The companies the user is allowed in (res.users company_ids); [1] where not given. */
  companies?: number[];
}

export interface ApiKey {
  uid: number;
  expired: boolean;
}

export interface ServerState {
  db: Db;
  dbName: string;
  version: OdooVersion;
  accounts: SandboxAccount[];
  keys: Map<string, ApiKey>;
  now: () => string;
  /** The clock with microseconds, for create_date/write_date (see Env.txNow). */
  txNow: () => string;
  /** How far the server's clock runs from the machine's (its Date header follows it). */
  clockOffsetMs?: number;
  /** false: no /jsonrpc route (404), as an Odoo after JSON-RPC's removal; JSON-2 only. */
  jsonrpc: boolean;
}

export interface HttpReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * common.version: 17 as the recorded nightly reports itself (`17.0-20240709`); 16, 18 and 19 as a
 * build from a release source tree does (`server_version` = the serie).
 */
export function versionInfo(v: OdooVersion): Json {
  return {
    server_version: v === 17 ? '17.0-20240709' : `${v}.0`,
    server_version_info: [v, 0, 0, 'final', 0, ''],
    server_serie: `${v}.0`,
    protocol_version: 1,
  };
}

/** werkzeug's HTML error page, as Odoo sends for requests it cannot route or parse. */
export function htmlError(status: number, title: string, text: string): HttpReply {
  return {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8' },
    body: `<!doctype html>\n<html lang=en>\n<title>${status} ${title}</title>\n<h1>${title}</h1>\n<p>${text}</p>\n`,
  };
}

const shortName = (name: string): string => (name.startsWith('builtins.') ? name.slice(9) : name);

export function debugText(e: OdooError, version: OdooVersion): string {
  if (version === 19 && e.pyName === 'odoo.exceptions.AccessDenied') return `${e.pyName}: ${e.message}\n`;
  return `Traceback (most recent call last):\n  ... (posdata sandbox: no server traceback) ...\n${shortName(e.pyName)}: ${e.message}`;
}

export function errorData(e: OdooError, version: OdooVersion): { [k: string]: Json } {
  const args = [...e.args] as Json[];
  if (version === 19)
    return { name: e.pyName, message: e.message, arguments: args, context: {}, debug: debugText(e, version) };
  return { name: e.pyName, debug: debugText(e, version), message: e.message, arguments: args, context: {} };
}

export function toOdooError(e: unknown): OdooError {
  if (e instanceof OdooError) return e;
  // A domain nested deeper than the stack allows: Python would hit its recursion limit too.
  if (e instanceof RangeError)
    return new OdooError('builtins.RecursionError', 'maximum recursion depth exceeded');
  const msg = e instanceof Error ? e.message : String(e);
  return new OdooError('builtins.Exception', msg);
}

function dbMissing(name: unknown): OdooError {
  const text = `connection to server at "127.0.0.1", port 5432 failed: FATAL:  database "${String(name)}" does not exist\n`;
  return new OdooError('psycopg2.OperationalError', text);
}

export function accountFor(state: ServerState, login: unknown): SandboxAccount | undefined {
  return state.accounts.find((a) => a.login === login);
}

/** A password or a live API key of that user (Odoo 14+ accepts keys in place of passwords). */
export function secretMatches(state: ServerState, account: SandboxAccount, secret: unknown): boolean {
  if (typeof secret !== 'string' || secret === '') return false;
  if (secret === account.password) return true;
  const key = state.keys.get(secret);
  return key !== undefined && key.uid === account.uid && !key.expired;
}

export function envFor(state: ServerState, account: SandboxAccount, context: unknown, json2 = false): Env {
  const ctx = (context && typeof context === 'object' ? context : {}) as Record<string, unknown>;
  // Odoo refuses a company the user is not allowed in (the whole call fails); without
  // allowed_company_ids (or with an empty list) a read covers every company the user is in.
  const allowed = account.companies ?? [1];
  const companies = ctx.allowed_company_ids;
  if (companies !== undefined && (!Array.isArray(companies) || companies.some((c) => !allowed.includes(c)))) {
    throw accessError('Access to unauthorized or invalid companies.');
  }
  const seen = Array.isArray(companies) && companies.length > 0 ? (companies as number[]) : allowed;
  let tx: string | undefined;
  return {
    uid: account.uid,
    role: account.role,
    activeTest: ctx.active_test !== false,
    companies: seen,
    tz: typeof ctx.tz === 'string' && ctx.tz ? ctx.tz : account.tz,
    groupTz: typeof ctx.tz === 'string' && ctx.tz ? ctx.tz : json2 ? account.tz : false,
    now: state.now,
    // One request, one transaction: every record it writes shares one timestamp.
    txNow: () => {
      tx ??= state.txNow();
      return tx;
    },
  };
}

function dispatch(state: ServerState, service: unknown, method: unknown, argsIn: unknown): Json | undefined {
  const args = Array.isArray(argsIn) ? argsIn : [];
  if (service === 'common') {
    switch (method) {
      case 'version':
        return versionInfo(state.version);
      case 'about':
        return 'See http://openerp.com';
      case 'login':
      case 'authenticate': {
        const n = method === 'login' ? 3 : 4;
        if (args.length < n) {
          const missing = ['db', 'login', 'password', 'user_agent_env'].slice(args.length, n);
          throw typeError(
            `exp_${method}() missing ${missing.length} required positional argument${missing.length > 1 ? 's' : ''}: ${missing.map((m) => `'${m}'`).join(' and ')}`,
          );
        }
        if (args[0] !== state.dbName) throw dbMissing(args[0]);
        const account = accountFor(state, args[1]);
        return account && secretMatches(state, account, args[2]) ? account.uid : false;
      }
    }
    throw new OdooError('builtins.KeyError', `'${String(method)}'`, 500, [String(method)]);
  }
  if (service === 'db') {
    if (method === 'list') return [state.dbName];
    if (method === 'server_version')
      return (versionInfo(state.version) as { server_version: string }).server_version;
    throw accessDenied();
  }
  if (service === 'object') {
    if (method !== 'execute_kw' && method !== 'execute')
      throw new OdooError('builtins.NameError', `Method not available ${String(method)}`);
    if (args.length < 6 && method === 'execute_kw') {
      throw typeError(`execute_kw() missing ${6 - args.length} required positional argument(s)`);
    }
    const [dbName, uid, password, model, fn] = args;
    if (dbName !== state.dbName) throw dbMissing(dbName);
    const account = state.accounts.find((a) => a.uid === uid);
    if (!account) throw missingError('res.users', [Number(uid)], Number(uid));
    if (!secretMatches(state, account, password)) throw accessDenied();
    const posArgs =
      method === 'execute_kw' ? (Array.isArray(args[5]) ? (args[5] as unknown[]) : []) : args.slice(5);
    const kw =
      method === 'execute_kw' && args[6] && typeof args[6] === 'object'
        ? { ...(args[6] as Record<string, unknown>) }
        : {};
    const env = envFor(state, account, kw.context);
    return execute(state.db, env, { model: String(model), method: String(fn), args: posArgs, kwargs: kw });
  }
  throw new OdooError('builtins.KeyError', `'${String(service)}'`, 500, [String(service)]);
}

export function handleJsonRpc(state: ServerState, contentType: string, raw: string): HttpReply {
  const mime = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mime !== 'application/json' && mime !== 'application/json-rpc') {
    return htmlError(
      400,
      'Bad Request',
      'Request inferred type is compatible with [&#39;http&#39;] but &#39;/jsonrpc&#39; is type=&#39;json&#39;.<br><br>Please verify the Content-Type request header and try again.',
    );
  }
  let req: unknown;
  try {
    req = JSON.parse(raw);
  } catch {
    return htmlError(400, 'Bad Request', 'Invalid JSON data');
  }
  const obj = (req && typeof req === 'object' && !Array.isArray(req) ? req : {}) as Record<string, unknown>;
  const id = (obj.id ?? null) as Json;
  const out: { [k: string]: Json } = { jsonrpc: '2.0', id };
  try {
    const params = obj.params;
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
      throw new OdooError('builtins.ValueError', 'JSON-RPC params must be an object (named parameters)');
    }
    const p = (params ?? {}) as Record<string, unknown>;
    const result = dispatch(state, p.service, p.method, p.args);
    if (result !== undefined && result !== null) out.result = result;
  } catch (e) {
    const err = toOdooError(e);
    out.error = {
      code: state.version === 19 ? 0 : 200,
      message: 'Odoo Server Error',
      data: errorData(err, state.version),
    };
  }
  return { status: 200, headers: { 'Content-Type': JSON_TYPE }, body: JSON.stringify(out) };
}

/** `/web/webclient/version_info`: the web client's JSON-RPC route (auth none). */
export function handleVersionInfo(state: ServerState, raw: string): HttpReply {
  let id: Json = null;
  try {
    const r = JSON.parse(raw) as { id?: Json };
    id = r.id ?? null;
  } catch {
    return htmlError(400, 'Bad Request', 'Invalid JSON data');
  }
  return {
    status: 200,
    headers: { 'Content-Type': JSON_TYPE },
    body: JSON.stringify({ jsonrpc: '2.0', id, result: versionInfo(state.version) }),
  };
}
