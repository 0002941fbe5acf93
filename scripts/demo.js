#!/usr/bin/env node
// `npm run demo`: starts the bundled sandbox on a free loopback port, logs in with a
// throw-away config dir, shows the registers, the last ten sales and the latest
// closures, writes sales.csv in the system's temporary folder (posdata-demo/, never in
// the checkout; each run replaces it) and says where, and stops the sandbox.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'posdata.js');
const { startSandbox } = await import('posdata/sandbox');

const sandbox = await startSandbox({ port: 0, seed: 1, orders: 2000, days: 14 });
const configDir = mkdtempSync(join(tmpdir(), 'posdata-demo-'));
const env = { ...process.env, POSDATA_CONFIG_DIR: configDir };

// Asynchronous on purpose: the sandbox answers from this very process.
function posdata(args, input) {
  process.stdout.write(`\n$ posdata ${args.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ')}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'inherit', 'inherit'],
    });
    if (input !== undefined) child.stdin.end(input);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`posdata ${args[0]} exited with ${code}`)),
    );
  });
}

try {
  process.stdout.write(
    `Sandbox: ${sandbox.url} (database ${sandbox.db}; users admin/admin, pos/pos, clerk/clerk)\n`,
  );
  await posdata(
    ['login', '--url', sandbox.url, '--db', sandbox.db, '--user', 'admin', '--password-stdin'],
    'admin',
  );
  await posdata(['whoami']);
  await posdata(['configs', '--format', 'table']);
  await posdata(['sales', '--format', 'table', '--sort', 'date_order desc', '--limit', '10']);
  await posdata(['closures', '--format', 'table', '--sort', 'stop_at desc', '--limit', '5']);
  await posdata(['summary', '--date', 'yesterday', '--format', 'table']);
  const outDir = join(tmpdir(), 'posdata-demo');
  mkdirSync(outDir, { recursive: true });
  const csv = join(outDir, 'sales.csv');
  await posdata(['sales', '-o', csv]);
  process.stdout.write(`\nWrote every sale to ${csv} (outside the checkout; the next demo replaces it)\n`);
} finally {
  await sandbox.close();
  rmSync(configDir, { recursive: true, force: true });
}
