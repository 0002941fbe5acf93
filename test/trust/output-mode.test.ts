// -o FILE replaces the file atomically (a temporary file renamed over it): the replacement
// keeps the permission bits, owner and group the operator gave the file it replaces, so an
// export locked down to 0600, or 0640 for an accountants' group, stays so at the next run.
import { chmodSync, chownSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 3, orders: 20, days: 2, now: new Date('2026-03-10T12:00:00Z') });
  env = await loginEnv(sandbox.url);
  dir = mkdtempSync(join(tmpdir(), 'posdata-mode-'));
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('-o keeps the access of the file it replaces', () => {
  it.each([
    ['0600', 0o600],
    ['0640', 0o640],
  ])('a %s file stays so, its group too', async (_name, mode) => {
    const file = join(dir, `sales-${mode.toString(8)}.csv`);
    writeFileSync(file, 'old\n');
    chmodSync(file, mode);
    // A group other than this process's, as an accountants' group would be.
    const gid = (process.getgid?.() ?? 0) + 4242;
    const canChown = process.getuid?.() === 0;
    if (canChown) chownSync(file, process.getuid?.() ?? 0, gid);
    const r = await runCli(['sales', '--format', 'csv', '-o', file, '--tz', 'UTC'], { env });
    expect(r.code, r.stderr).toBe(0);
    const st = statSync(file);
    expect(st.size).toBeGreaterThan(4);
    expect(st.mode & 0o777).toBe(mode);
    if (canChown) expect(st.gid).toBe(gid);
  });

  it('a new file is made as before (0644 less the umask)', async () => {
    const file = join(dir, 'new.csv');
    const r = await runCli(['sales', '--format', 'csv', '-o', file], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o644 & ~process.umask());
  });
});
