// The HTTP service: the spec's REST-like paths over the same resource table, query builder,
// page stream and JSON renderer as the commands, so GET /api/v1/sales?… answers exactly
// what `posdata sales … --format json` prints. Fastify validates the query parameters with
// JSON schemas generated from the table, and @fastify/swagger documents the same schemas.
// Here: the server (its limits against slow or many clients), the errors as problem
// documents, the documentation and the index at / (home.ts); the paths are in auth.ts, data.ts and reports.ts.
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import type { OdooClient } from '../core/client.js';
import { own, type Redactor, type Said, say } from '../core/redact.js';
import { isLoopback } from '../core/url.js';
import { authRoutes } from './auth.js';
import { dataRoutes } from './data.js';
import { docsOptions, openapiOptions } from './docs.js';
import { homeRoute } from './home.js';
import { ClientLimiter } from './limiter.js';
import { undecimal } from './params.js';
import { errorHandler, HttpProblem, NOTHING, PROBLEM_TYPE, problem, sendProblem } from './problem.js';
import { reportRoutes } from './reports.js';
import { TokenStore } from './tokens.js';

export interface ServeConfig {
  /** A client for these credentials on the configured Odoo (not yet authenticated). */
  connect(login: string, password: string): Promise<OdooClient>;
  tokenTtlSeconds: number;
  /** Requests a minute per token (and per address for login). */
  clientRate: number;
  /** Login attempts a minute for the whole service, their share of --rate; 0 = no limit. */
  loginsPerMinute?: number;
  /** Records per Odoo request when streaming. */
  pageSize?: number;
  /**
   * The Host names answered besides loopback ones (DNS rebinding: a page on evil.example
   * that rebinds its name to 127.0.0.1 sends Host: evil.example); undefined: any Host (a
   * service that listens beyond loopback, behind its proxy).
   */
  allowedHosts?: string[];
  /** Caps on client connections (slowloris: many idle or slow ones). */
  connections?: { max: number; headerTimeoutMs: number; idleTimeoutMs: number };
  version: string;
  /**
   * The service's secrets: each user's password and token while they are in use, masked in
   * every line of `log` and `warn` (and the client's traces).
   */
  redactor: Redactor;
  /** One line per request (--debug); its values masked where it is printed. */
  log?: (line: Said) => void;
  /** Internal errors (a bug), always shown. */
  warn: (line: Said) => void;
}

type Limits = NonNullable<ServeConfig['connections']>;

export async function buildApp(config: ServeConfig): Promise<FastifyInstance> {
  const tokens = new TokenStore(config.tokenTtlSeconds * 1000);
  const limiter = new ClientLimiter(config.clientRate);
  const logins = new ClientLimiter(config.loginsPerMinute ?? 0);
  const limits = config.connections ?? { max: 256, headerTimeoutMs: 10_000, idleTimeoutMs: 150_000 };
  const app = server(limits);
  // Replies are either streams, buffers or small objects: plain JSON.stringify for the
  // objects, so the response schemas serve the documentation only.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Bodies are JSON only (the login): Fastify's default text/plain parser would take a
  // cross-site form's body as a string and answer 400 where 415 is the truth.
  app.removeContentTypeParser('text/plain');
  app.decorateRequest('posdata', null);
  app.decorateRequest('mask', null);
  app.server.maxConnections = limits.max;
  app.addHook('onClose', async () => {
    tokens.close();
    limiter.close();
    logins.close();
  });
  if (config.log) logEachRequest(app, config.log);
  app.setErrorHandler(
    errorHandler({
      revoke: (token) => tokens.revoke(token),
      warn: config.warn,
      stacks: config.log !== undefined,
      log: config.log,
    }),
  );
  if (config.allowedHosts) refuseOtherHosts(app, config.allowedHosts);
  // Integers in decimal only: Ajv's coercion would take `0x10` for 16 and `1e3` for 1000.
  app.addHook('preValidation', async (req) => {
    const bad = undecimal(req);
    if (bad) throw new HttpProblem(400, bad);
  });
  answerUnknownPaths(app);
  forbidSniffingAndFraming(app);

  await app.register(swagger, openapiOptions(config));

  const requireToken = authRoutes(app, {
    tokens,
    limiter,
    logins,
    connect: config.connect,
    redactor: config.redactor,
  });
  dataRoutes(app, requireToken, config.pageSize ?? 2000);
  reportRoutes(app, requireToken);
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  homeRoute(app, config.version);
  await app.register(swaggerUi, docsOptions());
  return app;
}

/** One line per request: its method, URL, status, time and login. */
function logEachRequest(app: FastifyInstance, log: (line: Said) => void): void {
  app.addHook('onResponse', async (req, reply) => {
    // The method, the URL and the login come from the client: masked there, never in posdata's words.
    const who = req.posdata ? say` (${req.posdata.entry.login})` : '';
    log(say`${req.method} ${req.url} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms${who}`);
  });
}

/** A request whose Host is neither a loopback name nor one of `hosts` is refused (421). */
function refuseOtherHosts(app: FastifyInstance, hosts: string[]): void {
  const allowed = new Set(hosts.map((h) => h.toLowerCase()));
  app.addHook('onRequest', async (req) => {
    const given = req.headers.host;
    if (given === undefined) return; // HTTP/1.0 without Host: no browser sends that
    let name: string | undefined;
    try {
      name = new URL(`http://${given}`).hostname;
    } catch {
      name = undefined;
    }
    if (name !== undefined && (isLoopback(name) || allowed.has(name))) return;
    throw new HttpProblem(
      421,
      say`this service answers to loopback names only, not to Host ${given}; behind a proxy that passes its own Host, start it with --allow-host NAME`,
    );
  });
}

/**
 * Every route's methods by path pattern, so that a known path asked with another method is
 * a 405 naming the allowed ones (RFC 9110 §15.5.6), not a 404; HEAD included (not served).
 */
function answerUnknownPaths(app: FastifyInstance): void {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
    const escaped = route.url.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(`^${escaped.replace(/:[^/]+/g, '[^/]+').replace(/\*/g, '.*')}$`);
    routes.push({ pattern, methods });
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods))];
    if (allowed.length > 0 && !allowed.includes(req.method)) {
      const allow = allowed.join(', ');
      return sendProblem(
        reply,
        problem(
          405,
          say`${req.method} is not allowed on ${path}; use ${own(allow)}`,
          req.url,
          req.mask ?? NOTHING,
        ),
        { Allow: allow },
      );
    }
    return sendProblem(
      reply,
      problem(404, say`no such path: ${req.method} ${path}`, req.url, req.mask ?? NOTHING),
    );
  });
}

/**
 * Every answer: no MIME sniffing (a problem's detail echoes the caller's input), and no
 * framing anywhere (the docs page holds a login form and the token: clickjacking).
 */
function forbidSniffingAndFraming(app: FastifyInstance): void {
  app.addHook('onSend', async (_req, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    const csp = reply.getHeader('Content-Security-Policy');
    if (csp === undefined) reply.header('Content-Security-Policy', "frame-ancestors 'none'");
    else if (!String(csp).includes('frame-ancestors'))
      reply.header('Content-Security-Policy', `${String(csp)}; frame-ancestors 'none'`);
  });
}

/** Fastify with the limits that keep slow or idle clients from holding the service. */
function server(limits: Limits): FastifyInstance {
  // The request line and headers within headerTimeoutMs, a (small) body soon after.
  const requestTimeout = limits.headerTimeoutMs + 20_000;
  return Fastify({
    // Fastify's logger stays off: request bodies (passwords) and Authorization headers
    // must never reach a log. --debug gets one redacted line per request instead.
    logger: false,
    // Slowloris: connections that send nothing, or their headers a byte at a time, are
    // closed after headerTimeoutMs (Node checks every second at most), an idle keep-alive
    // connection after 5 s, a silent one after idleTimeoutMs; maxConnections below.
    http: {
      headersTimeout: limits.headerTimeoutMs,
      requestTimeout,
      connectionsCheckingInterval: Math.min(1000, limits.headerTimeoutMs / 2),
    },
    requestTimeout,
    keepAliveTimeout: 5000,
    connectionTimeout: limits.idleTimeoutMs,
    // Errors of the HTTP parser itself (garbled request, headers too large, too slow)
    // answer a problem document like every other error.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket: Duplex) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      const status =
        err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const detail =
        status === 431
          ? 'the request headers are too large (16 KiB at most)'
          : status === 408
            ? `the request did not arrive within ${Math.round(limits.headerTimeoutMs / 1000)} s`
            : 'the request is not valid HTTP/1.1';
      const body = JSON.stringify(problem(status, own(detail), '', NOTHING));
      if (socket.writable)
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${PROBLEM_TYPE}\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      socket.destroy();
    },
    // Errors before a route is found (a URL that does not decode).
    frameworkErrors: (err, req, reply) => {
      const e = err as { statusCode?: number; message?: string };
      const status = e.statusCode && e.statusCode < 500 ? e.statusCode : 400;
      sendProblem(reply, problem(status, say`${e.message ?? 'bad request'}`, req.url, NOTHING));
    },
    forceCloseConnections: true,
    // HEAD on a data path would run the whole query for nothing.
    exposeHeadRoutes: false,
    return503OnClosing: true,
    ajv: {
      customOptions: {
        // An unknown parameter is refused, not ignored: a misspelt filter must not
        // silently widen the answer to every record.
        removeAdditional: false,
        coerceTypes: 'array',
        allErrors: false,
      },
    },
  });
}
