// posdata doctor against the sandbox over real sockets: every check holds on an honest
// server (exit 0); a proxy that changes one of Odoo's figures on the way back (a count, the
// Sales Details, a session's cash_register_difference) makes exactly that line "differs" and
// the run exit 7; a server clock five minutes behind is a "differs" too; a POS user and a
// user without POS rights see what they cannot read said, as "cannot" lines, not failures.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { Rpc } from '../helpers/rpc.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

interface Line {
  status: string;
  check: string;
  detail: string;
}

const CHECKS = [
  'protocol',
  'access',
  'clock',
  'count configs',
  'count sales',
  'count lines',
  'count refunds',
  'count cancellations',
  'count closures',
  'count payments',
  'count products',
  'summary',
  'reconcile',
  'speed',
];

/** The text lines: status, the check's name (which may hold one space), the detail. */
function lines(stdout: string): Line[] {
  return stdout
    .trim()
    .split('\n')
    .map((l) => {
      const m =
        /^(ok|differs|cannot) +(\S+(?: \S+)?) {2,}(.*)$/.exec(l) ??
        /^(ok|differs|cannot) +(\S+(?: \S+)?) (.*)$/.exec(l);
      if (!m) throw new Error(`not a doctor line: ${l}`);
      return { status: m[1] as string, check: m[2] as string, detail: m[3] as string };
    });
}

let sandbox: SandboxHandle;
let proxy: RpcProxy;
let rpc: Rpc;
let env: Record<string, string>;
let day: string;
const args = (): string[] => ['doctor', '--rate', '0', '--tz', 'UTC', '--date', day];

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 5, orders: 600, days: 6, now: new Date('2024-06-15T12:00:00Z') });
  proxy = await startRpcProxy(sandbox.url);
  rpc = new Rpc(sandbox.url);
  await rpc.auth();
  env = await loginEnv(proxy.url);
  // A day on which sessions were closed: reconcile has something to compare.
  const [closed] = (await rpc.kw('pos.session', 'search_read', [[['state', '=', 'closed']]], {
    fields: ['stop_at'],
    order: 'stop_at desc',
    limit: 1,
  })) as { stop_at: string }[];
  day = (closed as { stop_at: string }).stop_at.slice(0, 10);
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});
beforeEach(() => proxy.reset());

describe('posdata doctor', () => {
  it('an honest server: every check ok, in order, exit 0', async () => {
    const r = await runCli(args(), { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const got = lines(r.stdout);
    expect(got.map((l) => l.check)).toEqual(CHECKS);
    for (const l of got) expect(l.status, `${l.check}: ${l.detail}`).toBe('ok');
    const by = new Map(got.map((l) => [l.check, l.detail]));
    expect(by.get('protocol')).toMatch(/^JSON-RPC, Odoo 17\.0/);
    expect(by.get('access')).toMatch(/^every command works for this user: configs, sales, /);
    expect(by.get('summary')).toMatch(
      new RegExp(`^${day}: Odoo's Sales Details agrees on \\d+ figures: orders, total, method `),
    );
    expect(by.get('reconcile')).toMatch(
      new RegExp(
        `^${day}: the difference of \\d+ closed sessions? is Odoo's cash_register_difference to the cent$`,
      ),
    );
    expect(by.get('speed')).toMatch(/^a page of \d+ sales took \d+ ms/);
  });

  it('--format json: one document, each check with its status, detail and figures; counts are search_count', async () => {
    const r = await runCli([...args(), '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      date: string;
      zone: string;
      checks: { check: string; status: string; detail: string; figures?: Record<string, unknown> }[];
    };
    expect(Object.keys(doc)).toEqual(['date', 'zone', 'checks']);
    expect(doc.date).toBe(day);
    expect(doc.zone).toBe('UTC');
    expect(doc.checks.map((c) => c.check)).toEqual(CHECKS);
    for (const c of doc.checks) {
      expect(Object.keys(c).slice(0, 3)).toEqual(['check', 'status', 'detail']);
      expect(c.status).toBe('ok');
    }
    const sales = doc.checks.find((c) => c.check === 'count sales');
    const odoo = await rpc.count('pos.order', [
      ['date_order', '>=', `${day} 00:00:00`],
      ['date_order', '<', nextDay(day)],
    ]);
    expect(odoo).toBeGreaterThan(0);
    expect(sales?.figures).toEqual({ posdata: odoo, odoo });
    expect(doc.checks.find((c) => c.check === 'clock')?.figures).toEqual({ server_ahead_seconds: 0 });
  });

  it('a count Odoo gives one more of: that line differs, the rest ok, exit 7 and one line on stderr', async () => {
    proxy.rewrite.set('search_count', (n, body) => (body.includes('"cancel"') ? (n as number) + 1 : n));
    const r = await runCli(args(), { env });
    expect(r.code).toBe(7);
    const got = lines(r.stdout);
    expect(got.filter((l) => l.status !== 'ok').map((l) => l.check)).toEqual(['count cancellations']);
    expect(got.find((l) => l.check === 'count cancellations')?.detail).toMatch(
      new RegExp(`^posdata reads (\\d+) of ${day}, Odoo's search_count says \\d+$`),
    );
    expect(r.stderr).toBe(
      "posdata: 1 check found a figure that differs from Odoo's (count cancellations); see the lines marked differs\n",
    );
  });

  it('a check the server answers wrongly: its line says cannot and why, the others run, then the usual exit code', async () => {
    proxy.rewrite.set('search_count', (n, body) => (body.includes('"cancel"') ? 'many' : n));
    const r = await runCli(args(), { env });
    expect(r.code).toBe(6);
    const got = lines(r.stdout);
    expect(got.map((l) => l.check)).toEqual(CHECKS);
    expect(got.filter((l) => l.status !== 'ok').map((l) => l.check)).toEqual(['count cancellations']);
    expect(got.find((l) => l.check === 'count cancellations')?.detail).toMatch(
      /^the server's reply to pos\.order\.search_count is not what was asked \("many" is not a count\)/,
    );
    expect(r.stderr).toMatch(
      /^posdata: the server's reply to pos\.order\.search_count is not what was asked/,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('Sales Details a euro apart: the summary line differs and names the method', async () => {
    proxy.rewrite.set('get_sale_details', (d) => {
      const r = d as { payments: { total: number }[] };
      const [first, ...rest] = r.payments;
      return { ...r, payments: [{ ...first, total: (first?.total ?? 0) + 1 }, ...rest] };
    });
    const r = await runCli(args(), { env });
    expect(r.code).toBe(7);
    const got = lines(r.stdout);
    expect(got.filter((l) => l.status !== 'ok').map((l) => l.check)).toEqual(['summary']);
    expect(got.find((l) => l.check === 'summary')?.detail).toMatch(
      /^method [^:]+: Odoo [\d.]+, posdata [\d.]+ \(-1\.00\); 1 of \d+ figures differ from Odoo's Sales Details/,
    );
  });

  it("a session's cash_register_difference a cent apart: the reconcile line differs and names the session", async () => {
    proxy.rewrite.set('read', (recs, body) =>
      body.includes('cash_register_difference')
        ? (recs as { cash_register_difference: number }[]).map((s, i) =>
            i === 0 ? { ...s, cash_register_difference: s.cash_register_difference + 0.01 } : s,
          )
        : recs,
    );
    const r = await runCli(args(), { env });
    expect(r.code).toBe(7);
    const got = lines(r.stdout);
    expect(got.filter((l) => l.status !== 'ok').map((l) => l.check)).toEqual(['reconcile']);
    expect(got.find((l) => l.check === 'reconcile')?.detail).toMatch(
      /^1 of \d+ sessions differ from Odoo's cash_register_difference: \S+: Odoo -?[\d.]+, posdata -?[\d.]+$/,
    );
  });

  it('a POS user: the access lines say what it may not read; every other check holds; exit 0', async () => {
    const pos = await loginEnv(sandbox.url, 'pos', 'pos');
    const r = await runCli(args(), { env: pos });
    expect(r.code, r.stderr).toBe(0);
    const got = lines(r.stdout);
    expect(got.map((l) => l.check)).toEqual([
      ...CHECKS.slice(0, 2),
      'access account.payment',
      ...CHECKS.slice(2),
    ]);
    expect(got.filter((l) => l.status !== 'ok').map((l) => l.check)).toEqual(['access account.payment']);
    expect(got[1]?.detail).toMatch(/^works for this user: configs, .*reconcile, summary, .*sync$/);
    expect(got[1]?.detail).not.toMatch(/with --session-id/);
    expect(got[2]?.detail).toBe(
      'Odoo refuses this user (AccessError), so these do not work: summary --check-odoo with --session-id or --config-id (Odoo reads account.payment for the sessions)',
    );
  });

  it('--date that is not a day: one line, exit 2, before any request', async () => {
    for (const value of ['2h', 'tomorrow', '2026-02-30']) {
      const r = await runCli(['doctor', '--date', value], { env });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`posdata: --date '${value}' is not a day; use YYYY-MM-DD, today or yesterday\n`);
    }
  });

  it('a user without POS rights: the checks it cannot make say cannot and why; exit 0, not a failure', async () => {
    const clerk = await loginEnv(sandbox.url, 'clerk', 'clerk');
    const r = await runCli(args(), { env: clerk });
    expect(r.code, r.stderr).toBe(0);
    const got = lines(r.stdout);
    const status = new Map(got.map((l) => [l.check, l]));
    expect(status.get('count products')?.status).toBe('ok');
    for (const c of ['count sales', 'count closures', 'summary', 'reconcile', 'speed']) {
      expect(status.get(c)?.status, c).toBe('cannot');
      expect(status.get(c)?.detail, c).toMatch(/^Odoo refused access: .*\((pos\.order|pos\.session)\)/);
    }
    expect(status.get('access pos.order')?.detail).toMatch(
      /^Odoo refuses this user \(AccessError\), so these do not work: sales; refunds; cancellations; summary; /,
    );
  });
});

describe('posdata doctor and the clock', () => {
  let behind: SandboxHandle;
  afterAll(async () => behind?.close());

  it('a server five minutes behind: the clock line differs, exit 7', async () => {
    behind = await startTestSandbox({ seed: 2, orders: 50, days: 2, clockOffsetSeconds: -300 });
    const e = await loginEnv(behind.url);
    const r = await runCli(['doctor', '--rate', '0', '--format', 'json'], { env: e });
    expect(r.code).toBe(7);
    const doc = JSON.parse(r.stdout) as {
      checks: { check: string; status: string; figures?: { server_ahead_seconds?: number } }[];
    };
    const clock = doc.checks.find((c) => c.check === 'clock');
    expect(clock?.status).toBe('differs');
    expect(Math.abs((clock?.figures?.server_ahead_seconds ?? 0) + 300)).toBeLessThanOrEqual(2);
    expect(doc.checks.filter((c) => c.status === 'differs').map((c) => c.check)).toEqual(['clock']);
  });
});

function nextDay(d: string): string {
  const t = new Date(`${d}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + 1);
  return `${t.toISOString().slice(0, 10)} 00:00:00`;
}
