// The stored secret goes only where it was stored for, the store is refused when others
// could read or swap it, and every form a server may echo a secret in is masked
// (issue 18, cases 11, 13 and 14). Real CLI runs against the sandbox and a hostile server.
import { rmSync } from 'node:fs';
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
