// The summary's table on a real terminal (a pseudo-terminal from util-linux `script`): a bar
// per hour or day, shades in the heat map, also without colour; none of it when piped.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, loginEnv, runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const hasScript = existsSync('/usr/bin/script');
const ALL = ['--from', '2000-01-01', '--to', 'today', '--tz', 'UTC', '--rate', '0', '--quiet'];
let sandbox: SandboxHandle;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 8, orders: 600 });
  env = await loginEnv(sandbox.url);
});

afterAll(async () => {
  await sandbox?.close();
});

/** Runs posdata with stdin, stdout and stderr on one pseudo-terminal; returns what it showed. */
function onTerminal(
  args: string[],
  extraEnv: Record<string, string | undefined>,
): Promise<{ code: number | null; screen: string }> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  return new Promise((resolve) => {
    const e: Record<string, string | undefined> = { ...process.env, COLUMNS: '160', ...extraEnv };
    for (const k of Object.keys(e)) if (e[k] === undefined) delete e[k];
    const child = spawn('script', ['-qec', quoted, '/dev/null'], { env: e as NodeJS.ProcessEnv });
    let screen = '';
    child.stdout.on('data', (d) => {
      screen += d;
    });
    child.on('close', (code) => resolve({ code, screen }));
    child.stdin.end();
  });
}

describe.skipIf(!hasScript)('posdata summary on a terminal', () => {
  it('--by hour draws a bar per row, the longest for the best hour, with NO_COLOR too', async () => {
    const r = await onTerminal(['summary', ...ALL, '--by', 'hour'], { ...env, NO_COLOR: '1' });
    expect(r.code).toBe(0);
    expect(r.screen).not.toMatch(/\x1b\[\d+m/);
    const lines = r.screen.split('\n').map((l) => l.split('│').map((c) => c.trim()));
    const head = lines.find((c) => c.includes('hour')) as string[];
    const at = head.indexOf('total');
    const rows = lines.filter((c) => /^\d\d:00$/.test(c[1] ?? ''));
    expect(rows.length).toBeGreaterThan(3);
    const totals = rows.map((c) => Number(c[at]));
    const bars = rows.map((c) => (/(█+)/.exec(c[head.length - 2] ?? '')?.[1] ?? '').length);
    const best = totals.indexOf(Math.max(...totals));
    expect(bars[best]).toBe(20);
    expect(Math.min(...bars)).toBeLessThan(20);
    expect(r.screen).toMatch(/│\s*total\s*│/);
  });

  it('--by hour,weekday is a grid of hours by weekdays, shaded on a terminal and plain when piped', async () => {
    const t = await onTerminal(['summary', ...ALL, '--by', 'hour,weekday'], env);
    expect(t.code).toBe(0);
    expect(t.screen).toMatch(/hour\S* │\s+\S*Mon/);
    expect(t.screen).toMatch(/[░▒▓█] \d+\.\d\d/);
    const p = await runCli(['summary', ...ALL, '--by', 'hour,weekday', '--format', 'table'], { env });
    expect(p.code).toBe(0);
    expect(p.stdout).toMatch(/│ {2}hour │ {6}Mon │/);
    expect(p.stdout).not.toMatch(/[░▒▓█]/);
  });
});
