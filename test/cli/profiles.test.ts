// Which profile is the default after a login (issue 22, item 6): the first one stored, and
// no other by logging in to it; `profiles --use` moves it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 6, orders: 20 });
});

afterAll(async () => {
  await sandbox?.close();
});

describe('posdata profiles with no store', () => {
  it('says so in one line on stderr, nothing on stdout, exit 0', async () => {
    const r = await runCli(['profiles'], { env: { POSDATA_CONFIG_DIR: freshConfigDir() } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('posdata: no profile stored yet; run posdata login to make one\n');
    const quiet = await runCli(['profiles', '--quiet'], { env: { POSDATA_CONFIG_DIR: freshConfigDir() } });
    expect(quiet.stderr).toBe('');
  });
});

describe('the default profile', () => {
  it('login --profile leaves an existing default as it is, and says so', async () => {
    const env = { POSDATA_CONFIG_DIR: freshConfigDir() };
    const login = (user: string, password: string, ...more: string[]) =>
      runCli(['login', '--url', sandbox.url, '--db', 'demo', '--user', user, '--password-stdin', ...more], {
        env,
        input: password,
      });
    const first = await login('admin', 'admin');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/; profile default\n$/);
    const other = await login('pos', 'pos', '--profile', 'v19');
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toMatch(
      /; profile v19 \(the default stays default: use --profile v19, or posdata profiles --use v19\)\n$/,
    );
    const who = await runCli(['whoami', '--format', 'json'], { env });
    expect(JSON.parse(who.stdout)).toMatchObject({ profile: 'default', login: 'admin' });
    // Chosen with profiles --use, it stays the default through logins to others.
    expect((await runCli(['profiles', '--use', 'v19'], { env })).code).toBe(0);
    await login('admin', 'admin');
    expect(JSON.parse((await runCli(['whoami', '--format', 'json'], { env })).stdout).profile).toBe('v19');
  });

  it('the first profile ever stored becomes the default, and says so', async () => {
    const env = { POSDATA_CONFIG_DIR: freshConfigDir() };
    const r = await runCli(
      [
        'login',
        '--profile',
        'shop',
        '--url',
        sandbox.url,
        '--db',
        'demo',
        '--user',
        'pos',
        '--password-stdin',
      ],
      { env, input: 'pos' },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/; profile shop \(now the default\)\n$/);
    const who = await runCli(['whoami', '--format', 'json'], { env });
    expect(JSON.parse(who.stdout)).toMatchObject({ profile: 'shop', login: 'pos' });
  });

  it('login --help says which profile becomes the default', async () => {
    const r = await runCli(['login', '--help']);
    expect(r.stdout).toMatch(/The first profile stored becomes the default; logging in to another profile/);
  });
});
