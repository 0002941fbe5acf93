// A reader that closes standard output before the end. `posdata sales | head` took what it
// wanted: the run ends quietly, exit 0, as the contract says. A Singer target that closes
// the tap's output missed the rest of the stream: one line, exit 2, never a silent success.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('standard output closed by its reader', () => {
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
