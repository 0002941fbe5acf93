// The credential store: a `conf` JSON file readable by its owner only (0600, in a 0700
// folder), holding named profiles. POSDATA_CONFIG_DIR moves it.
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type Conf from 'conf';
import { UsageError } from '../core/errors.js';
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
  serverVersion?: string;
  protocol?: Protocol;
  /** A CA file given at login with --ca-file (on-premise servers with their own CA). */
  caFile?: string;
  loggedInAt?: string;
}

interface StoreShape {
  profiles: Record<string, Profile>;
  current?: string;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.POSDATA_CONFIG_DIR) return env.POSDATA_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'posdata');
}

export class ProfileStore {
  private constructor(
    private readonly conf: Conf<StoreShape> | undefined,
    private readonly snapshot: StoreShape | undefined,
    private readonly file: string,
  ) {}

  static async open(env: NodeJS.ProcessEnv = process.env): Promise<ProfileStore> {
    const dir = configDir(env);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { default: ConfClass } = await import('conf');
    let conf: Conf<StoreShape>;
    try {
      conf = new ConfClass<StoreShape>({
        cwd: dir,
        configName: 'config',
        projectName: 'posdata',
        configFileMode: 0o600,
        defaults: { profiles: {} },
      });
    } catch (err) {
      // Not JSON, or not the store's shape: one line and exit 2, the file left for the user.
      throw new UsageError(
        `the posdata store ${join(dir, 'config.json')} is damaged (${(err as Error).message.split('\n')[0]})`,
        'fix it, or move it away and run posdata login again',
      );
    }
    // A store written by an older version or by hand may have wider permissions.
    try {
      chmodSync(conf.path, 0o600);
    } catch {
      /* not created yet */
    }
    return new ProfileStore(conf, undefined, conf.path);
  }

  /**
   * The store for reading only, as every data command needs it: the same JSON file conf
   * writes, read without loading conf (and its schema validator), which costs more start-up
   * time than the rest of a command together.
   */
  static read(env: NodeJS.ProcessEnv = process.env): ProfileStore {
    const file = join(configDir(env), 'config.json');
    let data: StoreShape = { profiles: {} };
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<StoreShape>;
      data = { profiles: parsed.profiles ?? {}, current: parsed.current };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new UsageError(`cannot read the posdata store ${file}`, 'check it, or run posdata login again');
      }
    }
    return new ProfileStore(undefined, data, file);
  }

  private data(): StoreShape {
    if (this.snapshot) return this.snapshot;
    return { profiles: this.writable().get('profiles'), current: this.writable().get('current') };
  }

  private writable(): Conf<StoreShape> {
    if (!this.conf) throw new Error('the profile store was opened for reading only');
    return this.conf;
  }

  get path(): string {
    return this.file;
  }

  /** The profile to use: --profile, POSDATA_PROFILE, the one last logged in, or `default`. */
  currentName(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
    return flag || env.POSDATA_PROFILE || this.data().current || 'default';
  }

  get(name: string): Profile | undefined {
    return this.data().profiles[name];
  }

  list(): Record<string, Profile> {
    return this.data().profiles;
  }

  set(name: string, profile: Profile, makeCurrent = true): void {
    const conf = this.writable();
    const all = { ...conf.get('profiles'), [name]: profile };
    conf.set('profiles', all);
    if (makeCurrent) conf.set('current', name);
  }

  /** Forgets the secret and the UID; keeps URL, database and login for the next login. */
  forget(name: string): boolean {
    const p = this.get(name);
    if (!p) return false;
    const { secret: _s, uid: _u, ...rest } = p;
    this.set(name, rest, false);
    return true;
  }

  remove(name: string): boolean {
    const conf = this.writable();
    const all = { ...conf.get('profiles') };
    if (!(name in all)) return false;
    delete all[name];
    conf.set('profiles', all);
    if (conf.get('current') === name) conf.delete('current');
    return true;
  }

  use(name: string): void {
    this.writable().set('current', name);
  }
}
