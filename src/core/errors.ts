// One error class per exit code of the contract. Every message is one line that says
// what happened and what to do next: `posdata: <what>; <what to do>`.

export const EXIT = {
  ok: 0,
  internal: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  server: 5,
  connection: 6,
  difference: 7,
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export abstract class PosdataError extends Error {
  abstract readonly exitCode: ExitCode;
  /** What the user should do next; joined to the message with "; ". */
  readonly hint: string | undefined;
  constructor(message: string, hint?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.hint = hint;
    this.name = new.target.name;
  }
  /** The single line printed on stderr (without the `posdata: ` prefix). */
  line(): string {
    const what = this.message.replace(/\s*\n\s*/g, ' ').trim();
    // Odoo's messages end in a full stop; "records.; ask …" reads badly.
    if (this.hint) return `${what.replace(/[.;:,\s]+$/, '')}; ${this.hint}`;
    return this.hint ? `${what}; ${this.hint}` : what;
  }
}

/** Bad flag, bad value, unknown field: exit 2. */
export class UsageError extends PosdataError {
  readonly exitCode = EXIT.usage;
}

/** Not logged in, credentials rejected, API key expired or revoked: exit 3. */
export class AuthError extends PosdataError {
  readonly exitCode = EXIT.auth;
}

/** An identifier that does not exist: exit 4. */
export class NotFoundError extends PosdataError {
  readonly exitCode = EXIT.notFound;
}

/** The server answered with an error: access rights, unknown model, server-side failure: exit 5. */
export class ServerError extends PosdataError {
  readonly exitCode = EXIT.server;
  /** Odoo's exception name, e.g. `odoo.exceptions.AccessError`. */
  readonly odooName: string;
  readonly status: number | undefined;
  constructor(odooName: string, message: string, hint?: string, status?: number) {
    super(message, hint);
    this.odooName = odooName;
    this.status = status;
  }
}

/** Refused, DNS, TLS, timeout: the server could not be reached or did not answer in time: exit 6. */
export class ConnectionError extends PosdataError {
  readonly exitCode = EXIT.connection;
  /** Worth another try (timeouts, resets, 502/503/504/429). */
  readonly transient: boolean;
  /** No complete reply within --timeout. */
  readonly timedOut: boolean;
  constructor(
    message: string,
    hint?: string,
    options?: { cause?: unknown; transient?: boolean; timedOut?: boolean },
  ) {
    super(message, hint, options);
    this.transient = options?.transient ?? false;
    this.timedOut = options?.timedOut ?? false;
  }
}

/** The server answered, but not with JSON-RPC (HTML, bad JSON, wrong id, a cut body): exit 6. */
export class ProtocolError extends PosdataError {
  readonly exitCode = EXIT.connection;
  readonly transient: boolean;
  constructor(message: string, hint?: string, options?: { cause?: unknown; transient?: boolean }) {
    super(message, hint, options);
    this.transient = options?.transient ?? false;
  }
}

/** reconcile --fail-on-difference found a difference beyond the tolerance: exit 7. */
export class DifferenceError extends PosdataError {
  readonly exitCode = EXIT.difference;
}

/** SIGINT / SIGTERM: exit 130. */
export class InterruptedError extends PosdataError {
  readonly exitCode = EXIT.interrupted;
}

export function isTransient(err: unknown): boolean {
  return (err instanceof ConnectionError || err instanceof ProtocolError) && err.transient;
}
