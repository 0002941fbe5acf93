// `posdata serve`: the HTTP service in front of one Odoo. The URL and database come from
// the profile, the flags or the environment (the commands' precedence); credentials come
// from each API client's own login, so a request runs with its user's rights, never the
// profile's.
import { readFileSync } from 'node:fs';
import {
  type ConnectionOptions,
  makeHttp,
  makeTransport,
  negotiateProtocol,
  resolveServerUrl,
  trace,
} from '../cli/connection.js';
import type { IO } from '../cli/io.js';
import { OdooClient } from '../core/client.js';
import { AuthError, ProtocolError, UsageError } from '../core/errors.js';
import { isLoopback, UPSTREAM_CONNECTIONS } from '../core/http.js';
import { redactor, say } from '../core/redact.js';
import type { Protocol, Transport } from '../core/transport.js';
import { ProfileStore } from '../store/profiles.js';
import { buildApp } from './app.js';
import { FairGate, FairTransport } from './fair.js';

export interface ServeOptions extends ConnectionOptions {
  host?: string;
  port?: number;
  tokenTtl?: number;
  clientRate?: number;
  maxConnections?: number;
  headerTimeout?: number;
  pageSize?: number;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

function displayHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export async function runServe(opts: Record<string, unknown>, io: IO): Promise<void> {
  const o = opts as ServeOptions;
  const env = process.env;
  const store = await ProfileStore.open(env);
  const profileName = store.currentName(o.profile, env);
  const profile = store.get(profileName) ?? {};
  const url = resolveServerUrl(o.url, env, profile.url, o.allowInsecureHttp);
  const db = o.db ?? env.POSDATA_DB ?? profile.db;
  if (!url || !db) {
    throw new AuthError(
      say`serve needs the Odoo URL and database${o.profile || env.POSDATA_PROFILE ? say` (profile ${profileName})` : ''}`,
      say`run posdata login first, or give --url and --db`,
    );
  }
  // One connection pool and one --rate budget towards Odoo for the whole service.
  const http = makeHttp(url, o, io);
  const transports = new Map<Protocol, Transport>();
  const transportFor = async (p: Protocol): Promise<Transport> => {
    let t = transports.get(p);
    if (!t) {
      t = await makeTransport(p, http, db);
      transports.set(p, t);
    }
    return t;
  };
  // Fail fast on a wrong URL rather than on the first login: the server's version over the
  // protocol logins will use (auto: JSON-RPC, or JSON-2 on a server without JSON-RPC).
  let only: Protocol | undefined =
    o.protocol === 'json2' || o.protocol === 'jsonrpc' ? o.protocol : undefined;
  try {
    await (await transportFor(only ?? 'jsonrpc')).version();
  } catch (err) {
    if (only || !(err instanceof ProtocolError)) throw err;
    await (await transportFor('json2')).version().catch(() => {
      throw err;
    });
    // No JSON-RPC here: every login goes over JSON-2, so a password (not an API key) is
    // refused as a login (401), not as a missing endpoint.
    only = 'json2';
  }

  // The --rate budget and the connections towards Odoo, handed out in turns per user.
  const gate = new FairGate(
    UPSTREAM_CONNECTIONS,
    http.limiter,
    (o.timeout ?? 60) * 1000,
    o.rate === 0 ? 'no --rate limit' : `--rate ${o.rate ?? 60} a minute`,
  );
  const connect = async (login: string, password: string): Promise<OdooClient> => {
    const protocol = only ?? (await negotiateProtocol(o.protocol, url, o, db, login, password));
    const transport = new FairTransport(await transportFor(protocol), gate, login.toLowerCase());
    return new OdooClient(transport, { db, login, secret: password }, undefined, {
      trace: trace(io),
    });
  };

  const app = await buildApp({
    connect,
    tokenTtlSeconds: o.tokenTtl ?? 3600,
    clientRate: o.clientRate ?? 60,
    connections: {
      max: o.maxConnections ?? 256,
      headerTimeoutMs: (o.headerTimeout ?? 10) * 1000,
      // A stream may wait for its turn and then for Odoo (--timeout each) between two writes.
      idleTimeoutMs: (2 * (o.timeout ?? 60) + 30) * 1000,
    },
    pageSize: o.pageSize,
    version: version(),
    log: io.debug ? (line) => io.err(`posdata serve: ${line}`) : undefined,
    warn: (line) => io.err(`posdata serve: ${line}`),
  });

  // A stream abandoned by its client can leave a prefetched page's request behind; its
  // failure must not bring the service down.
  process.on('unhandledRejection', (err) => {
    if (io.debug) io.err(`posdata serve: ${redactor.said(say`${(err as Error)?.message ?? err}`)}`);
  });

  const host = o.host ?? '127.0.0.1';
  try {
    await app.listen({ host, port: o.port ?? 8080 });
  } catch (err) {
    await app.close().catch(() => undefined);
    await http.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(
        say`port ${o.port} on ${host} is already in use`,
        say`choose another with --port (0 = any free port)`,
      );
    if (code === 'EACCES')
      throw new UsageError(say`not allowed to listen on port ${o.port}`, say`use a port above 1023`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new UsageError(say`cannot listen on ${host}: no such local address`, say`check --host`);
    throw err;
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;
  const base = `http://${displayHost(host)}:${port}`;
  io.err(`posdata serve: ${base} (docs at ${base}/docs) for ${url.href} database ${db}`);
  if (!isLoopback(host) && !io.quiet)
    io.err(
      `posdata serve: warning: listening on ${host} without TLS: passwords and tokens cross the network in clear; put a TLS proxy in front`,
    );

  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      if (!io.quiet) io.err(`posdata serve: stopping (${signal})`);
      // Open streams are cut; nothing is written anywhere, so this is a clean stop (exit 0).
      app
        .close()
        .catch(() => undefined)
        .then(() => {
          gate.close();
          return http.close();
        })
        .finally(() => {
          setTimeout(() => process.exit(0), 1000).unref();
          resolve();
        });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
