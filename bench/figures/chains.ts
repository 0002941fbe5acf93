// A chain with an Odoo per shop: `summary` and a CSV export over 20 servers in one run
// (--all-profiles --jobs 20) beside the slowest of the same runs one server at a time, wall
// time and peak RSS. Each sandbox answers 100 ms late (--faults 'rate=1:slow100'), as a server
// across a network does; on this machine the sandboxes' own work shares its cores with posdata.
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
  peakRss,
  type Sandbox,
  startSandbox,
} from '../harness.js';

export const CHAIN_SERVERS = 20;
export const CHAIN_ORDERS = 2000;
const LATENCY_MS = 100;

interface Run {
  ms: number;
  kib: number;
}

export interface ChainFigures {
  servers: number;
  orders: number;
  latencyMs: number;
  single: { summary: Run; csv: Run };
  many: { summary: Run; csv: Run };
}

const SUMMARY = ['summary', '--date', 'yesterday', '--tz', 'UTC', '--rate', '0', '--format', 'json'];
const CSV = ['sales', '--from', '2000-01-01', '--tz', 'UTC', '--rate', '0', '--format', 'csv'];

const slowest = (runs: Run[]): Run =>
  runs.reduce((a, b) => ({ ms: Math.max(a.ms, b.ms), kib: Math.max(a.kib, b.kib) }), { ms: 0, kib: 0 });

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
    const one = async (args: string[]): Promise<Run> => peakRss('posdata', [BIN, ...args], { env });
    const singles = { summary: [] as Run[], csv: [] as Run[] };
    for (const name of names) {
      singles.summary.push(await one([...SUMMARY, '--profile', name]));
      singles.csv.push(await one([...CSV, '--profile', name]));
    }
    const all = ['--all-profiles', '--jobs', String(CHAIN_SERVERS)];
    const many = { summary: await one([...SUMMARY, ...all]), csv: await one([...CSV, ...all]) };
    const single = { summary: slowest(singles.summary), csv: slowest(singles.csv) };
    log(
      `chains: summary ${f0(many.summary.ms)} ms over ${CHAIN_SERVERS} vs ${f0(single.summary.ms)} ms; csv ${f0(many.csv.ms)} ms vs ${f0(single.csv.ms)} ms`,
    );
    return { servers: CHAIN_SERVERS, orders: CHAIN_ORDERS, latencyMs: LATENCY_MS, single, many };
  } finally {
    for (const s of sandboxes) await s.stop();
  }
}

export function chainsReport(x: ChainFigures): string {
  const row = (what: string, many: Run, single: Run): string[] => {
    const t = many.ms / single.ms;
    const m = many.kib / single.kib;
    return [
      `| ${what}: wall time | ${f0(many.ms)} ms | ${f0(single.ms)} ms | ${f2(t)} × | ≤ 1.5 × | ${met(t <= 1.5)} |`,
      `| ${what}: peak RSS | ${f0(many.kib / 1024)} MiB | ${f0(single.kib / 1024)} MiB | ${f2(m)} × | ≤ 1.3 × | ${met(m <= 1.3)} |`,
    ];
  };
  return `
### A chain: ${x.servers} servers in one run

${x.servers} sandboxes of ${x.orders} sales, each answering ${x.latencyMs} ms late (\`--faults 'rate=1:slow${x.latencyMs}'\`), one profile each. \`posdata summary --date yesterday\` and \`posdata sales --format csv\` with \`--all-profiles --jobs ${x.servers}\` against the slowest of the same commands run on each server alone. The sandboxes run on this machine: their own work shares its cores with posdata's.

| | ${x.servers} servers | slowest single | ratio | Goal | |
|---|---|---|---|---|---|
${[...row('summary', x.many.summary, x.single.summary), ...row('CSV export', x.many.csv, x.single.csv)].join('\n')}
`;
}
