// sslmode in --to against a real PostgreSQL with TLS (a self-signed certificate for 127.0.0.1).
// pg 8 takes sslmode=require as verify-full and printed an eight-line SECURITY WARNING; posdata
// keeps that meaning (the certificate and host name are checked, unlike psql's require), says so
// in one line, and takes sslrootcert for a private CA or uselibpqcompat=true for psql's meaning.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let pg: TestPostgres;
let sandbox: SandboxHandle;
let env: Record<string, string>;
let dir: string;

const NOTE =
  "posdata: warning: sslmode=require is verify-full here: TLS is required and the server's certificate and host name are checked (psql's require checks less); for a private CA add sslrootcert=FILE";

beforeAll(async () => {
  [pg, sandbox] = await Promise.all([startPostgres(), startTestSandbox({ seed: 9, orders: 50 })]);
  env = { ...(await loginEnv(sandbox.url)), PGPASSWORD: pg.password };
  dir = mkdtempSync(join(tmpdir(), 'posdata-tls-'));
  chmodSync(dir, 0o755);
  const cert = join(dir, 'server.crt');
  const key = join(dir, 'server.key');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2'],
      ...['-keyout', key, '-out', cert, '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  );
  chmodSync(key, 0o600);
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(key, uid, gid);
    chownSync(cert, uid, gid);
  }
  await pg.query(`alter system set ssl_cert_file = '${cert}'`);
  await pg.query(`alter system set ssl_key_file = '${key}'`);
  await pg.query('alter system set ssl = on');
  await pg.query('select pg_reload_conf()');
  // The reload is asynchronous: wait until the server says TLS is on (a loaded machine may take
  // longer than the 5 s this once gave it before going on with TLS still off).
  while ((await pg.query<{ ssl: string }>('show ssl'))[0]?.ssl !== 'on')
    await new Promise((r) => setTimeout(r, 100));
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await pg?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const sync = (query: string, extra: string[] = []) =>
  runCli(['sync', 'configs', '--to', `${pg.url({ password: '' })}?${query}`, '--rate', '0', ...extra], {
    env,
  });

describe('sslmode in --to', () => {
  it('require checks the certificate (a self-signed one is refused), said in one line, not pg’s eight', async () => {
    const r = await sync('sslmode=require', ['--schema', 's1']);
    expect(r.code).toBe(6);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(NOTE);
    expect(lines[1]).toMatch(
      /^posdata: TLS with PostgreSQL at 127\.0\.0\.1:\d+ failed: self[- ]signed certificate; check sslmode in --to$/,
    );
    expect(r.stderr).not.toMatch(/SECURITY WARNING|\(node:/);
  });

  it('with sslrootcert the certificate checks out and the sync runs over TLS', async () => {
    const r = await sync(`sslmode=require&sslrootcert=${join(dir, 'server.crt')}`, ['--schema', 's2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(NOTE);
    const quiet = await sync(`sslmode=require&sslrootcert=${join(dir, 'server.crt')}`, [
      '--schema',
      's2',
      '--quiet',
    ]);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });

  it("uselibpqcompat=true gives psql's require: encrypted, not checked, and no note", async () => {
    const r = await sync('uselibpqcompat=true&sslmode=require', ['--schema', 's3', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });
});
