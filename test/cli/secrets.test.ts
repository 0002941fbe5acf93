// The stored secret goes only where it was stored for, the store is refused when others
// could read or swap it, and every form a server may echo a secret in is masked
// (issue 18, cases 11, 13 and 14). Real CLI runs against the sandbox and a hostile server.
import { chmodSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type Hostile, startHostile } from '../helpers/hostile.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const SECRET = 'Okapi-5521-stored-secret';
let sandbox: SandboxHandle;
let hostile: Hostile;
let env: Record<string, string>;
const dirs: string[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 3, orders: 60, adminKey: SECRET });
  hostile = await startHostile();
  env = await loginEnv(sandbox.url, 'admin', SECRET);
  dirs.push(env.POSDATA_CONFIG_DIR);
});

afterAll(async () => {
  await sandbox?.close();
  await hostile?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const R = ['--rate', '0', '--format', 'json', '--limit', '2'];

describe('the stored secret is used only for the URL, database and login it was stored for', () => {
  it('another --url gets no secret: exit 3, one line, nothing sent', async () => {
    const before = hostile.received.length;
    const r = await runCli(['sales', ...R, '--url', hostile.url], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^posdata: the stored secret of profile default is for .*; set POSDATA_PASSWORD/,
    );
    expect(hostile.seen()).not.toContain(SECRET);
    expect(hostile.received.length).toBe(before);
  });

  it('POSDATA_URL is another target too', async () => {
    const r = await runCli(['whoami'], { env: { ...env, POSDATA_URL: hostile.url } });
    expect(r.code, r.stderr).toBe(3);
    expect(hostile.seen()).not.toContain(SECRET);
  });

  it('another --db or --user gets no secret either', async () => {
    for (const extra of [
      ['--db', 'other'],
      ['--user', 'pos'],
    ]) {
      const r = await runCli(['sales', ...R, ...extra], { env });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/stored secret .*POSDATA_PASSWORD/);
    }
  });

  it('with POSDATA_PASSWORD the other target is used with that secret', async () => {
    const r = await runCli(['sales', ...R, '--url', hostile.url], {
      env: { ...env, POSDATA_PASSWORD: 'given-for-this-run' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(hostile.seen()).toContain('given-for-this-run');
    expect(hostile.seen()).not.toContain(SECRET);
  });

  it('the same URL written differently (scheme case, no trailing slash, query) is the same target', async () => {
    const port = new URL(sandbox.url).port;
    for (const url of [
      `HTTP://127.0.0.1:${port}`,
      `http://127.0.0.1:${port}/`,
      `http://127.0.0.1:${port}/?x=1#y`,
    ]) {
      const r = await runCli(['sales', ...R, '--url', url], { env });
      expect(r.code, `${url}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveLength(2);
    }
  });
});

describe('a store others could read or swap is refused, as ssh refuses such a key', () => {
  async function freshLogin(): Promise<Record<string, string>> {
    const e = await loginEnv(sandbox.url, 'admin', SECRET);
    dirs.push(e.POSDATA_CONFIG_DIR);
    return e;
  }

  it('a group- or world-readable store file: exit 3, one line with the chmod to run', async () => {
    const e = await freshLogin();
    const file = join(e.POSDATA_CONFIG_DIR, 'config.json');
    chmodSync(file, 0o644);
    for (const args of [['sales', ...R], ['whoami'], ['profiles'], ['logout']]) {
      const r = await runCli(args, { env: e });
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(3);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`run chmod 600 ${file}`);
    }
    expect(statSync(file).mode & 0o777).toBe(0o644); // left for the owner to judge, not silently fixed
    chmodSync(file, 0o600);
    expect((await runCli(['sales', ...R], { env: e })).code).toBe(0);
  });

  it('a store folder open to others: exit 3 with chmod 700', async () => {
    const e = await freshLogin();
    chmodSync(e.POSDATA_CONFIG_DIR, 0o777);
    const r = await runCli(['sales', ...R], { env: e });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`run chmod 700 ${e.POSDATA_CONFIG_DIR}`);
    const l = await runCli(
      ['login', '--url', sandbox.url, '--db', 'demo', '--user', 'admin', '--password-stdin'],
      {
        env: e,
        input: SECRET,
      },
    );
    expect(l.code, l.stderr).toBe(3);
    chmodSync(e.POSDATA_CONFIG_DIR, 0o700);
  });

  it('a symlinked store is never followed', async () => {
    const e = await freshLogin();
    const file = join(e.POSDATA_CONFIG_DIR, 'config.json');
    const elsewhere = mkdtempSync(join(tmpdir(), 'posdata-test-elsewhere-'));
    dirs.push(elsewhere);
    const target = join(elsewhere, 'store.json');
    renameSync(file, target);
    symlinkSync(target, file);
    const r = await runCli(['sales', ...R], { env: e });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/symbolic link/);
    const l = await runCli(['logout'], { env: e });
    expect(l.code, l.stderr).toBe(3);
    expect(readFileSync(target, 'utf8')).toContain(SECRET); // untouched through the link
  });
});
