// The HTTP service: the spec's REST-like paths over the same resource table, query builder,
// page stream and JSON renderer as the commands, so GET /api/v1/sales?… answers exactly
// what `posdata sales … --format json` prints. Fastify validates the query parameters with
// JSON schemas generated from the table, and @fastify/swagger documents the same schemas.
import { STATUS_CODES } from 'node:http';
import { type Duplex, Readable } from 'node:stream';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { RESOURCES, type Resource } from '../catalog/resources.js';
import type { OdooClient } from '../core/client.js';
import { AuthError, NotFoundError, UsageError } from '../core/errors.js';
import { own, Redactor, type Said, say, stackSaid } from '../core/redact.js';
import type { Domain } from '../core/types.js';
import type { QueryFlags } from '../query/build.js';
import { commaList, parseDomain } from '../query/domain.js';
import { checkZone, machineZone } from '../query/zone.js';
import { type Prepared, prepare, streamRows } from '../read/stream.js';
import { fetchReconciliation, reconcile, sessionsDomain, toRow } from '../reconcile/compute.js';
import { JsonRenderer } from '../render/formats.js';
import { MemorySink } from '../sink/sink.js';
import { fetchSummary } from '../summary/query.js';
import { summaryRows } from '../summary/rows.js';
import { docsOptions, SECURITY_SCHEME } from './docs.js';
import { ClientLimiter } from './limiter.js';
import { undecimal, validationDetail } from './params.js';
import { PROBLEM_TYPE, type Problem, problem, problemOf } from './problem.js';
import {
  DATA_ERRORS,
  LOGIN_BODY,
  LOGIN_REPLY,
  listResponses,
  PROBLEM_SCHEMA,
  querySchema,
  RECONCILE_QUERY,
  RECONCILE_RESPONSES,
  resourceNames,
  SUMMARY_QUERY,
  SUMMARY_RESPONSES,
} from './schema.js';
import { type TokenEntry, TokenStore } from './tokens.js';

export interface ServeConfig {
  /** A client for these credentials on the configured Odoo (not yet authenticated). */
  connect(login: string, password: string): Promise<OdooClient>;
  tokenTtlSeconds: number;
  /** Requests a minute per token (and per address for login). */
  clientRate: number;
  /** Records per Odoo request when streaming. */
  pageSize?: number;
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

/** An error with its HTTP status already decided (auth, rate limit). */
class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly said: Said,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(said));
  }
}

interface ListQuery {
  config_id?: number;
  session_id?: number;
  state?: string;
  from?: string;
  to?: string;
  tz?: string;
  fields?: string;
  limit?: number;
  offset?: number;
  order?: string;
  domain?: string;
  with_payments?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    posdata: { token: string; entry: TokenEntry } | null;
    /** The requesting user's own secrets, for the problem documents this request gets. */
    mask: Redactor | null;
  }
}

/** The commands' flag names in a message become the service's parameter names. */
function asParameters(detail: string): string {
  return detail
    .replace(/--sort\b/g, 'order')
    .replace(/--with-payments\b/g, 'with_payments')
    .replace(
      /--(config-id|session-id|day-starts|date|from|to|tz|fields|limit|state|domain|by|top)\b/g,
      (_m, f: string) => f.replace('-', '_'),
    );
}

function sendProblem(reply: FastifyReply, p: Problem, headers: Record<string, string> = {}): FastifyReply {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  // A Buffer keeps Fastify from appending a charset: the type is exactly application/problem+json.
  return reply
    .code(p.status)
    .type(PROBLEM_TYPE)
    .send(Buffer.from(JSON.stringify(p)));
}

/** The json format's bytes, one chunk per page: the commands' JsonRenderer, writing to memory. */
async function* jsonChunks(
  client: OdooClient,
  prepared: Prepared,
  opts: { pageSize: number; tz?: string; offset?: number },
): AsyncGenerator<string> {
  const sink = new MemorySink();
  const renderer = new JsonRenderer(sink);
  await renderer.begin();
  for await (const { rows } of streamRows(client, prepared, opts)) {
    await renderer.page(rows);
    if (sink.chunks.length > 0) yield sink.chunks.splice(0).join('');
  }
  await renderer.end();
  yield sink.chunks.splice(0).join('');
}

/** A request without credentials has no secret of its own to mask. */
const NOTHING = new Redactor();

export async function buildApp(config: ServeConfig): Promise<FastifyInstance> {
  const tokens = new TokenStore(config.tokenTtlSeconds * 1000);
  const limiter = new ClientLimiter(config.clientRate);
  const pageSize = config.pageSize ?? 2000;

  const limits = config.connections ?? { max: 256, headerTimeoutMs: 10_000, idleTimeoutMs: 150_000 };
  // The request line and headers within headerTimeoutMs, a (small) body soon after.
  const requestTimeout = limits.headerTimeoutMs + 20_000;
  const app = Fastify({
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
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${PROBLEM_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
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
  // Replies are either streams, buffers or small objects: plain JSON.stringify for the
  // objects, so the response schemas serve the documentation only.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.decorateRequest('posdata', null);
  app.decorateRequest('mask', null);
  app.server.maxConnections = limits.max;
  app.addHook('onClose', async () => {
    tokens.close();
    limiter.close();
  });
  if (config.log) {
    const log = config.log;
    app.addHook('onResponse', async (req, reply) => {
      // The method, the URL and the login come from the client: masked there, never in posdata's words.
      const who = req.posdata ? say` (${req.posdata.entry.login})` : '';
      log(say`${req.method} ${req.url} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms${who}`);
    });
  }

  app.setErrorHandler((err: unknown, req, reply) => {
    const instance = req.url;
    const mask = req.mask ?? NOTHING;
    if (err instanceof HttpProblem)
      return sendProblem(reply, problem(err.status, err.said, instance, mask), err.headers);
    const fe = err as {
      validation?: Parameters<typeof validationDetail>[2];
      validationContext?: string;
      statusCode?: number;
      code?: string;
      message?: string;
      expose?: boolean;
      headers?: Record<string, string>;
    };
    if (fe.validation) {
      return sendProblem(
        reply,
        problem(400, validationDetail(req, fe.validationContext, fe.validation), instance, mask),
      );
    }
    // The docs page's static files (@fastify/static): a path out of its folder (`%2e%2e/`)
    // names nothing there, as a missing file; a Range or a precondition it cannot meet is
    // the client's error too, never an internal one.
    if (fe.expose === true && fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      if (fe.statusCode === 403 || fe.statusCode === 404)
        return sendProblem(
          reply,
          problem(404, say`no such path: ${req.method} ${req.url.split('?')[0]}`, instance, mask),
        );
      const detail =
        fe.statusCode === 416
          ? say`the range asked for lies outside the file`
          : fe.statusCode === 412
            ? say`the file does not meet the request's precondition (If-Match, If-Unmodified-Since)`
            : say`${fe.message ?? 'bad request'}`;
      return sendProblem(reply, problem(fe.statusCode, detail, instance, mask), fe.headers ?? {});
    }
    if (typeof fe.code === 'string' && fe.code.startsWith('FST_') && fe.statusCode && fe.statusCode < 500) {
      return sendProblem(reply, problem(fe.statusCode, say`${fe.message ?? 'bad request'}`, instance, mask));
    }
    const p = problemOf(err, instance, mask);
    if (p.status === 400) p.detail = asParameters(p.detail);
    // Odoo no longer accepts this user's credentials (password changed, user archived):
    // the token is dead too.
    if (p.status === 401 && req.posdata) tokens.revoke(req.posdata.token);
    if (p.status === 500) {
      const e = err as Error;
      config.warn(say`internal error: ${config.log ? stackSaid(e) : (e?.message ?? String(err))}`);
    }
    const headers: Record<string, string> = p.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
    return sendProblem(reply, p, headers);
  });
  // Integers in decimal only: Ajv's coercion would take `0x10` for 16 and `1e3` for 1000.
  app.addHook('preValidation', async (req) => {
    const bad = undecimal(req);
    if (bad) throw new HttpProblem(400, bad);
  });
  app.setNotFoundHandler((req, reply) =>
    sendProblem(
      reply,
      problem(404, say`no such path: ${req.method} ${req.url.split('?')[0]}`, req.url, req.mask ?? NOTHING),
    ),
  );

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'posdata serve',
        version: config.version,
        description:
          // Which Odoo (URL, database) stays unnamed: this page is public.
          "The shop's point-of-sale data as the spec's REST-like paths. " +
          'Log in with POST /api/v1/auth/login and send the token as Authorization: Bearer TOKEN; each request runs with ' +
          "that Odoo user's rights. Every list answers a JSON array of records, exactly as the matching posdata command " +
          'prints with --format json, streamed page by page; without limit it answers every matching record. ' +
          `Tokens last ${config.tokenTtlSeconds} s; at most ${config.clientRate} requests a minute per token.`,
      },
      components: {
        securitySchemes: {
          [SECURITY_SCHEME]: {
            type: 'http',
            scheme: 'bearer',
            description: 'the token from POST /api/v1/auth/login',
          },
        },
        schemas: { Problem: PROBLEM_SCHEMA },
      },
      tags: [
        { name: 'auth', description: 'tokens' },
        { name: 'pos', description: 'point-of-sale data, read-only' },
      ],
    },
  });

  // --- authentication and the per-token rate limit -------------------------------------
  const requireToken = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const m = /^Bearer\s+([A-Za-z0-9_-]+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!m) {
      throw new HttpProblem(
        401,
        say`no bearer token; log in with POST /api/v1/auth/login and send Authorization: Bearer TOKEN`,
        { 'WWW-Authenticate': 'Bearer' },
      );
    }
    const entry = tokens.get(m[1]);
    if (!entry) {
      throw new HttpProblem(401, say`the token is unknown, revoked or expired; log in again`, {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
    }
    req.posdata = { token: m[1], entry };
    req.mask = entry.mask;
    const v = limiter.take(`token:${m[1]}`);
    const headers = limiter.headers(v);
    if (!v.allowed) {
      throw new HttpProblem(
        429,
        say`more than ${limiter.quota} requests a minute with this token; retry in ${v.resetSeconds} s`,
        headers,
      );
    }
    reply.headers(headers);
  };
  /** The logins an address has left this minute, for the login check that follows. */
  const addressLeft = new WeakMap<FastifyRequest, number>();
  const limitByAddress = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const v = limiter.take(`addr:${req.ip}`);
    addressLeft.set(req, v.remaining);
    const headers = limiter.headers(v);
    if (!v.allowed) {
      throw new HttpProblem(
        429,
        say`more than ${limiter.quota} logins a minute from ${req.ip}; retry in ${v.resetSeconds} s`,
        headers,
      );
    }
    reply.headers(headers);
  };

  // Per address alone is bypassed from 127.0.0.2, 127.0.0.3 … (or many IPv6 addresses):
  // the guesses at one login are counted wherever they come from.
  const limitByLogin = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const { login } = req.body as { login: string };
    const v = limiter.take(`login:${login.toLowerCase()}`);
    if (!v.allowed) {
      throw new HttpProblem(
        429,
        say`more than ${limiter.quota} login attempts a minute for this login; retry in ${v.resetSeconds} s`,
        limiter.headers(v),
      );
    }
    // The tighter of the two counts is the one announced.
    const left = addressLeft.get(req);
    if (left === undefined || v.remaining < left) reply.headers(limiter.headers(v));
  };

  app.post(
    '/api/v1/auth/login',
    {
      onRequest: limitByAddress,
      preHandler: limitByLogin,
      schema: {
        tags: ['auth'],
        summary: 'Log in as an Odoo user; answers a bearer token',
        description:
          'Authenticates against Odoo (database from the profile) with the login and password or API key. ' +
          'The token is opaque and random, kept by the service with the credentials in memory only, and expires.',
        security: [],
        body: LOGIN_BODY,
        response: {
          200: LOGIN_REPLY,
          400: DATA_ERRORS[400],
          401: { ...(DATA_ERRORS[401] as object), description: 'Odoo rejected the login or password' },
          429: DATA_ERRORS[429],
          502: DATA_ERRORS[502],
          504: DATA_ERRORS[504],
        },
      },
    },
    async (req, reply) => {
      const { login, password } = req.body as { login: string; password: string };
      const mask = new Redactor();
      mask.add(password);
      req.mask = mask;
      // Masked while this login is worked on and, if it succeeds, for as long as its token
      // lives; a failed attempt is forgotten once its answer has gone out.
      const releasePassword = config.redactor.add(password);
      let client: OdooClient | undefined;
      let uid: number;
      try {
        client = await config.connect(login, password);
        uid = await client.authenticate();
      } catch (err) {
        const release = () => {
          client?.forgetSecret();
          releasePassword();
        };
        // A caller that gave up while Odoo was asked has closed the response already.
        if (reply.raw.closed) release();
        else reply.raw.once('close', release);
        if (err instanceof AuthError)
          throw new HttpProblem(
            401,
            say`Odoo rejected login '${login}'; check the login and password (or API key)`,
          );
        throw err;
      }
      const tz = await client.userZone();
      const session = client;
      let releaseToken = (): void => undefined;
      const { token, expiresAt } = tokens.issue({
        client,
        uid,
        login,
        tz,
        mask,
        // A problem's detail is masked when it is made, before a 401 revokes the token.
        release: () => {
          releaseToken();
          session.forgetSecret();
          releasePassword();
        },
      });
      releaseToken = config.redactor.add(token);
      mask.add(token);
      reply.header('Cache-Control', 'no-store');
      return { token, uid, expires_at: new Date(expiresAt).toISOString() };
    },
  );

  app.post(
    '/api/v1/auth/logout',
    {
      onRequest: requireToken,
      schema: {
        tags: ['auth'],
        summary: 'Revoke the token',
        security: [{ [SECURITY_SCHEME]: [] }],
        response: { 204: { description: 'revoked', type: 'null' }, 401: DATA_ERRORS[401] },
      },
    },
    async (req, reply) => {
      const token = req.posdata?.token;
      if (token) {
        tokens.revoke(token);
        limiter.drop(`token:${token}`);
      }
      return reply.code(204).send();
    },
  );

  // --- the data paths, one per resource --------------------------------------------------
  const answer = async (
    req: FastifyRequest,
    reply: FastifyReply,
    resource: Resource,
    orderId?: number,
  ): Promise<FastifyReply> => {
    const session = req.posdata;
    if (!session) throw new HttpProblem(401, say`not logged in`);
    const { client } = session.entry;
    const q = req.query as ListQuery;
    if (q.tz !== undefined) checkZone(q.tz);
    const flags: QueryFlags = {
      configId: q.config_id,
      sessionId: q.session_id,
      state: q.state !== undefined ? commaList(q.state) : undefined,
      from: q.from,
      to: q.to,
      tz: q.tz ?? session.entry.tz ?? machineZone(),
      fields: q.fields !== undefined ? commaList(q.fields) : undefined,
      limit: q.limit,
      sort: q.order,
      domain: q.domain !== undefined ? parseDomain(q.domain) : undefined,
    };
    if (flags.fields?.length === 0) throw new UsageError(say`fields is empty`, say`name at least one field`);
    if (flags.state?.length === 0) throw new UsageError(say`state is empty`, say`name at least one state`);
    const fixed: Domain = orderId !== undefined ? [['order_id', '=', orderId]] : [];
    const prepared = await prepare(client, resource, flags, { fixed, withPayments: q.with_payments });
    if (orderId !== undefined) {
      const found = await client.read('pos.order', [orderId], ['name']);
      if (found.length === 0)
        throw new NotFoundError(
          say`sales ticket ${orderId} does not exist`,
          say`list ticket ids with GET /api/v1/sales`,
        );
    }
    const chunks = jsonChunks(client, prepared, { pageSize, tz: q.tz, offset: q.offset });
    // The first page is read before the status line goes out, so a refusal (rights,
    // unknown field, Odoo down) is still a problem document with its own status. Later
    // failures can only cut the stream short: the client then sees an unfinished array.
    const first = await chunks.next();
    async function* body(): AsyncGenerator<string> {
      if (!first.done) yield first.value;
      yield* chunks;
    }
    reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-store');
    return reply.send(Readable.from(body(), { objectMode: false }));
  };

  for (const name of resourceNames()) {
    const r = RESOURCES[name];
    const schema = {
      tags: ['pos'],
      summary: r.summary,
      description: `${r.summary}: \`${r.model}\`. The same records as \`posdata ${name}${name === 'lines' ? ' ORDER_ID' : ''} --format json\`.`,
      security: [{ [SECURITY_SCHEME]: [] }],
      querystring: querySchema(r),
      response: listResponses(r),
    };
    if (name === 'lines') {
      app.get(
        '/api/v1/sales/:order_id/lines',
        {
          onRequest: requireToken,
          schema: {
            ...schema,
            params: {
              type: 'object',
              properties: {
                order_id: {
                  type: 'integer',
                  minimum: 1,
                  maximum: 2147483647,
                  description: 'the sales ticket id',
                },
              },
              required: ['order_id'],
            },
          },
        },
        (req, reply) => answer(req, reply, r, (req.params as { order_id: number }).order_id),
      );
    } else {
      app.get(r.path, { onRequest: requireToken, schema }, (req, reply) => answer(req, reply, r));
    }
  }

  // The daily cash reconciliation: the reconcile command's own fetch and arithmetic.
  app.get(
    '/api/v1/reconcile',
    {
      onRequest: requireToken,
      schema: {
        tags: ['pos'],
        summary: 'Cash reconciliation per closed session',
        description:
          'Expected against counted cash per closed session, with the totals by payment method. The same rows as `posdata reconcile --format json`.',
        security: [{ [SECURITY_SCHEME]: [] }],
        querystring: RECONCILE_QUERY,
        response: RECONCILE_RESPONSES,
      },
    },
    async (req, reply) => {
      const session = req.posdata;
      if (!session) throw new HttpProblem(401, say`not logged in`);
      const q = req.query as { date?: string; from?: string; to?: string; config_id?: number; tz?: string };
      if (q.tz !== undefined) checkZone(q.tz);
      const zone = q.tz ?? session.entry.tz ?? machineZone();
      const domain = sessionsDomain({ date: q.date, from: q.from, to: q.to, configId: q.config_id }, zone);
      const { inputs } = await fetchReconciliation(session.entry.client, domain);
      const rec = reconcile(inputs);
      const sink = new MemorySink();
      const renderer = new JsonRenderer(sink);
      await renderer.begin();
      await renderer.page(rec.sessions.map((s) => toRow(s, rec.methodKeys, q.tz)));
      await renderer.end();
      reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-store');
      return reply.send(Buffer.from(sink.text()));
    },
  );

  // The day's figures: the summary command's own calls and rows.
  app.get(
    '/api/v1/summary',
    {
      onRequest: requireToken,
      schema: {
        tags: ['pos'],
        summary: "The day's figures (X and Z reports), computed by Odoo",
        description:
          'Orders, items, gross, discounts, refunds, net, tax, total and the payment methods per group of `by`, summed by Odoo (read_group). The same rows as `posdata summary --format json`.',
        security: [{ [SECURITY_SCHEME]: [] }],
        querystring: SUMMARY_QUERY,
        response: SUMMARY_RESPONSES,
      },
    },
    async (req, reply) => {
      const session = req.posdata;
      if (!session) throw new HttpProblem(401, say`not logged in`);
      const q = req.query as {
        date?: string;
        from?: string;
        to?: string;
        config_id?: number;
        session_id?: number;
        by?: string;
        top?: number;
        day_starts?: string;
        tz?: string;
      };
      if (q.tz !== undefined) checkZone(q.tz);
      const zone = q.tz ?? session.entry.tz ?? machineZone();
      const r = await fetchSummary(
        session.entry.client,
        {
          date: q.date,
          from: q.from,
          to: q.to,
          configId: q.config_id,
          sessionId: q.session_id,
          by: q.by,
          top: q.top,
          dayStarts: q.day_starts,
        },
        zone,
      );
      const sink = new MemorySink();
      const renderer = new JsonRenderer(sink);
      await renderer.begin();
      await renderer.page(summaryRows(r));
      await renderer.end();
      reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-store');
      return reply.send(Buffer.from(sink.text()));
    },
  );

  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, docsOptions());
  return app;
}
