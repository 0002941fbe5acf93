// The HTTP layer under both transports: one keep-alive undici Agent per run, a per-request
// timeout (the whole request, from sending it to the last byte of its reply), a cap on the
// reply's size, the rate limiter, and one retry loop (backoff with jitter, Retry-After) for
// read calls: `--retries` more attempts at most, whatever failed (a status, a reset, a
// timeout, a body cut short after its headers, a garbled reply). Authentication is retried only where the server cannot have
// judged the secret (429, 502/503/504, a reset before any answer): Odoo's login cooldown
// can lock an account after repeated failures, so a real rejection is never tried again.

import { readFileSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { rootCertificates } from 'node:tls';
import type { Dispatcher } from 'undici';
// The Agent alone, not undici's entry: that also loads fetch, WebSocket, the caches and the
// mocks, ~3 MB of heap held for the whole run, which V8 lets grow about fourfold before a
// full collection (peak memory of an export), and ~40 ms more start-up.
import Agent from 'undici/lib/dispatcher/agent.js';
import { ConnectionError, ProtocolError, tlsReason, UsageError } from './errors.js';
import { RateLimiter } from './ratelimit.js';
import { say } from './redact.js';

/** The default --max-reply: far above a real page (2000 sales are about 1 MB of JSON). */
const DEFAULT_MAX_REPLY = 256 * 1024 * 1024;

/**
 * How a request is retried: `true` for read calls (statuses, resets, timeouts), `'auth'`
 * for authentication (statuses and resets only: a timed-out login may have been judged),
 * `'costly'` for a call whose cost grows with the range it covers (grouping, reports: 429 and
 * 503, where the server says it did not take the call on, and a reset, where the connection
 * broke with no answer: a kept-alive one the server had closed never carried the call, and an
 * Odoo worker killed mid-call computes no more; after a timeout or a 502/504 it may still be
 * computing it, and a retry would compute a second copy),
 * `false` never.
 */
export type RetryPolicy = boolean | 'auth' | 'costly';

export interface HttpOptions {
  /** Bound on each request, from sending it to the end of its reply. */
  timeoutMs: number;
  /** Replies larger than this many bytes are refused while they arrive (default 256 MiB). */
  maxReplyBytes?: number;
  /** Requests a minute; 0 = no limit. */
  rate: number;
  /** Retries after the first try, for read calls. */
  retries: number;
  /**
   * Bound on each call, its retries and their backoff included (`posdata serve`: a caller
   * waits for its answer, and the service's own socket limits must not cut it off first).
   * Without it each attempt has timeoutMs, and a hung read is tried retries + 1 times.
   */
  callDeadlineMs?: number;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  caFile?: string;
  insecure?: boolean;
  /** Called before each retry, for --debug traces. */
  onRetry?: (info: { attempt: number; waitMs: number; reason: string }) => void;
}

export interface HttpReply {
  status: number;
  contentType: string;
  text: string;
  /** The Retry-After header, where there is one. */
  retryAfter?: string;
}

/**
 * Looks at a complete reply inside the retry loop (a transport parses it here): a transient
 * ProtocolError it throws (a garbled body) is retried as a read's other faults are, in the
 * same count.
 */
export type ReplyCheck = (reply: HttpReply) => void;

/** Statuses that say the server could not answer now (not what it thinks of the call): retried. */
export const RETRY_STATUS = [429, 502, 503, 504];
/** Statuses that say the server did not take the call on at all: a costly call is retried on these only. */
const NOT_TAKEN_STATUS = [429, 503];
/** Connections to one server at once: also how many requests `posdata serve` lets out together. */
export const UPSTREAM_CONNECTIONS = 4;
const RETRY_CODES = [
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
];

/** What authentication is retried on: the server never judged the secret. */
const AUTH_RETRY_CODES = ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'];

/** The code of the error a request gets when --timeout ends it. */
const DEADLINE = 'POSDATA_DEADLINE';
/** A body cut short after its headers arrived. */
const CUT = 'POSDATA_CUT';

/** What each policy retries: statuses, and error codes (DEADLINE and CUT included). */
const RETRIED: Record<string, { statuses: number[]; codes: string[] }> = {
  true: { statuses: RETRY_STATUS, codes: [...RETRY_CODES, DEADLINE, CUT] },
  auth: { statuses: RETRY_STATUS, codes: AUTH_RETRY_CODES },
  costly: { statuses: NOT_TAKEN_STATUS, codes: AUTH_RETRY_CODES },
  false: { statuses: [], codes: [] },
};

/** Dispatch options that carry the call's deadline (HttpOptions.callDeadlineMs) to each attempt. */
interface DeadlineOptions {
  posdataGiveUpAt?: number;
}

/** 256 MiB, 1.5 KiB, 900 B. */
function formatBytes(n: number): string {
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const) {
    if (n >= size) return `${Number((n / size).toFixed(1))} ${unit}`;
  }
  return `${n} B`;
}

/**
 * Ends each request `timeoutMs` after it is sent, whatever arrives meanwhile (undici's own
 * timeouts only bound each silence, so a reply dripped a byte a second never ended), with an
 * error of its own code, which the retry loop treats as a timeout.
 */
function deadlineInterceptor(timeoutMs: number): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    let timer: NodeJS.Timeout | undefined;
    const stop = (): void => {
      if (timer) clearTimeout(timer);
      timer = undefined;
    };
    const h = handler as Dispatcher.DispatchHandler;
    return dispatch(opts, {
      onRequestStart(controller, context) {
        // An attempt ends at --timeout, or sooner where the whole call's deadline falls.
        const giveUpAt = (opts as DeadlineOptions).posdataGiveUpAt;
        const ms =
          giveUpAt === undefined ? timeoutMs : Math.max(1, Math.min(timeoutMs, giveUpAt - Date.now()));
        timer = setTimeout(() => {
          const err = new Error(`no complete reply within ${timeoutMs / 1000} s`) as Error & { code: string };
          err.code = DEADLINE;
          controller.abort(err);
        }, ms);
        timer.unref?.();
        h.onRequestStart?.(controller, context);
      },
      onRequestUpgrade(controller, statusCode, headers, socket) {
        h.onRequestUpgrade?.(controller, statusCode, headers, socket);
      },
      onResponseStart(controller, statusCode, headers, statusMessage) {
        h.onResponseStart?.(controller, statusCode, headers, statusMessage);
      },
      onResponseData(controller, chunk) {
        h.onResponseData?.(controller, chunk);
      },
      onResponseEnd(controller, trailers) {
        stop();
        h.onResponseEnd?.(controller, trailers);
      },
      onResponseError(controller, err) {
        stop();
        h.onResponseError?.(controller, err);
      },
    });
  };
}

/** What a request says besides its path and body: its headers, when it is retried, how its reply is checked. */
type RequestTerms = [headers: Record<string, string>, retry: RetryPolicy, check?: ReplyCheck];

/** The code of the error a request gets when its Http closes while it is in flight. */
const DROPPED = 'POSDATA_DROPPED';

export class Http {
  readonly limiter: RateLimiter;
  private readonly agent: Agent;
  private readonly plain: Dispatcher;
  private readonly maxReply: number;

  constructor(
    readonly base: URL,
    readonly opts: HttpOptions,
  ) {
    this.limiter = new RateLimiter(opts.rate);
    this.maxReply = opts.maxReplyBytes ?? DEFAULT_MAX_REPLY;
    const connect: Record<string, unknown> = {};
    if (opts.caFile) {
      let ca: string;
      try {
        ca = readFileSync(opts.caFile, 'utf8');
      } catch {
        throw new UsageError(
          say`cannot read the CA file ${opts.caFile}`,
          say`give a PEM file with --ca-file`,
        );
      }
      connect.ca = [...rootCertificates, ca];
    }
    if (opts.insecure) connect.rejectUnauthorized = false;
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      connections: UPSTREAM_CONNECTIONS,
      connect,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
    const limiter = this.limiter;
    const rateLimit: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (dopts, handler) => {
      const wait = limiter.reserve();
      if (wait <= 0) return dispatch(dopts, handler);
      setTimeout(() => dispatch(dopts, handler), wait);
      return true;
    };
    this.plain = this.agent.compose(deadlineInterceptor(opts.timeoutMs), rateLimit);
  }

  get requestCount(): number {
    return this.limiter.count;
  }

  /** The server's clock by the latest reply's Date header (whole seconds, rounded down), in ms. */
  serverDate: number | undefined;

  post(path: string, body: string, ...terms: RequestTerms): Promise<HttpReply> {
    return this.send('POST', path, body, ...terms);
  }

  /** A GET without a body (JSON-2's `/json/version`). */
  get(path: string, ...terms: RequestTerms): Promise<HttpReply> {
    return this.send('GET', path, undefined, ...terms);
  }

  /**
   * One call: attempts until one succeeds, the policy says its failure is not worth another,
   * `--retries` more attempts were made, or the next would start after the call's deadline.
   * The last attempt's reply or error is the call's: a timeout ends with the timeout's own
   * message. Each attempt is the same request again (no Range or other header of a resumed
   * download: a JSON-RPC POST is answered whole or not at all).
   */
  private async send(
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
    headers: Record<string, string>,
    retry: RetryPolicy,
    check?: ReplyCheck,
  ): Promise<HttpReply> {
    const rules = RETRIED[String(retry)] ?? { statuses: [], codes: [] };
    const tries = this.opts.retries + 1;
    const giveUpAt =
      this.opts.callDeadlineMs !== undefined ? Date.now() + this.opts.callDeadlineMs : undefined;
    const minB = this.opts.minBackoffMs ?? 500;
    const maxB = this.opts.maxBackoffMs ?? 30_000;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= tries;
      let reason: string;
      let after = Number.NaN;
      let failure: unknown;
      let reply: HttpReply | undefined;
      try {
        reply = await this.once(method, path, body, headers, giveUpAt);
        if (last || !rules.statuses.includes(reply.status)) {
          check?.(reply);
          return reply;
        }
        reason = `HTTP ${reply.status}`;
        after = Number(reply.retryAfter);
      } catch (err) {
        const code = (err as { posdataCode?: string }).posdataCode;
        const garbled =
          reply !== undefined && err instanceof ProtocolError && err.transient && retry === true;
        if (last || !(garbled || (code !== undefined && rules.codes.includes(code)))) throw err;
        failure = err;
        reason = garbled
          ? 'a garbled reply'
          : code === DEADLINE
            ? 'timeout'
            : code === CUT
              ? 'a body cut short'
              : String(code);
      }
      const backoff = Math.min(minB * 2 ** (attempt - 1), maxB);
      // Jitter, so that many cron jobs do not retry in step.
      const waitMs =
        Number.isFinite(after) && after > 0
          ? Math.min(after * 1000, maxB) + Math.random() * 100
          : backoff / 2 + (Math.random() * backoff) / 2;
      // No retry that would start after the call's deadline: the last answer as it is.
      if (giveUpAt !== undefined && Date.now() + waitMs >= giveUpAt) {
        if (failure !== undefined) throw failure;
        check?.(reply as HttpReply);
        return reply as HttpReply;
      }
      this.opts.onRetry?.({ attempt, waitMs: Math.round(waitMs), reason });
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }

  /**
   * One attempt, its reply gathered as text. A dispatch handler of our own rather than
   * undici's request(): that wraps the body in a stream (push, read, nextTick per chunk)
   * only for it to be read whole; 0.15 ms of CPU per page of 2000 sales (bench/notes.md).
   * Its error carries `posdataCode`: what the retry loop judges it by.
   */
  private once(
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
    headers: Record<string, string>,
    giveUpAt: number | undefined,
  ): Promise<HttpReply> {
    const url = new URL(path.replace(/^\//, ''), this.base);
    const base = this.base;
    const clock = (date: string | string[] | undefined): void => {
      const t = Date.parse(Array.isArray(date) ? (date[0] ?? '') : (date ?? ''));
      if (Number.isFinite(t)) this.serverDate = t;
    };
    const max = this.maxReply;
    const timeoutMs = this.opts.timeoutMs;
    return new Promise<HttpReply>((resolve, reject) => {
      let status = 0;
      let contentType = '';
      let retryAfter: string | undefined;
      // Decoded as the chunks arrive: each is garbage at once, and no copy of the whole
      // reply is made in bytes before its text.
      const decoder = new StringDecoder('utf8');
      let parts: string[] = [];
      let size = 0;
      let tooLarge = false;
      const refuse = (controller: Dispatcher.DispatchController): void => {
        tooLarge = true;
        parts = [];
        controller.abort(new Error('reply too large'));
      };
      const handler: Dispatcher.DispatchHandler = {
        // undici takes a handler for one of this API only if it has this method.
        onRequestStart() {},
        onResponseStart(controller, statusCode, h) {
          if (statusCode < 200) return; // 1xx: the reply is still to come
          status = statusCode;
          clock(h.date);
          const ct = h['content-type'];
          contentType = Array.isArray(ct) ? ct.join(',') : (ct ?? '');
          const ra = h['retry-after'];
          retryAfter = Array.isArray(ra) ? ra[0] : ra;
          const declared = Number(h['content-length']);
          if (declared > max) refuse(controller);
        },
        onResponseData(controller, chunk) {
          if (tooLarge) return;
          size += chunk.length;
          // Counted as it arrives: nothing past the cap is kept.
          if (size > max) return refuse(controller);
          parts.push(decoder.write(chunk));
        },
        onResponseEnd() {
          parts.push(decoder.end());
          resolve({ status, contentType, text: parts.join(''), retryAfter });
        },
        onResponseError(_c, err) {
          reject(attemptError(err, { tooLarge, status, base, max, timeoutMs }));
        },
      };
      try {
        this.plain.dispatch(
          {
            origin: url.origin,
            path: `${url.pathname}${url.search}`,
            method,
            body,
            ...(giveUpAt !== undefined ? { posdataGiveUpAt: giveUpAt } : {}),
            headers: {
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
              accept: 'application/json',
              ...headers,
            },
          },
          handler,
        );
      } catch (err) {
        reject(connectionError(err, base));
      }
    });
  }

  /**
   * Closes the connections. A request still in flight is one nobody will read (an export's page
   * asked ahead of its last one, a read whose caller stopped): it is dropped rather than waited
   * for, which at a distant server was one round trip more at the end of every run.
   */
  async close(): Promise<void> {
    // The agent aborts what is in flight itself: holding each request's controller until its
    // end (4c6757f, a Set) kept them past scavenges, and a 1M export's peak RSS rose from
    // 124-128 to 148-162 MiB (three alternating rounds).
    const err = new Error('the run is over') as Error & { code: string };
    err.code = DROPPED;
    await this.agent.destroy(err).catch(() => undefined);
  }

  destroy(): void {
    this.agent.destroy().catch(() => undefined);
  }
}

export function connectionError(err: unknown, base: URL): ConnectionError {
  const e = err as Error & { code?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code ?? '';
  const host = base.host;
  if (e.name === 'AbortError')
    return new ConnectionError(say`the request was aborted`, undefined, { cause: err });
  switch (code) {
    case 'ECONNREFUSED':
      return new ConnectionError(say`connection to ${host} refused`, say`is Odoo running at that address?`, {
        cause: err,
        transient: true,
      });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ConnectionError(say`cannot resolve ${base.hostname}`, say`check the --url host name`, {
        cause: err,
      });
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'ETIMEDOUT':
      return new ConnectionError(
        say`${host} did not answer in time`,
        say`try again later or raise --timeout`,
        {
          cause: err,
          transient: true,
          timedOut: true,
        },
      );
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return new ConnectionError(
        say`the connection to ${host} was reset`,
        say`try again; check any proxy in between`,
        {
          cause: err,
          transient: true,
        },
      );
    default:
      // A TLS hello answered in plain HTTP ("HTTP/1.1 400" read as a TLS record): OpenSSL
      // says "wrong version number" or "packet length too long", and --insecure would not help.
      if (
        base.protocol === 'https:' &&
        /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST|wrong version number|packet length too long/i.test(
          `${code} ${e.message} ${e.cause?.message ?? ''}`,
        )
      ) {
        const plain = new URL(base.href);
        plain.protocol = 'http:';
        return new ConnectionError(
          say`${host} answered https:// in plain HTTP: it looks like a server without TLS`,
          say`use ${plain.origin} (with --allow-insecure-http beyond this machine), or the port where it speaks TLS`,
          { cause: err },
        );
      }
      if (
        /certificate|self[- ]signed|SSL|TLS|CERT_/i.test(`${code} ${e.message} ${e.cause?.message ?? ''}`)
      ) {
        return new ConnectionError(
          say`TLS failed for ${host}: ${tlsReason(e)}`,
          say`add the server CA with --ca-file, or --insecure to skip verification`,
          { cause: err },
        );
      }
      return new ConnectionError(
        say`cannot reach ${host}: ${e.cause?.message ?? e.message}`,
        say`check --url and the network`,
        {
          cause: err,
        },
      );
  }
}

/**
 * An attempt's failure as posdata's error, `posdataCode` set to what the retry loop judges it
 * by: the reply over --max-reply (never retried), the call's deadline, a reply cut after its
 * status (CUT), or the connection's own code.
 */
function attemptError(
  err: Error,
  at: { tooLarge: boolean; status: number; base: URL; max: number; timeoutMs: number },
): Error {
  const { base, max } = at;
  const e = err as Error & { code?: string; cause?: { code?: string } };
  const code = e.code;
  const mapped = at.tooLarge
    ? new ProtocolError(
        say`the reply from ${base.host} is larger than --max-reply (${formatBytes(max)})`,
        say`ask for less (--page-size, --fields, --limit), or raise --max-reply if the server is trusted`,
      )
    : code === DROPPED
      ? new ConnectionError(say`not waited for: the run is over`)
      : code === DEADLINE
        ? new ConnectionError(
            say`${base.host} did not answer in time (no complete reply within --timeout ${at.timeoutMs / 1000} s)`,
            say`try again later or raise --timeout`,
            { cause: err, transient: true, timedOut: true },
          )
        : at.status === 0
          ? connectionError(err, base)
          : new ProtocolError(
              say`the reply from ${base.host} was cut short (${err.message})`,
              say`try again; if it persists, check the network or proxy between you and Odoo`,
              { cause: err, transient: true },
            );
  // A dropped request is never tried again, whatever it had received.
  (mapped as { posdataCode?: string }).posdataCode = at.tooLarge
    ? undefined
    : code === DEADLINE || code === DROPPED
      ? code
      : at.status !== 0
        ? CUT
        : (e.code ?? e.cause?.code);
  return mapped;
}
