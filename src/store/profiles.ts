// The credential store: a `conf` JSON file readable by its owner only (0600, in a 0700
// folder), holding named profiles. POSDATA_CONFIG_DIR moves it. As ssh does with a private
// key, a store (or folder) that other users could read or change is refused, never fixed
// silently (the secret may have leaked: its owner should know), and a symlinked store is
// never followed.
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  type Stats,
  statSync,
  unlinkSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type Conf from 'conf';
import { AuthError, UsageError } from '../core/errors.js';
import { fsReason, isFsError } from '../core/fsreason.js';
import { alive, sweepDir, untouchedFor } from '../core/leftovers.js';
import { own, say } from '../core/redact.js';
import type { Protocol } from '../core/transport.js';

export interface Profile {
  url?: string;
  db?: string;
  login?: string;
  /** Password or API key; absent with --no-store-password. */
  secret?: string;
  /** The UID, valid for this url + db + login. */
  uid?: number;
  /** The Odoo user's time zone, read at login. */
  tz?: string | null;
  /**
   * The shop's zone, given at login (`login --tz`): its days are read in it, whoever the user
   * is (an admin in Brussels logged in to the New York shop). Odoo keeps none per company.
   */
  zone?: string;
  serverVersion?: string;
  protocol?: Protocol;
  /** A CA file given at login with --ca-file (on-premise servers with their own CA). */
  caFile?: string;
  loggedInAt?: string;
}

/** Where a run goes, as given (the URL not yet parsed): the server, its database, the login. */
export interface Target {
  url?: string;
  db?: string;
  login?: string;
}

/**
 * Credentials' one precedence, for every command, the tap's config and completion: the flag
 * (or the config's key), then the environment (POSDATA_URL, POSDATA_DB, POSDATA_USER), then
 * the profile. The secret is never a flag: POSDATA_PASSWORD, then the profile's, and the
 * stored one only for the target it was stored with (src/cli/session.ts).
 */
export function targetOf(
  given: { url?: string; db?: string; user?: string },
  env: Readonly<Record<string, string | undefined>>,
  profile: Profile,
): Target {
  return {
    url: given.url ?? env.POSDATA_URL ?? profile.url,
    db: given.db ?? env.POSDATA_DB ?? profile.db,
    login: given.user ?? env.POSDATA_USER ?? profile.login,
  };
}

interface StoreShape {
  profiles: Record<string, Profile>;
  current?: string;
}

/**
 * What a profile may be called: ASCII letters, digits and `_.@+-`, not starting with `.` or
 * `-`, at most 64 characters. A name is put into paths (`-o out/{profile}.csv`) and schemas,
 * so `../x`, `a/b` or `.` must never be one; ASCII alone, as a disk's case and Unicode
 * folding would otherwise make two names one file.
 */
const PROFILE_NAME = /^[A-Za-z0-9_@+][A-Za-z0-9_.@+-]{0,63}$/;

/** Whether `name` may be a profile's name (login stores only those). */
export function isProfileName(name: string): boolean {
  return PROFILE_NAME.test(name);
}

/** The refusal of a name that may not be a profile's, with what to do instead. */
export function badProfileName(name: string, where: string): UsageError {
  return new UsageError(
    say`profile name ${name} ${own(where)}: a name is letters, digits and _.@+- (not starting with . or -, at most 64)`,
    say`log in under a name such as shop-lyon (posdata login --profile shop-lyon), then posdata profiles --remove the old one`,
  );
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.POSDATA_CONFIG_DIR) return env.POSDATA_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'posdata');
}

function mode(st: Stats): string {
  return (st.mode & 0o777).toString(8).padStart(4, '0');
}

/** Owned by this user (or root, as ssh accepts) and closed to group and others. */
function checkPrivate(st: Stats, path: string, kind: 'file' | 'folder'): void {
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid && st.uid !== 0) {
    throw new AuthError(
      say`the posdata store ${own(kind)} ${path} belongs to another user (uid ${st.uid})`,
      say`use your own store (POSDATA_CONFIG_DIR), or run chown ${uid} ${path}`,
    );
  }
  if ((st.mode & 0o077) !== 0) {
    throw new AuthError(
      say`the posdata store ${own(kind)} ${path} is open to other users (mode ${mode(st)}); its secrets are not used`,
      say`run chmod ${kind === 'file' ? 600 : 700} ${path} (and change the secret if others could have read it)`,
    );
  }
}

function checkFolder(dir: string): void {
  let st: Stats;
  try {
    st = statSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (!st.isDirectory())
    throw new UsageError(say`the posdata store folder ${dir} is not a folder`, say`check POSDATA_CONFIG_DIR`);
  checkPrivate(st, dir, 'folder');
}

/**
 * A write of the store (or of the completion cache beside it) that the disk refuses (full,
 * read-only, no permission): one line and exit 2, what was there left as it was.
 */
export function storeWriteError(file: string, err: unknown): UsageError {
  return new UsageError(
    say`cannot write the posdata store ${file}: ${fsReason(err)}`,
    say`free some space, or make the folder writable (or set POSDATA_CONFIG_DIR to one that is)`,
    { cause: err },
  );
}

const CONF_TEMP = /^config\.json\.tmp-\d+[0-9a-f]*$/;

/** conf's temporary files in the store folder (`config.json.tmp-…`). */
function storeTemps(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => CONF_TEMP.test(n));
  } catch {
    return [];
  }
}

/**
 * Runs a write of conf's that may fail. conf's writer (atomically) removes its temporary file
 * with an asynchronous unlink that the exit right after the error can outrun: the one this
 * write made is removed here, at once.
 */
function leavingNoTemp<T>(dir: string, write: () => T): T {
  const before = new Set(storeTemps(dir));
  try {
    return write();
  } catch (err) {
    for (const name of storeTemps(dir)) {
      if (before.has(name)) continue;
      try {
        unlinkSync(join(dir, name));
      } catch {
        /* gone already */
      }
    }
    throw err;
  }
}

/** A temporary file of a write that never finished is this old at least. */
const STALE_MS = 3600 * 1000;

/**
 * Removes the temporary files that writes of the store folder left behind (a full disk, a
 * SIGKILL): the completion cache's `completion.json.<pid>.tmp` of a process that is gone, and
 * conf's `config.json.tmp-…` untouched for an hour. A live run's file is never touched.
 */
export function sweepStoreTemps(dir: string): void {
  sweepDir(dir, (name, path) => {
    const cache = /^(?:completion|fields\.[0-9a-f]+)\.json\.(\d+)\.tmp$/.exec(name);
    if (cache) return Number(cache[1]) !== process.pid && !alive(Number(cache[1]));
    return CONF_TEMP.test(name) && untouchedFor(path, STALE_MS);
  });
}

const SYMLINK_HINT = say`replace the link with the file itself, or remove it and run posdata login again`;

/** The store's text, read without following a symbolic link; undefined when there is none. */
function readPrivate(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP')
      throw new AuthError(
        say`the posdata store ${file} is a symbolic link; posdata never follows one`,
        SYMLINK_HINT,
      );
    throw new UsageError(
      say`cannot read the posdata store ${file}`,
      say`check it, or run posdata login again`,
    );
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      throw new UsageError(
        say`the posdata store ${file} is not a file`,
        say`remove it and run posdata login again`,
      );
    checkPrivate(st, file, 'file');
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

const STRING_KEYS = [
  'url',
  'db',
  'login',
  'secret',
  'serverVersion',
  'protocol',
  'caFile',
  'loggedInAt',
  'zone',
] as const;

/** What is of the wrong kind in a profile read from the file (`a secret that is not a string`), if anything. */
function wrongKey(p: unknown): string | undefined {
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return 'a value that is not an object';
  const o = p as Record<string, unknown>;
  for (const k of STRING_KEYS)
    if (o[k] !== undefined && typeof o[k] !== 'string') return `a ${k} that is not a string`;
  if (o.tz !== undefined && o.tz !== null && typeof o.tz !== 'string') return 'a tz that is not a string';
  if (o.uid !== undefined && !(typeof o.uid === 'number' && Number.isSafeInteger(o.uid)))
    return 'a uid that is not a whole number';
  return undefined;
}

export class ProfileStore {
  private constructor(
    private conf: Conf<StoreShape> | undefined,
    private readonly snapshot: StoreShape | undefined,
    private readonly file: string,
    /** Makes the writable store at the first write, where there was no file to open. */
    private readonly create?: () => Conf<StoreShape>,
  ) {}

  /**
   * The store for reading and writing (login, logout, profiles). Where there is no store
   * yet, neither its folder nor its file is made until something is written: conf writes
   * its defaults as soon as it is constructed, so a `posdata profiles` or `logout` before
   * any login would otherwise leave an empty store behind.
   */
  static async open(env: NodeJS.ProcessEnv = process.env): Promise<ProfileStore> {
    const dir = configDir(env);
    const file = join(dir, 'config.json');
    checkFolder(dir);
    // conf reads and replaces the file itself: check it first, without following a link.
    const text = readPrivate(file);
    const { default: ConfClass } = await import('conf');
    const make = (): Conf<StoreShape> => {
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
      } catch (err) {
        throw storeWriteError(file, err);
      }
      sweepStoreTemps(dir);
      try {
        return leavingNoTemp(
          dir,
          () =>
            new ConfClass<StoreShape>({
              cwd: dir,
              configName: 'config',
              projectName: 'posdata',
              configFileMode: 0o600,
              defaults: { profiles: {} },
            }),
        );
      } catch (err) {
        if (isFsError(err)) throw storeWriteError(file, err);
        // Not JSON, or not the store's shape: one line and exit 2, the file left for the user.
        throw new UsageError(
          say`the posdata store ${file} is damaged (${(err as Error).message.split('\n')[0]})`,
          say`fix it, or move it away and run posdata login again`,
        );
      }
    };
    if (text === undefined) return new ProfileStore(undefined, { profiles: {} }, file, make);
    const conf = make();
    return new ProfileStore(conf, undefined, conf.path);
  }

  /**
   * The store for reading only, as every data command needs it: the same JSON file conf
   * writes, read without loading conf (and its schema validator), which costs more start-up
   * time than the rest of a command together.
   */
  static read(env: NodeJS.ProcessEnv = process.env): ProfileStore {
    const dir = configDir(env);
    const file = join(dir, 'config.json');
    checkFolder(dir);
    let data: StoreShape = { profiles: {} };
    const text = readPrivate(file);
    if (text !== undefined) {
      try {
        const parsed = JSON.parse(text) as Partial<StoreShape>;
        data = { profiles: parsed.profiles ?? {}, current: parsed.current };
      } catch {
        throw new UsageError(
          say`cannot read the posdata store ${file}`,
          say`check it, or run posdata login again`,
        );
      }
    }
    return new ProfileStore(undefined, data, file);
  }

  private data(): StoreShape {
    if (!this.conf && this.snapshot) return this.snapshot;
    return { profiles: this.writable().get('profiles'), current: this.writable().get('current') };
  }

  private writable(): Conf<StoreShape> {
    if (!this.conf && this.create) this.conf = this.create();
    if (!this.conf) throw new Error('the profile store was opened for reading only');
    return this.conf;
  }

  get path(): string {
    return this.file;
  }

  /** The profile to use: --profile, POSDATA_PROFILE, the default (profiles --use), or `default`. */
  currentName(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
    return flag || env.POSDATA_PROFILE || this.defaultName();
  }

  /** The default profile: the one chosen with `profiles --use` (or stored first), else `default`. */
  defaultName(): string {
    return this.data().current || 'default';
  }

  /**
   * The profile called `name`. A store edited by hand whose profile holds a value of the
   * wrong kind (a secret that is a number, a URL that is a list) is one line and exit 2
   * naming the key, never an internal error further on.
   */
  get(name: string): Profile | undefined {
    const p = this.data().profiles[name];
    if (p === undefined) return undefined;
    const wrong = wrongKey(p);
    if (wrong)
      throw new UsageError(
        say`the posdata store ${this.file} is damaged: profile ${name} has ${own(wrong)}`,
        say`fix it, or log in again with posdata login --profile ${name}`,
      );
    return p;
  }

  /** The profile's values of the right kind only (login starts from them, over a damaged one). */
  usable(name: string): Profile {
    const p = this.data().profiles[name];
    if (!p || typeof p !== 'object') return {};
    return Object.fromEntries(
      Object.entries(p).filter(([k, v]) => !wrongKey({ [k]: v } as Profile)),
    ) as Profile;
  }

  list(): Record<string, Profile> {
    return this.data().profiles;
  }

  /** A change of the store, written at once: a disk that refuses it is one line, exit 2. */
  private write(change: (conf: Conf<StoreShape>) => void): void {
    const conf = this.writable();
    try {
      leavingNoTemp(dirname(this.file), () => change(conf));
    } catch (err) {
      if (isFsError(err)) throw storeWriteError(this.file, err);
      throw err;
    }
  }

  set(name: string, profile: Profile, makeCurrent = true): void {
    this.write((conf) => {
      const all = { ...conf.get('profiles'), [name]: profile };
      conf.set('profiles', all);
      if (makeCurrent) conf.set('current', name);
    });
  }

  /** Forgets the secret and the UID; keeps URL, database and login for the next login. */
  forget(name: string): boolean {
    if (!(name in this.data().profiles)) return false;
    const { secret: _s, uid: _u, ...rest } = this.usable(name);
    this.set(name, rest, false);
    return true;
  }

  remove(name: string): boolean {
    if (!(name in this.data().profiles)) return false;
    let removed = false;
    this.write((conf) => {
      const all = { ...conf.get('profiles') };
      if (!(name in all)) return;
      delete all[name];
      conf.set('profiles', all);
      if (conf.get('current') === name) conf.delete('current');
      removed = true;
    });
    return removed;
  }

  use(name: string): void {
    this.write((conf) => conf.set('current', name));
  }
}
