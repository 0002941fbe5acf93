// What a run over several servers does once for the chain rather than once per server: the
// completion cache (store/remembered.ts) read and written once at the chain's end, every
// server's fields in it.
import { readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, loginProfile, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const sandboxes: SandboxHandle[] = [];
let env: Record<string, string>;
let dir: string;
const NAMES = ['shop-a', 'shop-b', 'shop-c', 'shop-d'];

beforeAll(async () => {
  dir = freshConfigDir();
  env = { POSDATA_CONFIG_DIR: dir };
  for (const [i, name] of NAMES.entries()) {
    const s = await startTestSandbox({ seed: 70 + i, orders: 6, adminKey: SUITE_SECRET });
    sandboxes.push(s);
    await loginProfile(env, name, s.url);
  }
}, 60_000);

afterAll(async () => {
  for (const s of sandboxes) await s.close();
});

/** How many times `file` in the config folder is put in place (a write: a temporary file renamed over it) while `fn` runs. */
async function placings(file: string, fn: () => Promise<void>): Promise<number> {
  let n = 0;
  const watcher = watch(dir, (event, name) => {
    if (event === 'rename' && name === file) n++;
  });
  try {
    await fn();
    // inotify's events come after the run's last write, on the next turns of the loop.
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    watcher.close();
  }
  return n;
}

describe('a chain of servers', () => {
  it('writes the completion cache once, with every server in it', async () => {
    const writes = await placings('completion.json', async () => {
      const r = await runCli(
        ['sales', '--from', '2000-01-01', '--tz', 'UTC', '--rate', '0', '--format', 'csv', '--all-profiles'],
        { env },
      );
      expect(r.code, r.stderr).toBe(0);
    });
    const cache = JSON.parse(readFileSync(join(dir, 'completion.json'), 'utf8')) as Record<
      string,
      { fields: Record<string, string[]> }
    >;
    const keys = Object.keys(cache);
    expect(keys).toHaveLength(NAMES.length);
    for (const s of sandboxes) {
      const key = keys.find((k) => k.startsWith(new URL(s.url).origin));
      expect(key, s.url).toBeDefined();
      expect(cache[key as string]?.fields['pos.order']).toContain('amount_total');
    }
    // Each server's run read and rewrote the whole file at its end: once per server.
    expect(writes).toBe(1);
  });

  it("says a server's options' warning once, led by its profile, and never the secret in them", async () => {
    // sync's options warn of a password in --to; the chain's check worked them out with the
    // chain's IO (the warning unled, once per server) and each run again (led by its profile).
    const r = await runCli(
      [
        'sync',
        'sales',
        '--to',
        'postgres://u:Sekr3t-pw-9@127.0.0.1:1/db',
        '--schema',
        'x_{profile}',
        '--all-profiles',
      ],
      { env },
    );
    expect(r.code, r.stderr).toBe(8);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('the password in --to is visible'));
    expect(warnings.map((l) => l.split(':')[1])).toEqual(NAMES.map((n) => ` profile ${n}`));
    expect(r.stderr).not.toContain('Sekr3t-pw-9');
  });
});
