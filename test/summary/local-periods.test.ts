// A period's local hour, business day and weekday are worked out once per zone and day start and
// kept for the process (summary/folder.ts, localPeriod): a process that runs several summaries
// (serve's requests, a chain's servers, these tests) must get each its own days. Here the same
// hours, in one process, with the day starting at midnight, then at 03:00, then at midnight again
// (America/Chicago: the sandbox's first sales, 07:00-08:59 UTC, are 01:00-02:59 there, the
// previous business day's when it starts at 03:00), each as a fresh process gives it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli, spawnCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 87, orders: 300, days: 5 });
  env = await loginEnv(sandbox.url);
});
afterAll(async () => {
  await sandbox?.close();
});

const SUMMARY = [
  'summary',
  '--from',
  '2026-11-23',
  '--to',
  '2026-11-26',
  '--tz',
  'America/Chicago',
  '--rate',
  '0',
];

describe('the local days of a summary, in one process', () => {
  it('--day-starts moves the early hours to the day before, run after run, as a fresh process has them', async () => {
    for (const by of ['weekday', 'day,hour']) {
      const args = [...SUMMARY, '--by', by, '--format', 'json'];
      const late = [...args, '--day-starts', '03:00'];
      const runs = [args, late, args, late];
      const got: string[] = [];
      for (const a of runs) {
        const r = await runCli(a, { env });
        expect(r.code, r.stderr).toBe(0);
        got.push(r.stdout);
      }
      expect(got[1], by).not.toBe(got[0]); // the early hours moved
      for (const [i, a] of runs.slice(0, 2).entries()) {
        const fresh = await spawnCli(a, { env });
        expect(fresh.code, fresh.stderr).toBe(0);
        expect(got[i], `${by} ${a.join(' ')}`).toBe(fresh.stdout);
        expect(got[i + 2], `${by} ${a.join(' ')}, again`).toBe(fresh.stdout);
      }
    }
  });
});
