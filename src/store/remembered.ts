// What shell completion offers that lives on a server (field names for --fields, register ids
// with their names for --config-id), remembered from the replies of earlier runs so that a Tab
// never sends a request. One JSON file beside the profile store (`completion.json` in the
// config folder, 0600), per server and database. It is written only where the folder already
// exists (a run that never logged in leaves no trace), replaced whole (a temporary file
// renamed over it), and a file that cannot be read is as good as none: nothing here is more
// than a convenience, and nothing in it is a secret.
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { configDir, sweepStoreTemps } from './profiles.js';

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

function readAll(env: NodeJS.ProcessEnv): Shape {
  let fd: number | undefined;
  try {
    fd = openSync(join(configDir(env), FILE), constants.O_RDONLY | constants.O_NOFOLLOW);
    const st = fstatSync(fd);
    if (!st.isFile() || (st.mode & 0o022) !== 0 || st.uid !== process.getuid?.()) return {};
    const parsed = JSON.parse(readFileSync(fd, 'utf8')) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Shape) : {};
  } catch {
    return {};
  } finally {
    if (fd !== undefined) closeSync(fd);
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
  const dir = configDir(env);
  try {
    if (!statSync(dir).isDirectory()) return;
  } catch {
    return;
  }
  sweepStoreTemps(dir);
  const all = readAll(env);
  const before = all[key] ?? { fields: {}, registers: [] };
  const registers = new Map(Array.isArray(before.registers) ? before.registers : []);
  for (const [id, name] of seen.registers) registers.set(id, name);
  const next: RememberedServer = {
    fields: { ...before.fields, ...seen.fields },
    registers: [...registers].sort((a, b) => a[0] - b[0]),
  };
  const text = JSON.stringify({ ...all, [key]: next });
  if (text === JSON.stringify(all)) return;
  const file = join(dir, FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  // A disk that refuses it (full, read-only) costs a Tab's offers, not the run: the file
  // stays as it was, and no temporary file is left.
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
