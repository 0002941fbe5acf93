// The store is made by the first write (login), not by a command that only looks: conf
// writes its defaults when it is constructed, which left an empty store behind a
// `posdata profiles` or `logout` run before any login.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli } from '../helpers/cli.js';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
let sandbox: any;

beforeAll(async () => {
  const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
  sandbox = await startSandbox({ port: 0, seed: 2, orders: 10 });
});
afterAll(async () => sandbox?.close());

describe('the store before any login', () => {
  it('profiles and logout leave no file and no folder; login then makes both, private', async () => {
    const dir = join(freshConfigDir(), 'posdata');
    const env = { POSDATA_CONFIG_DIR: dir };
    const list = await runCli(['profiles'], { env });
    expect(list.code).toBe(0);
    for (const args of [['logout'], ['logout', '--remove']]) {
      const out = await runCli(args, { env });
      expect(out.stderr).toBe('posdata: no profile named default; list them with posdata profiles\n');
    }
    expect(existsSync(dir)).toBe(false);

    const login = await runCli(
      ['login', '--url', sandbox.url, '--db', 'demo', '--user', 'admin', '--password-stdin'],
      { env, input: 'admin' },
    );
    expect(login.code).toBe(0);
    const file = join(dir, 'config.json');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.login).toBe('admin');
  });
});
