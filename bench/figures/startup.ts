// Start-up (perf-startup): `node -e 0`, `posdata --version` and `posdata sales --help`; and, beside
// them, a data command run up to its first request (`posdata sales --limit 1` with no profile
// stored: it ends with exit 3, not logged in): the help on a pipe is the text the build rendered
// (src/cli/prebuilt-help.ts), so it says nothing of the program's own start.
import { spawnSync } from 'node:child_process';
import { BIN, CFG_FOR, ENV, f1, log, median, opts, type Row } from '../harness.js';

export interface Startup {
  base: number;
  version: number;
  help: number;
  /** `posdata sales --limit 1`, no profile stored: the program's own start (no goal). */
  run: number;
  over: number;
  rounds: number;
}

/**
 * As perf-startup (the median of the runs after the first), with the three commands
 * interleaved round by round, so that load from elsewhere on the machine falls on all three
 * alike, and with more rounds in the full run.
 */
export function measureStartup(): Startup {
  const rounds = opts.quick ? 16 : 31;
  log(
    `start-up: node -e 0, posdata --version, posdata sales --help, posdata sales --limit 1 (${rounds} interleaved rounds)`,
  );
  const cmds = {
    base: ['-e', '0'],
    version: [BIN, '--version'],
    help: [BIN, 'sales', '--help'],
    run: [BIN, 'sales', '--limit', '1'],
  };
  const t: Record<keyof typeof cmds, number[]> = { base: [], version: [], help: [], run: [] };
  const env = { ...ENV, POSDATA_CONFIG_DIR: CFG_FOR('startup-empty') };
  for (let i = 0; i < rounds; i++) {
    for (const [k, args] of Object.entries(cmds) as [keyof typeof cmds, string[]][]) {
      const s = process.hrtime.bigint();
      const r = spawnSync(process.execPath, args, { stdio: 'ignore', env });
      if (r.status !== (k === 'run' ? 3 : 0)) throw new Error(`${args.join(' ')}: exit ${r.status}`);
      if (i > 0) t[k].push(Number(process.hrtime.bigint() - s) / 1e6);
    }
  }
  const base = median(t.base);
  const version = median(t.version);
  const help = median(t.help);
  return { base, version, help, run: median(t.run), over: Math.max(version, help) - base, rounds };
}

export function startupRows(s: Startup): Row[] {
  return [
    ['Start-up: `node -e 0` (bare Node)', `${f1(s.base)} ms`, '', undefined],
    ['Start-up: `posdata --version`', `${f1(s.version)} ms (+${f1(s.version - s.base)})`, '', undefined],
    ['Start-up: `posdata sales --help`', `${f1(s.help)} ms (+${f1(s.help - s.base)})`, '', undefined],
    ['Start-up over bare Node (worst of the two)', `${f1(s.over)} ms`, '≤ 40 ms', s.over <= 40],
    [
      'Start-up of a data command to its first request: `posdata sales --limit 1`, not logged in',
      `${f1(s.run)} ms (+${f1(s.run - s.base)})`,
      '',
      undefined,
    ],
  ];
}
