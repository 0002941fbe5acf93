// A grouping answer no Odoo gives (`--faults lie=…` on the sandbox: a sum as text, a count
// below zero or with a half, a sum of 1e20, a day that is no day). summary, report and serve
// took them: a string became 0, the counts and 1e20 passed, and the garbage day folded every
// day into one row, all with exit 0. Every read_group and formatted_read_group answer now
// passes one check (src/read/groups.ts): the run stops with exit 6 and one line naming the
// model, the aggregate and the value, as the lists refuse such values; serve answers 502, as
// for any reply of Odoo it cannot use. reconcile and books come through the same check.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliResult, freshConfigDir, loginEnv, runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { get, login, startServe } from '../serve/serve-process.js';

const RANGE = ['--from', '2026-11-20', '--to', '2026-11-27', '--tz', 'UTC', '--rate', '0'];
const dir = mkdtempSync(join(tmpdir(), 'posdata-group-lies-'));
const open: SandboxHandle[] = [];
afterAll(async () => {
  for (const s of open) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Each lie, and the line that must name it: the value as sent, what it was sent for. */
const LIES: [string, RegExp][] = [
  [
    'sum-text',
    /^posdata: the server sent "-?\d+(\.\d+)?" for [\w.]+:sum of a [\w.]+ group, which is not a number;/,
  ],
  ['count-negative', /^posdata: the server sent -\d+ for __count of a [\w.]+ group, which is not a count/],
  ['count-fraction', /^posdata: the server sent \d+\.5 for __count of a [\w.]+ group, which is not a count/],
  [
    'sum-huge',
    /^posdata: the server sent 100000000000000000000 for [\w.]+:(sum|max) of a [\w.]+ group: a figure of up to 3 decimals is carried exactly only below 8,796,093,022,208/,
  ],
  [
    'day-garbage',
    /^posdata: the server sent "yesterday-ish" for [\w.]+:(day|hour) of a [\w.]+ group, which is not a date/,
  ],
];

async function sandboxWith(lie: string, version: 17 | 19): Promise<Record<string, string>> {
  const s = await startTestSandbox({
    seed: 5,
    orders: 300,
    days: 10,
    odooVersion: version,
    faults: `lie=${lie}`,
  });
  open.push(s);
  return loginEnv(s.url);
}

/** The run stops on the lie: exit 6, its one line, and nothing on standard output. */
function refused(r: CliResult, line: RegExp): void {
  expect(r.code, r.stderr).toBe(6);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(line);
  expect(r.stdout).toBe('');
}

describe.each([17, 19] as const)('grouping answers that lie, Odoo %i', { timeout: 120_000 }, (version) => {
  describe.each(LIES)('%s', (lie, line) => {
    let env: Record<string, string>;
    it('summary refuses it (exit 6), by day and by register', async () => {
      env = await sandboxWith(lie, version);
      refused(await runCli(['summary', ...RANGE, '--by', 'day'], { env }), line);
      if (lie !== 'day-garbage')
        refused(await runCli(['summary', ...RANGE, '--format', 'json'], { env }), line);
    });

    it('report refuses it (exit 6) and writes no page', async () => {
      const file = join(dir, `${lie}-${version}.html`);
      refused(await runCli(['report', ...RANGE, '-o', file], { env }), line);
      expect(existsSync(file)).toBe(false);
    });

    // Their groupings (payments, entries' lines per session) have no date: a day cannot lie there.
    it.runIf(lie !== 'day-garbage')('reconcile and books refuse it (exit 6)', async () => {
      refused(await runCli(['reconcile', ...RANGE], { env }), line);
      // On 19 books asks formatted_read_group for sums alone: no count to lie in.
      if (version === 17 || lie.startsWith('sum-')) refused(await runCli(['books', ...RANGE], { env }), line);
    });
  });
});

describe('serve answers a lying Odoo as any reply it cannot use: 502', { timeout: 120_000 }, () => {
  it.each(LIES.map(([lie]) => lie))('%s', async (lie) => {
    const s = await startTestSandbox({ seed: 5, orders: 300, days: 10, faults: `lie=${lie}` });
    open.push(s);
    const served = await startServe(['--url', s.url, '--db', 'demo', '--rate', '0'], {
      POSDATA_CONFIG_DIR: freshConfigDir(),
    });
    try {
      const t = await login(served.base, 'admin', 'admin');
      const r = await get(served.base, '/api/v1/summary?from=2026-11-20&to=2026-11-27&tz=UTC&by=day', t);
      expect(r.status, r.text).toBe(502);
      expect(r.type).toBe('application/problem+json');
      expect(JSON.parse(r.text).detail).toMatch(/Odoo answered in a way the service cannot use/);
    } finally {
      await served.stop();
    }
  });
});
