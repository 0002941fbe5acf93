// The README's first command: `npm run demo` starts the sandbox, logs in with a throw-away
// store, shows registers, the last sales and closures, yesterday's summary, and writes sales.csv
// outside the checkout (issue 22: it was left in it), saying where.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('the demo shows POS data and writes sales.csv outside the checkout, saying where', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'posdata-demo-test-'));
  // The system's temporary folder, as the demo sees it.
  const tmp = mkdtempSync(join(tmpdir(), 'posdata-demo-tmp-'));
  const script = fileURLToPath(new URL('../scripts/demo.js', import.meta.url));
  const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [script], {
      cwd,
      env: {
        ...process.env,
        TMPDIR: tmp,
        POSDATA_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'posdata-demo-cfg-')),
      },
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
  // yesterday's figures per register (the totals row only when both registers sold that day:
  // the sandbox's Kiosk is closed on some days)
  expect(out).toMatch(/\$ posdata summary --date yesterday/);
  expect(out).toMatch(/│ (Shop|Kiosk) +│ +\d+ │/);
  const registers = out.match(/│ (Shop|Kiosk) +│ +\d+ │/g) ?? [];
  if (registers.length > 1) expect(out).toMatch(/│ total +│ +\d+ │/);
  // Nothing is left where it ran (the checkout, for npm run demo).
  expect(readdirSync(cwd)).toEqual([]);
  const file = join(tmp, 'posdata-demo', 'sales.csv');
  expect(out).toContain(`Wrote every sale to ${file} (outside the checkout; the next demo replaces it)`);
  expect(readFileSync(file, 'utf8').split('\n')[0]).toMatch(/^id,name,date_order/);
  rmSync(tmp, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
}, 120_000);
