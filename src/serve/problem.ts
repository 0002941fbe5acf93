// Errors as RFC 9457 problem documents. The core's typed errors map to HTTP statuses here,
// in one place, as they map to exit codes for the commands.
import {
  AuthError,
  ConnectionError,
  NotFoundError,
  PosdataError,
  ProtocolError,
  ServerError,
  UsageError,
} from '../core/errors.js';
import { type Redactor, type Said, say } from '../core/redact.js';
import { SlotTimeout } from './fair.js';

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
  429: { slug: 'rate-limited', title: 'Too many requests' },
  431: { slug: 'headers-too-large', title: 'Request headers too large' },
  500: { slug: 'internal', title: 'Internal error' },
  502: { slug: 'bad-gateway', title: 'Odoo did not answer properly' },
  503: { slug: 'unavailable', title: 'Shutting down' },
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

/** The problem document for any error a handler throws. */
export function problemOf(err: unknown, instance: string, mask: Redactor): Problem {
  const status = statusOf(err);
  // The commands' hints for authentication say "run posdata login"; here it is the login path.
  if (err instanceof AuthError)
    return problem(status, say`${err.said}; log in again with POST /api/v1/auth/login`, instance, mask);
  if (err instanceof PosdataError) return problem(status, err, instance, mask);
  return problem(
    500,
    say`an internal error occurred; please report it (run serve with --debug)`,
    instance,
    mask,
  );
}
