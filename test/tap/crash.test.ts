// A tap killed with SIGKILL mid-run (the built CLI, as an orchestrator's worker dies): what
// it wrote up to its last complete STATE is valid, and a run resumed from that STATE sends
// everything after it and nothing it covers.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshConfigDir, runCli, SUITE_SECRET, spawnCli } from '../helpers/cli.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { tapConfig, writeTapConfig } from './config.js';
import { checkOutput, covers } from './singer.js';

let sandbox: SandboxHandle;
let dir: string;
let config: string;
let fast: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 21, orders: 4000, days: 8, adminKey: SUITE_SECRET });
  dir = freshConfigDir();
  const streams = ['sales', 'lines'];
  // Slow enough to be killed halfway (2 requests a second, 100 records each); resumed at full speed.
  config = writeTapConfig(dir, 'tap.json', tapConfig(sandbox, { streams, rate: 120, page_size: 100 }));
  fast = writeTapConfig(dir, 'fast.json', tapConfig(sandbox, { streams, page_size: 100 }));
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
});

/** The STATE messages the tap has written so far. */
const states = (out: string): number => out.match(/^\{"type":\s*"STATE"/gm)?.length ?? 0;

// Killed after its first STATE (early in the first read) and after its sixth (further on):
// at a point of its output, not at a time that a loaded machine may reach before the tap starts.
for (const [when, after] of [
  ['early', 1],
  ['later', 6],
] as const) {
  it(`killed ${when} (after STATE ${after}): resuming from its last STATE loses nothing and resends nothing`, async () => {
    const env = { POSDATA_CONFIG_DIR: dir };
    const killed = await spawnCli(['tap', '--config', config], {
      env,
      killWhen: (_err, out) => states(out()) >= after,
      killSignal: 'SIGKILL',
    });
    expect(killed.signal).toBe('SIGKILL');
    const first = checkOutput(killed.stdout, { partial: true });
    expect(first.states.length, 'a STATE before the kill').toBeGreaterThan(0);
    const state = first.last;
    // Killed early, a first read (in id order) was under way: the resume goes on from its id.
    if (when === 'early')
      expect(Object.values(state.bookmarks).some((b) => (b.full_read?.after_id ?? 0) > 0)).toBe(true);
    const statePath = join(dir, `state-${when}.json`);
    writeFileSync(statePath, JSON.stringify(state));
    const resumed = await runCli(['tap', '--config', fast, '--state', statePath], { env });
    expect(resumed.code).toBe(0);
    const second = checkOutput(resumed.stdout);
    const rpc = new Rpc(sandbox.url, 'demo', 'admin', SUITE_SECRET);
    for (const [stream, model] of [
      ['sales', 'pos.order'],
      ['lines', 'pos.order.line'],
    ] as const) {
      const b = state.bookmarks[stream];
      const coveredIds = new Set(
        (first.records.get(stream) ?? []).filter((r) => covers(b, r)).map((r) => r.id),
      );
      const again = (second.records.get(stream) ?? []).filter((r) => coveredIds.has(r.id));
      expect(
        again.map((r) => r.id),
        `${stream} resent`,
      ).toEqual([]);
      const all = [...coveredIds, ...(second.records.get(stream) ?? []).map((r) => r.id)].sort(
        (x, y) => x - y,
      );
      const odoo = ((await rpc.kw(model, 'search', [[]])) as number[]).sort((x, y) => x - y);
      expect(all, `${stream}: every record once`).toEqual(odoo);
    }
  }, 120_000);
}
