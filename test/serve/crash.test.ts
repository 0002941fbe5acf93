// A promise that fails with nobody waiting for it is a bug, in the service too: posdata says
// so in one line and ends with exit 1; it is neither silenced nor Node's stack trace. The
// failure is planted in the real process by a module Node loads first (NODE_OPTIONS --import).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv } from '../helpers/cli.js';
import { type Served, startServe } from './serve-process.js';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
let sandbox: any;
let env: Record<string, string>;
const planted = `--import=data:text/javascript,${encodeURIComponent(
  "setTimeout(() => { Promise.reject(new Error('planted failure')); }, 1500);",
)}`;

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ port: 0, seed: 3, orders: 20 });
  env = await loginEnv(sandbox.url);
});

afterAll(async () => {
  await sandbox?.close();
});

async function exitOf(served: Served): Promise<number | null> {
  return new Promise((resolve) => {
    if (served.proc.exitCode !== null) resolve(served.proc.exitCode);
    else served.proc.on('exit', (code) => resolve(code));
  });
}

describe('an unhandled rejection in posdata serve', () => {
  it('is one line on stderr and exit 1', async () => {
    const served = await startServe(['--rate', '0'], { ...env, NODE_OPTIONS: planted });
    try {
      expect(await exitOf(served)).toBe(1);
      const lines = served.stderr().trim().split('\n');
      expect(lines.at(-1)).toBe(
        'posdata: internal error: planted failure; please report it (run with --debug for details)',
      );
      expect(served.stderr()).not.toMatch(/^\s+at /m);
    } finally {
      await served.stop();
    }
  }, 30_000);

  it('shows its stack with --debug', async () => {
    const served = await startServe(['--rate', '0', '--debug'], { ...env, NODE_OPTIONS: planted });
    try {
      expect(await exitOf(served)).toBe(1);
      expect(served.stderr()).toMatch(/posdata: internal error: planted failure;/);
      expect(served.stderr()).toMatch(/^\s+at /m);
    } finally {
      await served.stop();
    }
  }, 30_000);
});
