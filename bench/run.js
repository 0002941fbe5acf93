#!/usr/bin/env node
// `npm run bench`: posdata against the script it replaces (a curl + jq loop, and an odoorpc
// script where Debian's python3-odoorpc is installed), side by side on the same sandbox, with
// medians of several alternating runs; start-up over bare Node; peak RSS at 20k and 500k
// sales; RPC calls per export; Parquet against CSV (time, size, peak RSS). Writes BENCHMARKS.md (the full run) with the machine, the
// commands and every figure against its target. The measurements mirror the acceptance checks
// in /work/shared/checks (perf-startup, perf-export, perf-memory).
//
// The sandboxes run as child processes (`posdata sandbox`), not in this process: the server's
// CPU and heap then never mix with the harness's, both run on their own core, and the
// harness stays small while it parses 200k-row CSVs. RPC calls are therefore counted from
// `posdata --debug` (one `[rpc] →` line per request).
//
// The summary section (issue 16) puts `posdata summary` of a month (a 30-day sandbox) beside a
// CSV export of the same orders, both through a counting proxy: requests, bytes received, wall.
//
// usage: node bench/run.js [--quick] [--orders N] [--memory-orders N] [--summary-orders N]
//                          [--runs N] [--out FILE] [--only sync|summary|tap]
// (--only sync: just the PostgreSQL section, on a sandbox of --memory-orders sales; --only
// tap: just the Singer tap against the ndjson export, on the same; --only summary: just the
// summary section; each prints its part)
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { cpus, getPriority, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { parquetMetadata } from 'hyparquet';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'posdata.js');
const HANDMADE = join(ROOT, 'bench', 'handmade.sh');
const ODOORPC = join(ROOT, 'bench', 'odoorpc_export.py');
const SEED = 9;
/** posdata's default --page-size. */
const PAGE_SIZE = 2000;

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    orders: { type: 'string' },
    'memory-orders': { type: 'string' },
    runs: { type: 'string' },
    out: { type: 'string' },
    'no-odoorpc': { type: 'boolean', default: false },
    'summary-orders': { type: 'string' },
    only: { type: 'string' },
  },
});
const quick = flags.quick;
const ORDERS = Number(flags.orders ?? (quick ? 20000 : 200000));
const MEM_ORDERS = Number(flags['memory-orders'] ?? (quick ? 20000 : 500000));
const MEM_SMALL = quick ? 2000 : 20000;
const RUNS = Number(flags.runs ?? (quick ? 2 : 5));
const SUMMARY_ORDERS = Number(flags['summary-orders'] ?? (quick ? 20000 : 300000));
const SUMMARY_DAYS = 30;
const OUT = flags.out ?? (quick ? undefined : join(ROOT, 'BENCHMARKS.md'));

const TMP = mkdtempSync(join(tmpdir(), 'posdata-bench-'));
const CFG = join(TMP, 'config');
const ENV = { ...process.env, POSDATA_CONFIG_DIR: CFG, NO_COLOR: '1' };
delete ENV.POSDATA_PROFILE;
delete ENV.POSDATA_URL;
delete ENV.POSDATA_PASSWORD;
const children = new Set();
const t0 = Date.now();

function log(msg) {
  process.stderr.write(`[bench ${((Date.now() - t0) / 1000).toFixed(0).padStart(4)}s] ${msg}\n`);
}

function cleanup() {
  for (const c of children) c.kill('SIGTERM');
  rmSync(TMP, { recursive: true, force: true });
}
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Runs a command to completion; wall time in ms, stdout/stderr captured unless ignored. */
function run(cmd, args, { env = ENV, input, stdout = 'pipe', stderr = 'pipe' } = {}) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const p = spawn(cmd, args, { env, stdio: [input === undefined ? 'ignore' : 'pipe', stdout, stderr] });
    const out = [];
    const err = [];
    p.stdout?.on('data', (d) => out.push(d));
    p.stderr?.on('data', (d) => err.push(d));
    if (input !== undefined) p.stdin.end(input);
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

async function must(what, cmd, args, opts) {
  const r = await run(cmd, args, opts);
  if (r.code !== 0) throw new Error(`${what} failed (exit ${r.code}): ${r.stderr.trim().split('\n').pop()}`);
  return r;
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function rpc(url, service, method, args) {
  const res = await fetch(`${url}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { service, method, args }, id: 1 }),
    signal: AbortSignal.timeout(5000),
  });
  return (await res.json()).result;
}

/** `posdata sandbox` in a child process; resolves once it answers common.version. */
async function startSandbox(orders, days, odooVersion) {
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
    ],
    { env: ENV, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.add(child);
  let errText = '';
  child.stderr.on('data', (d) => {
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
    uid,
    readyS: (Date.now() - start) / 1000,
    rssMiB: () => {
      try {
        const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        return m ? Math.round(Number(m[1]) / 1024) : undefined;
      } catch {
        return undefined;
      }
    },
    stop: () =>
      new Promise((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function login(url) {
  rmSync(CFG, { recursive: true, force: true });
  await must(
    'posdata login',
    process.execPath,
    [BIN, 'login', '--url', url, '--db', 'demo', '--user', 'admin', '--password-stdin'],
    { input: 'admin' },
  );
}

// ---------------------------------------------------------------- start-up (perf-startup)

/**
 * As perf-startup (the median of the runs after the first), with the three commands
 * interleaved round by round, so that load from elsewhere on the machine falls on all three
 * alike, and with more rounds in the full run.
 */
function measureStartup() {
  const rounds = quick ? 16 : 31;
  log(`start-up: node -e 0, posdata --version, posdata sales --help (${rounds} interleaved rounds)`);
  const cmds = {
    base: ['-e', '0'],
    version: [BIN, '--version'],
    help: [BIN, 'sales', '--help'],
  };
  const t = { base: [], version: [], help: [] };
  for (let i = 0; i < rounds; i++) {
    for (const [k, args] of Object.entries(cmds)) {
      const s = process.hrtime.bigint();
      execFileSync(process.execPath, args, { stdio: 'ignore' });
      if (i > 0) t[k].push(Number(process.hrtime.bigint() - s) / 1e6);
    }
  }
  const base = median(t.base);
  const version = median(t.version);
  const help = median(t.help);
  return { base, version, help, over: Math.max(version, help) - base, rounds };
}

// ---------------------------------------------------------------- export (perf-export)

function csvRows(file, header) {
  const rows = parse(readFileSync(file), { relax_column_count: true });
  return header ? rows.slice(1) : rows;
}

/**
 * Cell by cell: identical text, or the same amount written differently: Python's 10.0 for 10,
 * or jq's 29.650000000000002 (Odoo's binary float, as sent) where posdata rounds to 29.65.
 */
const sameAmount = (a, b) => {
  if (a === '' || b === '') return false;
  const x = Number(a);
  const y = Number(b);
  return Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x));
};

function compareCsv(reference, other) {
  const res = {
    rows: other.length,
    refRows: reference.length,
    exact: 0,
    sameNumber: 0,
    differ: 0,
    example: '',
  };
  const n = Math.min(reference.length, other.length);
  for (let i = 0; i < n; i++) {
    const a = reference[i];
    const b = other[i];
    let kind = 'exact';
    if (a.length !== b.length) kind = 'differ';
    else {
      for (let j = 0; j < a.length; j++) {
        if (a[j] === b[j]) continue;
        if (sameAmount(a[j], b[j])) kind = kind === 'exact' ? 'sameNumber' : kind;
        else kind = 'differ';
      }
    }
    if (kind === 'exact') res.exact++;
    else if (kind === 'sameNumber') res.sameNumber++;
    else {
      res.differ++;
      if (!res.example) res.example = `row ${i + 1}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
    }
  }
  res.identical = reference.length === other.length && res.differ === 0;
  res.ids = reference.length === other.length && reference.every((r, i) => r[0] === other[i][0]);
  return res;
}

async function measureExport(sbx, odoorpcOk) {
  const hand = join(TMP, 'hand.csv');
  const ours = join(TMP, 'ours.csv');
  const py = join(TMP, 'odoorpc.csv');
  const pq = join(TMP, 'ours.parquet');
  const shEnv = { ...ENV, URL: sbx.url, ADMIN_UID: String(sbx.uid) };
  const port = String(sbx.port);
  // [name, what, command, args, options]; each run under /usr/bin/time when present, for the
  // CPU seconds (user + sys, children included: curl, jq) and the peak RSS of each contender.
  const contenders = [
    ['curl+jq', 'curl+jq loop', 'bash', [HANDMADE, 'handmade', hand], { env: shEnv, stdout: 'ignore' }],
    ['floor', 'download-only loop', 'bash', [HANDMADE, 'floor'], { env: shEnv, stdout: 'ignore' }],
    [
      'posdata',
      'posdata sales',
      process.execPath,
      [BIN, 'sales', '--format', 'csv', '--rate', '0', '-o', ours],
      { stdout: 'ignore' },
    ],
    // The same orders as Parquet, run for run beside the CSV export.
    [
      'parquet',
      'posdata sales (parquet)',
      process.execPath,
      [BIN, 'sales', '--format', 'parquet', '--rate', '0', '-o', pq],
      { stdout: 'ignore' },
    ],
  ];
  if (odoorpcOk)
    contenders.push([
      'odoorpc',
      'odoorpc script',
      '/usr/bin/python3',
      [ODOORPC, '127.0.0.1', port, 'demo', 'admin', 'admin', py],
      {},
    ]);
  const timeTool = existsSync('/usr/bin/time');
  const times = Object.fromEntries(contenders.map(([k]) => [k, []]));
  const cpu = Object.fromEntries(contenders.map(([k]) => [k, []]));
  const rss = Object.fromEntries(contenders.map(([k]) => [k, []]));
  const ratioHand = [];
  const ratioFloor = [];
  const ratioParquet = [];
  for (let i = 1; i <= RUNS; i++) {
    const line = [];
    for (const [name, what, cmd, args, opts] of contenders) {
      const r = timeTool
        ? await must(what, '/usr/bin/time', ['-f', 'RUSAGE %U %S %M', cmd, ...args], opts)
        : await must(what, cmd, args, opts);
      times[name].push(r.ms);
      const u = /RUSAGE ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
      if (u) {
        cpu[name].push((Number(u[1]) + Number(u[2])) * 1000);
        rss[name].push(Number(u[3]));
      }
      line.push(`${name} ${Math.round(r.ms)} ms${u ? ` (cpu ${Math.round(cpu[name].at(-1))} ms)` : ''}`);
    }
    const o = times.posdata.at(-1);
    ratioHand.push(o / times['curl+jq'].at(-1));
    ratioFloor.push(o / times.floor.at(-1));
    ratioParquet.push(times.parquet.at(-1) / o);
    log(`export run ${i}/${RUNS}: ${line.join(', ')}`);
  }
  log('comparing the CSVs (csv-parse, cell by cell)');
  const handRows = csvRows(hand, false);
  const cmpOurs = compareCsv(handRows, csvRows(ours, true));
  const cmpPy = odoorpcOk ? compareCsv(handRows, csvRows(py, false)) : undefined;
  const pqBytes = readFileSync(pq);
  const pqMeta = parquetMetadata(
    pqBytes.buffer.slice(pqBytes.byteOffset, pqBytes.byteOffset + pqBytes.length),
  );
  return {
    times,
    medians: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])),
    cpu: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, v.length ? median(v) : Number.NaN])),
    rss: Object.fromEntries(Object.entries(rss).map(([k, v]) => [k, v.length ? Math.max(...v) : Number.NaN])),
    ratioHand: median(ratioHand),
    ratioFloor: median(ratioFloor),
    cmpOurs,
    cmpPy,
    csvBytes: statSync(ours).size,
    parquet: {
      ratio: median(ratioParquet),
      bytes: pqBytes.length,
      rows: Number(pqMeta.num_rows),
      rowGroups: pqMeta.row_groups.length,
    },
  };
}

// ---------------------------------------------------------------- RPC calls

async function countRpc(extra) {
  const out = join(TMP, 'rpc.csv');
  const r = await must('posdata --debug sales', process.execPath, [
    BIN,
    'sales',
    '--debug',
    '--format',
    'csv',
    '--rate',
    '0',
    '-o',
    out,
    ...extra,
  ]);
  const byMethod = {};
  let total = 0;
  let pageRequests = 0;
  for (const line of r.stderr.split('\n')) {
    const m = /^\[rpc\] → \S+ (\S+)/.exec(line);
    if (!m) continue;
    total++;
    // A page is asked with a limit; a read of many2one names (by the records that hold them) without.
    const page = m[1] === 'pos.order.search_read' && line.includes('"limit":');
    const key = m[1] === 'pos.order.search_read' && !page ? 'pos.order.search_read (names)' : m[1];
    if (page) pageRequests++;
    byMethod[key] = (byMethod[key] ?? 0) + 1;
  }
  const setup = (byMethod['pos.order.fields_get'] ?? 0) + (byMethod['pos.order.search_count'] ?? 0);
  const rows = readFileSync(out, 'utf8').split('\n').length - 2;
  const pages = Math.ceil(rows / PAGE_SIZE);
  return {
    total,
    pages,
    pageRequests,
    perPage: pages ? (total - setup) / pages : Number.NaN,
    byMethod,
    rows,
    ms: r.ms,
  };
}

// ---------------------------------------------------------------- memory (perf-memory)

function ensureTime() {
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

async function peakRssKiB(extra, format = 'csv') {
  // Parquet goes to a file (it is refused on a terminal; a pipe would do as well).
  const out = format === 'parquet' ? ['-o', join(TMP, 'mem.parquet')] : [];
  const r = await must(
    `posdata sales --format ${format} under /usr/bin/time`,
    '/usr/bin/time',
    ['-f', '%M', process.execPath, BIN, 'sales', '--format', format, '--rate', '0', ...out, ...extra],
    { stdout: 'ignore' },
  );
  return Number(r.stderr.trim().split('\n').pop());
}

async function measureMemory() {
  const small = [];
  const big = [];
  const pqSmall = [];
  const pqBig = [];
  for (let i = 0; i < (quick ? 1 : 2); i++) {
    small.push(await peakRssKiB(['--limit', String(MEM_SMALL)]));
    big.push(await peakRssKiB([]));
    log(
      `peak RSS run ${i + 1}: ${MEM_SMALL} sales ${small.at(-1)} KiB, ${MEM_ORDERS} sales ${big.at(-1)} KiB`,
    );
  }
  // Parquet holds a row group (10,000 rows) at a time: its peak should not grow with the export either.
  pqSmall.push(await peakRssKiB(['--limit', String(MEM_SMALL)], 'parquet'));
  pqBig.push(await peakRssKiB([], 'parquet'));
  log(`peak RSS parquet: ${MEM_SMALL} sales ${pqSmall.at(-1)} KiB, ${MEM_ORDERS} sales ${pqBig.at(-1)} KiB`);
  return {
    small: Math.max(...small),
    big: Math.max(...big),
    smallRuns: small,
    bigRuns: big,
    parquetSmall: Math.max(...pqSmall),
    parquetBig: Math.max(...pqBig),
  };
}

// ---------------------------------------------------------------- sync into PostgreSQL

/** A throwaway cluster from Debian's server binaries (package postgresql), trust auth on loopback. */
async function startPostgres() {
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
  const server = (cmd, args) =>
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

/** `posdata sync sales` into a fresh schema: wall ms and peak RSS (KiB, where /usr/bin/time is). */
async function timedSync(pg, schema, timeTool) {
  await pg.sql(`drop schema if exists ${schema} cascade`);
  const args = [BIN, 'sync', 'sales', '--to', pg.url, '--schema', schema, '--rate', '0', '--quiet'];
  const r = timeTool
    ? await must('posdata sync', '/usr/bin/time', ['-f', '%M', process.execPath, ...args])
    : await must('posdata sync', process.execPath, args);
  return { ms: r.ms, kib: timeTool ? Number(r.stderr.trim().split('\n').pop()) : undefined };
}

/**
 * posdata sync of every sale into an empty schema, against the floor of what a hand-made
 * loader needs: posdata's CSV export of the same fields, then `psql \copy` of the file into a
 * table of the same columns and primary key. The two alternate, each going first in turn; peak RSS of the
 * sync at MEM_SMALL sales (a sandbox of that size) and at all of them.
 */
async function measureSync(sbx, orders, timeTool) {
  const pg = await startPostgres();
  if (!pg) return { skipped: 'no PostgreSQL server binaries (apt-get install postgresql)' };
  try {
    // Three runs, the two alternating which goes first: the first request of a fresh sandbox is
    // its slowest (its code not yet optimised), and whichever went first would pay it each time.
    const runs = quick ? 1 : 3;
    const out = { orders, version: pg.version, sync: [], exportMs: [], copyMs: [], floor: [], rss: [] };
    const csv = join(TMP, 'floor.csv');
    /** The columns the sync writes, for the floor's export (from the first sync's state). */
    let fields;
    const syncOnce = async () => {
      const s = await timedSync(pg, 'bench', timeTool);
      out.sync.push(s.ms);
      if (s.kib) out.rss.push(s.kib);
      const n = Number(await pg.sql('select count(*) from bench.sales'));
      if (n !== orders) throw new Error(`posdata sync loaded ${n} sales of ${orders}`);
      fields ??= await pg.sql(
        "select array_to_string(fields, ',') from bench.posdata_sync_state where resource = 'sales'",
      );
    };
    const floorOnce = async () => {
      const e = await must('posdata sales (floor)', process.execPath, [
        BIN,
        'sales',
        '--fields',
        fields,
        '--rate',
        '0',
        '-o',
        csv,
      ]);
      await pg.sql(
        'drop table if exists public.floor_sales; create table public.floor_sales (like bench.sales including all); alter table public.floor_sales alter payment_ids type text',
      );
      const header = readFileSync(csv, 'utf8').slice(0, 4096).split('\n')[0];
      const c = await must('psql \\copy (floor)', pg.psql, [
        pg.url,
        '-qc',
        `\\copy public.floor_sales(${header}) FROM '${csv}' WITH (FORMAT csv, HEADER true)`,
      ]);
      const m = Number(await pg.sql('select count(*) from public.floor_sales'));
      if (m !== orders) throw new Error(`psql \\copy loaded ${m} sales of ${orders}`);
      out.exportMs.push(e.ms);
      out.copyMs.push(c.ms);
      out.floor.push(e.ms + c.ms);
    };
    for (let i = 0; i < runs; i++) {
      const floorFirst = i % 2 === 1;
      if (floorFirst) await floorOnce();
      await syncOnce();
      if (!floorFirst) await floorOnce();
      log(
        `sync run ${i + 1}${floorFirst ? ' (floor first)' : ''}: posdata sync ${f0(out.sync[i])} ms; floor: export ${f0(out.exportMs[i])} + \\copy ${f0(out.copyMs[i])} ms`,
      );
    }
    rmSync(csv, { force: true });
    out.ratios = out.sync.map((v, i) => v / out.floor[i]);
    if (timeTool) {
      log(`starting a sandbox with ${MEM_SMALL} sales for the sync's memory at that size`);
      const small = await startSandbox(MEM_SMALL);
      try {
        await login(small.url);
        out.smallRss = (await timedSync(pg, 'bench_small', timeTool)).kib;
      } finally {
        await small.stop();
        await login(sbx.url);
      }
      log(
        `sync peak RSS: ${MEM_SMALL} sales ${out.smallRss} KiB, ${orders} sales ${Math.max(...out.rss)} KiB`,
      );
    }
    return out;
  } finally {
    pg.stop();
  }
}

function syncRows(y) {
  if (!y) return [];
  if (y.skipped) return [['Sync into PostgreSQL', `not measured: ${y.skipped}`, '', false]];
  const big = y.rss.length ? Math.max(...y.rss) : undefined;
  const ratio = median(y.ratios);
  return [
    [
      `Sync ${y.orders} sales into PostgreSQL ${y.version}: \`posdata sync sales\`, empty schema (median)`,
      `${f0(median(y.sync))} ms (runs: ${y.sync.map(f0).join(' / ')})`,
      '',
      undefined,
    ],
    [
      'Floor: `posdata sales --fields <the same> -o FILE.csv` + `psql \\copy` into a table of the same columns and key (median)',
      `${f0(median(y.floor))} ms (export ${y.exportMs.map(f0).join(' / ')}; \\copy ${y.copyMs.map(f0).join(' / ')})`,
      '',
      undefined,
    ],
    [
      'posdata sync / floor (median of per-run ratios)',
      f2(ratio),
      '≤ 1.15',
      quick ? undefined : ratio <= 1.15,
    ],
    ...(big && y.smallRss
      ? [
          [
            `Peak RSS, sync of ${MEM_SMALL} / ${y.orders} sales`,
            `${f1(y.smallRss / 1024)} / ${f1(big / 1024)} MiB`,
            '',
            undefined,
          ],
          [
            `Peak RSS growth of the sync (${y.orders} / ${MEM_SMALL})`,
            `×${f2(big / y.smallRss)}`,
            '≤ ×1.3',
            quick ? undefined : big / y.smallRss <= 1.3,
          ],
        ]
      : []),
  ];
}

// ---------------------------------------------------------------- Singer tap (issue 24)

/** The fields `posdata tap` reads of sales (the sync's defaults), for the export of the same rows. */
const TAP_SALES_FIELDS =
  'id,name,pos_reference,date_order,state,amount_total,amount_paid,amount_tax,amount_return,config_id,session_id,user_id,partner_id,payment_ids,company_id,currency_id,create_date,write_date';

/** Lines of a file, counted without holding it. */
function lineCount(file) {
  return Number(execFileSync('wc', ['-l', file]).toString().trim().split(/\s+/)[0]);
}

/**
 * `posdata tap` reading every sale (stream sales, no state) against `posdata sales --format
 * ndjson` of the same fields: both write to a file, alternating, medians; the tap's RECORD
 * lines and the export's rows are counted against the sandbox's sales.
 */
async function measureTap(sbx, orders) {
  const runs = quick ? 1 : 3;
  const config = join(TMP, 'tap.json');
  writeFileSync(
    config,
    JSON.stringify({
      url: sbx.url,
      db: 'demo',
      user: 'admin',
      password: 'admin',
      rate: 0,
      streams: ['sales'],
    }),
  );
  const file = join(TMP, 'tap-out.jsonl');
  const toFile = async (what, args) => {
    const fd = openSync(file, 'w');
    try {
      return await must(what, process.execPath, [BIN, ...args], { stdout: fd });
    } finally {
      closeSync(fd);
    }
  };
  const out = { orders, tap: [], ndjson: [], checkpoint: [] };
  for (let i = 0; i < runs; i++) {
    const t = await toFile('posdata tap', ['tap', '--config', config, '--quiet']);
    const records = Number(execFileSync('grep', ['-c', '"type":"RECORD"', file]).toString().trim());
    if (records !== orders) throw new Error(`posdata tap sent ${records} sales of ${orders}`);
    const e = await toFile('posdata sales --format ndjson', [
      'sales',
      '--fields',
      TAP_SALES_FIELDS,
      '--format',
      'ndjson',
      '--rate',
      '0',
      '--quiet',
    ]);
    const rows = lineCount(file);
    if (rows !== orders) throw new Error(`posdata sales --format ndjson wrote ${rows} rows of ${orders}`);
    // The same export in (write_date, id) pages, as a first --checkpoint run reads them (and the
    // tap its incremental runs).
    const checkpoint = join(TMP, 'tap-bench.ckpt');
    rmSync(checkpoint, { force: true });
    const k = await toFile('posdata sales --checkpoint', [
      'sales',
      '--fields',
      TAP_SALES_FIELDS,
      '--format',
      'ndjson',
      '--checkpoint',
      checkpoint,
      '--rate',
      '0',
      '--quiet',
    ]);
    out.tap.push(t.ms);
    out.ndjson.push(e.ms);
    out.checkpoint.push(k.ms);
    log(
      `tap run ${i + 1}: posdata tap ${f0(t.ms)} ms; sales --format ndjson ${f0(e.ms)} ms; the same with --checkpoint ${f0(k.ms)} ms`,
    );
  }
  rmSync(file, { force: true });
  out.ratios = out.tap.map((v, i) => v / out.ndjson[i]);
  out.checkpointRatios = out.tap.map((v, i) => v / out.checkpoint[i]);
  return out;
}

function tapRows(t) {
  if (!t) return [];
  const ratio = median(t.ratios);
  return [
    [
      `Singer tap, ${t.orders} sales: \`posdata tap\` (stream sales, no state) to a file (median)`,
      `${f0(median(t.tap))} ms (runs: ${t.tap.map(f0).join(' / ')})`,
      '',
      undefined,
    ],
    [
      '`posdata sales --fields <the same> --format ndjson` to a file (median)',
      `${f0(median(t.ndjson))} ms (runs: ${t.ndjson.map(f0).join(' / ')})`,
      '',
      undefined,
    ],
    [
      'posdata tap / ndjson export (median of per-run ratios)',
      f2(ratio),
      '≤ 1.2',
      quick ? undefined : ratio <= 1.2,
    ],
    [
      'The same export with `--checkpoint` (a first run: (write_date, id) pages, as the tap reads after its first read) (median)',
      `${f0(median(t.checkpoint))} ms (runs: ${t.checkpoint.map(f0).join(' / ')}); tap / it ${f2(median(t.checkpointRatios))}`,
      '',
      undefined,
    ],
  ];
}

// ---------------------------------------------------------------- odoorpc

function odoorpcAvailable() {
  if (flags['no-odoorpc']) return { ok: false, note: 'skipped (--no-odoorpc)' };
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

/**
 * The figures of the BENCHMARKS.md a full run is about to replace, by figure name (the
 * Results table's first column), with the commit and date it was made at: each new figure is
 * shown beside the one before it.
 */
function previousFigures(file) {
  if (!file || !existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const head = /on (.+? UTC) at commit ([0-9a-f]+)/.exec(text);
  const results = text.split('\n## Results')[1]?.split('\n### ')[0] ?? '';
  const figures = new Map();
  for (const line of results.split('\n')) {
    const cells = line.split(' | ');
    if (!line.startsWith('| ') || cells.length < 4 || /^\|[- |]*$/.test(line) || line.startsWith('| Figure'))
      continue;
    figures.set(cells[0].slice(2), cells[1]);
  }
  return { date: head?.[1] ?? '?', commit: head?.[2] ?? '?', figures };
}

function machine() {
  const cpu = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model;
  let nproc = String(cpus().length);
  try {
    nproc = execFileSync('nproc').toString().trim();
  } catch {
    /* os.cpus() it is */
  }
  const tool = (cmd, args) => {
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

const f0 = (n) => (Number.isFinite(n) ? String(Math.round(n)) : 'n/a');
const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
const f3 = (n) => (Number.isFinite(n) ? n.toFixed(3) : 'n/a');
const met = (ok) => (ok === undefined ? '–' : ok ? 'met' : '**not met**');

// ---------------------------------------------------------------- summary (issue 16)

/** An HTTP proxy in front of the sandbox that counts requests and the bytes it sends back. */
function countingProxy(target) {
  const t = new URL(target);
  const counts = { requests: 0, bytes: 0 };
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
        res.writeHead(r.statusCode, r.headers);
        r.on('data', (c) => {
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
        url: `http://127.0.0.1:${server.address().port}`,
        take: () => {
          const c = { ...counts };
          counts.requests = 0;
          counts.bytes = 0;
          return c;
        },
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

/**
 * A month's summary (`--by day`, as the acceptance check runs it) against the CSV export of
 * the same orders, alternating, through the counting proxy; medians of the wall times.
 */
async function measureSummary(sbx) {
  const proxy = await countingProxy(sbx.url);
  const env = { ...ENV, POSDATA_URL: proxy.url };
  const range = ['--rate', '0', '--tz', 'UTC', '--from', '2000-01-01', '--to', 'today'];
  const runs = { summary: [], export: [] };
  let sumCounts;
  let expCounts;
  let groups = 0;
  let note = '';
  try {
    for (let i = 0; i < RUNS; i++) {
      proxy.take();
      const s = await must(
        'posdata summary',
        process.execPath,
        [BIN, 'summary', ...range, '--by', 'day', '--format', 'json'],
        {
          env,
        },
      );
      runs.summary.push(s.ms);
      sumCounts = proxy.take();
      groups = JSON.parse(s.stdout).length;
      note = s.stderr.trim();
      const e = await must('posdata sales', process.execPath, [BIN, 'sales', ...range, '--format', 'csv'], {
        env,
      });
      runs.export.push(e.ms);
      expCounts = proxy.take();
      log(`summary run ${i + 1}: ${f0(s.ms)} ms vs export ${f0(e.ms)} ms`);
    }
  } finally {
    await proxy.close();
  }
  const sumMs = median(runs.summary);
  const expMs = median(runs.export);
  return { runs, sumMs, expMs, sum: sumCounts, exp: expCounts, groups, note };
}

function report(r) {
  const m = r.machine;
  const s = r.startup;
  const e = r.export;
  const mem = r.memory;
  const rows = [];
  rows.push(['Start-up: `node -e 0` (bare Node)', `${f1(s.base)} ms`, '', undefined]);
  rows.push([
    'Start-up: `posdata --version`',
    `${f1(s.version)} ms (+${f1(s.version - s.base)})`,
    '',
    undefined,
  ]);
  rows.push([
    'Start-up: `posdata sales --help`',
    `${f1(s.help)} ms (+${f1(s.help - s.base)})`,
    '',
    undefined,
  ]);
  rows.push(['Start-up over bare Node (worst of the two)', `${f1(s.over)} ms`, '≤ 40 ms', s.over <= 40]);
  if (e) {
    rows.push([
      `Export ${r.orders} sales: curl + jq loop (median)`,
      `${f0(e.medians['curl+jq'])} ms`,
      '',
      undefined,
    ]);
    rows.push([
      `Export ${r.orders} sales: download only, the floor (median)`,
      `${f0(e.medians.floor)} ms`,
      '',
      undefined,
    ]);
    rows.push([`Export ${r.orders} sales: posdata (median)`, `${f0(e.medians.posdata)} ms`, '', undefined]);
    if (e.medians.odoorpc !== undefined)
      rows.push([
        `Export ${r.orders} sales: odoorpc script (median)`,
        `${f0(e.medians.odoorpc)} ms`,
        '',
        undefined,
      ]);
    rows.push(['posdata / curl+jq (median of per-run ratios)', f3(e.ratioHand), '≤ 0.5', e.ratioHand <= 0.5]);
    rows.push(['posdata / download-only floor', f3(e.ratioFloor), '≤ 1.0', e.ratioFloor <= 1.0]);
    if (e.medians.odoorpc !== undefined)
      rows.push(['posdata / odoorpc', f2(e.medians.posdata / e.medians.odoorpc), '', undefined]);
    rows.push([
      `Export ${r.orders} sales as Parquet: time / CSV's (median of per-run ratios)`,
      `${f0(e.medians.parquet)} ms against ${f0(e.medians.posdata)} ms: ×${f2(e.parquet.ratio)}`,
      '',
      undefined,
    ]);
    rows.push([
      'Parquet file size / CSV size',
      `${(e.parquet.bytes / 2 ** 20).toFixed(1)} MiB against ${(e.csvBytes / 2 ** 20).toFixed(1)} MiB: ×${f2(e.parquet.bytes / e.csvBytes)} (${e.parquet.rows} rows in ${e.parquet.rowGroups} row groups)`,
      '',
      undefined,
    ]);
    rows.push([
      'Rows identical to curl+jq',
      `${e.cmpOurs.rows} vs ${e.cmpOurs.refRows} rows; ${e.cmpOurs.exact} identical cell for cell, ${e.cmpOurs.sameNumber} differing only in float noise (jq prints Odoo's 29.650000000000002, posdata 29.65), ${e.cmpOurs.differ} different; ids in the same order: ${e.cmpOurs.ids ? 'yes' : 'no'}`,
      'identical',
      e.cmpOurs.identical,
    ]);
    if (e.cmpPy)
      rows.push([
        'odoorpc rows against curl+jq',
        `${e.cmpPy.rows} rows; ${e.cmpPy.exact} identical, ${e.cmpPy.sameNumber} the same numbers written differently (Python's 10.0), ${e.cmpPy.differ} different`,
        '',
        undefined,
      ]);
  }
  if (mem) {
    rows.push([
      `Peak RSS, export of ${MEM_SMALL} sales (\`--limit ${MEM_SMALL}\`)`,
      `${f1(mem.small / 1024)} MiB`,
      '',
      undefined,
    ]);
    rows.push([
      `Peak RSS, export of all ${r.memOrders} sales`,
      `${f1(mem.big / 1024)} MiB`,
      '≤ 120 MiB',
      r.quick ? undefined : mem.big <= 120 * 1024,
    ]);
    rows.push([
      `Peak RSS growth (${r.memOrders} / ${MEM_SMALL})`,
      `×${f2(mem.big / mem.small)}`,
      '≤ ×1.3',
      r.quick ? undefined : mem.big / mem.small <= 1.3,
    ]);
    rows.push([
      `Peak RSS, Parquet export of ${MEM_SMALL} / all ${r.memOrders} sales`,
      `${f1(mem.parquetSmall / 1024)} MiB / ${f1(mem.parquetBig / 1024)} MiB: ×${f2(mem.parquetBig / mem.parquetSmall)}`,
      '',
      undefined,
    ]);
  } else rows.push(['Peak RSS', 'not measured: /usr/bin/time is missing', '', false]);
  if (r.rpc) {
    rows.push([
      'RPC calls, default export',
      `${r.rpc.plain.total} (${r.rpc.plain.pages} pages of ${PAGE_SIZE} sales in ${r.rpc.plain.pageRequests} requests; ${f2(r.rpc.plain.perPage)} per page)`,
      '',
      undefined,
    ]);
    rows.push([
      'RPC calls, `--with-payments`',
      `${r.rpc.pay.total} (${r.rpc.pay.pages} pages in ${r.rpc.pay.pageRequests} requests; ${f2(r.rpc.pay.perPage)} per page)`,
      '≤ 3 per page',
      r.rpc.pay.perPage <= 3,
    ]);
  }
  rows.push(...syncRows(r.sync));
  rows.push(...tapRows(r.tap));
  const before = r.before?.figures ?? new Map();
  const table = rows
    .map(([a, b, c, d]) => `| ${a} | ${b} | ${c || '–'} | ${met(d)} | ${before.get(a) ?? '–'} |`)
    .join('\n');
  const perRun = e
    ? Object.entries(e.times)
        .map(
          ([k, v]) =>
            `| ${k} | ${v.map((x) => Math.round(x)).join(' / ')} | ${f0(median(v))} | ${f0(e.cpu[k])} | ${f1(e.rss[k] / 1024)} |`,
        )
        .join('\n')
    : '';
  const methods = (b) =>
    Object.entries(b)
      .map(([k, v]) => `${k} ×${v}`)
      .join(', ');
  const notesFile = join(ROOT, 'bench', 'notes.md');
  const notes = existsSync(notesFile) ? `\n${readFileSync(notesFile, 'utf8').trim()}\n` : '';
  return `# Benchmarks

Generated by \`npm run bench\` (bench/run.js) on ${r.date} at commit ${m.commit}; total bench time ${f0(r.totalS)} s.${r.quick ? ' **Quick mode: small sizes, not the target figures.**' : ''}

## Machine

| | |
|---|---|
| CPUs (\`nproc\`) | ${m.nproc} |
| CPU model | ${m.cpu} |
| Memory | ${m.memGiB} GiB |
| OS | ${m.os} |
| Node | ${m.node} |
| curl / jq / Python | ${m.curl} / ${m.jq} / ${m.python} |
| odoorpc | ${r.odoorpc.note} |
| /usr/bin/time | ${r.timeTool ?? 'missing'} |
| Load average (1 min) at start / end | ${r.loadStart} / ${r.loadEnd} (other work on the machine inflates wall times) |
| Priority of the bench and everything it runs (nice) | ${getPriority()}${getPriority() < 0 ? ' (raised: the machine is shared, so all contenders alike get the CPU first)' : ''} |

## Reproduce

\`\`\`sh
npm ci
npm run bench                 # full run (this file): ${r.orders} sales for the export, ${r.memOrders} for memory, ${Math.ceil(r.totalS / 60)} min here
npm run bench -- --quick      # 20k sales, fewer runs, under 2 min; prints, does not write this file
node bench/run.js --orders 200000 --memory-orders 500000 --runs 5 --out BENCHMARKS.md   # after npm run build
\`\`\`

Every sandbox is \`posdata sandbox --seed ${SEED} --orders N\` in its own process on loopback (its CPU and memory stay out
of the measured processes). The export is timed as wall time of the whole process, the contenders alternating
run by run against the same sandbox: curl+jq is bench/handmade.sh \`handmade\` (the loop of
/work/shared/checks/perf-export), the floor is its \`floor\` (the same 5,000-record pages downloaded only, into
\`wc -c\`), posdata is \`posdata sales --format csv --rate 0 -o FILE\` after \`posdata login\`, odoorpc is
bench/odoorpc_export.py. Start-up is the median of ${r.startup.rounds - 1} runs (the first of ${r.startup.rounds} dropped), as perf-startup, the three commands interleaved. Peak RSS is
\`/usr/bin/time -f %M posdata sales --format csv --rate 0 [--limit ${MEM_SMALL}] >/dev/null\`, the worst of
${r.quick ? 1 : 2} runs, as perf-memory. RPC calls are the \`[rpc] →\` lines of \`posdata --debug\`. The sync and
its floor run ${r.quick ? 'once' : 'three times, taking turns at going first (a fresh sandbox answers its first requests slowest)'}.

## Results

The last column is the figure the BENCHMARKS.md this run replaced gave (${r.before ? `commit ${r.before.commit}, ${r.before.date}` : 'none there'}), measured the same way.

| Figure | Value | Target | | Before |
|---|---|---|---|---|
${table}

Sandboxes: ${r.orders} sales ready in ${f0(r.sandboxReadyS)} s (${r.sandboxRssMiB ?? '?'} MiB RSS)${r.memSandboxReadyS !== undefined ? `; ${r.memOrders} sales ready in ${f0(r.memSandboxReadyS)} s (${r.memSandboxRssMiB ?? '?'} MiB RSS)` : ''}.
${e ? `posdata's CSV: ${(e.csvBytes / 2 ** 20).toFixed(1)} MiB.` : ''}

### Export, every run (ms)

CPU time does not depend on what else the machine runs as much as wall time does; the floor's and curl+jq's
include curl's and jq's, not the sandbox's.

| Contender | Wall, every run | Wall, median | CPU (user+sys, children included), median | Peak RSS (largest process), MiB |
|---|---|---|---|---|
${perRun}
${
  r.rpc
    ? `
### RPC calls by method

- default export: ${methods(r.rpc.plain.byMethod)} (${f0(r.rpc.plain.ms)} ms with --debug)
- \`--with-payments\`: ${methods(r.rpc.pay.byMethod)} (${f0(r.rpc.pay.ms)} ms with --debug)
`
    : ''
}${e && !e.cmpOurs.identical ? `\nFirst differing row (curl+jq vs posdata): ${e.cmpOurs.example}\n` : ''}${notes}${r.summary ? summaryReport(r) : ''}`;
}

/** The summary section: a month's summary beside the CSV export of the same orders. */
function summaryReport(r) {
  const runs = (xs) => xs.map((v) => f0(v)).join(', ');
  const rows = [];
  const details = [];
  for (const [version, x] of Object.entries(r.summary)) {
    const pct = (100 * x.sum.bytes) / x.exp.bytes;
    const ratio = x.sumMs / x.expMs;
    rows.push(
      `| Odoo ${version}: requests | ${x.sum.requests} | ${x.exp.requests} | | ≤ 10 | ${met(x.sum.requests <= 10)} |`,
      `| Odoo ${version}: bytes received | ${x.sum.bytes} | ${x.exp.bytes} | ${pct.toFixed(3)} % | < 1 % | ${met(pct < 1)} |`,
      `| Odoo ${version}: wall time (median) | ${f0(x.sumMs)} ms | ${f0(x.expMs)} ms | ${f3(ratio)} | < 0.2 | ${met(ratio < 0.2)} |`,
    );
    details.push(
      `- Odoo ${version}, every run (ms): summary ${runs(x.runs.summary)}; export ${runs(x.runs.export)}; ${x.groups} days in the summary.${x.note ? ` Its notice: ${x.note.replace(/^posdata: note: /, '')}` : ''}`,
    );
  }
  return `
### posdata summary: a month on ${r.summaryOrders} sales (${SUMMARY_DAYS} days) against a CSV export of the same orders

Both through a counting HTTP proxy in front of the sandbox, over JSON-RPC: \`posdata summary --from 2000-01-01 --to today --tz UTC --by day --format json\` against \`posdata sales\` with the same range as CSV; ${RUNS} alternating runs, medians. The requests include those of connecting (the proxy's URL is not the profile's, so the protocol is detected and the user authenticated again).

| | summary | CSV export | summary / export | Goal | |
|---|---|---|---|---|---|
${rows.join('\n')}

${details.join('\n')}
`;
}

// ---------------------------------------------------------------- main

/** The summary on an Odoo 17 sandbox (read_group) and on an Odoo 19 one (formatted_read_group). */
async function summarySection(r) {
  r.summaryOrders = SUMMARY_ORDERS;
  r.summary = {};
  for (const version of ['17', '19']) {
    log(`starting an Odoo ${version} sandbox with ${SUMMARY_ORDERS} sales over ${SUMMARY_DAYS} days`);
    const sbx = await startSandbox(SUMMARY_ORDERS, SUMMARY_DAYS, version);
    try {
      log(`sandbox ready in ${f0(sbx.readyS)} s`);
      await login(sbx.url);
      const x = await measureSummary(sbx);
      r.summary[version] = x;
      log(
        `summary on ${version}: ${x.sum.requests} requests, ${x.sum.bytes} bytes, ${f0(x.sumMs)} ms; export ${x.exp.requests} requests, ${x.exp.bytes} bytes, ${f0(x.expMs)} ms`,
      );
    } finally {
      await sbx.stop();
    }
  }
}

/** Rows of [figure, value, target, met] as the Markdown table a section alone prints. */
/** A section's figures as the results table has them, each beside the one BENCHMARKS.md gave before. */
function figureTable(rows, before = new Map()) {
  const body = rows
    .map(([a, b, c, d]) => `| ${a} | ${b} | ${c || '–'} | ${met(d)} | ${before.get(a) ?? '–'} |`)
    .join('\n');
  return `| Figure | Value | Target | | Before |\n|---|---|---|---|---|\n${body}\n`;
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('dist/ is missing: run npm run build');
  if (flags.only === 'summary') {
    const r = { date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC' };
    await summarySection(r);
    const md = summaryReport(r);
    if (flags.out) writeFileSync(flags.out, md);
    process.stdout.write(md);
    return;
  }
  if (flags.only !== undefined && flags.only !== 'sync' && flags.only !== 'tap')
    throw new Error(`--only ${flags.only}: only 'summary', 'sync' or 'tap' can run alone`);
  const r = {
    quick,
    orders: ORDERS,
    memOrders: MEM_ORDERS,
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
  };
  r.machine = machine();
  r.before = previousFigures(OUT ?? join(ROOT, 'BENCHMARKS.md'));
  r.loadStart = loadavg()[0].toFixed(2);
  if (flags.only === 'tap') {
    log(`only the tap section: ${MEM_ORDERS} sales`);
    const sbx = await startSandbox(MEM_ORDERS);
    try {
      await login(sbx.url);
      r.tap = await measureTap(sbx, MEM_ORDERS);
    } finally {
      await sbx.stop();
    }
    process.stdout.write(figureTable(tapRows(r.tap), r.before?.figures));
    return;
  }
  if (flags.only === 'sync') {
    r.timeTool = ensureTime();
    log(`only the sync section: ${MEM_ORDERS} sales`);
    const sbx = await startSandbox(MEM_ORDERS);
    await login(sbx.url);
    r.sync = await measureSync(sbx, MEM_ORDERS, r.timeTool);
    await sbx.stop();
    process.stdout.write(figureTable(syncRows(r.sync), r.before?.figures));
    return;
  }
  r.odoorpc = odoorpcAvailable();
  r.timeTool = ensureTime();
  log(
    `${quick ? 'quick' : 'full'} run: export of ${ORDERS} sales ×${RUNS}, memory at ${MEM_SMALL} and ${MEM_ORDERS}; ${r.odoorpc.note}`,
  );

  // Start-up first, while no sandbox competes for the CPUs.
  r.startup = measureStartup();
  log(
    `start-up: node ${f1(r.startup.base)} ms, --version ${f1(r.startup.version)} ms, sales --help ${f1(r.startup.help)} ms`,
  );

  log(`starting a sandbox with ${ORDERS} sales`);
  let sbx = await startSandbox(ORDERS);
  r.sandboxReadyS = sbx.readyS;
  r.sandboxRssMiB = sbx.rssMiB();
  log(`sandbox ready in ${f0(sbx.readyS)} s at ${sbx.url}`);
  await login(sbx.url);
  r.export = await measureExport(sbx, r.odoorpc.ok);
  log(`export: posdata/curl+jq ${f2(r.export.ratioHand)}, posdata/floor ${f2(r.export.ratioFloor)}`);
  r.rpc = { plain: await countRpc([]), pay: await countRpc(['--with-payments']) };
  log(
    `RPC: ${r.rpc.plain.total} calls plain, ${r.rpc.pay.total} with payments (${f2(r.rpc.pay.perPage)} per page)`,
  );

  if (r.timeTool) {
    if (MEM_ORDERS !== ORDERS) {
      await sbx.stop();
      log(`starting a sandbox with ${MEM_ORDERS} sales`);
      sbx = await startSandbox(MEM_ORDERS);
      r.memSandboxReadyS = sbx.readyS;
      r.memSandboxRssMiB = sbx.rssMiB();
      log(`sandbox ready in ${f0(sbx.readyS)} s`);
      await login(sbx.url);
    }
    r.memory = await measureMemory();
  }
  // The sandbox up now holds MEM_ORDERS sales when memory was measured, else ORDERS.
  const syncOrders = r.timeTool ? MEM_ORDERS : ORDERS;
  log(`sync into PostgreSQL: ${syncOrders} sales`);
  r.sync = await measureSync(sbx, syncOrders, r.timeTool);
  log(`Singer tap: ${syncOrders} sales`);
  r.tap = await measureTap(sbx, syncOrders);
  await sbx.stop();
  await summarySection(r);
  r.totalS = (Date.now() - t0) / 1000;
  r.loadEnd = loadavg()[0].toFixed(2);
  const md = report(r);
  if (OUT) {
    writeFileSync(OUT, md);
    log(`wrote ${OUT}`);
  }
  process.stdout.write(md);
}

main().catch((err) => {
  process.stderr.write(`bench: ${err.message}\n`);
  process.exitCode = 1;
});
