// Runs posdata for a test. `runCli`: in this process, from src/ (src/main.ts's run, the
// command's own module and the layers below), with a test IO that keeps what it wrote, and
// an environment of its own: what most tests need, and fast. `spawnCli`: the built CLI
// (bin/posdata.js → dist/) as a real process, for what only a process shows (signals, exit
// on a closed pipe, a hang cut by a kill, another Node). Both record every output in the
// transcript that the suite-wide secret check reads.
import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/posdata.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** Standard output as bytes (Parquet). */
  stdoutBytes: Buffer;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** runCli: the width the test IO's standard output reports, as a terminal's would. */
  columns?: number;
}

/** What only a process has: a working folder, a kill, a pid, another Node. */
export interface ProcessOptions extends CliOptions {
  cwd?: string;
  /** Kill the process after this many ms (the test then sees the signal). */
  killAfterMs?: number;
  killSignal?: NodeJS.Signals;
  /**
   * Kill the process once this holds of its standard error so far, or of its standard output
   * (read only where asked): looked at every 10 ms.
   */
  killWhen?: (stderr: string, stdout: () => string) => boolean;
  node?: string;
  /** Called with the child's pid once it runs (to signal it at a moment the test chooses). */
  started?: (pid: number) => void;
}

/** Every output of every CLI run in this test process, for suite-wide assertions (the secret). */
export const transcript: string[] = [];

/**
 * The secret most tests log in with (the sandbox admin's API key, accepted in place of the
 * password). The global teardown fails the suite if it ever appears in any CLI output.
 */
export const SUITE_SECRET = 'Quagga-7731-suite-secret-api-key';

/**
 * A new, empty config folder. It lives in the run's folder (made by the global setup,
 * removed by its teardown, whatever the test files do), so no run leaves one in the
 * system's temporary folder.
 */
export function freshConfigDir(): string {
  return mkdtempSync(join(process.env.POSDATA_TEST_TMP ?? tmpdir(), 'posdata-test-cfg-'));
}

/** The environment a run sees: the test process's, no colour, and the test's own values. */
function runEnv(opts: CliOptions): Record<string, string> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...opts.env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env as Record<string, string>;
}

function record(stdout: string, stderr: string): void {
  transcript.push(stdout, stderr);
  const dir = process.env.POSDATA_TEST_TRANSCRIPTS;
  if (dir) appendFileSync(join(dir, `${process.pid}.log`), `${stdout}\n${stderr}\n`);
}

/** posdata in this process: its run with a test IO (pipes, not terminals) and its own environment. */
export async function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const unexpected = Object.keys(opts).filter((k) => k !== 'env' && k !== 'input' && k !== 'columns');
  if (unexpected.length > 0)
    throw new Error(`runCli runs in-process: use spawnCli for ${unexpected.join(', ')}`);
  const env = runEnv(opts);
  const { testIO } = await import('../../src/cli/io.js');
  const { run } = await import('../../src/main.js');
  const io = testIO({ input: opts.input, env, columns: opts.columns });
  const code = await run(args, io, env);
  const stdoutBytes = io.stdoutBytes();
  const stdout = stdoutBytes.toString('utf8');
  const stderr = io.stderr();
  record(stdout, stderr);
  return { code, signal: null, stdout, stdoutBytes, stderr };
}

/** posdata as a real process (the built CLI). */
export function spawnCli(args: string[], opts: ProcessOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = runEnv(opts);
    const child = spawn(opts.node ?? process.execPath, [BIN, ...args], {
      cwd: opts.cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      out.push(d);
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    if (child.pid !== undefined) opts.started?.(child.pid);
    let timer: NodeJS.Timeout | undefined;
    if (opts.killAfterMs !== undefined) {
      timer = setTimeout(() => child.kill(opts.killSignal ?? 'SIGTERM'), opts.killAfterMs);
    }
    const watch =
      opts.killWhen &&
      setInterval(() => {
        if (opts.killWhen?.(stderr, () => Buffer.concat(out).toString('utf8'))) {
          clearInterval(watch);
          child.kill(opts.killSignal ?? 'SIGTERM');
        }
      }, 10);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (watch) clearInterval(watch);
      const stdoutBytes = Buffer.concat(out);
      const stdout = stdoutBytes.toString('utf8');
      record(stdout, stderr);
      resolve({ code, signal, stdout, stdoutBytes, stderr });
    });
    child.stdin.on('error', () => undefined);
    if (opts.input !== undefined) child.stdin.end(opts.input);
    else child.stdin.end();
  });
}

/** Logs in with a fresh config dir; returns the env that later runs use. */
export async function loginEnv(
  url: string,
  user = 'admin',
  password = 'admin',
  extra: Record<string, string> = {},
): Promise<Record<string, string>> {
  const env = { POSDATA_CONFIG_DIR: freshConfigDir(), ...extra };
  const r = await runCli(['login', '--url', url, '--db', 'demo', '--user', user, '--password-stdin'], {
    env,
    input: password,
  });
  if (r.code !== 0) throw new Error(`login failed (${r.code}): ${r.stderr}`);
  return env;
}

/** Stores profile `name` for the server at `url` (admin, the suite's API key) in env's store. */
export async function loginProfile(env: Record<string, string>, name: string, url: string): Promise<void> {
  const r = await runCli(
    ['login', '--profile', name, '--url', url, '--db', 'demo', '--user', 'admin', '--password-stdin'],
    { env, input: SUITE_SECRET },
  );
  if (r.code !== 0) throw new Error(`login ${name}: ${r.stderr}`);
}

/** `posdata summary`'s range over all time, in UTC, unthrottled. */
export const ALL_TIME = ['--rate', '0', '--tz', 'UTC', '--from', '2000-01-01', '--to', 'today'];

/** The ORM calls (`model.method`) a `--debug` run sent, in order, from its standard error. */
export function debugCalls(stderr: string): string[] {
  return stderr.split('\n').flatMap((l) => {
    const m = /\[rpc\] → \S+ ([\w.]+\.\w+) /.exec(l);
    return m ? [m[1] as string] : [];
  });
}

/** Runs posdata with standard output going to `path` (a file or a device), as `> path` does. */
export function runToFile(args: string[], path: string, env: Record<string, string>): Promise<CliResult> {
  const fd = openSync(path, 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', fd, 'pipe'],
    });
    closeSync(fd);
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      transcript.push(stderr);
      resolve({ code, signal, stdout: '', stdoutBytes: Buffer.alloc(0), stderr });
    });
  });
}
