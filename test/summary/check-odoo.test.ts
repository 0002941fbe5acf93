// summary --check-odoo --fail-on-difference (issue 21): a figure that differs from Odoo's Sales
// Details beyond the rounding is one line on stderr, and with --fail-on-difference exit 7 (as
// reconcile); without the flag a difference never changes the exit code. A proxy in front of a
// sandbox makes Odoo's report differ: the sandbox's own figures agree with the summary's.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type Pay = { id?: number; name?: string; total?: number };

let sandbox: SandboxHandle;
let proxy: RpcProxy;
let env: Record<string, string>;
const P = ['--rate', '0', '--tz', 'UTC', '--from', '2000-01-01', '--to', 'today', '--format', 'json'];

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 31, orders: 300 });
  proxy = await startRpcProxy(sandbox.url);
  env = await loginEnv(proxy.url);
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});
beforeEach(() => proxy.reset());

/** Odoo's report with a euro more on its first payment entry. */
const aEuroMore = (r: unknown): unknown => {
  const d = r as { payments: Pay[] };
  const [first, ...rest] = d.payments;
  return { ...d, payments: [{ ...first, total: (first?.total ?? 0) + 1 }, ...rest] };
};

describe('summary --check-odoo --fail-on-difference', () => {
  it('agreeing figures: exit 0 with the flag', async () => {
    const r = await runCli(['summary', ...P, '--check-odoo', '--fail-on-difference'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/check-odoo: Odoo's Sales Details agrees on \d+ figures/);
  });

  it('a method a euro apart: one line names it; exit 7 with the flag, 0 without; stdout keeps the data', async () => {
    proxy.rewrite.set('get_sale_details', aEuroMore);
    const plain = await runCli(['summary', ...P, '--check-odoo'], { env });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toMatch(
      /^posdata: check-odoo: method \S+: Odoo [\d.]+, posdata [\d.]+ \(-1\.00\)$/m,
    );
    expect(plain.stderr).toMatch(/^posdata: check-odoo: 1 of \d+ figures differ from Odoo's Sales Details/m);

    const failing = await runCli(['summary', ...P, '--check-odoo', '--fail-on-difference'], { env });
    expect(failing.code).toBe(7);
    expect(failing.stdout).toBe(plain.stdout);
    expect(JSON.parse(failing.stdout).length).toBeGreaterThan(0);
    const lines = failing.stderr.trim().split('\n');
    expect(lines.slice(0, -1).every((l) => l.startsWith('posdata: check-odoo: '))).toBe(true);
    expect(lines.at(-1)).toBe(
      "posdata: 1 figure differs from Odoo's Sales Details; see the check-odoo lines above",
    );
  });

  it('--quiet: nothing on stderr when all agrees; the difference and exit 7 when not', async () => {
    const agreeing = await runCli(['summary', ...P, '--check-odoo', '--fail-on-difference', '--quiet'], {
      env,
    });
    expect(agreeing.code, agreeing.stderr).toBe(0);
    expect(agreeing.stderr).toBe('');
    proxy.rewrite.set('get_sale_details', aEuroMore);
    const differing = await runCli(['summary', ...P, '--check-odoo', '--fail-on-difference', '--quiet'], {
      env,
    });
    expect(differing.code).toBe(7);
    expect(differing.stderr).toMatch(
      /^posdata: check-odoo: method \S+: Odoo [\d.]+, posdata [\d.]+ \(-1\.00\)$/m,
    );
    expect(differing.stderr.trim().split('\n').at(-1)).toMatch(/^posdata: 1 figure differs from Odoo's/);
  });

  it('a difference within the rounding is none', async () => {
    proxy.rewrite.set('get_sale_details', (r) => {
      const d = r as { payments: Pay[] };
      return {
        ...d,
        payments: d.payments.map((p, i) => (i === 0 ? { ...p, total: (p.total ?? 0) + 0.004 } : p)),
      };
    });
    const r = await runCli(['summary', ...P, '--check-odoo', '--fail-on-difference'], { env });
    expect(r.code, r.stderr).toBe(0);
  });

  it('--fail-on-difference without --check-odoo is exit 2 before any request', async () => {
    const r = await runCli(['summary', ...P, '--fail-on-difference'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--fail-on-difference needs --check-odoo/);
    expect(proxy.seen.size).toBe(0);
  });
});

describe('the check-odoo lines and the secret (issue 23)', () => {
  it("Odoo's names in them are masked where they hold the secret, posdata's words never", async () => {
    // The admin logs in with password `admin`; a payment method named with it shows in the
    // compared figures ("method Card admin"), as any name Odoo gives back may.
    const own = await startTestSandbox({ seed: 32, orders: 200 });
    try {
      const rpc = rpcClient(own.url);
      const [method] = await rpc.ok<{ id: number }[]>('pos.payment.method', 'search_read', [[]], {
        fields: ['id'],
        limit: 1,
      });
      await rpc.ok('pos.payment.method', 'write', [[method?.id], { name: 'Card admin' }]);
      const ownEnv = await loginEnv(own.url);
      const r = await runCli(['summary', ...P, '--by', 'method', '--check-odoo'], { env: ownEnv });
      expect(r.code, r.stderr).toBe(0);
      const check = r.stderr.split('\n').filter((l) => l.startsWith('posdata: check-odoo: '));
      expect(check.join('\n')).toMatch(/method Card \*\*\*/);
      expect(check.join('\n')).not.toContain('Card admin');
      expect(check.every((l) => l.startsWith('posdata: check-odoo: '))).toBe(true);
    } finally {
      await own.close();
    }
  });
});

describe("summary --check-odoo at the currency's decimals", () => {
  // Odoo rounds its Sales Details at the currency's decimals and says them (currency.precision):
  // in a three-decimal currency 4 fils are a difference, and the yen has no cents to forgive.
  it.each([
    ['KWD', 0.004, /^posdata: check-odoo: method .+: Odoo \d+\.\d{3}, posdata \d+\.\d{3} \(-0\.004\)$/m],
    ['JPY', 1, /^posdata: check-odoo: method .+: Odoo \d+, posdata \d+ \(-1\)$/m],
  ] as const)(
    '%s: agreeing figures pass; %s apart on a method is a difference',
    async (currency, apart, shown) => {
      const own = await startTestSandbox({ seed: 33, orders: 300, currency });
      const ownProxy = await startRpcProxy(own.url);
      try {
        const ownEnv = await loginEnv(ownProxy.url);
        const args = ['summary', ...P, '--check-odoo', '--fail-on-difference'];
        const agreeing = await runCli(args, { env: ownEnv });
        expect(agreeing.code, agreeing.stderr).toBe(0);
        expect(agreeing.stderr).toMatch(/check-odoo: Odoo's Sales Details agrees on \d+ figures/);
        ownProxy.rewrite.set('get_sale_details', (r) => {
          const d = r as { payments: Pay[] };
          return {
            ...d,
            payments: d.payments.map((p, i) => (i === 0 ? { ...p, total: (p.total ?? 0) + apart } : p)),
          };
        });
        const apartRun = await runCli(args, { env: ownEnv });
        expect(apartRun.code, apartRun.stderr).toBe(7);
        expect(apartRun.stderr).toMatch(shown);
      } finally {
        await ownProxy.close();
        await own.close();
      }
    },
  );
});
