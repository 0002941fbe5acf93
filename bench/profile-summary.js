#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per function and per
// module (file, or package under node_modules), and idle/GC/program time, so a profile
// says where an export's time goes without opening DevTools.
// usage: node bench/profile-summary.js FILE.cpuprofile [--top N]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' } },
});
if (positionals.length !== 1) {
  process.stderr.write('usage: node bench/profile-summary.js FILE.cpuprofile [--top N]\n');
  process.exit(2);
}
const prof = JSON.parse(readFileSync(positionals[0], 'utf8'));
const top = Number(values.top);

// Each sample lands on one node; the time to the next sample is that node's self time.
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) {
  const d = dt[i + 1] ?? 0;
  self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + d);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

function moduleOf(url) {
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

const byFn = new Map();
const byMod = new Map();
for (const n of prof.nodes) {
  const t = self.get(n.id) ?? 0;
  if (!t) continue;
  const cf = n.callFrame;
  const fn = `${cf.functionName || '(anonymous)'} ${moduleOf(cf.url)}${cf.url ? `:${cf.lineNumber + 1}` : ''}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + t);
  const mod = cf.url ? moduleOf(cf.url) : cf.functionName || '(native)';
  byMod.set(mod, (byMod.get(mod) ?? 0) + t);
}

const ms = (us) => (us / 1000).toFixed(1).padStart(9);
const pct = (us) => `${((us / total) * 100).toFixed(1).padStart(5)}%`;
const print = (title, map, n) => {
  process.stdout.write(`\n${title}\n`);
  for (const [k, v] of [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n))
    process.stdout.write(`${ms(v)} ms ${pct(v)}  ${k}\n`);
};
process.stdout.write(`profile: ${(total / 1000).toFixed(1)} ms sampled (${prof.samples.length} samples)\n`);
print('self time by module (or V8 bucket)', byMod, top);
print('self time by function', byFn, top);
