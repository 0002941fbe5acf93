// report --format pdf and the browser it starts, as a process: the browser's environment holds
// no secret of the run (a wrapper records what it is given, then runs Debian's Chromium), a
// browser that never prints is ended at --timeout, and SIGTERM ends it and removes the page.
// A Chromium that hangs cannot be asked for: the wrapper stands in for one by sleeping.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, spawnCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
const P = ['report', '--month', '2026-10', '--tz', 'UTC', '--rate', '0', '--format', 'pdf'];
const dir = mkdtempSync(join(tmpdir(), 'posdata-report-pdf-'));
const log = join(dir, 'log');
let sandbox: SandboxHandle;
let env: Record<string, string>;

/** A "Chromium" that writes down its environment, pid and arguments, then prints or hangs. */
function wrapper(hang: boolean): string {
  const file = join(dir, hang ? 'hanging-chromium' : 'chromium');
  writeFileSync(
    file,
    `#!/bin/sh
env > '${log}/env'
for a; do echo "$a"; done > '${log}/args'
echo $$ > '${log}/pid'
exec ${hang ? 'sleep 600' : `${CHROMIUM} "$@"`}
`,
  );
  chmodSync(file, 0o755);
  return file;
}

/** An empty folder for what the wrapper writes down. */
function freshLog(): void {
  rmSync(log, { recursive: true, force: true });
  mkdirSync(log);
}

/** Settles once `file` exists (written by the wrapper). */
function appears(file: string): Promise<void> {
  return new Promise((resolve) => {
    const w = watch(dirname(file), () => {
      if (existsSync(file) && readFileSync(file, 'utf8').endsWith('\n')) {
        w.close();
        resolve();
      }
    });
    if (existsSync(file)) {
      w.close();
      resolve();
    }
  });
}

/** Ended: no such process, or a zombie its parent has not reaped yet. */
function ended(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') === true;
  } catch {
    return true;
  }
}

/** The folder of the page the browser was given (the last argument, a file URL). */
function pageFolder(): string {
  const args = readFileSync(join(log, 'args'), 'utf8').trim().split('\n');
  return dirname(fileURLToPath(args[args.length - 1] as string));
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 5, orders: 300, days: 60, now: new Date('2026-11-28T12:00:00Z') });
  env = await loginEnv(sandbox.url);
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!present)('report --format pdf, the browser it starts', { timeout: 120_000 }, () => {
  it('starts Chromium with no secret of the run in its environment', async () => {
    freshLog();
    const out = join(dir, 'october.pdf');
    const r = await spawnCli([...P, '-o', out], {
      env: {
        ...env,
        POSDATA_CHROMIUM: wrapper(false),
        POSDATA_PASSWORD: 'admin',
        PGPASSWORD: 'pg-secret-4711',
        POSDATA_SYNC_URL: 'postgres://u:pg-secret-4711@127.0.0.1/x',
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
    const seen = readFileSync(join(log, 'env'), 'utf8');
    expect(seen).toMatch(/^PATH=/m);
    expect(seen).not.toMatch(/POSDATA_|PGPASSWORD|pg-secret-4711|=admin$/m);
  });

  it('ends a browser that does not print at --timeout: one line, exit 2, no process or page left', async () => {
    freshLog();
    const out = join(dir, 'never.pdf');
    const r = await spawnCli([...P, '--timeout', '1', '-o', out], {
      env: { ...env, POSDATA_CHROMIUM: wrapper(true) },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^posdata: Chromium did not print the report within 1 s \(--timeout\); /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const pid = Number(readFileSync(join(log, 'pid'), 'utf8'));
    expect(ended(pid)).toBe(true);
    expect(existsSync(pageFolder())).toBe(false);
    expect(existsSync(out)).toBe(false);
  });

  it('on SIGTERM ends the browser and removes the page', async () => {
    freshLog();
    const pidFile = join(log, 'pid');
    let posdata = 0;
    const run = spawnCli([...P, '-o', join(dir, 'stopped.pdf')], {
      env: { ...env, POSDATA_CHROMIUM: wrapper(true) },
      started: (p) => {
        posdata = p;
      },
    });
    await appears(pidFile);
    const folder = pageFolder();
    expect(existsSync(join(folder, 'report.html'))).toBe(true);
    process.kill(posdata, 'SIGTERM');
    const r = await run;
    expect(r.code).toBe(130);
    expect(ended(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
    expect(existsSync(folder)).toBe(false);
  });
});
