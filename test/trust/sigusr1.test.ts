// SIGUSR1 opens Node's inspector (a debugger on 127.0.0.1:9229 that any local account can
// attach to) in a Node process that does not take the signal itself. posdata takes it: a
// log rotation's USR1 leaves serve (which holds every logged-in user's secret) running as
// it was, with no debugger listening. (Every posdata process takes it: bin/ sets it first.)
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { get, startServe } from '../serve/serve-process.js';

let sandbox: SandboxHandle;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 3, orders: 20, days: 2, now: new Date('2026-03-10T12:00:00Z') });
  env = await loginEnv(sandbox.url);
});

afterAll(async () => {
  await sandbox?.close();
});

/** Whether something accepts connections on this loopback port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

// NODE_OPTIONS gives the inspector a port of its own, so the test does not depend on
// who else listens on 9229 on this machine.
const inspectorPort = 39229 + (process.pid % 1000);

describe('SIGUSR1', () => {
  it('leaves posdata serve running and opens no inspector', async () => {
    const served = await startServe(['--rate', '0'], {
      ...env,
      NODE_OPTIONS: `--inspect-port=127.0.0.1:${inspectorPort}`,
    });
    try {
      served.proc.kill('SIGUSR1');
      // The service answers after the signal (Node's inspector, where it opens, opens on
      // the signal's own turn of the event loop, before this request is read).
      expect((await get(served.base, '/')).status).toBe(200);
      expect(await listening(inspectorPort)).toBe(false);
      expect(served.stderr()).not.toMatch(/Debugger listening/);
    } finally {
      expect(await served.stop()).toBe(0);
    }
    expect(served.stderr()).not.toMatch(/Debugger listening/);
  });
});
