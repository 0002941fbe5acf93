// The README's first command: `npm run demo` starts the sandbox, logs in with a throw-away
// store, shows registers, the last sales and closures, yesterday's summary, and writes sales.csv.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('the demo shows POS data and writes sales.csv', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'posdata-demo-test-'));
  const script = fileURLToPath(new URL('../scripts/demo.js', import.meta.url));
  const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [script], {
      cwd,
      env: { ...process.env, POSDATA_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'posdata-demo-cfg-')) },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('close', (c) => resolve({ code: c, out }));
  });
  expect(code).toBe(0);
  expect(out).toMatch(/\$ posdata configs/);
  expect(out).toMatch(/POS\/\d+/);
  expect(out).toMatch(/\d+ closures/);
  // yesterday's figures per register, with the totals row
  expect(out).toMatch(/\$ posdata summary --date yesterday/);
  expect(out).toMatch(/│ total +│ +\d+ │/);
  const csv = readFileSync(join(cwd, 'sales.csv'), 'utf8');
  expect(existsSync(join(cwd, 'sales.csv'))).toBe(true);
  expect(csv.split('\n')[0]).toMatch(/^id,name,date_order/);
}, 120_000);
