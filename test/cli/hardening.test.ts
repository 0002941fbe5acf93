// Issue 18, the usage cases: values posdata used to take, misread or fail on with an
// internal error. Each row: the exact exit code, one line on stderr starting `posdata:`, no
// stack trace, nothing on stdout, no output file left.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, loginEnv, runCli, SUITE_SECRET, spawnCli } from '../helpers/cli.js';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
let sandbox: any;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
  sandbox = await startSandbox({ port: 0, seed: 2, orders: 200, adminKey: SUITE_SECRET });
  env = await loginEnv(sandbox.url, 'admin', SUITE_SECRET);
  dir = mkdtempSync(join(tmpdir(), 'posdata-hardening-'));
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Row = [string, string[], number, RegExp?];

const rows: Row[] = [
  // case 18
  ['rate too small to wait for', ['sales', '--rate', '0.0000001'], 2, /--rate '0.0000001' is too slow/],
  // case 22: ordinary problems that were exit 1 "internal error"
  [
    'domain 5000 lists deep',
    ['sales', '--domain', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    2,
    /--domain .*deep/,
  ],
  [
    'domain value 5000 lists deep',
    ['sales', '--domain', `[["id", "in", ${'['.repeat(5000)}${']'.repeat(5000)}]]`],
    2,
    /--domain .*deep/,
  ],
  [
    'context 5000 deep',
    ['sales', '--context', `{"a": ${'['.repeat(5000)}${']'.repeat(5000)}}`],
    2,
    /--context .*deep/,
  ],
  ['sandbox port 70000', ['sandbox', '--port', '70000'], 2, /--port '70000'/],
  ['serve port 70000', ['serve', '--port', '70000'], 2, /--port '70000'/],
  [
    'sandbox unknown fault',
    ['sandbox', '--port', '0', '--faults', 'bogus@1'],
    2,
    /--faults: unknown fault kind 'bogus'/,
  ],
  [
    'sandbox fault rate above 1',
    ['sandbox', '--port', '0', '--faults', 'rate=2:502'],
    2,
    /--faults: bad fault rate/,
  ],
  ['sandbox fault rule unreadable', ['sandbox', '--port', '0', '--faults', 'now'], 2, /--faults/],
  ['sandbox fault at 0', ['sandbox', '--port', '0', '--faults', '502@0'], 2, /--faults/],
  ['sandbox fault seed not a number', ['sandbox', '--port', '0', '--faults', 'seed=x;502@1'], 2, /--faults/],
  // case 23
  ['delimiter a double quote', ['sales', '--delimiter', '"'], 2, /--delimiter/],
  ['delimiter a newline', ['sales', '--delimiter', '\n'], 2, /--delimiter/],
  ['delimiter a carriage return', ['sales', '--delimiter', '\r'], 2, /--delimiter/],
  ['delimiter on reconcile', ['reconcile', '--delimiter', '"'], 2, /--delimiter/],
  [
    'domain number out of range',
    ['sales', '--domain', '[["amount_total", ">", 1e400]]'],
    2,
    /--domain .*1e400|--domain .*number/,
  ],
  ['context number out of range', ['sales', '--context', '{"x": -1e400}'], 2, /--context .*number/],
  [
    'from with offset +25:00',
    ['sales', '--from', '2026-11-01T10:00+25:00'],
    2,
    /--from '2026-11-01T10:00\+25:00'/,
  ],
  ['to with offset -13:60', ['sales', '--to', '2026-11-01 10:00-13:60'], 2, /--to/],
  ['unknown command with --help', ['salez', '--help'], 2, /unknown command 'salez'/],
  ['unknown command with -h', ['nosuch', '-h'], 2, /unknown command 'nosuch'/],
];

describe('usage errors of issue 18', () => {
  for (const [name, args, code, match] of rows) {
    it(`${name} → exit ${code}`, async () => {
      const out = args.includes('-o') || args[0] === 'sandbox' ? args : [...args, '-o', join(dir, 'out.csv')];
      const withRate = out.includes('--rate') || out[0] === 'sandbox' ? out : [...out, '--rate', '0'];
      const r = await runCli(withRate, { env });
      expect(r.signal, r.stderr).toBeNull();
      expect(r.code, r.stderr).toBe(code);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^posdata: /);
      expect(r.stderr).not.toMatch(/\n\s+at |Error:|TypeError|node:internal|internal error/);
      if (match) expect(lines[0]).toMatch(match);
      expect(r.stdout).toBe('');
      expect(readdirSync(dir)).toEqual([]);
    });
  }
});

describe('a port in use (case 22)', () => {
  it('sandbox and serve: exit 2, one line, what to do', async () => {
    const { createServer } = await import('node:net');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as { port: number }).port);
    try {
      for (const cmd of ['sandbox', 'serve']) {
        const r = await runCli([cmd, '--port', port], { env });
        expect(r.signal, r.stderr).toBeNull();
        expect(r.code, r.stderr).toBe(2);
        const lines = r.stderr.trimEnd().split('\n');
        expect(lines, r.stderr).toHaveLength(1);
        expect(lines[0]).toMatch(
          new RegExp(`^posdata: port ${port} on 127.0.0.1 is already in use; .*--port`),
        );
      }
    } finally {
      taken.close();
    }
  });
});

describe('smaller things (case 23)', () => {
  it('an offset within ±14:00 is still accepted', async () => {
    const r = await runCli(['sales', '--from', '2026-11-01T10:00+14:00', '--dry-run', '--rate', '0'], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('2026-10-31 20:00:00');
  });

  it('help of an unknown command: exit 2, the same line as the unknown command itself (issue 22)', async () => {
    const typo = await runCli(['slaes'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      "posdata: unknown command 'slaes'; did you mean sales? see posdata sales --help\n",
    );
    const help = await runCli(['help', 'slaes'], { env });
    expect(help.code).toBe(2);
    expect(help.stderr).toBe(typo.stderr);
    expect(help.stdout).toBe('');
    const known = await runCli(['help', 'sales'], { env });
    expect(known.code).toBe(0);
    expect(known.stdout).toMatch(/^Usage: posdata sales/);
  });

  it('a known command with --help still prints its help', async () => {
    const r = await runCli(['sales', '--help'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: posdata sales/);
  });

  it('an interrupt says what became of the -o file: none written, or the old one as it was (issue 22)', async () => {
    // One request a minute: the export is still running when the signal comes.
    const fresh = join(dir, 'fresh.csv');
    const r = await spawnCli(['sales', '-o', fresh, '--rate', '1'], {
      env,
      killWhen: () => readdirSync(dir).some((f) => f.startsWith('.fresh.csv')),
      killSignal: 'SIGINT',
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toBe('posdata: interrupted by SIGINT; no -o file was written\n');
    expect(readdirSync(dir).filter((f) => f.includes('fresh'))).toEqual([]);
    const old = join(dir, 'old.csv');
    writeFileSync(old, 'OLD\n');
    const o = await spawnCli(['sales', '-o', old, '--rate', '1'], {
      env,
      killWhen: () => readdirSync(dir).some((f) => f.startsWith('.old.csv')),
      killSignal: 'SIGINT',
    });
    expect(o.stderr).toBe('posdata: interrupted by SIGINT; the -o file was left as it was\n');
    expect(readFileSync(old, 'utf8')).toBe('OLD\n');
  });

  it('an interrupt without -o does not speak of -o', async () => {
    // A server that accepts the request and never answers: posdata waits until interrupted.
    const { createServer } = await import('node:http');
    let asked = false;
    const silent = createServer(() => {
      asked = true;
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    try {
      const r = await spawnCli(['sales', '--protocol', 'jsonrpc', '--rate', '0'], {
        env: {
          POSDATA_CONFIG_DIR: env.POSDATA_CONFIG_DIR,
          POSDATA_URL: url,
          POSDATA_DB: 'demo',
          POSDATA_USER: 'admin',
          POSDATA_PASSWORD: 'x',
        },
        // Interrupted once its request is waiting, not at a time a loaded machine may not have reached.
        killWhen: () => asked,
        killSignal: 'SIGINT',
      });
      expect(r.code).toBe(130);
      expect(r.stderr).toBe('posdata: interrupted by SIGINT\n');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('config folders of the tests live in the run folder that the global teardown removes', () => {
    const run = process.env.POSDATA_TEST_TMP;
    expect(run, 'the global setup makes one folder per run').toBeTruthy();
    const d = freshConfigDir();
    expect(dirname(d)).toBe(run);
    expect(basename(d)).toMatch(/^posdata-test-cfg-/);
  });
});

describe('a fractional --rate (case 18)', () => {
  it('is accepted', async () => {
    const r = await runCli(['sales', '--rate', '0.5', '--dry-run'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).model).toBe('pos.order');
  });
});
