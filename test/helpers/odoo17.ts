// A real Odoo 17 for the `npm run test:odoo` stage: the one `../shared/odoo17/start`
// brings up (Odoo 17.0 community with point_of_sale and POS data, in its own PostgreSQL
// cluster), or the server that POSDATA_TEST_ODOO_URL names.
//
// The stage's global setup starts one server that every read-only test file shares
// (`inject('odoo')`); a file that writes (orders, refunds, a session closed) starts one of
// its own with startRealOdoo(), so no other file sees its writes.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshConfigDir, runCli } from './cli.js';
import { Rpc } from './rpc.js';

/** `../shared/odoo17` beside the project. */
export const SHARED_ODOO17 = fileURLToPath(new URL('../../../shared/odoo17', import.meta.url));

export interface Login {
  login: string;
  password: string;
}

/** The bundled databases' logins: posci has admin and cashier; posmc also cashier_us and manager. */
export type OdooUser = 'admin' | 'cashier' | 'cashier_us' | 'manager';

export interface RealOdoo {
  url: string;
  db: string;
  /** The administrator (uid 2 on the bundled server) and a Point of Sale / User. */
  admin: Login;
  cashier: Login;
  /** Every login of the database, admin and cashier included (../shared/odoo17/README.md). */
  users: Partial<Record<OdooUser, Login>>;
  /** True when this process started the server (and may write to it). */
  owned: boolean;
}

export interface RealOdooHandle extends RealOdoo {
  stop(): Promise<void>;
}

/** Why no real Odoo can be had here, or undefined when one can. */
export function realOdooMissing(): string | undefined {
  if (process.env.POSDATA_TEST_ODOO_URL) return undefined;
  if (existsSync(join(SHARED_ODOO17, 'start'))) return undefined;
  return 'neither ../shared/odoo17 nor POSDATA_TEST_ODOO_URL is there';
}

function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${stderr || err.message}`));
      else resolve(stdout);
    });
  });
}

/** The server POSDATA_TEST_ODOO_URL names (database, logins and passwords from its siblings). */
function external(): RealOdooHandle {
  const env = process.env;
  const admin = {
    login: env.POSDATA_TEST_ODOO_ADMIN ?? 'admin',
    password: env.POSDATA_TEST_ODOO_ADMIN_PASSWORD ?? 'admin',
  };
  const cashier = {
    login: env.POSDATA_TEST_ODOO_CASHIER ?? 'cashier',
    password: env.POSDATA_TEST_ODOO_CASHIER_PASSWORD ?? 'cashier',
  };
  return {
    url: String(env.POSDATA_TEST_ODOO_URL).replace(/\/$/, ''),
    db: env.POSDATA_TEST_ODOO_DB ?? 'posci',
    admin,
    cashier,
    users: { admin, cashier },
    owned: false,
    stop: async () => undefined,
  };
}

/** A bundled database's logins: each posmc login's password is its name. */
function bundledUsers(db: BundledDb): Partial<Record<OdooUser, Login>> {
  const names: OdooUser[] =
    db === 'posmc' ? ['admin', 'cashier', 'cashier_us', 'manager'] : ['admin', 'cashier'];
  return Object.fromEntries(names.map((n) => [n, { login: n, password: n }]));
}

/**
 * The databases ../shared/odoo17 serves: posci (one company), posmc (two, EUR and USD) and
 * posshop (a shop and a restaurant: employees, tips, loyalty, gift cards, take-away).
 */
export type BundledDb = 'posci' | 'posmc' | 'posshop';

/**
 * Starts a real Odoo 17 of its own (about 10 s) in a throwaway folder, serving `db`, or, with
 * POSDATA_TEST_ODOO_URL (when its POSDATA_TEST_ODOO_DB, default posci, is that database), hands
 * back that server, which it does not own: a test that writes checks `owned` (or
 * POSDATA_TEST_ODOO_WRITE=1) before it changes anything there.
 */
export async function startRealOdoo(db: BundledDb = 'posci'): Promise<RealOdooHandle> {
  const env = process.env;
  if (env.POSDATA_TEST_ODOO_URL && (env.POSDATA_TEST_ODOO_DB ?? 'posci') === db) return external();
  // Its PostgreSQL runs as the postgres user, who must be able to reach the folder.
  const dir = mkdtempSync(join(tmpdir(), 'posdata-odoo17-'));
  chmodSync(dir, 0o755);
  const out = await run(join(SHARED_ODOO17, 'start'), [dir, '', db]);
  const last = out.trim().split('\n').pop() ?? '';
  const [url, served] = last.split(' ');
  if (!url?.startsWith('http://127.0.0.1:') || served !== db) throw new Error(`odoo17/start said: ${last}`);
  const users = bundledUsers(db);
  return {
    url,
    db,
    admin: users.admin as Login,
    cashier: users.cashier as Login,
    users,
    owned: true,
    stop: async () => {
      await run(join(SHARED_ODOO17, 'stop'), [dir]).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** May this test write to the server? Only to one it started, unless the user allows it. */
export function mayWrite(odoo: RealOdoo): boolean {
  return odoo.owned || process.env.POSDATA_TEST_ODOO_WRITE === '1';
}

/** That login of the server's database, or an error naming what the database has. */
function userOf(odoo: RealOdoo, who: OdooUser): Login {
  const user = odoo.users[who] ?? (who === 'admin' || who === 'cashier' ? odoo[who] : undefined);
  if (!user)
    throw new Error(`database ${odoo.db} has no login ${who} (it has ${Object.keys(odoo.users).join(', ')})`);
  return user;
}

/** Logs posdata in to the server as that user with a fresh config folder; the env later runs use. */
export async function loginOdoo(
  odoo: RealOdoo,
  who: OdooUser = 'admin',
  extra: Record<string, string> = {},
): Promise<Record<string, string>> {
  const env = { POSDATA_CONFIG_DIR: freshConfigDir(), ...extra };
  const user = userOf(odoo, who);
  const r = await runCli(
    ['login', '--url', odoo.url, '--db', odoo.db, '--user', user.login, '--password-stdin'],
    { env, input: user.password },
  );
  if (r.code !== 0) throw new Error(`login to ${odoo.url} as ${user.login} failed (${r.code}): ${r.stderr}`);
  return env;
}

/** Direct JSON-RPC to the server as that user: the reference posdata is compared with. */
export async function rpcOdoo(odoo: RealOdoo, who: OdooUser = 'admin'): Promise<Rpc> {
  const user = userOf(odoo, who);
  const rpc = new Rpc(odoo.url, odoo.db, user.login, user.password);
  await rpc.auth();
  return rpc;
}
