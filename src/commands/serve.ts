// `posdata serve`: the HTTP service in front of one Odoo. The URL and database come from
// the profile, the flags or the environment (the commands' precedence); credentials come
// from each API client's own login, so a request runs with its user's rights, never the
// profile's.
import { command } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import {
  CONNECTION,
  type ConnectionOptions,
  connectionOptions,
  GLOBAL,
  group,
  listenFlags,
  listenRefusal,
} from '../cli/flags.js';
import type { Env, IO } from '../cli/io.js';
import { positiveInt, seconds } from '../cli/values.js';
import { VERSION } from '../cli/version.js';
import type { OdooClient } from '../core/client.js';
import { AuthError, ProtocolError, UsageError } from '../core/errors.js';
import type { Http } from '../core/http.js';
import { say } from '../core/redact.js';
import { MAX_TIMER_SECONDS } from '../core/timer.js';
import type { Protocol, Transport } from '../core/transport.js';
import { isLoopback } from '../core/url.js';
import { ProfileStore } from '../store/profiles.js';

export interface ServeOptions {
  connection: ConnectionOptions;
  host: string;
  port: number;
  allowRemote: boolean;
  allowHosts: string[];
  tokenTtl: number;
  clientRate: number;
  maxConnections: number;
  headerTimeout: number;
}

/**
 * Login attempts a minute for the whole service: a sixth of --rate (at least two), so that
 * callers who are not logged in (each attempt is an Odoo `authenticate`, and a guess costs
 * them nothing) leave most of the budget to those who are; 0 (no limit) with --rate 0.
 */
export function loginShare(rate: number): number {
  return rate === 0 ? 0 : Math.max(2, Math.ceil(rate / 6));
}

function displayHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export const serve = command({
  name: 'serve',
  longRunning: true,
  flags: [
    group('own', [
      ...listenFlags(8080),
      {
        spec: '--allow-remote',
        description:
          'listen on a --host that is not loopback; serve speaks plain HTTP, so put a TLS proxy in front',
      },
      {
        spec: '--allow-host <names>',
        description:
          'Host names answered besides loopback ones, comma-separated (a proxy in front that passes its own Host)',
        parse: (v: string) =>
          v
            .split(',')
            .map((h) => h.trim())
            .filter(Boolean),
      },
      {
        spec: '--token-ttl <seconds>',
        description: 'token lifetime',
        parse: seconds('--token-ttl', 1, true),
        default: 3600,
      },
      {
        spec: '--client-rate <n>',
        description: 'requests a minute per token',
        parse: positiveInt('--client-rate', 0),
        default: 60,
      },
      {
        spec: '--max-connections <n>',
        description: 'client connections held at once; more are closed at once',
        parse: positiveInt('--max-connections', 1),
        default: 256,
      },
      {
        spec: '--header-timeout <seconds>',
        description: "close a connection whose request's headers take longer",
        parse: seconds('--header-timeout', 1),
        default: 10,
      },
    ]),
    CONNECTION,
    GLOBAL,
  ],
  examples: ['posdata serve', 'posdata serve --port 8080 --profile shop'],
  options: (f): ServeOptions => ({
    connection: connectionOptions(f),
    host: f.host,
    port: f.port,
    allowRemote: f.allowRemote === true,
    allowHosts: f.allowHost ?? [],
    tokenTtl: f.tokenTtl,
    clientRate: f.clientRate,
    maxConnections: f.maxConnections,
    headerTimeout: f.headerTimeout,
  }),
  run: runServe,
});

async function runServe(o: ServeOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const c = o.connection;
  refuseOrWarnRemote(o, io);
  const { url, db } = await serveTarget(c, ctx.env);
  // One connection pool and one --rate budget towards Odoo for the whole service.
  // Each call to Odoo, retries included, ends within --timeout: with the wait for a slot
  // (--timeout at most) a caller has its answer or a 504 before the socket limit below.
  const { makeHttp } = await import('../cli/session.js');
  const http = makeHttp(url, c, io, (c.timeout ?? 60) * 1000);
  ctx.atEnd(() => http.close());
  const connect = await loginConnector(o, ctx, { url, db, http });
  const { buildApp } = await import('../serve/app.js');
  const app = await buildApp({
    connect,
    tokenTtlSeconds: o.tokenTtl,
    clientRate: o.clientRate,
    loginsPerMinute: loginShare(c.rate ?? 60),
    // On loopback only loopback names (and --allow-host's) are answered: a web page cannot
    // rebind its own name to 127.0.0.1 and read the API from the user's browser.
    allowedHosts: isLoopback(o.host) ? o.allowHosts : undefined,
    connections: {
      max: o.maxConnections,
      headerTimeoutMs: o.headerTimeout * 1000,
      // A stream may wait for its turn and then for Odoo (--timeout each) between two writes.
      idleTimeoutMs: Math.min(2 * (c.timeout ?? 60) + 30, MAX_TIMER_SECONDS) * 1000,
    },
    version: VERSION,
    redactor: io.redactor,
    log: io.debug ? (line) => io.err.line(say`posdata serve: ${line}`) : undefined,
    warn: (line) => io.err.line(say`posdata serve: ${line}`),
  });
  // Closed first when the run ends: open streams are cut, then the gate and the pool.
  ctx.atEnd(() => app.close().catch(() => undefined));
  await app.listen({ host: o.host, port: o.port }).catch((err: unknown) => {
    throw listenRefusal(err, o);
  });
  const addr = app.server.address();
  const bound = typeof addr === 'object' && addr ? addr.port : o.port;
  const base = `http://${displayHost(o.host)}:${bound}`;
  io.err.line(say`posdata serve: ${base} (docs at ${base}/docs) for ${url.href} database ${db}`);
  const signal = await ctx.stopped;
  // Open streams are cut; nothing is written anywhere, so this is a clean stop (exit 0).
  if (!io.quiet) io.err.line(say`posdata serve: stopping (${signal})`);
}

/**
 * Passwords and tokens in clear on a network: only when the operator says a TLS proxy is in
 * front, and then said even under --quiet (a warning that can be silenced is missed).
 */
function refuseOrWarnRemote(o: ServeOptions, io: IO): void {
  if (isLoopback(o.host)) return;
  if (!o.allowRemote)
    throw new UsageError(
      say`refusing to listen on ${o.host}: serve speaks plain HTTP, so passwords and tokens would cross the network in clear`,
      say`put a TLS proxy in front and give --allow-remote, or keep --host on loopback`,
    );
  io.err.line(
    say`posdata serve: warning: listening on ${o.host} without TLS: passwords and tokens cross the network in clear; only a TLS proxy in front should reach it`,
  );
}

/** The Odoo URL and database the service fronts: flags, environment, then the profile. */
async function serveTarget(c: ConnectionOptions, env: Env): Promise<{ url: URL; db: string }> {
  const { resolveTarget } = await import('../cli/session.js');
  // Read only: serve never writes the store (a serve before any login leaves no file).
  const store = ProfileStore.read(env);
  const profileName = store.currentName(c.profile, env);
  const { url, db } = resolveTarget(c, env, store.get(profileName) ?? {});
  if (!url || !db) {
    throw new AuthError(
      say`serve needs the Odoo URL and database${c.profile || env.POSDATA_PROFILE ? say` (profile ${profileName})` : ''}`,
      say`run posdata login first, or give --url and --db`,
    );
  }
  return { url, db };
}

/**
 * Each login's client on the one pool: the protocol is probed once at start (a wrong URL
 * fails now, not at the first login), and every call goes through the gate that hands out
 * the --rate budget and the connections towards Odoo in turns per user.
 */
async function loginConnector(
  o: ServeOptions,
  ctx: Context,
  odoo: { url: URL; db: string; http: Http },
): Promise<(login: string, password: string) => Promise<OdooClient>> {
  const { io } = ctx;
  const c = o.connection;
  const { url, db, http } = odoo;
  const { negotiateProtocol, trace } = await import('../cli/session.js');
  const { OdooClient } = await import('../core/client.js');
  const { UPSTREAM_CONNECTIONS } = await import('../core/http.js');
  const { FairGate, FairTransport, LOGIN_LANE } = await import('../serve/fair.js');
  const { transportFor, only } = await probeProtocol(c, http, db);
  const gate = new FairGate(
    UPSTREAM_CONNECTIONS,
    http.limiter,
    (c.timeout ?? 60) * 1000,
    c.rate === 0 ? 'no --rate limit' : `--rate ${c.rate ?? 60} a minute`,
  );
  ctx.atEnd(() => gate.close());
  return async (login, password) => {
    // The protocol probes of a login (--protocol auto) are requests to Odoo like any other:
    // within --rate, in the lane all logins share.
    const protocol =
      only ??
      (await gate.run(LOGIN_LANE, () => negotiateProtocol(c.protocol, url, c, db, login, password, http)));
    const transport = new FairTransport(await transportFor(protocol), gate, login);
    return new OdooClient(transport, { db, login, secret: password }, undefined, {
      trace: trace(io),
      redactor: io.redactor,
    });
  };
}

/**
 * The server's version over the protocol logins will use (auto: JSON-RPC, or JSON-2 on a
 * server without JSON-RPC); one transport per protocol, made when first needed.
 */
async function probeProtocol(
  c: ConnectionOptions,
  http: Http,
  db: string,
): Promise<{ transportFor: (p: Protocol) => Promise<Transport>; only: Protocol | undefined }> {
  const { makeTransport } = await import('../cli/session.js');
  const transports = new Map<Protocol, Transport>();
  const transportFor = async (p: Protocol) => {
    let t = transports.get(p);
    if (!t) {
      t = await makeTransport(p, http, db);
      transports.set(p, t);
    }
    return t;
  };
  const only = c.protocol === 'json2' || c.protocol === 'jsonrpc' ? c.protocol : undefined;
  try {
    await (await transportFor(only ?? 'jsonrpc')).version();
  } catch (err) {
    if (only || !(err instanceof ProtocolError)) throw err;
    await (await transportFor('json2')).version().catch(() => {
      throw err;
    });
    // No JSON-RPC here: every login goes over JSON-2, so a password (not an API key) is
    // refused as a login (401), not as a missing endpoint.
    return { transportFor, only: 'json2' };
  }
  return { transportFor, only };
}
