// Errors as RFC 9457 problem documents. The core's typed errors map to HTTP statuses here,
// in one place, as they map to exit codes for the commands.

import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AuthError,
  ConnectionError,
  NotFoundError,
  PosdataError,
  ProtocolError,
  ServerError,
  UsageError,
} from '../core/errors.js';
import { Redactor, type Said, say, stackSaid } from '../core/redact.js';
import { SlotTimeout } from './fair.js';
import { validationDetail } from './params.js';

export const PROBLEM_TYPE = 'application/problem+json';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
}

/** Problem types: tag URIs, stable names a client can branch on. */
const TYPES: Record<number, { slug: string; title: string }> = {
  400: { slug: 'bad-request', title: 'Bad request' },
  401: { slug: 'unauthenticated', title: 'Not authenticated' },
  403: { slug: 'forbidden', title: 'Odoo refused access' },
  404: { slug: 'not-found', title: 'Not found' },
  405: { slug: 'method-not-allowed', title: 'Method not allowed' },
  408: { slug: 'request-timeout', title: 'Request not received in time' },
  412: { slug: 'precondition-failed', title: 'Precondition failed' },
  413: { slug: 'too-large', title: 'Request body too large' },
  415: { slug: 'unsupported-media-type', title: 'Unsupported media type' },
  416: { slug: 'range-not-satisfiable', title: 'Range not satisfiable' },
  421: { slug: 'misdirected', title: 'Not a name this service answers to' },
  429: { slug: 'rate-limited', title: 'Too many requests' },
  431: { slug: 'headers-too-large', title: 'Request headers too large' },
  500: { slug: 'internal', title: 'Internal error' },
  502: { slug: 'bad-gateway', title: 'Odoo did not answer properly' },
  503: { slug: 'unavailable', title: 'Service unavailable' },
  504: { slug: 'gateway-timeout', title: 'Odoo did not answer in time' },
};

/**
 * A problem document. `mask` holds the requesting user's own secrets only (password, token):
 * masking every live user's secret would make each answer an oracle for the others' (a
 * login or path named like another user's password would come back as ***).
 */
export function problem(
  status: number,
  detail: Said | PosdataError,
  instance: string,
  mask: Redactor,
): Problem {
  const t = TYPES[status] ?? TYPES[500];
  return {
    type: `tag:posdata,2026:problem:${t.slug}`,
    title: t.title,
    status,
    // The secret is masked in the values of the detail (err.line, Redactor.said), never in
    // posdata's words; the path is the client's as a whole.
    detail: detail instanceof PosdataError ? detail.line(mask) : mask.said(detail),
    instance: mask.text(instance),
  };
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/** A connection error that is a timeout (the core keeps undici's code as the cause). */
function isTimeout(err: ConnectionError): boolean {
  if (err instanceof SlotTimeout) return true;
  let c: unknown = err.cause;
  for (let depth = 0; c && depth < 4; depth++) {
    const code = (c as { code?: string }).code;
    if (code && TIMEOUT_CODES.has(code)) return true;
    c = (c as { cause?: unknown }).cause;
  }
  return /did not answer in time/.test(err.message);
}

/** The HTTP status of a core error. */
export function statusOf(err: unknown): number {
  if (err instanceof UsageError) return 400;
  if (err instanceof AuthError) return 401;
  if (err instanceof NotFoundError) return 404;
  if (err instanceof ServerError) return /AccessError/.test(err.odooName) ? 403 : 502;
  if (err instanceof ConnectionError) return isTimeout(err) ? 504 : 502;
  if (err instanceof ProtocolError) return 502;
  return 500;
}

/**
 * What a caller is told when Odoo failed: the core's own words name Odoo's host and port and
 * give the operator's hints (`check that --url …`), which are for serve's stderr only; the
 * public pages and every caller, logged in or not, learn nothing of where Odoo is.
 */
export function upstreamDetail(err: unknown): Said | undefined {
  if (err instanceof SlotTimeout) return undefined; // the service's own budget: names no Odoo
  if (err instanceof ConnectionError)
    return err.timedOut || isTimeout(err)
      ? say`Odoo did not answer in time; retry later`
      : say`Odoo could not be reached; retry later, or tell the service's operator (the reason is on its log)`;
  if (err instanceof ProtocolError)
    return say`Odoo answered in a way the service cannot use; retry later, or tell the service's operator (the reason is on its log)`;
  if (err instanceof ServerError && statusOf(err) === 502)
    return say`Odoo refused the request (${err.odooName.split('.').pop() ?? 'error'}); tell the service's operator if it persists (the reason is on its log)`;
  return undefined;
}

/** The problem document for any error a handler throws. */
export function problemOf(err: unknown, instance: string, mask: Redactor): Problem {
  const status = statusOf(err);
  // The commands' hints for authentication say "run posdata login"; here it is the login path.
  if (err instanceof AuthError)
    return problem(status, say`${err.said}; log in again with POST /api/v1/auth/login`, instance, mask);
  const upstream = upstreamDetail(err);
  if (upstream) return problem(status, upstream, instance, mask);
  if (err instanceof PosdataError) return problem(status, err, instance, mask);
  return problem(
    500,
    say`an internal error occurred; please report it (run serve with --debug)`,
    instance,
    mask,
  );
}

/** An error with its HTTP status already decided (auth, rate limit). */
export class HttpProblem extends Error {
  override name = 'HttpProblem';
  constructor(
    readonly status: number,
    readonly said: Said,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(said));
  }
}

/** The commands' flag names in a message become the service's parameter names. */
export function asParameters(detail: string): string {
  return detail
    .replace(/--sort\b/g, 'order')
    .replace(/--with-payments\b/g, 'with_payments')
    .replace(
      /--(config-id|session-id|day-starts|date|from|to|tz|fields|limit|state|domain|by|top)\b/g,
      (_m, f: string) => f.replace('-', '_'),
    );
}

export function sendProblem(
  reply: FastifyReply,
  p: Problem,
  headers: Record<string, string> = {},
): FastifyReply {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  // A Buffer keeps Fastify from appending a charset: the type is exactly application/problem+json.
  return reply
    .code(p.status)
    .type(PROBLEM_TYPE)
    .send(Buffer.from(JSON.stringify(p)));
}

/** A request without credentials has no secret of its own to mask. */
export const NOTHING = new Redactor();

/**
 * Every error a route throws, as a problem document with its status: HttpProblem as it is,
 * a validation failure or a client error of Fastify's as a 400 (or its own 4xx), posdata's
 * errors by their kind (problemOf); anything else is a 500, told to `warn`. A 401 from Odoo
 * revokes the token that made the request.
 */
export function errorHandler(hooks: {
  revoke: (token: string) => void;
  warn: (line: Said) => void;
  /** Stacks in the warning (--debug). */
  stacks: boolean;
  /** --debug's line per request: what became of one whose client went away. */
  log?: (line: Said) => void;
}): (err: unknown, req: FastifyRequest, reply: FastifyReply) => FastifyReply {
  return (err, req, reply) => {
    const instance = req.url;
    const mask = req.mask ?? NOTHING;
    // The client closed the connection (or Node's request timeout cut a slow body, after its
    // 408) while the body was read: nobody is there to answer, and it is not a bug.
    if ((err as { code?: string }).code === 'ECONNRESET' && req.raw.destroyed) {
      hooks.log?.(say`${req.method} ${req.url}: the client went away before its request arrived`);
      return sendProblem(reply, problem(400, say`the request was cut off`, instance, mask));
    }
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
    // Where Odoo failed and what to check: for the operator, on serve's stderr.
    if (err instanceof PosdataError && upstreamDetail(err))
      hooks.warn(say`${req.method} ${req.url}: ${err.said}${err.hint ? say`; ${err.hint}` : ''}`);
    // Odoo no longer accepts this user's credentials (password changed, user archived):
    // the token is dead too.
    if (p.status === 401 && req.posdata) hooks.revoke(req.posdata.token);
    if (p.status === 500) {
      const e = err as Error;
      hooks.warn(say`internal error: ${hooks.stacks ? stackSaid(e) : (e?.message ?? String(err))}`);
    }
    const headers: Record<string, string> = p.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
    return sendProblem(reply, p, headers);
  };
}
