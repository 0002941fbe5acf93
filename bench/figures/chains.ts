// A chain with an Odoo per shop: `summary` and a CSV export over 20 servers in one run
// (--all-profiles --jobs 20) beside the slowest of the same runs one server at a time, wall
// time and peak RSS. Each sandbox answers 100 ms late (--faults 'rate=1:slow100'), as a server
// across a network does; on this machine the sandboxes' own work shares its cores with posdata.
import { availableParallelism } from 'node:os';
import {
  BIN,
  CFG_FOR,
  ENV,
  ensureTime,
  f0,
  f2,
  log,
  met,
  must,
  type Sandbox,
  startSandbox,
  timed,
} from '../harness.js';

export const CHAIN_SERVERS = 20;
export const CHAIN_ORDERS = 2000;
const LATENCY_MS = 100;

interface Run {
  ms: number;
  kib: number;
  /** posdata's CPU time (user+sys, ms). */
  cpuMs: number;
}

/** One command over the 20 servers and the same command on each server alone. */
export interface ChainFigure {
  /** The slowest single run's wall time, the largest single peak RSS, the single runs' CPU summed. */
  single: { ms: number; kib: number; cpuMs: number };
  many: Run;
  /** The sandboxes' CPU time during the run over 20 servers. */
  serversCpuMs: number;
}

export interface ChainFigures {
  servers: number;
  orders: number;
  latencyMs: number;
  cores: number;
  summary: ChainFigure;
  csv: ChainFigure;
}

const SUMMARY = ['summary', '--date', 'yesterday', '--tz', 'UTC', '--rate', '0', '--format', 'json'];
const CSV = ['sales', '--from', '2000-01-01', '--tz', 'UTC', '--rate', '0', '--format', 'csv'];

const singles = (runs: Run[]): ChainFigure['single'] => ({
  ms: Math.max(...runs.map((r) => r.ms)),
  kib: Math.max(...runs.map((r) => r.kib)),
  cpuMs: runs.reduce((a, r) => a + r.cpuMs, 0),
});

export async function measureChains(): Promise<ChainFigures> {
  if (!ensureTime()) throw new Error('/usr/bin/time is needed for peak RSS');
  const env = { ...ENV, POSDATA_CONFIG_DIR: CFG_FOR('chains') };
  const sandboxes: Sandbox[] = [];
  try {
    log(`starting ${CHAIN_SERVERS} sandboxes of ${CHAIN_ORDERS} sales, each answering ${LATENCY_MS} ms late`);
    for (let i = 0; i < CHAIN_SERVERS; i++)
      sandboxes.push(
        await startSandbox(CHAIN_ORDERS, undefined, undefined, [
          '--seed',
          String(100 + i),
          '--faults',
          `rate=1:slow${LATENCY_MS}`,
        ]),
      );
    const names = sandboxes.map((_, i) => `shop-${String(i + 1).padStart(2, '0')}`);
    for (const [i, s] of sandboxes.entries())
      await must(
        'posdata login',
        process.execPath,
        [
          BIN,
          'login',
          '--profile',
          names[i] as string,
          '--url',
          s.url,
          '--db',
          'demo',
          '--user',
          'admin',
          '--password-stdin',
        ],
        { env, input: 'admin' },
      );
    const one = async (args: string[]): Promise<Run> => timed('posdata', [BIN, ...args], { env });
    const alone = { summary: [] as Run[], csv: [] as Run[] };
    for (const name of names) {
      alone.summary.push(await one([...SUMMARY, '--profile', name]));
      alone.csv.push(await one([...CSV, '--profile', name]));
    }
    const all = ['--all-profiles', '--jobs', String(CHAIN_SERVERS)];
    // The sandboxes' CPU while posdata runs over all of them: the host's work beside posdata's.
    const over = async (args: string[], single: Run[]): Promise<ChainFigure> => {
      const cpu = () => sandboxes.reduce((a, s) => a + s.cpuMs(), 0);
      const before = cpu();
      const many = await one([...args, ...all]);
      return { single: singles(single), many, serversCpuMs: cpu() - before };
    };
    const summary = await over(SUMMARY, alone.summary);
    const csv = await over(CSV, alone.csv);
    log(
      `chains: summary ${f0(summary.many.ms)} ms over ${CHAIN_SERVERS} vs ${f0(summary.single.ms)} ms; csv ${f0(csv.many.ms)} ms vs ${f0(csv.single.ms)} ms`,
    );
    const cores = availableParallelism();
    return { servers: CHAIN_SERVERS, orders: CHAIN_ORDERS, latencyMs: LATENCY_MS, cores, summary, csv };
  } finally {
    for (const s of sandboxes) await s.stop();
  }
}

/**
 * The rows of one command: wall time against what the host allows (the slowest single run, or
 * the CPU posdata and the servers spent over the cores, whichever is more), posdata's CPU against
 * the single runs' together, peak RSS against a single run's.
 */
function chainRows(what: string, x: ChainFigure, cores: number): string[] {
  const { many, single } = x;
  const byCpu = (many.cpuMs + x.serversCpuMs) / cores;
  const bound = Math.max(single.ms, byCpu);
  const t = many.ms / bound;
  const c = many.cpuMs / single.cpuMs;
  const m = many.kib / single.kib;
  return [
    `| ${what}: wall time | ${f0(many.ms)} ms | max(slowest single ${f0(single.ms)} ms, CPU ${f0(many.cpuMs)} + servers ${f0(x.serversCpuMs)} ms ÷ ${cores} cores = ${f0(byCpu)} ms) = ${f0(bound)} ms | ${f2(t)} × | ≤ 1.25 × | ${met(t <= 1.25)} |`,
    `| ${what}: posdata's CPU | ${f0(many.cpuMs)} ms | the single runs' summed: ${f0(single.cpuMs)} ms | ${f2(c)} × | ≤ 1 × | ${met(c <= 1)} |`,
    `| ${what}: peak RSS | ${f0(many.kib / 1024)} MiB | a single run's (largest): ${f0(single.kib / 1024)} MiB | ${f2(m)} × | ≤ 1.3 × | ${met(m <= 1.3)} |`,
  ];
}

export function chainsReport(x: ChainFigures): string {
  return `
### A chain: ${x.servers} servers in one run

${x.servers} sandboxes of ${x.orders} sales, each answering ${x.latencyMs} ms late (\`--faults 'rate=1:slow${x.latencyMs}'\`), one profile each. \`posdata summary --date yesterday\` and \`posdata sales --format csv --tz UTC\` with \`--all-profiles --jobs ${x.servers}\` against the same commands run on each server alone. The sandboxes run on this machine: their own work shares its ${x.cores} cores with posdata's, so the wall time is set against what the host allows: the slowest single run, or the CPU that posdata and the servers spent in the run over all, spread over the cores, whichever is more. CPU times are user+sys: posdata's from \`/usr/bin/time\`, the sandboxes' from /proc.

| | ${x.servers} servers | against | ratio | Goal | |
|---|---|---|---|---|---|
${[...chainRows('summary', x.summary, x.cores), ...chainRows('CSV export', x.csv, x.cores)].join('\n')}
`;
}
