// The report over a server that resets connections: docs/retries.md says a reset is retried,
// and the report's grouping calls (read_group, Odoo's costly calls) were sent once, so a loaded
// server's reset ended the report with "connection was reset" (exit 6). A sandbox that resets
// every fourth request, over real sockets, gives the same page as one that does not.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { reportData } from '../helpers/report.js';
import { startTestSandbox } from '../helpers/sandbox.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'posdata-report-resets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function month(faults: string | undefined, name: string) {
  const sandbox = await startTestSandbox({ seed: 3, days: 40, orders: 1500, leaks: true, now: NOW, faults });
  try {
    const env = await loginEnv(sandbox.url);
    const file = join(dir, `${name}.html`);
    const r = await runCli(['report', '--month', '2026-10', '--tz', 'UTC', '--rate', '0', '-o', file], {
      env,
    });
    return { r, data: r.code === 0 ? reportData(readFileSync(file, 'utf8')) : undefined };
  } finally {
    await sandbox.close();
  }
}

it('a reset grouping call is sent again: the page is the one a quiet server gives', {
  timeout: 240_000,
}, async () => {
  const quiet = await month(undefined, 'quiet');
  expect(quiet.r.code, quiet.r.stderr).toBe(0);
  const reset = await month('every=4:reset', 'reset');
  expect(reset.r.code, reset.r.stderr).toBe(0);
  expect(reset.r.stderr).not.toMatch(/was reset|retry/);
  expect(reset.data?.currencies).toEqual(quiet.data?.currencies);
});
