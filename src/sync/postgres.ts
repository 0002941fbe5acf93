// The database side of `posdata sync`: the connection string, the connection, and what a
// failure there means for the user (exit code and one line that names PostgreSQL, so the
// Odoo side is never blamed for it). The password of the connection string is masked
// everywhere, like Odoo's secret.
import pg from 'pg';
import pgpass from 'pgpass';
import { AuthError, ConnectionError, type PosdataError, ServerError, UsageError } from '../core/errors.js';
import { own, redactor, say } from '../core/redact.js';

export interface Target {
  /** The connection string as given (holds the password, if any: never print it). */
  url: string;
  /** `PostgreSQL at host:port` for messages. */
  where: string;
  /** The connection string with the password as ***, for --debug. */
  shown: string;
  user: string | undefined;
  database: string | undefined;
  /** The password came inside the connection string. */
  passwordInUrl: boolean;
}

const HINT_FORM = say`give it as postgres://USER@HOST:PORT/DB (password from PGPASSWORD or ~/.pgpass)`;

export function parseTarget(raw: string | undefined, env = process.env): Target {
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
    redactor.add(u.password);
    try {
      redactor.add(decodeURIComponent(u.password));
    } catch {
      /* not percent-encoded */
    }
  }
  redactor.add(env.PGPASSWORD);
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new UsageError(say`'${u.protocol}' is not a PostgreSQL connection string`, HINT_FORM);
  }
  if (u.port !== '' && !/^\d+$/.test(u.port)) {
    throw new UsageError(say`the port of the database connection string is not a number`, HINT_FORM);
  }
  const socket = u.searchParams.get('host');
  const host = u.hostname || socket || env.PGHOST || 'localhost';
  const port = u.port || env.PGPORT || '5432';
  const shownUrl = new URL(given);
  if (shownUrl.password) shownUrl.password = '***';
  return {
    url: given,
    where: `PostgreSQL at ${host.startsWith('/') ? host : `${host}:${port}`}`,
    shown: shownUrl.href,
    user: u.username ? decodeURIComponent(u.username) : undefined,
    database: u.pathname.length > 1 ? decodeURIComponent(u.pathname.slice(1)) : undefined,
    passwordInUrl: u.password !== '',
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
  const msg = redactor.text(String(e?.message ?? err)).replace(/\s+/g, ' ');
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
      return new ConnectionError(say`TLS with ${t.where} failed: ${msg}`, say`check sslmode in --to`, {
        cause: err,
      });
    return new ConnectionError(say`lost the connection to ${t.where}: ${msg}`, rerun, { cause: err });
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
      say`grant the role${t.user ? say` '${t.user}'` : ''} CREATE on the database (or on the schema) and ownership of its tables`,
    );
  }
  return new ServerError(code, say`${t.where} refused: ${msg}`, say`see the PostgreSQL log for details`);
}

export type Trace = ((line: string) => void) | undefined;

/** A connected client, or the reason it cannot connect as posdata's error. */
export async function connect(t: Target, timeoutSeconds: number, trace: Trace): Promise<pg.Client> {
  trace?.(`connect ${t.shown}`);
  const client = new pg.Client({
    connectionString: t.url,
    connectionTimeoutMillis: timeoutSeconds * 1000,
    application_name: 'posdata sync',
  });
  // Neither in the URL nor in PGPASSWORD: the password file (PGPASSFILE, else ~/.pgpass), as
  // psql reads it. pg's own lookup is deprecated (and says so on stderr); this is its successor.
  const holder = client as unknown as { password: unknown };
  if (holder.password === null || holder.password === undefined || holder.password === '') {
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
            redactor.add(pw);
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
    await client.end().catch(() => undefined);
    throw databaseError(err, t);
  }
  return client;
}

export function ident(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}
