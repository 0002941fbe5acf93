// What the client needs from a protocol. JSON-RPC (`/jsonrpc`) and JSON-2 (`/json/2/...`)
// both implement it, so every command works the same over both.
import type { RetryPolicy } from './http.js';
import type { Said } from './redact.js';
import type { ServerVersion } from './types.js';

export type Protocol = 'jsonrpc' | 'json2';

export interface Credentials {
  db: string;
  login: string;
  /** Password or API key. Never printed: register it with the redactor. */
  secret: string;
}

export interface CallOptions {
  /**
   * Read calls are retried on transient faults (true); authentication only where the server
   * cannot have judged the secret ('auth'); writes never (false).
   */
  retry: RetryPolicy;
}

/** One ORM call: a model's method, with Odoo's positional `args` and keyword `kwargs`. */
export interface OrmCall {
  model: string;
  method: string;
  args: unknown[];
  kwargs: Record<string, unknown>;
}

export interface Transport {
  readonly protocol: Protocol;
  /** The server version, without credentials. */
  version(): Promise<ServerVersion>;
  /** The user id for these credentials; AuthError when they are rejected (never retried). */
  authenticate(creds: Credentials): Promise<number>;
  /** One ORM call. */
  executeKw(creds: Credentials, uid: number, call: OrmCall, opts: CallOptions): Promise<unknown>;
  /** The request of one ORM call as this protocol sends it, for --debug; the secret as ***. */
  describeCall(creds: Credentials, uid: number, call: OrmCall): Said;
  /** Requests sent so far (HTTP attempts, retries included). */
  readonly requestCount: number;
  /** The server's clock (ms) by the Date header of the latest reply; undefined without one. */
  readonly serverDate?: number;
  close(): Promise<void>;
  /** Drops open sockets at once (interrupt). */
  destroy(): void;
}

/** One line per call for --debug; the secret is already masked by the caller. */
/** A --debug line, masked where it is printed. */
export type TraceFn = (line: Said) => void;
