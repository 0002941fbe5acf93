// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per function and per
// module (file, or package under node_modules), and idle/GC/program time, so a profile
// says where an export's time goes without opening DevTools.
// usage: npm run profile-summary -- FILE.cpuprofile [--top N] (compiled by esbuild into dist-bench/,
// as bench/run.ts is; FILE relative to the folder npm was run from)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' } },
});
if (positionals.length !== 1) {
  process.stderr.write('usage: npm run profile-summary -- FILE.cpuprofile [--top N]\n');
  process.exit(2);
}
/** What `node --cpu-prof` writes: V8's profile nodes, the sampled node ids and the time between samples (µs). */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}
const prof = JSON.parse(
  readFileSync(resolve(process.env.INIT_CWD ?? '.', positionals[0]), 'utf8'),
) as CpuProfile;
const top = Number(values.top);

// Each sample lands on one node; the time to the next sample is that node's self time.
const self = new Map<number, number>();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) {
  const d = dt[i + 1] ?? 0;
  self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + d);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

function moduleOf(url: string): string {
  if (!url) return '(native/V8)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return url;
  const d = url.indexOf('/dist/');
  return d >= 0 ? url.slice(d + 1) : url;
}

const byFn = new Map<string, number>();
const byMod = new Map<string, number>();
for (const n of prof.nodes) {
  const t = self.get(n.id) ?? 0;
  if (!t) continue;
  const cf = n.callFrame;
  const fn = `${cf.functionName || '(anonymous)'} ${moduleOf(cf.url)}${cf.url ? `:${cf.lineNumber + 1}` : ''}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + t);
  const mod = cf.url ? moduleOf(cf.url) : cf.functionName || '(native)';
  byMod.set(mod, (byMod.get(mod) ?? 0) + t);
}

const ms = (us: number) => (us / 1000).toFixed(1).padStart(9);
const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)}%`;
const print = (title: string, map: Map<string, number>, n: number) => {
  process.stdout.write(`\n${title}\n`);
  for (const [k, v] of [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n))
    process.stdout.write(`${ms(v)} ms ${pct(v)}  ${k}\n`);
};
process.stdout.write(`profile: ${(total / 1000).toFixed(1)} ms sampled (${prof.samples.length} samples)\n`);
print('self time by module (or V8 bucket)', byMod, top);
print('self time by function', byFn, top);
