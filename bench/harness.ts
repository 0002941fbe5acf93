// What every figure of `npm run bench` shares: the options, the scratch folder and the
// environment the measured processes run in, running a process to completion (wall time,
// output), the sandbox and a throwaway PostgreSQL in child processes, `posdata login`, a
// counting HTTP proxy, peak RSS through /usr/bin/time, the number formats and the Markdown
// table of figures, and the figures of the BENCHMARKS.md a run replaces.
//
// The sandboxes run as child processes (`posdata sandbox`), not in this process: the server's
// CPU and heap then never mix with the harness's, both run on their own core, and the
// harness stays small while it parses 200k-row CSVs. RPC calls are therefore counted from
// `posdata --debug` (one `[rpc] →` line per request).
import { type ChildProcess, execFileSync, type StdioOptions, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The repository: the folder above this file's that holds package.json (bench/ or the compiled copy). */
function findRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export const ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
export const BIN = join(ROOT, 'bin', 'posdata.js');
export const HANDMADE = join(ROOT, 'bench', 'handmade.sh');
export const ODOORPC = join(ROOT, 'bench', 'odoorpc_export.py');
/** bench/min-client.ts as the bench compiles it (dist-bench/, beside run.js). */
export const MIN_CLIENT = join(ROOT, 'dist-bench', 'min-client.js');
export const SEED = 9;
/** posdata's default --page-size. */
export const PAGE_SIZE = 2000;
export const SUMMARY_DAYS = 30;

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    orders: { type: 'string' },
    'memory-orders': { type: 'string' },
    'sync-orders': { type: 'string' },
    runs: { type: 'string' },
    out: { type: 'string' },
    'no-odoorpc': { type: 'boolean', default: false },
    'summary-orders': { type: 'string' },
    only: { type: 'string' },
  },
});
const quick = flags.quick;

/** The bench's options (usage in bench/run.ts). */
export const opts = {
  quick,
  orders: Number(flags.orders ?? (quick ? 20000 : 200000)),
  // Peak RSS as perf-memory measures it since issue 42: 200k against 1M sales, past V8's first
  // growth of its young space (which a 20k export ends before).
  memOrders: Number(flags['memory-orders'] ?? (quick ? 20000 : 1000000)),
  memSmall: quick ? 2000 : 200000,
  /** The sync and the tap: a sandbox of their own size (a sync of 1M would double their minutes). */
  syncOrders: Number(flags['sync-orders'] ?? (quick ? 20000 : 500000)),
  /** The sync's memory at a small size, against syncOrders. */
  syncSmall: quick ? 2000 : 20000,
  runs: Number(flags.runs ?? (quick ? 2 : 5)),
  summaryOrders: Number(flags['summary-orders'] ?? (quick ? 20000 : 300000)),
  /** The file the full run writes (none in quick mode unless --out). */
  out: flags.out ?? (quick ? undefined : join(ROOT, 'BENCHMARKS.md')),
  /** --out as given, for a section alone. */
  outGiven: flags.out,
  noOdoorpc: flags['no-odoorpc'],
  only: flags.only,
};

export const TMP = mkdtempSync(join(tmpdir(), 'posdata-bench-'));
const CFG = join(TMP, 'config');
/** A profile store of a section's own (one with several profiles). */
export const CFG_FOR = (name: string): string => join(TMP, `config-${name}`);
export const ENV: NodeJS.ProcessEnv = { ...process.env, POSDATA_CONFIG_DIR: CFG, NO_COLOR: '1' };
delete ENV.POSDATA_PROFILE;
delete ENV.POSDATA_URL;
delete ENV.POSDATA_PASSWORD;
const children = new Set<ChildProcess>();
export const t0 = Date.now();

export function log(msg: string): void {
  process.stderr.write(`[bench ${((Date.now() - t0) / 1000).toFixed(0).padStart(4)}s] ${msg}\n`);
}

function cleanup(): void {
  for (const c of children) c.kill('SIGTERM');
  rmSync(TMP, { recursive: true, force: true });
}
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  input?: string;
  stdout?: 'pipe' | 'ignore' | number;
  stderr?: 'pipe' | 'ignore' | number;
}

export interface RunResult {
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion; wall time in ms, stdout/stderr captured unless ignored. */
export function run(
  cmd: string,
  args: string[],
  { env = ENV, input, stdout = 'pipe', stderr = 'pipe' }: RunOptions = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const stdio: StdioOptions = [input === undefined ? 'ignore' : 'pipe', stdout, stderr];
    const p = spawn(cmd, args, { env, stdio });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    p.stdout?.on('data', (d: Buffer) => out.push(d));
    p.stderr?.on('data', (d: Buffer) => err.push(d));
    if (input !== undefined) p.stdin?.end(input);
    p.on('error', reject);
    p.on('close', (code) => {
      resolve({
        ms: Number(process.hrtime.bigint() - start) / 1e6,
        code,
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
      });
    });
  });
}

/** As run(), failing unless the command exits 0. */
export async function must(what: string, cmd: string, args: string[], opts?: RunOptions): Promise<RunResult> {
  const r = await run(cmd, args, opts);
  if (r.code !== 0) throw new Error(`${what} failed (exit ${r.code}): ${r.stderr.trim().split('\n').pop()}`);
  return r;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function rpc(url: string, service: string, method: string, args: unknown[]): Promise<unknown> {
  const res = await fetch(`${url}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { service, method, args }, id: 1 }),
    signal: AbortSignal.timeout(5000),
  });
  return ((await res.json()) as { result?: unknown }).result;
}

export interface Sandbox {
  url: string;
  port: number;
  uid: number;
  readyS: number;
  rssMiB: () => number | undefined;
  /** The CPU time (user+sys, ms) the sandbox's process has used so far. */
  cpuMs: () => number;
  stop: () => Promise<void>;
}

/** Clock ticks per second of /proc/PID/stat's times. */
const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's CPU time (user+sys, ms) from /proc/PID/stat; 0 once it is gone. */
export function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command's name (which may hold spaces), utime and stime 12th and 13th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK;
  } catch {
    return 0;
  }
}

/** `posdata sandbox` in a child process; resolves once it answers common.version. */
export async function startSandbox(
  orders: number,
  days?: number,
  odooVersion?: string,
  /** More of posdata sandbox's flags (a later --seed wins over the bench's). */
  extra: string[] = [],
): Promise<Sandbox> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const start = Date.now();
  const child = spawn(
    process.execPath,
    [
      BIN,
      'sandbox',
      '--port',
      String(port),
      '--seed',
      String(SEED),
      '--orders',
      String(orders),
      ...(days ? ['--days', String(days)] : []),
      ...(odooVersion ? ['--odoo-version', odooVersion] : []),
      ...extra,
    ],
    { env: ENV, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.add(child);
  let errText = '';
  child.stderr.on('data', (d: Buffer) => {
    errText = (errText + d).slice(-2000);
  });
  let exited = false;
  child.on('exit', () => {
    exited = true;
    children.delete(child);
  });
  for (;;) {
    if (exited) throw new Error(`the sandbox exited: ${errText.trim().split('\n').pop()}`);
    try {
      if (await rpc(url, 'common', 'version', [])) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() - start > 600_000) throw new Error('the sandbox did not answer within 10 minutes');
    await new Promise((r) => setTimeout(r, 200));
  }
  const uid = await rpc(url, 'common', 'authenticate', ['demo', 'admin', 'admin', {}]);
  if (!uid) throw new Error('admin/admin does not authenticate on the sandbox');
  return {
    url,
    port,
    uid: uid as number,
    readyS: (Date.now() - start) / 1000,
    rssMiB: () => {
      try {
        const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        return m ? Math.round(Number(m[1]) / 1024) : undefined;
      } catch {
        return undefined;
      }
    },
    cpuMs: () => processCpuMs(child.pid),
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A fresh profile store, logged in to the sandbox at url as admin. */
export async function login(url: string): Promise<void> {
  rmSync(CFG, { recursive: true, force: true });
  await must(
    'posdata login',
    process.execPath,
    [BIN, 'login', '--url', url, '--db', 'demo', '--user', 'admin', '--password-stdin'],
    { input: 'admin' },
  );
}

/** Whether /usr/bin/time (peak RSS, CPU time) is there, installing it with apt-get if it can. */
export function ensureTime(): string | undefined {
  if (existsSync('/usr/bin/time')) return 'present';
  log('/usr/bin/time is missing: apt-get install -y time');
  for (const args of [['install', '-y', '-qq', 'time'], null]) {
    try {
      if (args === null) {
        execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
        execFileSync('apt-get', ['install', '-y', '-qq', 'time'], { stdio: 'ignore' });
      } else execFileSync('apt-get', args, { stdio: 'ignore' });
      if (existsSync('/usr/bin/time')) return 'installed by the bench (apt-get install -y time)';
    } catch {
      /* try the next way */
    }
  }
  return undefined;
}

/** `node ARGS` under /usr/bin/time: its peak RSS (KiB), wall time and CPU time (user+sys, ms). */
export async function timed(
  what: string,
  args: string[],
  opts?: RunOptions,
): Promise<{ kib: number; ms: number; cpuMs: number }> {
  const r = await must(what, '/usr/bin/time', ['-f', 'RUSAGE %U %S %M', process.execPath, ...args], opts);
  const u = /RUSAGE ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  if (!u) throw new Error(`${what}: /usr/bin/time gave no figures`);
  return { kib: Number(u[3]), ms: r.ms, cpuMs: (Number(u[1]) + Number(u[2])) * 1000 };
}

/** `node ARGS` under /usr/bin/time -f %M: its peak RSS (KiB) and wall time (ms). */
export async function peakRss(
  what: string,
  args: string[],
  opts?: RunOptions,
): Promise<{ kib: number; ms: number }> {
  const r = await must(what, '/usr/bin/time', ['-f', '%M', process.execPath, ...args], opts);
  return { kib: Number(r.stderr.trim().split('\n').pop()), ms: r.ms };
}

export interface Postgres {
  version: string;
  url: string;
  psql: string;
  sql: (q: string) => Promise<string>;
  stop: () => void;
}

/** A throwaway cluster from Debian's server binaries (package postgresql), trust auth on loopback. */
export async function startPostgres(): Promise<Postgres | undefined> {
  const root = '/usr/lib/postgresql';
  const version = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(a) - Number(b))
        .pop()
    : undefined;
  if (!version) return undefined;
  const bin = join(root, version, 'bin');
  const dir = mkdtempSync(join(tmpdir(), 'posdata-bench-pg-'));
  // PostgreSQL does not run as root: as root, its files and process belong to postgres.
  const asRoot = process.getuid?.() === 0;
  const server = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, cmd), args, { stdio: 'pipe' });
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const data = join(dir, 'data');
  server('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  server('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    'start',
  ]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const psql = join(bin, 'psql');
  return {
    version,
    url,
    psql,
    sql: async (q) => (await must('psql', psql, [url, '-qtAc', q])).stdout.trim(),
    stop: () => {
      try {
        server('pg_ctl', ['-D', data, '-m', 'fast', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export interface Counts {
  requests: number;
  bytes: number;
}

export interface CountingProxy {
  url: string;
  /** The counts since the last take, which start again from zero. */
  take: () => Counts;
  close: () => Promise<void>;
}

/** An HTTP proxy in front of the sandbox that counts requests and the bytes it sends back. */
export function countingProxy(target: string): Promise<CountingProxy> {
  const t = new URL(target);
  const counts: Counts = { requests: 0, bytes: 0 };
  const server = createHttpServer((req, res) => {
    counts.requests++;
    const up = httpRequest(
      {
        host: t.hostname,
        port: t.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: t.host },
      },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.on('data', (c: Buffer) => {
          counts.bytes += c.length;
        });
        r.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        take: () => {
          const c = { ...counts };
          counts.requests = 0;
          counts.bytes = 0;
          return c;
        },
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}

export interface Odoorpc {
  ok: boolean;
  note: string;
}

/** Debian's python3-odoorpc, for the odoorpc contender; installed with apt-get if it can. */
export function odoorpcAvailable(): Odoorpc {
  if (opts.noOdoorpc) return { ok: false, note: 'skipped (--no-odoorpc)' };
  const probe = () => {
    try {
      return execFileSync('/usr/bin/python3', ['-c', 'import odoorpc; print(odoorpc.__version__)'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      })
        .toString()
        .trim();
    } catch {
      return undefined;
    }
  };
  let v = probe();
  let how = 'installed';
  if (!v) {
    log('python3-odoorpc is not installed: trying apt-get install -y python3-odoorpc');
    try {
      execFileSync('apt-get', ['install', '-y', '-qq', 'python3-odoorpc'], { stdio: 'ignore' });
      how = 'installed by the bench';
    } catch {
      /* no apt, no rights or no such package */
    }
    v = probe();
  }
  return v
    ? { ok: true, note: `python3-odoorpc ${v} (${how})` }
    : { ok: false, note: 'python3-odoorpc is not installed and apt-get could not install it' };
}

// ---------------------------------------------------------------- report

export const f0 = (n: number | undefined): string =>
  n !== undefined && Number.isFinite(n) ? String(Math.round(n)) : 'n/a';
export const f1 = (n: number | undefined): string =>
  n !== undefined && Number.isFinite(n) ? n.toFixed(1) : 'n/a';
export const f2 = (n: number | undefined): string =>
  n !== undefined && Number.isFinite(n) ? n.toFixed(2) : 'n/a';
export const f3 = (n: number | undefined): string =>
  n !== undefined && Number.isFinite(n) ? n.toFixed(3) : 'n/a';
export const met = (ok: boolean | undefined): string => (ok === undefined ? '–' : ok ? 'met' : '**not met**');

/** One figure of the results table: its name, value, target ('' for none) and whether it is met (undefined: no target). */
export type Row = [figure: string, value: string, target: string, met: boolean | undefined];

export interface Before {
  date: string;
  commit: string;
  figures: Map<string, string>;
}

/**
 * The figures of the BENCHMARKS.md a full run is about to replace, by figure name (the
 * Results table's first column), with the commit and date it was made at: each new figure is
 * shown beside the one before it.
 */
export function previousFigures(file: string | undefined): Before | undefined {
  if (!file || !existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const head = /on (.+? UTC) at commit ([0-9a-f]+)/.exec(text);
  const results = text.split('\n## Results')[1]?.split('\n### ')[0] ?? '';
  const figures = new Map<string, string>();
  for (const line of results.split('\n')) {
    const cells = line.split(' | ');
    if (!line.startsWith('| ') || cells.length < 4 || /^\|[- |]*$/.test(line) || line.startsWith('| Figure'))
      continue;
    figures.set(cells[0].slice(2), cells[1]);
  }
  return { date: head?.[1] ?? '?', commit: head?.[2] ?? '?', figures };
}

/** The rows of the results table, each beside the figure of the same name before. */
export function tableRows(rows: Row[], before = new Map<string, string>()): string {
  return rows
    .map(([a, b, c, d]) => `| ${a} | ${b} | ${c || '–'} | ${met(d)} | ${before.get(a) ?? '–'} |`)
    .join('\n');
}

/** A section's figures as the results table has them, each beside the one BENCHMARKS.md gave before. */
export function figureTable(rows: Row[], before = new Map<string, string>()): string {
  return `| Figure | Value | Target | | Before |\n|---|---|---|---|---|\n${tableRows(rows, before)}\n`;
}

export interface Machine {
  nproc: string;
  cpu: string | undefined;
  memGiB: string;
  node: string;
  os: string;
  curl: string;
  jq: string;
  python: string;
  commit: string;
}

export function machine(): Machine {
  const cpu = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model;
  let nproc = String(cpus().length);
  try {
    nproc = execFileSync('nproc').toString().trim();
  } catch {
    /* os.cpus() it is */
  }
  const tool = (cmd: string, args: string[]) => {
    try {
      return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] })
        .toString()
        .trim()
        .split('\n')[0];
    } catch {
      return 'missing';
    }
  };
  return {
    nproc,
    cpu,
    memGiB: (totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    os: tool('uname', ['-sr']),
    curl: tool('curl', ['--version']).split(' ').slice(0, 2).join(' '),
    jq: tool('jq', ['--version']),
    python: tool('/usr/bin/python3', ['--version']),
    commit: tool('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']),
  };
}
