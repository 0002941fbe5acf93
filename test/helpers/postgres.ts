// A throwaway PostgreSQL cluster for a test file: initdb in a temporary folder, a free port
// on 127.0.0.1 and a socket in that folder; stopped and removed by stop(). Uses Debian's
// server binaries (/usr/lib/postgresql/<version>/bin, package postgresql). As root, the
// server runs as the postgres user (PostgreSQL refuses to run as root).
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface TestPostgres {
  port: number;
  /** The superuser's password (connections over TCP need one). */
  password: string;
  /** postgres://USER[:PASSWORD]@127.0.0.1:PORT/DB */
  url(opts?: { user?: string; password?: string; db?: string }): string;
  /** Runs SQL as the superuser and gives the rows. */
  query<T = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

function serverBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(a) - Number(b))
    : [];
  const v = versions[versions.length - 1];
  if (!v)
    throw new Error(
      'PostgreSQL server binaries not found: install the postgresql package (apt-get install postgresql)',
    );
  return join(root, v, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = serverBin();
  const dir = mkdtempSync(join(tmpdir(), 'posdata-test-pg-'));
  const root = process.getuid?.() === 0;
  const asServer = (cmd: string, args: string[]) =>
    root
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, cmd), args, { stdio: 'pipe' });
  const password = 'test-superuser-pw';
  writeFileSync(join(dir, 'pw'), password);
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
    chownSync(join(dir, 'pw'), uid, gid);
  }
  const data = join(dir, 'data');
  asServer('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--pwfile',
    join(dir, 'pw'),
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  const port = await freePort();
  asServer('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`,
    'start',
  ]);
  const url = (o: { user?: string; password?: string; db?: string } = {}) => {
    const user = o.user ?? 'postgres';
    const pw = o.password ?? (user === 'postgres' ? password : undefined);
    return `postgres://${encodeURIComponent(user)}${pw ? `:${encodeURIComponent(pw)}` : ''}@127.0.0.1:${port}/${o.db ?? 'postgres'}`;
  };
  const admin = new pg.Client({ connectionString: url() });
  await admin.connect();
  return {
    port,
    password,
    url,
    async query<T>(sql: string, values?: unknown[]) {
      return (await admin.query(sql, values)).rows as T[];
    },
    async stop() {
      await admin.end().catch(() => undefined);
      try {
        asServer('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
