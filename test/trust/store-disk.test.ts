// The profile store and the completion cache beside it on a disk that refuses the write: a
// full one (a tmpfs of 64 KiB, filled) and a read-only one (a read-only bind mount: root
// ignores permission bits, a mount it cannot). login and logout say so in one line, exit 2;
// a data run goes on without its completion cache; no temporary file is left, and those
// that runs killed before left are swept.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let base: string;
const mounted: string[] = [];

/** Mounts what `args` say on a new folder under base; undefined where this machine will not. */
function mount(name: string, args: string[]): string | undefined {
  const dir = join(base, name);
  if (!existsSync(dir)) mkdirSync(dir);
  try {
    execFileSync('mount', [...args, dir], { stdio: 'ignore' });
    mounted.unshift(dir);
    return dir;
  } catch {
    return undefined;
  }
}

const canMount = process.getuid?.() === 0;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 4, orders: 10, days: 2, now: new Date('2026-03-10T12:00:00Z') });
  base = mkdtempSync(join(tmpdir(), 'posdata-store-disk-'));
});

afterAll(async () => {
  for (const dir of mounted) execFileSync('umount', [dir]);
  if (base) rmSync(base, { recursive: true, force: true });
  await sandbox?.close();
});

const login = (env: Record<string, string>, profile = 'default') =>
  runCli(
    [
      'login',
      '--profile',
      profile,
      '--url',
      sandbox.url,
      '--db',
      'demo',
      '--user',
      'admin',
      '--password-stdin',
    ],
    {
      env,
      input: 'admin',
    },
  );

function oneLine(stderr: string, reason: string): void {
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(stderr).toMatch(new RegExp(`^posdata: cannot write the posdata store .*config\\.json: ${reason}; `));
}

describe('the store on a disk that refuses the write', () => {
  it.skipIf(!canMount)(
    'a full disk: login and logout exit 2 in one line, no temporary file left',
    async () => {
      const disk = mount('full', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs']);
      if (!disk) return;
      const env = { POSDATA_CONFIG_DIR: join(disk, 'cfg') };
      expect((await login(env)).code).toBe(0);
      // A temporary file of a run killed before, whose process is gone.
      writeFileSync(join(disk, 'cfg', 'completion.json.999999999.tmp'), '{');
      // The disk filled to its last byte.
      expect(() => writeFileSync(join(disk, 'fill'), Buffer.alloc(128 * 1024))).toThrow(/ENOSPC/);

      const data = await runCli(['configs', '--format', 'csv'], { env });
      expect(data.code, data.stderr).toBe(0);
      expect(data.stderr).toBe('');

      const again = await login(env, 'two');
      expect(again.code).toBe(2);
      oneLine(again.stderr, 'no space left on device');
      const out = await runCli(['logout'], { env });
      expect(out.code).toBe(2);
      oneLine(out.stderr, 'no space left on device');
      expect(readdirSync(join(disk, 'cfg')).filter((n) => n.includes('tmp'))).toEqual([]);
      expect(readdirSync(join(disk, 'cfg'))).toContain('config.json');
    },
  );

  it.skipIf(!canMount)('a read-only folder: login and logout exit 2 in one line', async () => {
    const dir = join(base, 'ro');
    mkdirSync(dir);
    const env = { POSDATA_CONFIG_DIR: join(dir, 'cfg') };
    expect((await login(env)).code).toBe(0);
    if (!mount('ro', ['--bind', '-o', 'ro', dir])) return;
    // Some kernels take the bind's read-only flag at a remount only.
    execFileSync('mount', ['-o', 'remount,ro,bind', dir]);
    expect(() => writeFileSync(join(dir, 'probe'), '')).toThrow(/EROFS/);

    const out = await runCli(['logout'], { env });
    expect(out.code).toBe(2);
    oneLine(out.stderr, 'read-only file system');
    const again = await login(env, 'two');
    expect(again.code).toBe(2);
    oneLine(again.stderr, 'read-only file system');
    expect(existsSync(join(dir, 'cfg', 'config.json'))).toBe(true);
  });
});
