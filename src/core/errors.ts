// One error class per exit code of the contract. Every message is one line that says
// what happened and what to do next: `posdata: <what>; <what to do>`. Both are Said
// (redact.ts): posdata's words with the values from outside in holes, so that printing one
// masks a secret in the values and never in posdata's own words.
import { NO_SECRETS, type Redactor, type Said } from './redact.js';

export const EXIT = {
  ok: 0,
  internal: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  server: 5,
  connection: 6,
  difference: 7,
  servers: 8,
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The brand every posdata error carries: the names of its kinds, its own first (a
 * ConnectionError's is ['connection', 'posdata']). A registered symbol is the same in every
 * copy of this module (a bundle that holds its own copy, a test that imports src/ beside
 * dist/), and `instanceof` a kind of this module reads the brand, not the prototype chain: so
 * neither the exit code nor a retry depends on which copy made the error.
 */
const BRAND = Symbol.for('posdata.error');

type Kinds = readonly string[];

function kindsOf(err: unknown): Kinds | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const kinds = (err as { [BRAND]?: unknown })[BRAND];
  return Array.isArray(kinds) ? kinds : undefined;
}

/** A posdata error from any copy of this module: it carries its exit code and its line. */
export function isPosdataError(err: unknown): err is PosdataError {
  return kindsOf(err) !== undefined;
}

/** `x instanceof K` for K a kind of this module: by the brand, whichever copy made x. */
function hasKind(this: object, x: unknown): boolean {
  if (!Object.hasOwn(this, 'kind')) return Function.prototype[Symbol.hasInstance].call(this, x);
  return kindsOf(x)?.includes((this as { kind: string }).kind) === true;
}

export abstract class PosdataError extends Error {
  /** The kind's name in the brand; a subclass declared elsewhere without one is checked by its prototype. */
  static readonly kind: string = 'posdata';
  static override [Symbol.hasInstance] = hasKind;
  readonly [BRAND]: Kinds;
  abstract readonly exitCode: ExitCode;
  /** What happened; `message` is its text unmasked, for matching only. */
  readonly said: Said;
  /** What the user should do next; joined to the message with "; ". */
  readonly hint: Said | undefined;
  constructor(message: Said, hint?: Said, options?: { cause?: unknown }) {
    super(String(message), options);
    const kinds: string[] = [];
    for (let c = new.target as unknown; c && c !== Error; c = Object.getPrototypeOf(c))
      if (Object.hasOwn(c as object, 'kind')) kinds.push((c as { kind: string }).kind);
    this[BRAND] = kinds;
    this.said = message;
    this.hint = hint;
  }
  /**
   * The single line printed (without the `posdata: ` prefix), the secrets `mask` holds
   * masked in its values: the run's own (its IO's redactor), a serve user's in a problem
   * document; without one, nothing is masked (tests).
   */
  line(mask: Redactor = NO_SECRETS): string {
    const what = mask
      .said(this.said)
      .replace(/\s*\n\s*/g, ' ')
      .trim();
    if (!this.hint) return what;
    // Odoo's messages end in a full stop; "records.; ask …" reads badly.
    return `${what.replace(/[.;:,\s]+$/, '')}; ${mask.said(this.hint)}`;
  }
}

/** Bad flag, bad value, unknown field: exit 2. */
export class UsageError extends PosdataError {
  static override readonly kind = 'usage';
  override name = 'UsageError';
  readonly exitCode = EXIT.usage;
}

/** A run over several servers where some failed, each named on standard error: exit 8. */
export class ManyServersError extends PosdataError {
  static override readonly kind = 'servers';
  override name = 'ManyServersError';
  readonly exitCode = EXIT.servers;
}

/** Not logged in, credentials rejected, API key expired or revoked: exit 3. */
export class AuthError extends PosdataError {
  static override readonly kind = 'auth';
  override name = 'AuthError';
  readonly exitCode = EXIT.auth;
}

/** An identifier that does not exist: exit 4. */
export class NotFoundError extends PosdataError {
  static override readonly kind = 'not-found';
  override name = 'NotFoundError';
  readonly exitCode = EXIT.notFound;
}

/** The server answered with an error: access rights, unknown model, server-side failure: exit 5. */
export class ServerError extends PosdataError {
  static override readonly kind = 'server';
  override name = 'ServerError';
  readonly exitCode = EXIT.server;
  /** Odoo's exception name, e.g. `odoo.exceptions.AccessError`. */
  readonly odooName: string;
  readonly status: number | undefined;
  constructor(odooName: string, message: Said, hint?: Said, status?: number) {
    super(message, hint);
    this.odooName = odooName;
    this.status = status;
  }
}

/** Refused, DNS, TLS, timeout: the server could not be reached or did not answer in time: exit 6. */
export class ConnectionError extends PosdataError {
  static override readonly kind = 'connection';
  override name = 'ConnectionError';
  readonly exitCode = EXIT.connection;
  /** Worth another try (timeouts, resets, 502/503/504/429). */
  readonly transient: boolean;
  /** No complete reply within --timeout. */
  readonly timedOut: boolean;
  constructor(
    message: Said,
    hint?: Said,
    options?: { cause?: unknown; transient?: boolean; timedOut?: boolean },
  ) {
    super(message, hint, options);
    this.transient = options?.transient ?? false;
    this.timedOut = options?.timedOut ?? false;
  }
}

/** The server answered, but not with JSON-RPC (HTML, bad JSON, wrong id, a cut body): exit 6. */
export class ProtocolError extends PosdataError {
  static override readonly kind = 'protocol';
  override name = 'ProtocolError';
  readonly exitCode = EXIT.connection;
  readonly transient: boolean;
  constructor(message: Said, hint?: Said, options?: { cause?: unknown; transient?: boolean }) {
    super(message, hint, options);
    this.transient = options?.transient ?? false;
  }
}

/** reconcile --fail-on-difference found a difference beyond the tolerance: exit 7. */
export class DifferenceError extends PosdataError {
  static override readonly kind = 'difference';
  override name = 'DifferenceError';
  readonly exitCode = EXIT.difference;
}

/** SIGINT / SIGTERM: exit 130. */
export class InterruptedError extends PosdataError {
  static override readonly kind = 'interrupted';
  override name = 'InterruptedError';
  readonly exitCode = EXIT.interrupted;
}

export function isTransient(err: unknown): boolean {
  return (err instanceof ConnectionError || err instanceof ProtocolError) && err.transient;
}

/**
 * Node's words for a failed TLS handshake ("self-signed certificate"), without the advice
 * that Node 24 appends about restarting Node with --use-system-ca: posdata's own hint says
 * what to do (--ca-file, sslrootcert=).
 */
export function tlsReason(e: { message?: string; cause?: unknown }): string {
  const inner = (e.cause as { message?: unknown } | undefined)?.message;
  const text = typeof inner === 'string' ? inner : (e.message ?? '');
  return text.replace(/; if the root CA is installed locally[\s\S]*$/, '');
}
