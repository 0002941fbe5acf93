// The database side of `posdata sync`: the connection string, the connection, and what a
// failure there means for the user (exit code and one line that names PostgreSQL, so the
// Odoo side is never blamed for it). The password of the connection string is masked
// everywhere, like Odoo's secret.
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import pgpass from 'pgpass';
import {
  AuthError,
  ConnectionError,
  isPosdataError,
  type PosdataError,
  ServerError,
  tlsReason,
  UsageError,
} from '../core/errors.js';
import { own, type Redactor, type Said, say } from '../core/redact.js';

export interface Target {
  /** The connection string pg is given (holds the password, if any: never print it); sslmode made explicit. */
  url: string;
  /** `PostgreSQL at host:port` for messages. */
  where: string;
  /** The connection string with the password as ***, for --debug. */
  shown: string;
  user: string | undefined;
  database: string | undefined;
  /** The password came inside the connection string. */
  passwordInUrl: boolean;
  /** One line on what an sslmode means here, where it is not what psql makes of it. */
  sslNote?: string;
  /** The run's redactor, which holds the database's password from the moment it is known. */
  mask: Redactor;
  /** The environment pg would read (PGPASSWORD, PGHOST, PGPORT, PGUSER, PGDATABASE). */
  env: Env;
}

type Env = Readonly<Record<string, string | undefined>>;

const HINT_FORM = say`give it as postgres://USER@HOST:PORT/DB (password from PGPASSWORD or ~/.pgpass)`;

export function parseTarget(raw: string | undefined, env: Env, mask: Redactor): Target {
  const given = raw ?? env.POSDATA_SYNC_URL;
  if (given === undefined || given === '') {
    throw new UsageError(
      say`no database to sync to`,
      say`use --to postgres://USER@HOST:PORT/DB or set POSDATA_SYNC_URL`,
    );
  }
  let u: URL;
  try {
    u = new URL(given);
  } catch {
    throw new UsageError(say`the database connection string is not a URL`, HINT_FORM);
  }
  if (u.password) {
    mask.add(u.password);
    try {
      mask.add(decodeURIComponent(u.password));
    } catch {
      /* not percent-encoded */
    }
  }
  mask.add(env.PGPASSWORD);
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new UsageError(say`'${u.protocol}' is not a PostgreSQL connection string`, HINT_FORM);
  }
  // A '%' not followed by two hex digits: libpq refuses it ("invalid percent-encoded token"),
  // and decoding it here or in pg would fail later as an internal error. The part is named, not
  // shown (it may be the password).
  const BAD_ESCAPE = /%(?![0-9a-f]{2})/i;
  for (const [part, text] of [
    ['user name', u.username],
    ['password', u.password],
    ['host', u.hostname],
    ['database name', u.pathname],
    ['query string', u.search],
  ] as const) {
    if (BAD_ESCAPE.test(text))
      throw new UsageError(
        say`the ${own(part)} in the database connection string has a '%' that is not a percent-escape (%XX)`,
        say`write a % there as %25`,
      );
  }
  if (u.port !== '' && !/^\d+$/.test(u.port)) {
    throw new UsageError(say`the port of the database connection string is not a number`, HINT_FORM);
  }
  const socket = u.searchParams.get('host');
  const host = u.hostname || socket || env.PGHOST || 'localhost';
  const port = u.port || env.PGPORT || '5432';
  const shownUrl = new URL(given);
  if (shownUrl.password) shownUrl.password = '***';
  // pg 8 takes sslmode prefer, require and verify-ca as verify-full, and says so in eight lines
  // on stderr. posdata keeps the stricter meaning (TLS required, certificate and host name
  // checked: a connection psql would make unchecked is refused, never one the other way) and
  // says so in one line; `uselibpqcompat=true` asks pg for libpq's meaning instead.
  let url = given;
  let sslNote: string | undefined;
  const mode = u.searchParams.get('sslmode');
  if (
    (mode === 'prefer' || mode === 'require' || mode === 'verify-ca') &&
    u.searchParams.get('uselibpqcompat') !== 'true'
  ) {
    url = given.replace(/([?&])sslmode=[^&#]*/g, '$1sslmode=verify-full');
    sslNote = `sslmode=${mode} is verify-full here: TLS is required and the server's certificate and host name are checked (psql's ${mode} checks less); for a private CA add sslrootcert=FILE`;
  }
  return {
    url,
    sslNote,
    where: `PostgreSQL at ${host.startsWith('/') ? host : `${host}:${port}`}`,
    shown: shownUrl.href,
    user: u.username ? decodeURIComponent(u.username) : undefined,
    database: u.pathname.length > 1 ? decodeURIComponent(u.pathname.slice(1)) : undefined,
    passwordInUrl: u.password !== '',
    mask,
    env,
  };
}

const NET_CODES: Record<string, string> = {
  ECONNREFUSED: 'refused the connection',
  ECONNRESET: 'reset the connection',
  EPIPE: 'closed the connection',
  ETIMEDOUT: 'did not answer in time',
  EHOSTUNREACH: 'cannot be reached',
  ENETUNREACH: 'cannot be reached',
  ENOTFOUND: 'has a host name that does not resolve',
  EAI_AGAIN: 'has a host name that does not resolve',
  ENOENT: 'has no socket there',
};

/** A failure on the database side as posdata's error (exit 3, 5 or 6), one line. */
export function databaseError(err: unknown, t: Target): PosdataError {
  if ((err as PosdataError)?.exitCode !== undefined) return err as PosdataError;
  const e = err as Error & { code?: string; severity?: string };
  const code = e?.code;
  const msg = t.mask.text(String(e?.message ?? err)).replace(/\s+/g, ' ');
  const rerun = say`check that it is up, then run posdata sync again (it resumes from the last committed batch)`;
  if (code && NET_CODES[code]) {
    const hint =
      code === 'ECONNREFUSED' || code === 'ENOENT'
        ? say`check the host and port of --to (or POSDATA_SYNC_URL) and that PostgreSQL runs there`
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? say`check the host of --to (or POSDATA_SYNC_URL)`
          : rerun;
    return new ConnectionError(say`${t.where} ${own(NET_CODES[code])}`, hint, { cause: err });
  }
  if (
    /password must be a string|password authentication|no password/i.test(msg) &&
    e.severity === undefined
  ) {
    return new AuthError(
      say`${t.where} asks for a password and none was given${t.user ? say` for role '${t.user}'` : ''}`,
      say`set PGPASSWORD, or add a line to ~/.pgpass (PGPASSFILE)`,
    );
  }
  if (!code || e.severity === undefined) {
    // The driver's own errors: a connection lost or timed out, TLS.
    if (/timeout/i.test(msg))
      return new ConnectionError(say`${t.where} did not answer in time`, rerun, { cause: err });
    if (/ssl|tls|certificate/i.test(msg))
      return new ConnectionError(
        say`TLS with ${t.where} failed: ${tlsReason(e)}`,
        say`check sslmode in --to`,
        {
          cause: err,
        },
      );
    return new ConnectionError(say`lost the connection to ${t.where}: ${msg}`, rerun, { cause: err });
  }
  if (code === '57014' || code === '55P03') {
    // statement_timeout or lock_timeout (--timeout): a lock held elsewhere, or a server too busy.
    return new ConnectionError(
      say`${t.where} gave up a statement after --timeout: ${msg}`,
      say`a lock held by another session (see pg_locks) or a server too busy; run posdata sync again once it is free (it resumes from the last committed batch)`,
      { cause: err },
    );
  }
  if (code === '28P01' || code === '28000') {
    return new AuthError(
      say`${t.where} rejected the login${t.user ? say` of role '${t.user}'` : ''}: ${msg}`,
      say`check the user and password (in --to, PGPASSWORD or ~/.pgpass) and pg_hba.conf`,
    );
  }
  if (code === '3D000') {
    return new AuthError(say`${t.where}: ${msg}`, say`create it (createdb) or name another database in --to`);
  }
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') {
    return new ConnectionError(say`${t.where} dropped or refused the connection: ${msg}`, rerun, {
      cause: err,
    });
  }
  if (code === '42501') {
    return new ServerError(
      code,
      say`${t.where} refused: ${msg}`,
      say`grant the role${t.user ? say` '${t.user}'` : ''} CREATE and TEMPORARY on the database (sync stages each page in a temporary table), CREATE on the schema, and ownership of its tables`,
    );
  }
  return new ServerError(code, say`${t.where} refused: ${msg}`, say`see the PostgreSQL log for details`);
}

export type Trace = ((line: Said) => void) | undefined;

/**
 * The database connection with every request bounded, so that a stuck backend, a lost network
 * path or a lock held by another session ends the run (exit 6, one line) instead of holding
 * it, and the schema's advisory lock, forever. PostgreSQL itself cancels a statement after
 * --timeout (statement_timeout and lock_timeout: the server is alive, the transaction rolls
 * back); a server that stops answering altogether is given two seconds more, then the socket
 * is closed. TCP keepalive finds a peer that went away while the connection was idle.
 */
export interface Db {
  query(sql: string, values?: unknown[]): Promise<pg.QueryResult>;
  /** COPY … FROM STDIN of `body`, which is the caller's again once this has settled. */
  copyIn(sql: string, body: Uint8Array): Promise<void>;
  /** Ends the session: at once when it failed (nothing more is asked of it), else politely. */
  close(failed: boolean): Promise<void>;
  /** Drops the connection now (an interrupt). */
  destroy(): void;
}

/** The database did not answer within --timeout. */
export class DatabaseTimeout extends ConnectionError {
  override name = 'DatabaseTimeout';
}

/** Past the server's own statement_timeout, for a server that does not answer at all. */
const GRACE_MS = 2000;

function bounded(client: pg.Client, t: Target, timeoutSeconds: number, trace: Trace): Db {
  const stream = () =>
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream;
  const ms = timeoutSeconds * 1000 + GRACE_MS;
  const within = <T>(what: string, p: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // Whatever the server sends later goes nowhere; the request's own failure is not ours.
        p.catch(() => undefined);
        stream().destroy();
        reject(
          new DatabaseTimeout(
            say`${t.where} did not answer within ${own(String(timeoutSeconds))} s (--timeout)${what ? say` to ${what}` : own('')}`,
            say`check that it is up and reachable from here, then run posdata sync again (it resumes from the last committed batch)`,
          ),
        );
      }, ms);
    });
    return Promise.race([p, late]).finally(() => clearTimeout(timer));
  };
  const verb = (sql: string) => /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? '';
  return {
    query(sql, values) {
      trace?.(say`${sql.replace(/\s+/g, ' ').slice(0, 200)}`);
      return within(verb(sql), client.query(sql, values));
    },
    copyIn(sql, body) {
      trace?.(say`${sql.slice(0, 200)}`);
      const copy = client.query(copyFrom(sql));
      return within('COPY', pipeline(Readable.from([body]), copy as unknown as Writable));
    },
    async close(failed) {
      if (failed) {
        stream().destroy();
        return;
      }
      await within('', client.end()).catch(() => stream().destroy());
    },
    destroy: () => stream().destroy(),
  };
}

/** A connected, bounded client, or the reason it cannot connect as posdata's error. */
export async function connect(t: Target, timeoutSeconds: number, trace: Trace): Promise<Db> {
  trace?.(say`connect ${t.shown}`);
  const client = new pg.Client({
    connectionString: t.url,
    connectionTimeoutMillis: timeoutSeconds * 1000,
    statement_timeout: timeoutSeconds * 1000,
    lock_timeout: timeoutSeconds * 1000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    application_name: 'posdata sync',
  });
  // Not in the URL: PGPASSWORD of the run's environment (pg itself reads the process's),
  // else the password file (PGPASSFILE, else ~/.pgpass), as psql reads it. pg's own lookup
  // is deprecated (and says so on stderr); this is its successor.
  const holder = client as unknown as { password: unknown };
  const none = () => holder.password === null || holder.password === undefined || holder.password === '';
  if (none() && t.env.PGPASSWORD) holder.password = t.env.PGPASSWORD;
  if (none()) {
    holder.password = (params: pg.ClientConfig) =>
      new Promise<string | undefined>((resolve) =>
        pgpass(
          {
            host: params.host,
            port: params.port,
            database: params.database,
            user: params.user,
          },
          (pw) => {
            t.mask.add(pw);
            resolve(pw);
          },
        ),
      );
  }
  // A connection lost while idle (between two batches) surfaces in the next query.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    throw databaseError(err, t);
  }
  return bounded(client, t, timeoutSeconds, trace);
}

export function ident(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** Which errors come from the database side (the driver, its socket), as opposed to Odoo or a bug. */
export function fromDatabase(err: unknown): boolean {
  if (isPosdataError(err)) return false;
  const e = err as { code?: unknown; severity?: unknown; message?: unknown };
  if (typeof e?.severity === 'string' || typeof e?.code === 'string') return true;
  return /connection|terminated|not queryable|timeout/i.test(String(e?.message ?? ''));
}
