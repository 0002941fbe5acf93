// A long table on a terminal goes through a pager, as git and gh do (issue 25): POSDATA_PAGER,
// else PAGER, else `less -FRX`; never when piped, nor when the table fits the terminal; off
// with POSDATA_PAGER= or cat. The terminal is a real pseudo-terminal (util-linux `script`) and
// the pager a real program that records what it was given.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagerOf } from '../../src/cli/io.js';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { hasScript, onTerminal as onTerminalWith } from '../helpers/terminal.js';

const R = ['--rate', '0', '--tz', 'UTC', '--quiet'];
let sandbox: SandboxHandle;
let env: Record<string, string | undefined>;
let dir: string;
let recorder: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 6, orders: 200 });
  env = {
    ...(await loginEnv(sandbox.url)),
    PAGER: undefined,
    POSDATA_PAGER: undefined,
    LESS: undefined,
    COLUMNS: '120',
    LINES: '20',
  };
  dir = mkdtempSync(join(process.env.POSDATA_TEST_TMP ?? '/tmp', 'posdata-pager-'));
  recorder = join(dir, 'recorder.cjs');
  // The pager: keeps what it read, whether its output is the terminal, and LESS.
  writeFileSync(
    recorder,
    `const fs = require('node:fs');
let text = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { text += d; });
process.stdin.on('end', () => {
  fs.writeFileSync(process.argv[2], JSON.stringify({ text, tty: Boolean(process.stdout.isTTY), less: process.env.LESS }));
  process.stdout.write('PAGER SHOWED IT\\n');
});
`,
  );
});

afterAll(async () => {
  await sandbox?.close();
});

let n = 0;
/** A pager command line that records into a file of its own; and that file's reader. */
function recording(): { cmd: string; got: () => { text: string; tty: boolean; less?: string } | undefined } {
  const file = join(dir, `got-${n++}.json`);
  return {
    cmd: `'${process.execPath}' '${recorder}' '${file}'`,
    got: () => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined),
  };
}

/** posdata on a terminal, in the test's environment and these values. */
function onTerminal(
  args: string[],
  extra: Record<string, string | undefined>,
  type?: { after: RegExp; input: string },
) {
  return onTerminalWith(args, { ...env, NO_COLOR: '1', ...extra }, type);
}

describe('which pager', () => {
  it('POSDATA_PAGER, else PAGER, else less -FRX; none off a terminal, when set empty, or cat', () => {
    expect(pagerOf({}, true)).toBe('less -FRX');
    expect(pagerOf({ PAGER: 'more' }, true)).toBe('more');
    expect(pagerOf({ PAGER: 'more', POSDATA_PAGER: 'most' }, true)).toBe('most');
    expect(pagerOf({ PAGER: 'more', POSDATA_PAGER: '' }, true)).toBeUndefined();
    expect(pagerOf({ PAGER: 'cat' }, true)).toBeUndefined();
    expect(pagerOf({ POSDATA_PAGER: 'most' }, false)).toBeUndefined();
  });
});

describe.skipIf(!hasScript)('a long table on a terminal', () => {
  it('goes through the pager, whole, the pager writing to the terminal (LESS=FRX set for it)', async () => {
    const p = recording();
    const t = await onTerminal(['sales', '--limit', '40', '--format', 'table', ...R], {
      POSDATA_PAGER: p.cmd,
    });
    expect(t.code, t.screen).toBe(0);
    const got = p.got();
    expect(got, t.screen).toBeDefined();
    // The same table a pipe gets at this width, nothing else: the pager had it all.
    const piped = await runCli(['sales', '--limit', '40', '--format', 'table', ...R], { env });
    expect(got?.text).toBe(piped.stdout);
    expect(got?.tty).toBe(true);
    expect(got?.less).toBe('FRX');
    expect(t.screen).toContain('PAGER SHOWED IT');
    expect(t.screen).not.toContain('40 sales');
  });

  it('reconcile too: a month of sessions goes through the pager', async () => {
    const p = recording();
    const args = ['reconcile', '--from', '2000-01-01', '--format', 'table', ...R];
    const t = await onTerminal(args, { POSDATA_PAGER: p.cmd });
    expect(t.code, t.screen).toBe(0);
    const piped = await runCli(args, { env });
    expect(piped.stdout.split('\n').length).toBeGreaterThan(20);
    expect(p.got()?.text).toBe(piped.stdout);
  });

  it('PAGER is used when POSDATA_PAGER is not set', async () => {
    const p = recording();
    const t = await onTerminal(['sales', '--limit', '40', '--format', 'table', ...R], { PAGER: p.cmd });
    expect(t.code, t.screen).toBe(0);
    expect(p.got()?.text).toMatch(/40 sales/);
  });

  it('not for a table that fits the terminal, nor with POSDATA_PAGER= or cat', async () => {
    const short = recording();
    const fits = await onTerminal(['sales', '--limit', '3', '--format', 'table', ...R], {
      POSDATA_PAGER: short.cmd,
    });
    expect(fits.code, fits.screen).toBe(0);
    expect(short.got()).toBeUndefined();
    expect(fits.screen).toContain('3 sales');
    for (const off of ['', 'cat']) {
      const p = recording();
      const t = await onTerminal(['sales', '--limit', '40', '--format', 'table', ...R], {
        POSDATA_PAGER: off,
        PAGER: p.cmd,
      });
      expect(t.code, t.screen).toBe(0);
      expect(p.got()).toBeUndefined();
      expect(t.screen).toContain('40 sales');
    }
  });

  it('a pager that does not exist: the table is written directly', async () => {
    const t = await onTerminal(['sales', '--limit', '40', '--format', 'table', ...R], {
      POSDATA_PAGER: join(dir, 'no-such-pager'),
    });
    expect(t.code, t.screen).toBe(0);
    expect(t.screen).toContain('40 sales');
  });

  it("Ctrl-C while the pager shows the table is the pager's: posdata waits for it and ends 0", async () => {
    // A pager that, like less, takes Ctrl-C as its own: it says so, and quits.
    const pager = join(dir, 'ctrl-c.cjs');
    writeFileSync(
      pager,
      `process.on('SIGINT', () => { process.stdout.write('PAGER GOT CTRL-C\\n'); process.exit(0); });
process.stdin.resume();
process.stdin.on('end', () => { process.stdout.write('PAGER UP\\n'); setInterval(() => undefined, 1000); });
`,
    );
    const t = await onTerminal(
      ['sales', '--limit', '40', '--format', 'table', ...R],
      { POSDATA_PAGER: `'${process.execPath}' '${pager}'` },
      { after: /PAGER UP/, input: '\x03' },
    );
    expect(t.screen).toContain('PAGER GOT CTRL-C');
    expect(t.screen).not.toContain('interrupted');
    expect(t.code, t.screen).toBe(0);
  });

  it('never when piped, however long', async () => {
    const p = recording();
    const r = await runCli(['sales', '--limit', '40', '--format', 'table', ...R], {
      env: { ...env, POSDATA_PAGER: p.cmd },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(p.got()).toBeUndefined();
    expect(r.stdout).toMatch(/40 sales/);
  });
});
