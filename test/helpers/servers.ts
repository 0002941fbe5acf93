// Sandboxes logged in, as the tests that compare servers or chain them start them: each with
// the login env of a config folder of its own (a server and the same server capped), or all
// as profiles of one config folder (a chain's shops). Each test file closes what it started.
import type { SandboxHandle, SandboxOptions } from 'posdata/sandbox';
import { freshConfigDir, loginEnv, loginProfile, SUITE_SECRET } from './cli.js';
import { startTestSandbox } from './sandbox.js';

/** Servers of `base` (one seed and data, whatever the faults), each logged in on its own. */
export function loggedInServers(base: SandboxOptions): {
  server(more?: SandboxOptions): Promise<Record<string, string>>;
  close(): Promise<void>;
} {
  const handles: SandboxHandle[] = [];
  return {
    async server(more = {}) {
      const h = await startTestSandbox({ ...base, ...more });
      handles.push(h);
      return loginEnv(h.url);
    },
    async close() {
      for (const h of handles.splice(0)) await h.close();
    },
  };
}

/** A chain's shops: a sandbox per seed, logged in as profiles shop-a, shop-b, … of one config folder. */
export async function chainOfShops(
  seeds: number[],
  opts: SandboxOptions = {},
): Promise<{ env: Record<string, string>; dir: string; close(): Promise<void> }> {
  const dir = freshConfigDir();
  const env = { POSDATA_CONFIG_DIR: dir };
  const handles: SandboxHandle[] = [];
  for (const [i, seed] of seeds.entries()) {
    const h = await startTestSandbox({ seed, orders: 30, adminKey: SUITE_SECRET, ...opts });
    handles.push(h);
    await loginProfile(env, `shop-${String.fromCharCode(97 + i)}`, h.url);
  }
  return {
    env,
    dir,
    async close() {
      for (const h of handles.splice(0)) await h.close();
    },
  };
}
