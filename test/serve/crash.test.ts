// A promise that fails with nobody waiting for it is a bug, in the service too: posdata says
// so in one line and ends with exit 1; it is neither silenced nor Node's stack trace. The
// failure is planted in the real process by a module Node loads first (NODE_OPTIONS --import).
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, loginEnv, spawnCli } from '../helpers/cli.js';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
let sandbox: any;
let env: Record<string, string>;
const planted = `--import=data:text/javascript,${encodeURIComponent(
  "setTimeout(() => { Promise.reject(new Error('planted failure')); }, 2000);",
)}`;

beforeAll(async () => {
  const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
  sandbox = await startSandbox({ port: 0, seed: 3, orders: 20 });
  env = await loginEnv(sandbox.url);
});

afterAll(async () => {
  await sandbox?.close();
});

/** posdata serve with a module planted (NODE_OPTIONS), until it exits (killed after 30 s). */
const serve = (args: string[], plant: string) =>
  spawnCli(['serve', '--port', '0', '--rate', '0', ...args], {
    env: { ...env, NODE_OPTIONS: plant },
    killAfterMs: 30_000,
  });

describe('an unhandled rejection in posdata serve', () => {
  it('is one line on stderr and exit 1', async () => {
    const r = await serve([], planted);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      'posdata: internal error: planted failure; please report it (run with --debug for details)',
    );
    expect(r.stderr).not.toMatch(/^\s+at /m);
  }, 30_000);

  it('with --debug, shows its stack, in the lines of src/ (the source maps dist/ ships)', async () => {
    // A failure inside posdata's own code: run() of the CLI's main module without its IO.
    const main = pathToFileURL(join(dirname(BIN), '..', 'dist', 'main.js')).href;
    const inside = `--import=data:text/javascript,${encodeURIComponent(
      `setTimeout(async () => { const m = await import(${JSON.stringify(main)}); await m.run(); }, 2000);`,
    )}`;
    const r = await serve(['--debug'], inside);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/posdata: internal error: .*; please report it/);
    expect(r.stderr).toMatch(/^\s+at .*src\/(main|cli\/\w+)\.ts:\d+:\d+/m);
  }, 30_000);
});
