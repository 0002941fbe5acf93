// Every flag that is a duration in seconds ends up in a timer, and Node's timers hold at most
// 2^31 - 1 ms (~24.8 days): beyond, Node warns on stderr and waits 1 ms, so a large --timeout
// timed out at once and a large --watch refreshed in a busy loop. Such values are refused
// (exit 2, one line) and the longest accepted one waits without a warning.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freshConfigDir, loginEnv, runCli, spawnCli } from '../helpers/cli.js';
import { startTestSandbox } from '../helpers/sandbox.js';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
let sandbox: any;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 4, orders: 30, now: new Date('2026-11-25T12:00:00Z') });
  env = await loginEnv(sandbox.url);
});

afterAll(async () => {
  await sandbox?.close();
});

/** The longest a timer waits, in whole seconds. */
const MAX = 2147483;

const refused: [string, (v: string) => string[]][] = [
  ['sales --timeout', (v) => ['sales', '--timeout', v]],
  ['summary --timeout', (v) => ['summary', '--timeout', v]],
  [
    'login --timeout',
    (v) => ['login', '--url', sandbox.url, '--db', 'demo', '--user', 'admin', '--timeout', v],
  ],
  ['sync --timeout', (v) => ['sync', '--timeout', v]],
  ['summary --watch', (v) => ['summary', '--watch', v]],
  ['serve --timeout', (v) => ['serve', '--port', '0', '--timeout', v]],
  ['serve --token-ttl', (v) => ['serve', '--port', '0', '--token-ttl', v]],
  ['serve --header-timeout', (v) => ['serve', '--port', '0', '--header-timeout', v]],
  ['sandbox --live', (v) => ['sandbox', '--port', '0', '--live', v]],
];

describe('a duration beyond a timer', () => {
  for (const [name, args] of refused) {
    for (const value of [String(MAX + 1), '2592000', '99999999999']) {
      it(`${name} ${value}: exit 2, one line`, async () => {
        const r = await runCli(args(value), { env });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(
          new RegExp(
            `^posdata: --[a-z-]+ '${value}' is longer than a timer can wait \\(${MAX} s, about 24 days\\); give --[a-z-]+ at most ${MAX} seconds\\n$`,
          ),
        );
        expect(r.stdout).toBe('');
      });
    }
  }

  it("tap: the config's timeout too", async () => {
    const config = join(freshConfigDir(), 'tap.json');
    writeFileSync(config, JSON.stringify({ url: sandbox.url, db: 'demo', user: 'admin', timeout: MAX + 1 }));
    const r = await runCli(['tap', '--config', config], { env: { POSDATA_PASSWORD: 'admin' } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^posdata: timeout in the config .* must be at most 2147483 seconds/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });

  it('the longest accepted --timeout and --watch wait without a warning', async () => {
    const r = await spawnCli(['sales', '--limit', '2', '--timeout', String(MAX), '--rate', '0'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const w = await spawnCli(['summary', '--watch', String(MAX), '--times', '1', '--rate', '0', '-q'], {
      env,
    });
    expect(w.code, w.stderr).toBe(0);
    expect(w.stderr).not.toMatch(/Warning/);
  }, 30_000);

  it('serve with the longest --timeout holds a connection without a warning', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--rate', '0', '--timeout', String(MAX)],
      {
        env: { ...process.env, ...env, NO_COLOR: '1' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    const base = await new Promise<string>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        const m = /posdata serve: (http:\/\/\S+) /.exec(stderr);
        if (m) resolve(m[1] as string);
      });
      child.on('exit', () => reject(new Error(stderr)));
    });
    const res = await fetch(base);
    await res.arrayBuffer();
    const closed = new Promise((r) => child.on('close', r));
    child.kill('SIGTERM');
    await closed;
    expect(stderr).not.toMatch(/TimeoutOverflowWarning|does not fit/);
  }, 30_000);
});
