// The Odoo session of a run, and credentials resolution. Precedence for URL, database and
// login: flag, then environment (POSDATA_URL, POSDATA_DB, POSDATA_USER), then the profile
// (targetOf, store/profiles.ts); for the secret POSDATA_PASSWORD, then the profile's. The
// secret never comes from a flag; it is registered with the run's redactor before anything
// can print it.
import { OdooClient } from '../core/client.js';
import { AuthError, UsageError } from '../core/errors.js';
import { Http } from '../core/http.js';
import { JsonRpcTransport } from '../core/jsonrpc.js';
import type { RateLimiter } from '../core/ratelimit.js';
import { own, type Said, say } from '../core/redact.js';
import type { Protocol, Transport } from '../core/transport.js';
import type { FieldMap } from '../core/types.js';
import { hasUserinfo, parseServerUrl, secretScope, serverKey, showUrl } from '../core/url.js';
import { type Profile, ProfileStore, targetOf } from '../store/profiles.js';
import { fieldsKey, rememberedFields, serverKey as storeKey } from '../store/remembered.js';
import type { ConnectionOptions } from './flags.js';
import type { Env, IO } from './io.js';

/** The connection flags, with the Odoo context every call of the run carries. */
export interface SessionOptions extends ConnectionOptions {
  /** Odoo context for every call: lang, allowed_company_ids, active_test, … */
  odooContext?: Record<string, unknown>;
}

export interface Session {
  client: OdooClient;
  store: ProfileStore;
  profileName: string;
  profile: Profile;
  url: URL;
  protocol: Protocol;
  /** The limit on requests (--rate): progress says when it holds them back. */
  limiter: RateLimiter;
}

export async function makeTransport(protocol: Protocol, http: Http, db: string): Promise<Transport> {
  if (protocol === 'json2') {
    const { Json2Transport } = await import('../core/json2.js');
    return new Json2Transport(http, db);
  }
  return new JsonRpcTransport(http, db);
}

export function makeHttp(url: URL, o: ConnectionOptions, io: IO, callDeadlineMs?: number): Http {
  if (o.insecure)
    io.err.line(say`posdata: warning: TLS certificate verification is off for ${url.host} (--insecure)`);
  return new Http(url, {
    timeoutMs: (o.timeout ?? 60) * 1000,
    maxReplyBytes: o.maxReply,
    rate: o.rate ?? 60,
    retries: o.retries ?? 4,
    callDeadlineMs,
    caFile: o.caFile,
    insecure: o.insecure,
    onRetry: io.debug
      ? (r) => io.err.line(say`posdata: retry ${own(String(r.attempt))} in ${r.waitMs} ms after ${r.reason}`)
      : undefined,
  });
}

/** A short-lived Http for protocol detection: no rate limit, no repeated warnings; retried as reads are. */
export function probeHttp(url: URL, o: ConnectionOptions): Http {
  return new Http(url, {
    timeoutMs: (o.timeout ?? 60) * 1000,
    maxReplyBytes: o.maxReply,
    rate: 0,
    retries: o.retries ?? 4,
    caFile: o.caFile,
    insecure: o.insecure,
  });
}

/**
 * The protocol to speak: the one asked for, or with `auto` what the server offers (Odoo 19
 * offers JSON-2; the secret must then be an API key, a password is refused there).
 */
export async function negotiateProtocol(
  requested: 'auto' | Protocol | undefined,
  url: URL,
  o: ConnectionOptions,
  db: string,
  login: string,
  secret: string,
  /** Probe over this Http (serve: its --rate budget) instead of a short-lived unlimited one. */
  shared?: Http,
): Promise<Protocol> {
  if (requested === 'jsonrpc' || requested === 'json2') return requested;
  const http = shared ?? probeHttp(url, o);
  try {
    const { detectProtocol } = await import('../core/json2.js');
    return await detectProtocol(http, db, login, secret);
  } finally {
    if (!shared) await http.close();
  }
}

export function trace(io: IO): ((line: Said) => void) | undefined {
  return io.debug ? (line) => io.err.line(say`[rpc] ${line}`) : undefined;
}

/**
 * Where the run goes (store/profiles.ts, targetOf: flag, environment, profile), its URL
 * parsed. A URL typed with `user:password@` is refused (exit 2): the password is then in the
 * shell history and the process arguments, and posdata would never send it anyway. One stored
 * by an older version is used without that part.
 */
export function resolveTarget(
  given: { url?: string; db?: string; user?: string; allowInsecureHttp?: boolean },
  env: Env,
  profile: Profile,
): { url: URL | undefined; db: string | undefined; login: string | undefined } {
  for (const [value, from] of [
    [given.url, '--url'],
    [env.POSDATA_URL, 'POSDATA_URL'],
  ] as const) {
    if (value !== undefined && hasUserinfo(value)) {
      throw new UsageError(
        say`the URL in ${from} (${showUrl(value)}) carries a user name or password, which posdata never sends`,
        say`give the URL without user:password@, and the secret with --password-stdin or POSDATA_PASSWORD (change that password if it was shared)`,
      );
    }
  }
  const t = targetOf(given, env, profile);
  return {
    url: t.url ? parseServerUrl(t.url, given.allowInsecureHttp) : undefined,
    db: t.db,
    login: t.login,
  };
}

/** The remembered fields_get replies of this server and login, read once per context. */
function fieldsOnDisk(env: Env, server: string | undefined, login: string) {
  const read = new Map<string, Record<string, FieldMap>>();
  return (context: Record<string, unknown> | undefined): Record<string, FieldMap> => {
    if (!server) return {};
    const key = fieldsKey(server, login, context);
    let models = read.get(key);
    if (!models) {
      models = rememberedFields(env, key);
      read.set(key, models);
    }
    return models;
  };
}

export async function openSession(
  opts: SessionOptions,
  io: IO,
  env: Env,
  store: ProfileStore = ProfileStore.read(env),
): Promise<Session> {
  let o = opts;
  const profileName = store.currentName(o.profile, env);
  const stored = store.get(profileName) ?? {};
  // The profile's zone is the shop's where login was given one (--tz), else its user's: every
  // run reads the shop's days (--date, --from/--to) and shows its times in it (zoneFor).
  const profile = stored.zone ? { ...stored, tz: stored.zone } : stored;
  const { url, db, login } = resolveTarget(o, env, profile);
  if (!url || !db || !login) {
    throw new AuthError(
      say`not logged in${o.profile || env.POSDATA_PROFILE ? say` (profile ${profileName})` : ''}`,
      say`run posdata login --url URL --db DB --user LOGIN`,
    );
  }
  // The stored secret belongs to the server, database and login it was stored with: another
  // host in --url or POSDATA_URL, another --db or --user never receives it (a typo or a
  // hostile address would otherwise get the password). The port is not part of the server.
  const sameTarget =
    profile.url !== undefined &&
    secretScope(profile.url) === secretScope(url) &&
    profile.db === db &&
    profile.login === login;
  const secret = env.POSDATA_PASSWORD || (sameTarget ? profile.secret : undefined);
  io.redactor.add(secret);
  if (!secret) {
    if (profile.secret) {
      throw new AuthError(
        say`the stored secret of profile ${profileName} is for ${profile.login} on ${serverKey(profile.url) ?? own('?')} (database ${profile.db}), not for ${login} on ${serverKey(url)} (database ${db})`,
        say`set POSDATA_PASSWORD for this target, or run posdata login with it`,
      );
    }
    throw new AuthError(
      say`no password or API key for ${login} (profile ${profileName})`,
      say`run posdata login, or set POSDATA_PASSWORD`,
    );
  }
  // The CA given at login stays with the profile (an on-premise server keeps its CA).
  if (o.caFile === undefined && sameTarget && profile.caFile) o = { ...o, caFile: profile.caFile };
  const requested = o.protocol && o.protocol !== 'auto' ? o.protocol : undefined;
  let protocol: Protocol | undefined = requested ?? (sameTarget ? profile.protocol : undefined);
  if (!protocol) {
    // No login stored for this target (credentials from the environment only): decide
    // auto here, as login would have, so an API key reaches a JSON-2-only server.
    protocol = await negotiateProtocol('auto', url, o, db, login, secret);
  }
  const http = makeHttp(url, o, io);
  const transport = await makeTransport(protocol, http, db);
  const client = new OdooClient(transport, { db, login, secret }, sameTarget ? profile.uid : undefined, {
    trace: trace(io),
    context: o.odooContext,
    redactor: io.redactor,
    rememberedVersion: sameTarget ? profile.serverVersion : undefined,
    rememberedFields: fieldsOnDisk(env, storeKey(url.href, db), login),
  });
  if (o.company !== undefined) {
    // --company: by id or name, among the companies the user may see; sent with every call.
    const { resolveCompanies } = await import('../read/companies.js');
    const companies = await resolveCompanies(client, o.company);
    client.allowCompanies(companies.map((c) => c.id));
  }
  return { client, store, profileName, profile, url, protocol, limiter: http.limiter };
}
