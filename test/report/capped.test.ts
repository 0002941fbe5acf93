// The loss figures behind a server that caps search_read (a proxy, a module: `--faults cap=N`
// on the sandbox). They were read in unlimited search_reads: on two identical sandboxes, one
// capped at 50, the report's quick refunds fell from 24 to 1 and it exited 0. Now a capped
// reply is noticed and the rest read in pages under the cap: the report and summary --loss
// give the same figures as on the uncapped server (or exit 6 with the list commands' one line).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { SandboxOptions } from '../helpers/sandbox.js';
import { loggedInServers } from '../helpers/servers.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'posdata-report-capped-'));
const servers = loggedInServers({ seed: 3, days: 60, leaks: true, now: NOW, orders: 6000 });
afterAll(async () => {
  await servers.close();
  rmSync(dir, { recursive: true, force: true });
});
/** A sandbox and its login, the same data whatever the faults. */
const server = (opts: SandboxOptions) => servers.server(opts);

/** The report's figures without what names the run (its time, the server's address). */
function figures(file: string): string {
  const d = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  delete d.generated;
  delete d.server;
  delete d.requests;
  return JSON.stringify(d);
}

// One register over October: its 31 sessions under the cap, its refunds (54) and discounted
// sales over it.
const RANGE = [
  '--from',
  '2026-10-01',
  '--to',
  '2026-10-31',
  '--config-id',
  '1',
  '--tz',
  'UTC',
  '--rate',
  '0',
];

describe.each([
  ['Odoo 17', { odooVersion: 17 }],
  ['Odoo 18 (refunds linked by their lines)', { odooVersion: 18 }],
  ['Odoo 17 with pos_hr', { odooVersion: 17, posHr: true }],
  ['Odoo 18 with pos_hr (the sessions name their employee)', { odooVersion: 18, posHr: true }],
] as const)('%s, search_read capped at 50', { timeout: 240_000 }, (_, opts) => {
  let plain: Record<string, string>;
  let capped: Record<string, string>;
  it('report: the same figures as on the uncapped server', async () => {
    plain = await server(opts);
    capped = await server({ ...opts, faults: 'cap=50' });
    const out: string[] = [];
    for (const [n, env] of [
      ['plain', plain],
      ['capped', capped],
    ] as const) {
      const file = join(dir, `${n}-${opts.odooVersion}-${'posHr' in opts}.json`);
      const r = await runCli(['report', ...RANGE, '--format', 'json', '-o', file], { env });
      expect(r.code, r.stderr).toBe(0);
      out.push(figures(file));
    }
    const [a = '', b = ''] = out;
    let at = 0;
    while (at < a.length && a[at] === b[at]) at++;
    expect(
      b === a,
      `from ${a.slice(Math.max(0, at - 200), at + 100)}\nto ${b.slice(Math.max(0, at - 200), at + 100)}`,
    ).toBe(true);
  });

  it.each(['cashier', 'register'])('summary --loss --by %s: the same rows', async (by) => {
    const args = ['summary', '--loss', '--by', by, ...RANGE, '--format', 'csv'];
    const a = await runCli(args, { env: plain });
    const b = await runCli(args, { env: capped });
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toBe(a.stdout);
  });
});

// Three days of one register under a cap of 3: its 3 sessions fit, its payment methods (4),
// refunds and the cancelled orders of a cashier marked for them (5) do not.
describe('search_read capped at 3', { timeout: 240_000 }, () => {
  const SHORT = [
    '--from',
    '2026-10-13',
    '--to',
    '2026-10-15',
    '--config-id',
    '2',
    '--tz',
    'UTC',
    '--rate',
    '0',
  ];
  let plain: Record<string, string>;
  let capped: Record<string, string>;
  it('report: the same figures, the cancelled orders behind a mark and the methods named', async () => {
    plain = await server({});
    capped = await server({ faults: 'cap=3' });
    const out: Record<string, unknown>[] = [];
    for (const [n, env] of [
      ['plain3', plain],
      ['capped3', capped],
    ] as const) {
      const file = join(dir, `${n}.json`);
      const r = await runCli(['report', ...SHORT, '--format', 'json', '-o', file], { env });
      expect(r.code, r.stderr).toBe(0);
      out.push(JSON.parse(figures(file)) as Record<string, unknown>);
    }
    type Loss = { loss: { cashiers: { cancelled: number; marks: string[] }[] } };
    const cashiers = ((out[0] as { currencies: Loss[] }).currencies[0] as Loss).loss.cashiers;
    // A row marked for its cancelled orders has more of them than one reply holds.
    expect(cashiers.some((c) => c.marks.includes('cancelled_share') && c.cancelled > 3)).toBe(true);
    expect(out[1]).toEqual(out[0]);
  });

  it('reconcile: every payment method named, cash counted as cash', async () => {
    const args = ['reconcile', ...SHORT, '--format', 'csv'];
    const a = await runCli(args, { env: plain });
    const b = await runCli(args, { env: capped });
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(a.stdout).not.toContain('#');
    expect(b.stdout).toBe(a.stdout);
  });
});

// A month of three registers: 93 closed sessions, more than one capped reply. The sessions
// were refused (exit 6, advising a --page-size that report and reconcile do not take); they
// are read on in pages under the cap.
describe('a month of three registers, search_read capped at 50', { timeout: 240_000 }, () => {
  const MONTH = ['--month', '2026-10', '--tz', 'UTC', '--rate', '0'];
  let plain: Record<string, string>;
  let capped: Record<string, string>;
  it('report: the same figures as on the uncapped server', async () => {
    plain = await server({});
    capped = await server({ faults: 'cap=50' });
    const out: string[] = [];
    for (const [n, env] of [
      ['month-plain', plain],
      ['month-capped', capped],
    ] as const) {
      const file = join(dir, `${n}.json`);
      const r = await runCli(['report', ...MONTH, '--format', 'json', '-o', file], { env });
      expect(r.code, r.stderr).toBe(0);
      out.push(figures(file));
    }
    expect(out[1] === out[0]).toBe(true);
  });

  it('reconcile: every session', async () => {
    const args = ['reconcile', '--from', '2026-10-01', '--to', '2026-10-31', '--tz', 'UTC', '--rate', '0'];
    const a = await runCli([...args, '--format', 'csv'], { env: plain });
    const b = await runCli([...args, '--format', 'csv'], { env: capped });
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(a.stdout.trim().split('\n')).toHaveLength(94);
    expect(b.stdout).toBe(a.stdout);
  });
});
