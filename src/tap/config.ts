// The tap's input documents: the config (where Odoo is, the secret, what to read), the state
// (the last STATE value) and the catalog (what --discover gave, with streams and fields
// selected). Each is checked whole before anything is asked of a server: a bad one is one
// line and exit 2, naming the file and the key, never echoing a value (the config holds the
// password, and JSON.parse's own message quotes the text).
import { SYNC_NAMES, type SyncName } from '../catalog/resources.js';
import { isPosdataError, UsageError } from '../core/errors.js';
import { own, type Said, say } from '../core/redact.js';
import { MiB, readSmallFile } from '../core/smallfile.js';
import { MAX_TIMER_SECONDS } from '../core/timer.js';
import { parseWhen, toOdoo } from '../query/time.js';
import { checkZone } from '../query/zone.js';
import { targetOf } from '../store/profiles.js';

export interface TapConfig {
  url?: string;
  db?: string;
  user?: string;
  /** The secret from the config file (Meltano passes it there). */
  password?: string;
  profile?: string;
  /** Where a first run starts: start_date (RFC 3339, or a date in `tz`) as Odoo's UTC text. */
  startDate?: string;
  tz: string;
  pageSize: number;
  rate?: number;
  timeout?: number;
  /** The streams to read when no catalog is given (all by default). */
  streams?: SyncName[];
}

/**
 * The largest document of each kind read: far above what a tap writes or a person edits, far
 * below what reading whole would cost (a state carries a bookmark per stream).
 */
const LIMITS: Record<string, number> = { config: MiB, catalog: 16 * MiB, state: 64 * MiB };

/**
 * A JSON document of the tap's: its object, or exit 2 naming the file. A special file (a
 * named pipe, /dev/zero) or one over its size is refused before it is read; a UTF-8 byte
 * order mark before the JSON (an editor's) is taken.
 */
export function readDocument(path: string, what: string, hint: Said): Record<string, unknown> {
  let text: string;
  try {
    text = readSmallFile(path, `the ${what}`, LIMITS[what] ?? MiB, hint);
  } catch (err) {
    if (isPosdataError(err)) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      say`cannot read the ${own(what)} ${path} (${own(code === 'ENOENT' ? 'no such file' : (code ?? 'unreadable'))})`,
      hint,
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new UsageError(say`the ${own(what)} ${path} is not valid JSON`, hint);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new UsageError(say`the ${own(what)} ${path} is not a JSON object`, hint);
  return doc as Record<string, unknown>;
}

const CONFIG_HINT = say`see posdata tap --about for its settings`;

export function readConfig(path: string, env: Readonly<Record<string, string | undefined>>): TapConfig {
  const doc = readDocument(path, 'config', CONFIG_HINT);
  const bad = (key: string, should: string): UsageError =>
    new UsageError(say`${own(key)} in the config ${path} ${own(should)}`, CONFIG_HINT);
  const text = (key: string): string | undefined => {
    const v = doc[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string' || v === '') throw bad(key, 'must be a non-empty string');
    return v;
  };
  const num = (key: string, min: number, whole: boolean): number | undefined => {
    const v = doc[key];
    if (v === undefined || v === null) return undefined;
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < min || (whole && !Number.isInteger(n)))
      throw bad(
        key,
        whole ? `must be a whole number of at least ${min}` : `must be a number of at least ${min}`,
      );
    if (key === 'timeout' && n > MAX_TIMER_SECONDS)
      throw bad(
        key,
        `must be at most ${MAX_TIMER_SECONDS} seconds (about 24 days), the longest a timer waits`,
      );
    return n;
  };
  const config: TapConfig = {
    url: text('url'),
    db: text('db'),
    user: text('user'),
    password: text('password'),
    profile: text('profile'),
    startDate: undefined,
    tz: 'UTC',
    pageSize: num('page_size', 1, true) ?? 2000,
    rate: num('rate', 0, false),
    timeout: num('timeout', 1, false),
  };
  const tz = text('tz');
  if (tz !== undefined) {
    try {
      config.tz = checkZone(tz);
    } catch {
      throw bad('tz', 'must be an IANA time zone such as Europe/Brussels');
    }
  }
  const start = text('start_date');
  if (start !== undefined) {
    try {
      config.startDate = toOdoo(parseWhen(start, config.tz, 'start_date').at);
    } catch {
      throw bad('start_date', 'must be a date or time, e.g. 2026-01-01T00:00:00Z or 2026-01-01');
    }
  }
  const streams = doc.streams;
  if (streams !== undefined && streams !== null) {
    const list = typeof streams === 'string' ? streams.split(',').map((s) => s.trim()) : streams;
    if (!Array.isArray(list) || list.length === 0 || !list.every((s) => SYNC_NAMES.includes(s as SyncName)))
      throw bad('streams', `must list some of ${SYNC_NAMES.join(', ')}`);
    config.streams = list as SyncName[];
  }
  // Where Odoo is: the config, else the environment, else a named profile (targetOf's precedence).
  const named = config.profile ?? env.POSDATA_PROFILE;
  if (named === undefined) {
    const target = targetOf(config, env, {});
    for (const [key, value] of [
      ['url', target.url],
      ['db', target.db],
      ['user', target.login],
    ] as const)
      if (!value)
        throw new UsageError(
          say`the config ${path} has no ${own(key)}`,
          say`give url, db and user (and the password, or POSDATA_PASSWORD), or a posdata profile`,
        );
  }
  return config;
}
