// A reader that closes standard output before the end. `posdata sales | head` took what it
// wanted: the run ends quietly, exit 0, as the contract says. A Singer target that closes
// the tap's output missed the rest of the stream: one line, exit 2, never a silent success.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freshConfigDir, loginEnv } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let dir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 7, orders: 600, days: 5, now: new Date('2026-03-10T12:00:00Z') });
  dir = mkdtempSync(join(tmpdir(), 'posdata-closed-'));
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The built CLI whose standard output's reader closes it after the first chunk. */
function readFirstChunk(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.stdout.once('data', () => child.stdout.destroy());
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const TAP_BIN = fileURLToPath(new URL('../../bin/tap-posdata.js', import.meta.url));

/** A command line run by the shell, its standard output redirected as `redirect` says (`>&-`). */
function withStdout(redirect: string, argv: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn('sh', ['-c', `exec "$@" ${redirect}`, 'sh', process.execPath, ...argv], {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** The tap as Meltano runs it (tap-posdata), into a reader process that exits after one byte: the tap's exit code. */
function tapIntoExitingReader(config: string) {
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(
      'bash',
      [
        '-c',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's, not a template
        '"$@" | head -c 1 > /dev/null; exit "${PIPESTATUS[0]}"',
        'bash',
        process.execPath,
        TAP_BIN,
        '--config',
        config,
      ],
      {
        env: { ...process.env, NO_COLOR: '1', POSDATA_CONFIG_DIR: freshConfigDir() },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

function tapConfig(): string {
  const config = join(dir, 'tap.json');
  writeFileSync(
    config,
    JSON.stringify({
      url: sandbox.url,
      db: 'demo',
      user: 'admin',
      password: 'admin',
      rate: 0,
      page_size: 50,
    }),
  );
  return config;
}

const CLOSED =
  'posdata: standard output is closed (it is /dev/null opened read-write, as a closed one is reopened), so the data would go nowhere; give the data a place: a pipe, a file (> FILE or -o FILE), or > /dev/null to discard it on purpose\n';

// Linux: Node reopens a closed standard output on /dev/null read-write, as /proc shows.
describe.runIf(process.platform === 'linux')('standard output closed before posdata starts (>&-)', () => {
  it('an export: one line, exit 2', async () => {
    const r = await withStdout('>&-', [BIN, 'sales', '--rate', '0'], await loginEnv(sandbox.url));
    expect(r.stderr).toBe(CLOSED);
    expect(r.code).toBe(2);
  });

  it('the tap (tap-posdata): one line, exit 2', async () => {
    const r = await withStdout('>&-', [TAP_BIN, '--config', tapConfig()], {
      POSDATA_CONFIG_DIR: freshConfigDir(),
    });
    expect(r.stderr).toBe(CLOSED);
    expect(r.code).toBe(2);
  });

  it('> /dev/null (write-only, on purpose) and -o FILE stay quiet, exit 0', async () => {
    const env = await loginEnv(sandbox.url);
    const devnull = await withStdout('> /dev/null', [BIN, 'sales', '--rate', '0'], env);
    expect(devnull).toEqual({ code: 0, stderr: '' });
    const file = await withStdout('>&-', [BIN, 'sales', '--rate', '0', '-o', join(dir, 'sales.csv')], env);
    expect(file).toEqual({ code: 0, stderr: '' });
  });
});

describe('standard output closed by its reader', () => {
  it('the tap (tap-posdata) into a loader that exits mid-stream: one line, exit 2', async () => {
    const r = await tapIntoExitingReader(tapConfig());
    expect(r.stderr).toBe(
      "posdata: cannot write standard output: the Singer target closed it before the stream ended; see the target's own error\n",
    );
    expect(r.code).toBe(2);
  });

  it('an export: ends quietly, exit 0 (| head)', async () => {
    const env = await loginEnv(sandbox.url);
    const r = await readFirstChunk(['sales', '--format', 'ndjson', '--rate', '0', '--page-size', '50'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('the tap: one line, exit 2', async () => {
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        url: sandbox.url,
        db: 'demo',
        user: 'admin',
        password: 'admin',
        rate: 0,
        page_size: 50,
      }),
    );
    const r = await readFirstChunk(['tap', '--config', config], { POSDATA_CONFIG_DIR: freshConfigDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "posdata: cannot write standard output: the Singer target closed it before the stream ended; see the target's own error\n",
    );
  });
});
