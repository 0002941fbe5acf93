// The HTTP layer under both transports: one keep-alive undici Agent per run, a per-request
// timeout, the rate limiter, and undici's retry interceptor (backoff with jitter, Retry-After)
// for read calls. Authentication goes through a dispatcher without retry: Odoo's login
// cooldown can lock an account after repeated failures.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { setFlagsFromString } from 'node:v8';
import type { Dispatcher, Agent as UndiciAgent } from 'undici';
import { ConnectionError, ProtocolError, UsageError } from './errors.js';
import { RateLimiter } from './ratelimit.js';
import { Agent, retryInterceptor } from './undici.js';

// undici parses HTTP with llhttp compiled to WebAssembly, at the first request. V8's
// optimising tier for it costs 20-35 MiB of peak memory on a long export and no measurable
// speed: keep the baseline compiler.
setFlagsFromString('--liftoff-only');

export interface HttpOptions {
  timeoutMs: number;
  /** Requests a minute; 0 = no limit. */
  rate: number;
  /** Retries after the first try, for read calls. */
  retries: number;
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
}

const RETRY_STATUS = [429, 502, 503, 504];
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

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

export function isLoopback(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/** A URL as it may be shown: any `user:password@` replaced by `***@`. */
export function showUrl(raw: string): string {
  return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
}

/** Whether a URL carries a user name or password (`https://user:password@host`). */
export function hasUserinfo(raw: string): boolean {
  try {
    const u = new URL(raw);
    return u.username !== '' || u.password !== '';
  } catch {
    return showUrl(raw) !== raw;
  }
}

/**
 * Parses and checks a server URL: http(s) only; plain http only to loopback unless allowed.
 * A `user:password@` part is dropped: posdata never sends it (the secret goes in the
 * request body or the Authorization header), so it could only leak into output and files.
 */
export function parseServerUrl(raw: string, allowInsecureHttp = false): URL {
  let url: URL;
  const shown = showUrl(raw);
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(
      `'${shown}' is not a URL`,
      'give the Odoo address, e.g. --url https://shop.odoo.com',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(
      `'${shown}' is not an http(s) URL`,
      'give the Odoo address, e.g. --url https://shop.odoo.com',
    );
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecureHttp) {
    throw new UsageError(
      `refusing plain http to ${url.hostname}: the password would cross the network unencrypted`,
      'use https, or --allow-insecure-http if you really must',
    );
  }
  url.username = '';
  url.password = '';
  url.hash = '';
  url.search = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/**
 * The server a URL names, for comparing targets: scheme, host and port as URL normalises
 * them (lower case, default port dropped) and the path with one trailing slash; no user
 * name, password, query or fragment. Undefined when it is not a URL.
 */
export function serverKey(raw: string | URL | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  url.username = '';
  url.password = '';
  url.hash = '';
  url.search = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}

export class Http {
  readonly limiter: RateLimiter;
  private readonly agent: UndiciAgent;
  private readonly plain: Dispatcher;
  private readonly retrying: Dispatcher;

  constructor(
    readonly base: URL,
    readonly opts: HttpOptions,
  ) {
    this.limiter = new RateLimiter(opts.rate);
    const connect: Record<string, unknown> = {};
    if (opts.caFile) {
      let ca: string;
      try {
        ca = readFileSync(opts.caFile, 'utf8');
      } catch {
        throw new UsageError(`cannot read the CA file ${opts.caFile}`, 'give a PEM file with --ca-file');
      }
      connect.ca = [...rootCertificates, ca];
    }
    if (opts.insecure) connect.rejectUnauthorized = false;
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      connections: 4,
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
    const minB = opts.minBackoffMs ?? 500;
    const maxB = opts.maxBackoffMs ?? 30_000;
    const onRetry = opts.onRetry;
    this.plain = this.agent.compose(rateLimit);
    this.retrying = this.agent.compose(
      rateLimit,
      retryInterceptor({
        maxRetries: opts.retries,
        methods: ['POST', 'GET'],
        statusCodes: RETRY_STATUS,
        errorCodes: RETRY_CODES,
        throwOnError: false,
        // undici's default policy, with jitter so that many cron jobs do not retry in step.
        retry(err, { state }, cb) {
          const e = err as Error & { statusCode?: number; code?: string; headers?: Record<string, string> };
          const retriable =
            (e.statusCode != null && RETRY_STATUS.includes(e.statusCode)) ||
            (e.statusCode == null && e.code != null && RETRY_CODES.includes(e.code));
          if (!retriable || state.counter > opts.retries) return cb(err);
          const after = Number(e.headers?.['retry-after']);
          const backoff = Math.min(minB * 2 ** (state.counter - 1), maxB);
          const waitMs =
            Number.isFinite(after) && after > 0
              ? Math.min(after * 1000, maxB) + Math.random() * 100
              : backoff / 2 + (Math.random() * backoff) / 2;
          onRetry?.({
            attempt: state.counter,
            waitMs: Math.round(waitMs),
            reason: e.statusCode ? `HTTP ${e.statusCode}` : (e.code ?? e.message),
          });
          setTimeout(() => cb(null), waitMs);
        },
      }),
    );
  }

  get requestCount(): number {
    return this.limiter.count;
  }

  /** The server's clock by the latest reply's Date header (whole seconds, rounded down), in ms. */
  serverDate: number | undefined;

  post(path: string, body: string, headers: Record<string, string>, retry: boolean): Promise<HttpReply> {
    return this.send('POST', path, body, headers, retry);
  }

  /** A GET without a body (JSON-2's `/json/version`). */
  get(path: string, headers: Record<string, string>, retry: boolean): Promise<HttpReply> {
    return this.send('GET', path, undefined, headers, retry);
  }

  /**
   * One request, its reply gathered as text. A dispatch handler of our own rather than
   * undici's request(): that wraps the body in a stream (push, read, nextTick per chunk)
   * only for it to be read whole; 0.15 ms of CPU per page of 2000 sales (bench/notes.md).
   */
  private send(
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
    headers: Record<string, string>,
    retry: boolean,
  ): Promise<HttpReply> {
    const url = new URL(path.replace(/^\//, ''), this.base);
    const base = this.base;
    const clock = (date: string | string[] | undefined): void => {
      const t = Date.parse(Array.isArray(date) ? (date[0] ?? '') : (date ?? ''));
      if (Number.isFinite(t)) this.serverDate = t;
    };
    return new Promise<HttpReply>((resolve, reject) => {
      let status = 0;
      let contentType = '';
      const chunks: Buffer[] = [];
      let size = 0;
      const handler: Dispatcher.DispatchHandler = {
        // undici takes a handler for one of this API only if it has this method.
        onRequestStart() {},
        onResponseStart(_c, statusCode, h) {
          if (statusCode < 200) return; // 1xx: the reply is still to come
          status = statusCode;
          clock(h.date);
          const ct = h['content-type'];
          contentType = Array.isArray(ct) ? ct.join(',') : (ct ?? '');
        },
        onResponseData(_c, chunk) {
          chunks.push(chunk);
          size += chunk.length;
        },
        onResponseEnd() {
          const whole = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
          resolve({ status, contentType, text: whole.toString('utf8') });
        },
        onResponseError(_c, err) {
          reject(
            status === 0
              ? connectionError(err, base)
              : new ProtocolError(
                  `the reply from ${base.host} was cut short (${err.message})`,
                  'try again; if it persists, check the network or proxy between you and Odoo',
                  { cause: err, transient: true },
                ),
          );
        },
      };
      try {
        (retry ? this.retrying : this.plain).dispatch(
          {
            origin: url.origin,
            path: `${url.pathname}${url.search}`,
            method,
            body,
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

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
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
    return new ConnectionError('the request was aborted', undefined, { cause: err });
  switch (code) {
    case 'ECONNREFUSED':
      return new ConnectionError(`connection to ${host} refused`, 'is Odoo running at that address?', {
        cause: err,
        transient: true,
      });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ConnectionError(`cannot resolve ${base.hostname}`, 'check the --url host name', {
        cause: err,
      });
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'ETIMEDOUT':
      return new ConnectionError(`${host} did not answer in time`, 'try again later or raise --timeout', {
        cause: err,
        transient: true,
      });
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return new ConnectionError(
        `the connection to ${host} was reset`,
        'try again; check any proxy in between',
        {
          cause: err,
          transient: true,
        },
      );
    default:
      if (
        /certificate|self[- ]signed|SSL|TLS|CERT_/i.test(`${code} ${e.message} ${e.cause?.message ?? ''}`)
      ) {
        return new ConnectionError(
          `TLS failed for ${host}: ${e.cause?.message ?? e.message}`,
          'add the server CA with --ca-file, or --insecure to skip verification',
          { cause: err },
        );
      }
      return new ConnectionError(
        `cannot reach ${host}: ${e.cause?.message ?? e.message}`,
        'check --url and the network',
        {
          cause: err,
        },
      );
  }
}
