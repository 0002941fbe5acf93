#!/usr/bin/env node
// `npm run test:odoo`: posdata against a real Odoo 17 (../shared/odoo17, or the server that
// POSDATA_TEST_ODOO_URL names). Where neither is there, one line says so and the stage passes,
// so that a clone without ../shared still passes its tests.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const shared = fileURLToPath(new URL('../../shared/odoo17/start', import.meta.url));
if (!process.env.POSDATA_TEST_ODOO_URL && !existsSync(shared)) {
  process.stdout.write('test:odoo: skipped: neither ../shared/odoo17 nor POSDATA_TEST_ODOO_URL is there\n');
  process.exit(0);
}
const r = spawnSync(
  process.execPath,
  [
    `${root}node_modules/vitest/vitest.mjs`,
    'run',
    '--config',
    'vitest.odoo.config.ts',
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);
process.exit(r.status ?? 1);
