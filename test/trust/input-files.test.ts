// Files posdata reads whole: the tap's --config and --state, login's --password-file. An
// endless one (/dev/zero) or a huge one (300 MB) aborted Node; a named pipe with no writer
// blocked in an open that no signal ended. Each is refused up front in one line, exit 2.
// A store edited by hand with a secret that is a number is one clear line; a state saved
// with a UTF-8 byte order mark (Notepad) is taken.
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli, spawnCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let dir: string;
let fifo: string;
let huge: string;
let config: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 6, orders: 10, days: 2, now: new Date('2026-03-10T12:00:00Z') });
  dir = mkdtempSync(join(tmpdir(), 'posdata-inputs-'));
  fifo = join(dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  // 300 MB that take no disk: a sparse file.
  huge = join(dir, 'huge.json');
  const fd = openSync(huge, 'w');
  ftruncateSync(fd, 300 * 1024 * 1024);
  closeSync(fd);
  config = join(dir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      url: sandbox.url,
      db: 'demo',
      user: 'admin',
      password: 'admin',
      rate: 0,
      streams: ['configs'],
    }),
  );
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A run of the built CLI (a process: a blocked open would show as the test's timeout). */
async function refused(args: string[], line: RegExp): Promise<void> {
  const r = await spawnCli(args, { env: { POSDATA_CONFIG_DIR: freshConfigDir() } });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(line);
}

describe('a file read whole that is endless, huge or a pipe', () => {
  it('tap --config', async () => {
    await refused(
      ['tap', '--config', '/dev/zero'],
      /^posdata: the config \/dev\/zero is a device or another special file, not a regular file; /,
    );
    await refused(
      ['tap', '--config', fifo],
      /^posdata: the config .*pipe is a named pipe, not a regular file; /,
    );
    await refused(['tap', '--config', huge], /^posdata: the config .*huge\.json is larger than 1 MiB; /);
  });

  it('tap --state', async () => {
    await refused(
      ['tap', '--config', config, '--state', '/dev/zero'],
      /^posdata: the state \/dev\/zero is a device/,
    );
    await refused(['tap', '--config', config, '--state', fifo], /^posdata: the state .*pipe is a named pipe/);
    await refused(
      ['tap', '--config', config, '--state', huge],
      /^posdata: the state .*huge\.json is larger than 64 MiB; /,
    );
  });

  it('login --password-file', async () => {
    const login = ['login', '--url', sandbox.url, '--db', 'demo', '--user', 'admin', '--password-file'];
    await refused([...login, '/dev/zero'], /^posdata: the password file \/dev\/zero is a device/);
    await refused([...login, fifo], /^posdata: the password file .*pipe is a named pipe/);
    await refused([...login, huge], /^posdata: the password file .*huge\.json is larger than 64 KiB; /);
  });
});

describe('files edited by hand', () => {
  it('a store whose secret is a number: one line, exit 2, naming the key', async () => {
    const store = freshConfigDir();
    chmodSync(store, 0o700);
    const file = join(store, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        profiles: { default: { url: sandbox.url, db: 'demo', login: 'admin', secret: 12345, uid: 2 } },
        current: 'default',
      }),
      { mode: 0o600 },
    );
    for (const cmd of [['sales'], ['whoami']]) {
      const r = await runCli(cmd, { env: { POSDATA_CONFIG_DIR: store } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(
        `posdata: the posdata store ${file} is damaged: profile default has a secret that is not a string; fix it, or log in again with posdata login --profile default\n`,
      );
    }
    // Logging in again mends it.
    const again = await runCli(
      ['login', '--url', sandbox.url, '--db', 'demo', '--user', 'admin', '--password-stdin'],
      { env: { POSDATA_CONFIG_DIR: store }, input: 'admin' },
    );
    expect(again.code, again.stderr).toBe(0);
    expect((await runCli(['whoami'], { env: { POSDATA_CONFIG_DIR: store } })).code).toBe(0);
  });

  it('a state with a UTF-8 byte order mark is read', async () => {
    const state = join(dir, 'state-bom.json');
    writeFileSync(
      state,
      `\uFEFF${JSON.stringify({ bookmarks: { configs: { write_date: '2026-01-01T00:00:00Z' } } })}\n`,
    );
    const r = await runCli(['tap', '--config', config, '--state', state], {
      env: { POSDATA_CONFIG_DIR: freshConfigDir() },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/"type":"RECORD","stream":"configs"/);
  });
});
