// Tokens: POST /api/v1/auth/login (an Odoo login answered with a bearer token), logout, the
// token check every data path makes, and the rate limits per token, per address and per
// login. Each token holds its user's own Odoo client: a request runs with that user's rights.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OdooClient } from '../core/client.js';
import { AuthError } from '../core/errors.js';
import { own, Redactor, say } from '../core/redact.js';
import { SECURITY_SCHEME } from './docs.js';
import type { ClientLimiter } from './limiter.js';
import { HttpProblem } from './problem.js';
import { DATA_ERRORS, LOGIN_BODY, LOGIN_REPLY, problemResponse } from './schema.js';
import type { TokenEntry, TokenStore } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    posdata: { token: string; entry: TokenEntry } | null;
    /** The requesting user's own secrets, for the problem documents this request gets. */
    mask: Redactor | null;
  }
}

/** A route's check that the request carries a live token (and is within its rate). */
export type TokenCheck = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface AuthDeps {
  tokens: TokenStore;
  limiter: ClientLimiter;
  /** Login attempts a minute for the whole service (key `all`): their share of --rate. */
  logins: ClientLimiter;
  /** A client for these credentials on the configured Odoo (not yet authenticated). */
  connect(login: string, password: string): Promise<OdooClient>;
  /** The service's secrets (serve's log masks them): each password and token while in use. */
  redactor: Redactor;
}

/** The login and logout paths; returns the token check the data paths take. */
export function authRoutes(app: FastifyInstance, deps: AuthDeps): TokenCheck {
  const requireToken = tokenCheck(deps.tokens, deps.limiter);
  app.post(
    '/api/v1/auth/login',
    {
      preValidation: stringsOnly,
      // After the body is parsed and checked: a request that is not a login (text/plain from a
      // cross-site page, a missing field) is refused as such and takes none of the address's
      // logins, or a page anyone visits could lock the address out.
      preHandler: [...loginLimits(deps.limiter), serviceShare(deps.logins)],
      schema: loginSchema(),
    },
    async (req, reply) => logIn(deps, req, reply),
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
        deps.tokens.revoke(token);
        deps.limiter.drop(`token:${token}`);
      }
      return reply.code(204).send();
    },
  );
  return requireToken;
}

/** The data paths' check: a live bearer token, within its requests a minute. */
function tokenCheck(tokens: TokenStore, limiter: ClientLimiter): TokenCheck {
  return async (req, reply) => {
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
}

/** A login's counts per address, then per login; the tighter of the two is announced. */
function loginLimits(limiter: ClientLimiter): TokenCheck[] {
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
    const left = addressLeft.get(req);
    if (left === undefined || v.remaining < left) reply.headers(limiter.headers(v));
  };
  return [limitByAddress, limitByLogin];
}

/**
 * Each attempt that passes the checks before it is an Odoo `authenticate` from the budget all
 * users share: attempts together get a small share of it, so that callers who are not logged
 * in cannot use up the turns of those who are. Checked last: only an attempt that will reach
 * Odoo takes one.
 */
function serviceShare(logins: ClientLimiter): () => Promise<void> {
  return async () => {
    const v = logins.take('all');
    if (!v.allowed) {
      throw new HttpProblem(
        503,
        say`more than ${logins.quota} login attempts a minute on this service (their share of the requests to Odoo); retry in ${v.resetSeconds} s`,
        { 'Retry-After': String(v.resetSeconds) },
      );
    }
  };
}

// The schema's coercion would take 123 for '123' and ['pos'] for 'pos': a login and a
// password are sent as JSON strings or refused, before the schema sees them.
async function stringsOnly(req: FastifyRequest): Promise<void> {
  const body = req.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  for (const name of ['login', 'password'])
    if (name in body && typeof body[name] !== 'string')
      throw new HttpProblem(400, say`body field ${own(name)} must be a string`);
}

/** The login path's schema (a new object each app: Fastify marks the ones it has compiled). */
function loginSchema() {
  return {
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
      503: problemResponse(
        'more login attempts on the service this minute than their share of the requests to Odoo; see Retry-After',
      ),
      504: DATA_ERRORS[504],
    },
  };
}

/** A login that passed the limits: Odoo's `authenticate` with it, then a token for it. */
async function logIn(deps: AuthDeps, req: FastifyRequest, reply: FastifyReply) {
  const { login, password } = req.body as { login: string; password: string };
  const mask = new Redactor();
  mask.add(password);
  req.mask = mask;
  // Masked while this login is worked on and, if it succeeds, for as long as its token
  // lives; a failed attempt is forgotten once its answer has gone out.
  const releasePassword = deps.redactor.add(password);
  let client: OdooClient | undefined;
  let uid: number;
  try {
    client = await deps.connect(login, password);
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
  const { token, expiresAt } = deps.tokens.issue({
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
  releaseToken = deps.redactor.add(token);
  mask.add(token);
  reply.header('Cache-Control', 'no-store');
  return { token, uid, expires_at: new Date(expiresAt).toISOString() };
}
