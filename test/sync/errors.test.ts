// The database side failing: bad connection strings (exit 2), nothing listening (6), a
// wrong password (3), a role without rights (5). One line each that names PostgreSQL, and
// the database password never in any output.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli, spawnCli } from '../helpers/cli.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let pg: TestPostgres;
let sandbox: SandboxHandle;
let env: Record<string, string>;

const READER_PW = 'Reader-pw-5521-never-shown';

beforeAll(async () => {
  [pg, sandbox] = await Promise.all([startPostgres(), startTestSandbox({ seed: 2, orders: 50 })]);
  env = await loginEnv(sandbox.url);
  await pg.query(`create role reader login password '${READER_PW}'`);
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await pg?.stop();
});

function oneLine(stderr: string): string {
  const lines = stderr.split('\n').filter(Boolean);
  expect(lines, stderr).toHaveLength(1);
  return lines[0] as string;
}

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe('posdata sync: the database side failing', () => {
  it('bad connection strings are usage errors (exit 2)', async () => {
    for (const [to, want] of [
      [
        'not a url',
        /^posdata: the database connection string is not a URL; give it as postgres:\/\/USER@HOST:PORT\/DB/,
      ],
      ['mysql://u@127.0.0.1/db', /^posdata: 'mysql:' is not a PostgreSQL connection string; /],
      ['postgres://u@127.0.0.1:port/db', /^posdata: the database connection string is not a URL; /],
      // A bad percent-escape was an internal error (URIError, exit 1); the password's is not shown.
      [
        'postgres://sync%ZZer@127.0.0.1/db',
        /^posdata: the user name in the database connection string has a '%' that is not a percent-escape \(%XX\); write a % there as %25$/,
      ],
      [
        'postgres://u@127.0.0.1/ware%ZZhouse',
        /^posdata: the database name in the database connection string /,
      ],
      ['postgres://u:se%ZZcret@127.0.0.1/db', /^posdata: the password in the database connection string /],
      [
        'postgres://u@127.0.0.1/db?sslmode=%ZZ',
        /^posdata: the query string in the database connection string /,
      ],
    ] as const) {
      const r = await runCli(['sync', '--to', to], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(oneLine(r.stderr.replace(/^posdata: warning: .*\n/, ''))).toMatch(want);
      expect(r.stderr).not.toContain('ZZcret');
    }
    const none = await runCli(['sync'], { env: { ...env, POSDATA_SYNC_URL: undefined } });
    expect(none.code).toBe(2);
    expect(oneLine(none.stderr)).toBe(
      'posdata: no database to sync to; use --to postgres://USER@HOST:PORT/DB or set POSDATA_SYNC_URL',
    );
  });

  it('nothing listening: exit 6, says PostgreSQL refused', async () => {
    const port = await closedPort();
    const r = await runCli(['sync', '--to', `postgres://postgres@127.0.0.1:${port}/postgres`], { env });
    expect(r.code).toBe(6);
    expect(oneLine(r.stderr)).toBe(
      `posdata: PostgreSQL at 127.0.0.1:${port} refused the connection; check the host and port of --to (or POSDATA_SYNC_URL) and that PostgreSQL runs there`,
    );
  });

  it('a wrong password: exit 3, names PostgreSQL, never shows the password', async () => {
    const wrong = 'Wrong-pw-8812-never-shown';
    const url = pg.url({ user: 'reader', password: wrong });
    const r = await runCli(['sync', '--to', url, '--debug'], { env });
    expect(r.code).toBe(3);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('posdata: ') && !l.includes('warning'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^posdata: PostgreSQL at 127\\.0\\.0\\.1:${pg.port} rejected the login of role 'reader': .*; check the user and password`,
      ),
    );
    // The password was in --to: a warning says so, and it is masked in the --debug trace.
    expect(r.stderr).toContain('posdata: warning: the password in --to is visible to other users');
    expect(r.stderr).toContain(`[sql] connect postgres://reader:***@127.0.0.1:${pg.port}/postgres`);
    expect(r.stderr + r.stdout).not.toContain(wrong);

    const viaEnv = await runCli(['sync', '--to', pg.url({ user: 'reader', password: '' })], {
      env: { ...env, PGPASSWORD: wrong },
    });
    expect(viaEnv.code).toBe(3);
    expect(oneLine(viaEnv.stderr)).toContain("rejected the login of role 'reader'");
    expect(viaEnv.stderr).not.toContain(wrong);
  });

  it('a role with CREATE but no TEMPORARY: the hint names TEMPORARY, and granting it is enough', async () => {
    await pg.query(`create role notemp login password '${READER_PW}'`);
    await pg.query('create database notemp');
    await pg.query('revoke temporary on database notemp from public');
    await pg.query('grant create on database notemp to notemp');
    const url = pg.url({ user: 'notemp', password: READER_PW, db: 'notemp' });
    const r = await runCli(['sync', 'configs', '--quiet', '--rate', '0'], {
      env: { ...env, POSDATA_SYNC_URL: url },
    });
    expect(r.code, r.stderr).toBe(5);
    expect(oneLine(r.stderr)).toMatch(
      /permission denied to create temporary tables .*; grant the role 'notemp' CREATE and TEMPORARY on the database/,
    );
    await pg.query('grant temporary on database notemp to notemp');
    const ok = await runCli(['sync', 'configs', '--quiet', '--rate', '0'], {
      env: { ...env, POSDATA_SYNC_URL: url },
    });
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('a role without rights: exit 5, says which right to grant', async () => {
    const r = await runCli(['sync', 'configs', '--quiet'], {
      env: { ...env, POSDATA_SYNC_URL: pg.url({ user: 'reader', password: READER_PW }) },
    });
    expect(r.code).toBe(5);
    expect(oneLine(r.stderr)).toMatch(
      new RegExp(
        `^posdata: PostgreSQL at 127\\.0\\.0\\.1:${pg.port} refused: permission denied for database postgres; grant the role 'reader' CREATE and TEMPORARY on the database`,
      ),
    );
    expect(r.stderr).not.toContain(READER_PW);
    // Once granted, the same role syncs.
    await pg.query('grant create on database postgres to reader');
    const ok = await runCli(['sync', 'configs', '--quiet', '--rate', '0'], {
      env: { ...env, POSDATA_SYNC_URL: pg.url({ user: 'reader', password: READER_PW }) },
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toBe('');
  });

  // As a process: pgpass reads the password file named by the process's own environment.
  it('takes the password from a pgpass file, as psql does', async () => {
    await pg.query('grant create on database postgres to reader');
    const dir = mkdtempSync(join(tmpdir(), 'posdata-pgpass-'));
    try {
      const file = join(dir, 'pgpass');
      writeFileSync(file, `127.0.0.1:${pg.port}:postgres:reader:${READER_PW}\n`, { mode: 0o600 });
      const r = await spawnCli(['sync', 'payment_methods', '--rate', '0', '--schema', 'viapgpass'], {
        env: {
          ...env,
          PGPASSFILE: file,
          PGPASSWORD: undefined,
          POSDATA_SYNC_URL: pg.url({ user: 'reader', password: '' }),
        },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^payment_methods: \d+ upserted/);
      expect(r.stderr).not.toContain(READER_PW);
      expect(r.stderr).not.toContain('Warning');

      // No password anywhere: exit 3, says where one would come from.
      const none = await spawnCli(['sync', 'payment_methods', '--schema', 'viapgpass'], {
        env: {
          ...env,
          PGPASSFILE: join(dir, 'missing'),
          PGPASSWORD: undefined,
          POSDATA_SYNC_URL: pg.url({ user: 'reader', password: '' }),
        },
      });
      expect(none.code).toBe(3);
      expect(oneLine(none.stderr)).toMatch(
        /^posdata: PostgreSQL at 127\.0\.0\.1:\d+ asks for a password and none was given for role 'reader'; set PGPASSWORD, or add a line to ~\/\.pgpass/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a database that does not exist: exit 3, one line', async () => {
    const r = await runCli(['sync', '--to', pg.url({ password: '', db: 'nope' })], {
      env: { ...env, PGPASSWORD: pg.password },
    });
    expect(r.code).toBe(3);
    expect(oneLine(r.stderr)).toMatch(
      /^posdata: PostgreSQL at 127\.0\.0\.1:\d+: database "nope" does not exist; /,
    );
  });
});
