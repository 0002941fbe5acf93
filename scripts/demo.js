#!/usr/bin/env node
// `npm run demo`: starts the bundled sandbox on a free loopback port, logs in with a
// throw-away config dir, shows the registers, the last ten sales and the latest
// closures, writes sales.csv, and stops the sandbox.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'posdata.js');
const { startSandbox } = await import('../dist/sandbox/index.js');

const sandbox = await startSandbox({ port: 0, seed: 1, orders: 2000, days: 14 });
const configDir = mkdtempSync(join(tmpdir(), 'posdata-demo-'));
const env = { ...process.env, POSDATA_CONFIG_DIR: configDir };

function posdata(args, input) {
  process.stdout.write(`\n$ posdata ${args.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ')}\n`);
  const r = spawnSync(process.execPath, [bin, ...args], {
    env,
    input,
    stdio: [input === undefined ? 'inherit' : 'pipe', 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`posdata ${args[0]} exited with ${r.status}`);
}

try {
  process.stdout.write(
    `Sandbox: ${sandbox.url} (database ${sandbox.db}; users admin/admin, pos/pos, clerk/clerk)\n`,
  );
  posdata(
    ['login', '--url', sandbox.url, '--db', sandbox.db, '--user', 'admin', '--password-stdin'],
    'admin',
  );
  posdata(['whoami']);
  posdata(['configs', '--format', 'table']);
  posdata(['sales', '--format', 'table', '--sort', 'date_order desc', '--limit', '10']);
  posdata(['closures', '--format', 'table', '--sort', 'stop_at desc', '--limit', '5']);
  posdata(['sales', '-o', 'sales.csv']);
  process.stdout.write(`\nWrote sales.csv in ${process.cwd()}\n`);
} finally {
  await sandbox.close();
  rmSync(configDir, { recursive: true, force: true });
}
