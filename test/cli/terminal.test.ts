// posdata on a real terminal (a pseudo-terminal from util-linux `script`): the default
// format is a table, colour only there and never with NO_COLOR, progress on stderr for
// long exports, a hidden password prompt.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, loginEnv, SUITE_SECRET, spawnCli } from '../helpers/cli.js';
import { hasScript, type Keys, onTerminal as onTerminalWith } from '../helpers/terminal.js';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
let sandbox: any;
let env: Record<string, string>;

beforeAll(async () => {
  const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
  sandbox = await startSandbox({ port: 0, seed: 4, orders: 3000, adminKey: SUITE_SECRET });
  env = await loginEnv(sandbox.url, 'admin', SUITE_SECRET);
});

afterAll(async () => {
  await sandbox?.close();
});

/** posdata on a terminal, 100 columns wide unless said. */
function onTerminal(args: string[], extraEnv: Record<string, string | undefined>, answer?: Keys | Keys[]) {
  return onTerminalWith(args, { COLUMNS: '100', ...extraEnv }, answer);
}

describe.skipIf(!hasScript)('on a terminal', () => {
  it('the default is a table, with colour for states', async () => {
    const r = await onTerminal(['sales', '--limit', '5', '--rate', '0'], { ...env, NO_COLOR: undefined });
    expect(r.code).toBe(0);
    expect(r.screen).toMatch(/│ (\x1b\[1m)?id(\x1b\[22m)? │/);
    expect(r.screen).toMatch(/\x1b\[\d+m(done|paid|invoiced|cancel|draft)\x1b\[39m/);
    expect(r.screen).toMatch(/5 sales(: \d counted)?, total \d+\.\d\d/);
  });

  it("help wraps at the terminal's width (COLUMNS here), and at 80 in a pipe", async () => {
    const widest = (text: string) => Math.max(...text.split(/\r?\n/).map((l) => l.length));
    const wide = await onTerminal(['sales', '--help'], { COLUMNS: '120' });
    expect(wide.code).toBe(0);
    expect(widest(wide.screen)).toBeGreaterThan(80);
    expect(widest(wide.screen)).toBeLessThanOrEqual(120);
    const piped = await spawnCli(['sales', '--help'], { env: { COLUMNS: '120' } });
    expect(piped.code).toBe(0);
    expect(widest(piped.stdout)).toBeLessThanOrEqual(80);
  });

  it('NO_COLOR turns colour off', async () => {
    const r = await onTerminal(['sales', '--limit', '5', '--rate', '0'], { ...env, NO_COLOR: '1' });
    expect(r.code).toBe(0);
    expect(r.screen).not.toMatch(/\x1b\[\d+m/);
  });

  it('shows progress for an export to a file, and nothing with --quiet', async () => {
    const out = `${freshConfigDir()}/sales.csv`;
    const r = await onTerminal(['sales', '-o', out, '--rate', '0', '--page-size', '300'], env);
    expect(r.code).toBe(0);
    expect(r.screen).toMatch(/\d+ of \d+ records \(\d+%\), \d+\/s/);
    expect(r.screen).toMatch(/posdata: wrote \d+ sales to /);
    const q = await onTerminal(['sales', '-o', out, '--rate', '0', '--page-size', '300', '--quiet'], env);
    expect(q.code).toBe(0);
    expect(q.screen).not.toMatch(/records \(/);
    expect(q.screen.trim()).toBe('');
  });

  it('refuses Parquet onto the terminal (exit 2, before any request), writes it with -o', async () => {
    const r = await onTerminal(['sales', '--format', 'parquet', '--rate', '0'], env);
    expect(r.code).toBe(2);
    expect(r.screen.trim()).toBe(
      'posdata: Parquet is binary and standard output is a terminal; write it to a file with -o FILE.parquet, or pipe it',
    );
    const before = sandbox.requestCount();
    await onTerminal(['sales', '--format', 'parquet', '--rate', '0'], env);
    expect(sandbox.requestCount()).toBe(before);
    const out = `${freshConfigDir()}/sales.parquet`;
    const f = await onTerminal(['sales', '--limit', '50', '-o', out, '--rate', '0'], env);
    expect(f.code).toBe(0);
    expect(readFileSync(out).subarray(0, 4).toString()).toBe('PAR1');
  });

  it('asks for the password without echoing it', async () => {
    const cfg = { POSDATA_CONFIG_DIR: freshConfigDir() };
    const r = await onTerminal(
      ['login', '--url', sandbox.url, '--db', 'demo', '--user', 'admin', '--rate', '0'],
      cfg,
      {
        after: /Password or API key/,
        input: `${SUITE_SECRET}\r`,
      },
    );
    expect(r.code).toBe(0);
    expect(r.screen).toMatch(/Password or API key for admin@127\.0\.0\.1:\d+: /);
    expect(r.screen).not.toContain(SUITE_SECRET);
    expect(r.screen).toMatch(/logged in to/);
  });

  // Issue 22, item 5: a request held back by --rate is shown as a wait, counted down.
  const waits = (screen: string) =>
    [...screen.matchAll(/waiting (\d+) s for the rate limit \(--rate 1\)/g)].map((m) => m[1]);
  const countedDown = {
    after: /waiting (\d+) s[\s\S]*waiting (?!\1 )\d+ s for the rate limit/,
    input: '\x03',
  };

  it('an export held back by the rate limit says it waits and how long, counting down', async () => {
    const out = `${freshConfigDir()}/new-sales.csv`;
    const r = await onTerminal(['sales', '-o', out, '--rate', '1'], env, countedDown);
    expect(r.code).toBe(130);
    const w = waits(r.screen).map(Number);
    expect(w.length).toBeGreaterThanOrEqual(2);
    expect(w[0]).toBeLessThanOrEqual(60);
    expect(w.at(-1)).toBeLessThan(w[0]);
    // Ctrl-C: the interrupt line starts clean, over the progress line (issue 22, item 8 too).
    expect(r.screen).toMatch(/\r\x1b\[Kposdata: interrupted by SIGINT; no -o file was written\r\n$/);
  });

  it('so does a sync', async () => {
    const { startPostgres } = await import('../helpers/postgres.js');
    const pg = await startPostgres();
    try {
      const r = await onTerminal(
        ['sync', '--to', pg.url({ password: '' }), '--rate', '1', 'sales'],
        { ...env, PGPASSWORD: pg.password },
        countedDown,
      );
      expect(r.code).toBe(130);
      expect(r.screen).toMatch(
        /sales: (\d+ of \d+ records \(\d+%\), )?waiting \d+ s for the rate limit \(--rate 1\)/,
      );
      expect(waits(r.screen).length).toBeGreaterThanOrEqual(2);
    } finally {
      await pg.stop();
    }
  });

  // Issue 22, item 4: Ctrl-C and Ctrl-D at the prompt end it on its own line.
  const atPrompt = (key: string) =>
    onTerminal(
      ['login', '--url', sandbox.url, '--db', 'demo', '--user', 'admin', '--rate', '0'],
      { POSDATA_CONFIG_DIR: freshConfigDir() },
      { after: /Password or API key/, input: key },
    );

  it('Ctrl-C at the password prompt: a new line, one line saying so, exit 130', async () => {
    const r = await atPrompt('\x03');
    expect(r.code).toBe(130);
    expect(r.screen).toMatch(
      /Password or API key for admin@127\.0\.0\.1:\d+: (\x1b\[\d+G)?\r\nposdata: interrupted at the password prompt; nothing was stored\r\n$/,
    );
  });

  it('Ctrl-D at the password prompt: a new line, "no password given", exit 2', async () => {
    const r = await atPrompt('\x04');
    expect(r.code).toBe(2);
    expect(r.screen).toMatch(
      /Password or API key for admin@127\.0\.0\.1:\d+: (\x1b\[\d+G)?\r\nposdata: no password given \(end of input at the prompt\); [^\n]*--password-stdin[^\n]*\r\n$/,
    );
  });
});
