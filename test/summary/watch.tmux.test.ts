// summary --watch on a real terminal (a tmux pane, read back with `tmux capture-pane`): the
// day's table redrawn in place as the sandbox's --live orders come in (one heading in the
// whole scrollback, however many refreshes), and Ctrl-C leaving the last figures on the
// screen, the line above untouched, exit 0.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, loginEnv } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const TMUX = '/usr/bin/tmux';
const present = existsSync(TMUX);
if (!present) console.warn(`watch tmux test skipped: ${TMUX} is missing (apt-get install -y tmux)`);

const SOCKET = `posdata-test-${process.pid}`;
const tmux = (...args: string[]): string =>
  execFileSync(TMUX, ['-L', SOCKET, '-f', '/dev/null', ...args], { encoding: 'utf8' });
const quote = (a: string): string => `'${a.replace(/'/g, "'\\''")}'`;

/** What the pane shows; with `all`, its scrollback too. */
const screen = (all = false): string => tmux('capture-pane', '-p', '-t', 'w', ...(all ? ['-S', '-'] : []));

async function until<T>(look: () => T | undefined, what: string, tries = 400): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const got = look();
    if (got !== undefined) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never saw ${what}; the pane shows:\n${screen()}`);
}

/** tmux, to stop what may be gone already. */
function tmuxQuietly(...args: string[]): void {
  try {
    tmux(...args);
  } catch {
    /* already gone */
  }
}

/**
 * A tmux session `name`, 120 columns and `rows` rows, where a line is echoed, then
 * `posdata summary ARGS` runs, then its exit code is echoed.
 */
function openPane(name: string, rows: number, env: Record<string, string>, args: string[]): void {
  const run = [
    'env',
    `POSDATA_CONFIG_DIR=${env.POSDATA_CONFIG_DIR}`,
    'NO_COLOR=1',
    process.execPath,
    BIN,
    'summary',
  ]
    .concat(args)
    .map(quote)
    .join(' ');
  const script = `echo 'the line before'; ${run}; echo EXIT=$?; sleep 600`;
  tmux('new-session', '-d', '-s', name, '-x', '120', '-y', String(rows), `bash -c ${quote(script)}`);
}

/** The heading's refresh time and the register row's orders, once both are on the screen. */
function figures(text: string): { at: string; orders: number } | undefined {
  const at = /^summary of .* · refreshed (\d\d:\d\d:\d\d) ·/m.exec(text)?.[1];
  const orders = /^│ Shop\s+│\s+(\d+) │/m.exec(text)?.[1];
  return at && orders ? { at, orders: Number(orders) } : undefined;
}

describe.skipIf(!present)('summary --watch in a terminal (tmux)', () => {
  let sandbox: SandboxHandle;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 11, orders: 100, live: 0.05 });
    openPane('w', 30, await loginEnv(sandbox.url), [
      '--date',
      'today',
      '--watch',
      '1',
      '--rate',
      '0',
      '--retries',
      '0',
    ]);
  });

  afterAll(async () => {
    tmuxQuietly('kill-server');
    await sandbox?.close();
  });

  it('redraws the figures in place as orders come in', async () => {
    const first = await until(() => figures(screen()), 'the first refresh');
    // A later refresh: another time, more orders (the sandbox sells every 50 ms).
    const later = await until(() => {
      const f = figures(screen());
      return f && f.at !== first.at && f.orders > first.orders ? f : undefined;
    }, 'a refresh with more orders');
    expect(later.orders).toBeGreaterThan(first.orders);
    // In place: one heading and one table in the whole scrollback, not one per refresh.
    const history = screen(true);
    expect(history.match(/^summary of /gm)).toHaveLength(1);
    expect(history.match(/^│ register /gm)).toHaveLength(1);
    expect(history).toContain('the line before');
  });

  it('a refresh that fails shows its line under the last figures and keeps watching', async () => {
    const before = await until(() => figures(screen()), 'the figures');
    const port = sandbox.port;
    await sandbox.close();
    const failed = await until(() => {
      const text = screen();
      return /refresh failed at \d\d:\d\d:\d\d, next try/.test(text) &&
        /^posdata: connection to 127\.0\.0\.1:\d+ refused/m.test(text)
        ? text
        : undefined;
    }, 'the failed refresh');
    // The last figures stay on the screen above the error line.
    expect(figures(failed)?.orders).toBeGreaterThanOrEqual(before.orders);
    sandbox = await startTestSandbox({ seed: 11, orders: 100, live: 0.05, port });
    const back = await until(() => {
      const text = screen();
      return !text.includes('refresh failed') && !text.includes('posdata: connection') ? text : undefined;
    }, 'a refresh after the server came back');
    expect(figures(back)).toBeDefined();
    expect(screen(true).match(/^summary of /gm)).toHaveLength(1);
  });

  it('Ctrl-C leaves the last figures readable and exits 0', async () => {
    const later = await until(() => figures(screen()), 'the figures');
    tmux('send-keys', '-t', 'w', 'C-c');
    const end = await until(() => /^EXIT=(\d+)$/m.exec(screen())?.[1], 'the exit');
    expect(end).toBe('0');
    const after = screen();
    const last = figures(after);
    expect(last?.orders).toBeGreaterThanOrEqual(later.orders);
    expect(after).toContain('the line before');
    expect(after).toMatch(/^summary of \d{4}-\d\d-\d\d \(Europe\/Brussels\) · refreshed /m);
    // The figures end above the exit line; nothing of posdata's (no ^C, no interrupt line) below.
    const lines = after.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('EXIT=0');
    expect(after).not.toContain('interrupted');
    expect(after).not.toContain('^C');
  });
});

describe.skipIf(!present)('summary --watch of a table taller than the terminal (tmux)', () => {
  let sandbox: SandboxHandle;
  const pane = (all = false): string => tmux('capture-pane', '-p', '-t', 'tall', ...(all ? ['-S', '-'] : []));

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 12, orders: 400, days: 20, live: 0.05 });
    openPane('tall', 12, await loginEnv(sandbox.url), [
      '--from',
      '2000-01-01',
      '--by',
      'day',
      '--watch',
      '1',
      '--rate',
      '0',
    ]);
  });

  afterAll(async () => {
    tmuxQuietly('kill-session', '-t', 'tall');
    await sandbox?.close();
  });

  it('shows what fits and says how much more there is; redrawn in place, never under itself', async () => {
    const first = await until(() => /refreshed (\d\d:\d\d:\d\d)/.exec(pane())?.[1], 'the first refresh');
    await until(() => {
      const at = /refreshed (\d\d:\d\d:\d\d)/.exec(pane())?.[1];
      return at && at !== first ? at : undefined;
    }, 'a second refresh');
    const shown = pane();
    expect(shown).toMatch(/^… \d+ more lines below: the terminal has 12 rows; a taller one shows them all$/m);
    expect(shown.trimEnd().split('\n').length).toBeLessThanOrEqual(12);
    // One heading and one table head in the whole scrollback, however many refreshes.
    const history = pane(true);
    expect(history.match(/^summary of /gm), history).toHaveLength(1);
    expect(history.match(/^│ day /gm), history).toHaveLength(1);
    tmux('send-keys', '-t', 'tall', 'C-c');
    expect(await until(() => /^EXIT=(\d+)$/m.exec(pane())?.[1], 'the exit')).toBe('0');
  });
});
