// The credential store: a `conf` JSON file readable by its owner only (0600, in a 0700
// folder), holding named profiles. POSDATA_CONFIG_DIR moves it.
import { chmodSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type Conf from 'conf';
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
  private constructor(private readonly conf: Conf<StoreShape>) {}

  static async open(env: NodeJS.ProcessEnv = process.env): Promise<ProfileStore> {
    const dir = configDir(env);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { default: ConfClass } = await import('conf');
    const conf = new ConfClass<StoreShape>({
      cwd: dir,
      configName: 'config',
      projectName: 'posdata',
      configFileMode: 0o600,
      defaults: { profiles: {} },
    });
    // A store written by an older version or by hand may have wider permissions.
    try {
      chmodSync(conf.path, 0o600);
    } catch {
      /* not created yet */
    }
    return new ProfileStore(conf);
  }

  get path(): string {
    return this.conf.path;
  }

  /** The profile to use: --profile, POSDATA_PROFILE, the one last logged in, or `default`. */
  currentName(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
    return flag || env.POSDATA_PROFILE || this.conf.get('current') || 'default';
  }

  get(name: string): Profile | undefined {
    return this.conf.get('profiles')[name];
  }

  list(): Record<string, Profile> {
    return this.conf.get('profiles');
  }

  set(name: string, profile: Profile, makeCurrent = true): void {
    const all = { ...this.conf.get('profiles'), [name]: profile };
    this.conf.set('profiles', all);
    if (makeCurrent) this.conf.set('current', name);
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
    const all = { ...this.conf.get('profiles') };
    if (!(name in all)) return false;
    delete all[name];
    this.conf.set('profiles', all);
    if (this.conf.get('current') === name) this.conf.delete('current');
    return true;
  }

  use(name: string): void {
    this.conf.set('current', name);
  }
}
