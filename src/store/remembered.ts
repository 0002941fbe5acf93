// What shell completion offers that lives on a server (field names for --fields, register ids
// with their names for --config-id), remembered from the replies of earlier runs so that a Tab
// never sends a request. One JSON file beside the profile store (`completion.json` in the
// config folder, 0600), per server and database. It is written only where the folder already
// exists (a run that never logged in leaves no trace), replaced whole (a temporary file
// renamed over it), and a file that cannot be read is as good as none: nothing here is more
// than a convenience, and nothing in it is a secret.
//
// Beside it, per server, database, login and Odoo context, the models' fields_get replies
// (`fields.<digest>.json`): an export builds its query from them and asks its first pages at
// the same time as the fresh fields_get, whose reply decides whether those pages are kept
// (src/commands/list.ts). The same rules: 0600, replaced whole, unreadable is none.
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { FieldMap } from '../core/types.js';
import { configDir, type Profile, sweepStoreTemps } from './profiles.js';

export interface RememberedServer {
  /** Field names by model, from fields_get. */
  fields: Record<string, string[]>;
  /** Registers (pos.config) as [id, name], from a read of them. */
  registers: [number, string][];
}

type Shape = Record<string, RememberedServer>;

const FILE = 'completion.json';

/** A server and database as one key: the URL without a trailing slash, then the database. */
export function serverKey(url: string, db: string): string | undefined {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}|${db}`;
  } catch {
    return undefined;
  }
}

/** A JSON object of ours from the config folder: {} where it is not there or not ours. */
function readObject(file: string): Record<string, unknown> {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    const st = fstatSync(fd);
    if (!st.isFile() || (st.mode & 0o022) !== 0 || st.uid !== process.getuid?.()) return {};
    const parsed = JSON.parse(readFileSync(fd, 'utf8')) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function readAll(env: NodeJS.ProcessEnv): Shape {
  return readObject(join(configDir(env), FILE)) as Shape;
}

/** The config folder, where it exists (a run that never logged in leaves no trace). */
function existingDir(env: NodeJS.ProcessEnv): string | undefined {
  const dir = configDir(env);
  try {
    return statSync(dir).isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `text` as the file, through a temporary file renamed over it. A disk that refuses it (full,
 * read-only) costs a convenience, not the run: the file stays as it was, and no temporary
 * file is left.
 */
function replaceFile(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      /* never made */
    }
  }
}

/** What earlier runs remembered of this server, if anything. */
export function remembered(env: NodeJS.ProcessEnv, key: string): RememberedServer | undefined {
  const s = readAll(env)[key];
  if (!s || typeof s !== 'object') return undefined;
  return {
    fields: s.fields && typeof s.fields === 'object' ? s.fields : {},
    registers: Array.isArray(s.registers) ? s.registers : [],
  };
}

/**
 * Adds what a run saw of a server: the models' fields it fetched replace those remembered,
 * registers it read are added to (or renamed in) those remembered.
 */
export function remember(env: NodeJS.ProcessEnv, key: string, seen: RememberedServer): void {
  rememberAll(env, [[key, seen]]);
}

/**
 * What the runs saw of their servers (a chain's, src/cli/servers.ts), added as remember adds
 * one, in order, with one read and at most one write of the file: a chain that wrote it per
 * server read and rewrote the whole file as many times.
 */
export function rememberAll(env: NodeJS.ProcessEnv, seen: [string, RememberedServer][]): void {
  const dir = existingDir(env);
  if (!dir) return;
  sweepStoreTemps(dir);
  const all = readAll(env);
  const next: Shape = { ...all };
  for (const [key, one] of seen) next[key] = merged(next[key], one);
  const text = JSON.stringify(next);
  if (text === JSON.stringify(all)) return;
  replaceFile(join(dir, FILE), text);
}

/**
 * Whose fields_get replies these are: a server and database (serverKey), the login (Odoo
 * leaves out the fields a user's groups may not read) and the run's Odoo context (--lang
 * translates the labels, --company, --context).
 */
export function fieldsKey(
  server: string,
  login: string,
  context: Record<string, unknown> | undefined,
): string {
  return JSON.stringify([server, login, context ?? {}]);
}

/** The server and login of a fieldsKey; undefined for a key that is not one. */
function fieldsKeyOwner(key: unknown): { server: unknown; login: unknown } | undefined {
  try {
    const parts = typeof key === 'string' ? (JSON.parse(key) as unknown) : undefined;
    return Array.isArray(parts) ? { server: parts[0], login: parts[1] } : undefined;
  } catch {
    return undefined;
  }
}

/** One file per key, so that a run reads only its own server's replies. */
function fieldsFile(dir: string, key: string): string {
  return join(dir, `fields.${createHash('sha256').update(key).digest('hex').slice(0, 20)}.json`);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A fields_get reply's shape: every field an object with its type. What the export builds from
 * a remembered reply runs before the server's own is in, so a file that is JSON but not that
 * (edited, damaged) must be none, not a crash.
 */
function isFieldMap(v: unknown): v is FieldMap {
  return isObject(v) && Object.values(v).every((def) => isObject(def) && typeof def.type === 'string');
}

/** The fields_get replies by model an earlier run had under this key; {} where none. */
export function rememberedFields(env: NodeJS.ProcessEnv, key: string): Record<string, FieldMap> {
  const saved = readObject(fieldsFile(configDir(env), key));
  const models = saved.models;
  if (saved.key !== key || !isObject(models)) return {};
  const out: Record<string, FieldMap> = {};
  for (const [model, fields] of Object.entries(models)) if (isFieldMap(fields)) out[model] = fields;
  return out;
}

/** Keeps this run's fields_get replies under the key; the file is written only where one changed. */
export function rememberFields(env: NodeJS.ProcessEnv, key: string, seen: Record<string, FieldMap>): void {
  const dir = existingDir(env);
  if (!dir || Object.keys(seen).length === 0) return;
  const before = rememberedFields(env, key);
  const text = JSON.stringify({ key, models: { ...before, ...seen } });
  if (text === JSON.stringify({ key, models: before })) return;
  sweepStoreTemps(dir);
  replaceFile(fieldsFile(dir, key), text);
}

/** Where a profile points: what remembered values are kept under. */
type Target = Pick<Profile, 'url' | 'db' | 'login'>;

/**
 * Forgets what runs remembered under a profile that is gone (`logout --remove`), where no
 * profile `left` still points there: the fields_get replies of its server, database and login
 * (under every Odoo context), and the server's completion values once no profile is left on
 * that server and database. Without it every server ever logged in to kept its files. What a
 * run without a profile remembered (a URL from the environment) is kept: nothing says it is
 * gone. Best effort, as the remembering: a file that cannot be removed stays.
 */
export function forgetTarget(env: NodeJS.ProcessEnv, gone: Target, left: Target[]): void {
  const dir = existingDir(env);
  const server = gone.url && gone.db ? serverKey(gone.url, gone.db) : undefined;
  if (!dir || !server) return;
  const onServer = left.filter((p) => p.url && p.db && serverKey(p.url, p.db) === server);
  if (!onServer.some((p) => p.login === gone.login))
    for (const name of readdirSync(dir)) {
      if (!/^fields\.[0-9a-f]+\.json$/.test(name)) continue;
      const owner = fieldsKeyOwner(readObject(join(dir, name)).key);
      if (owner?.server === server && owner.login === gone.login) removeFile(join(dir, name));
    }
  if (onServer.length > 0) return;
  const all = readAll(env);
  if (!(server in all)) return;
  const { [server]: _gone, ...rest } = all;
  replaceFile(join(dir, FILE), JSON.stringify(rest));
}

function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    /* gone already, or kept */
  }
}

/** A server's remembered values with what a run saw added. */
function merged(before: RememberedServer | undefined, seen: RememberedServer): RememberedServer {
  const was = before ?? { fields: {}, registers: [] };
  const registers = new Map(Array.isArray(was.registers) ? was.registers : []);
  for (const [id, name] of seen.registers) registers.set(id, name);
  return {
    fields: { ...was.fields, ...seen.fields },
    registers: [...registers].sort((a, b) => a[0] - b[0]),
  };
}
