// The summary's table on a real terminal (a pseudo-terminal from util-linux `script`): a bar
// per hour or day, shades in the heat map, also without colour; none of it when piped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { hasScript, onTerminal as onTerminalWith } from '../helpers/terminal.js';

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

/** posdata on a terminal 160 columns wide. */
function onTerminal(args: string[], extraEnv: Record<string, string | undefined>) {
  return onTerminalWith(args, { COLUMNS: '160', ...extraEnv });
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
