// summary --watch off a terminal (the test IO is not one): one record per refresh that
// follows the sandbox's --live orders; a refresh that fails on the connection is said on
// stderr and tried again, not the end of the run; what --watch cannot go with is refused.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, loginEnv, runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const Q = ['--rate', '0', '--quiet'];
let sandbox: SandboxHandle;
let env: Record<string, string>;

beforeAll(async () => {
  // An order every 50 ms in today's open session: each refresh (1 s apart) sees more.
  sandbox = await startTestSandbox({ seed: 9, orders: 100, live: 0.05 });
  env = await loginEnv(sandbox.url);
});
afterAll(async () => sandbox?.close());

describe('summary --watch, not on a terminal', () => {
  it('csv: one header, then one row of the day per refresh, its figures following the new orders', async () => {
    const r = await runCli(
      ['summary', '--date', 'today', '--watch', '1', '--times', '3', '--format', 'csv', ...Q],
      {
        env,
      },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [header, ...rows] = r.stdout.trimEnd().split('\n');
    expect(header).toMatch(
      /^refreshed_at,orders,items,gross,discounts,refund_count,refunds,net,tax,total,average_ticket/,
    );
    expect(rows).toHaveLength(3);
    const col = (name: string) => (header as string).split(',').indexOf(name);
    const orders = rows.map((l) => Number(l.split(',')[col('orders')]));
    const at = rows.map((l) => l.split(',')[col('refreshed_at')] as string);
    expect(orders[2]).toBeGreaterThan(orders[0] as number);
    expect([...at].sort()).toEqual(at);
    expect(new Set(at).size).toBe(3);
    // The last row is the day as a plain summary sees it a moment later (or a little less).
    const now = await runCli(['summary', '--date', 'today', '--format', 'json', '--by', 'register', ...Q], {
      env,
    });
    const day = (JSON.parse(now.stdout) as { orders: number }[]).reduce((n, g) => n + g.orders, 0);
    expect(day).toBeGreaterThanOrEqual(orders[2] as number);
  });

  it('a register that does not exist ends the watch at its first refresh: exit 4, one line', async () => {
    const r = await runCli(
      ['summary', '--watch', '1', '--times', '3', '--config-id', '99999', '--format', 'ndjson', ...Q],
      {
        env,
      },
    );
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^posdata: register 99999 does not exist; [^\n]+\n$/);
  });

  it('ndjson: one object per refresh; table: one line of text per refresh', async () => {
    const nd = await runCli(['summary', '--watch', '1', '--times', '2', '--format', 'ndjson', ...Q], { env });
    const objs = nd.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(objs).toHaveLength(2);
    expect(Object.keys(objs[0]).slice(0, 3)).toEqual(['refreshed_at', 'orders', 'items']);
    expect(objs[1].orders).toBeGreaterThan(objs[0].orders);
    expect(objs[0].refreshed_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // With --tz, a datetime is ISO 8601 with the zone's offset, as everywhere.
    const zoned = await runCli(
      ['summary', '--watch', '1', '--times', '1', '--format', 'ndjson', '--tz', 'Asia/Kolkata', ...Q],
      { env },
    );
    expect(JSON.parse(zoned.stdout).refreshed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:30$/);
    // With --excel, as every datetime there: the zone's wall-clock time, no offset.
    const before = Date.now();
    const excel = await runCli(
      ['summary', '--watch', '1', '--times', '1', '--format', 'csv', '--excel', '--tz', 'Asia/Kolkata', ...Q],
      { env },
    );
    const [head, row] = excel.stdout
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    const stampAt = (row as string).split(',')[(head as string).split(',').indexOf('refreshed_at')] as string;
    expect(stampAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // Read as UTC it is 5 h 30 ahead of the moment it was taken.
    const ahead = Date.parse(`${stampAt.replace(' ', 'T')}Z`) - before;
    expect(ahead).toBeGreaterThan(5.5 * 3600e3 - 2000);
    expect(ahead).toBeLessThan(5.5 * 3600e3 + 60e3);
    const text = await runCli(['summary', '--watch', '1', '--times', '2', '--format', 'table', ...Q], {
      env,
    });
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    for (const l of lines)
      expect(l).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}orders \d+ {2}items \d+ .* total \d+\.\d\d/);
  });

  it('what --watch cannot go with is a usage error (exit 2), one line', async () => {
    const cases: [string[], string][] = [
      [['--times', '2'], 'posdata: --times counts the refreshes of --watch; add --watch SECONDS\n'],
      [['--watch', '0'], ''],
      [
        ['--watch', '5', '--format', 'json'],
        'posdata: --watch gives one record per refresh, which --format json cannot carry; use --format ndjson or csv\n',
      ],
      [['--watch', '5', '-o', 'x.csv'], ''],
      [['--watch', '5', '--check-odoo'], ''],
    ];
    for (const [args, line] of cases) {
      const r = await runCli(['summary', ...args, ...Q], { env });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')).toHaveLength(2);
      if (line) expect(r.stderr).toBe(line);
    }
  });
});

describe('summary --watch when the server is down', () => {
  // With a profile the session opens without the server; with credentials from the
  // environment only, opening it asks the server which protocol it speaks: a session that
  // failed to open must be opened again at the next refresh, not kept failed.
  for (const how of ['a profile', 'the environment only'] as const) {
    it(`says the failed refresh on stderr and keeps watching; the next refresh gets through (${how})`, async () => {
      // The server goes away: on its port, a listener that resets every connection. Once the
      // watch has met it, the sandbox comes back on that port.
      const first = await startTestSandbox({ seed: 10, orders: 50 });
      const port = first.port;
      const downEnv =
        how === 'a profile'
          ? await loginEnv(first.url)
          : {
              POSDATA_CONFIG_DIR: freshConfigDir(),
              POSDATA_URL: first.url,
              POSDATA_DB: 'demo',
              POSDATA_USER: 'admin',
              POSDATA_PASSWORD: 'admin',
            };
      await first.close();
      const sockets = new Set<Socket>();
      let back: SandboxHandle | undefined;
      let restarting: Promise<void> | undefined;
      const down: Server = createServer((s) => {
        sockets.add(s);
        s.resetAndDestroy();
        restarting ??= new Promise<void>((resolve) => {
          for (const k of sockets) k.destroy();
          down.close(() => resolve());
        }).then(async () => {
          back = await startTestSandbox({ seed: 10, orders: 50, port });
        });
      });
      await new Promise<void>((resolve) => down.listen(port, '127.0.0.1', resolve));
      try {
        const r = await runCli(
          ['summary', '--watch', '2', '--times', '2', '--format', 'csv', '--retries', '0', '--rate', '0'],
          { env: downEnv },
        );
        const errs = r.stderr.trimEnd().split('\n');
        expect(errs).toHaveLength(1);
        expect(errs[0]).toMatch(/^posdata: .*127\.0\.0\.1/);
        expect(r.code).toBe(0);
        const rows = r.stdout.trimEnd().split('\n');
        expect(rows[0]).toMatch(/^refreshed_at,orders/);
        expect(rows).toHaveLength(2);
      } finally {
        await restarting;
        await back?.close();
      }
    });
  }

  it('a failure that another try cannot mend (a refused login) ends the run with its code', async () => {
    const r = await runCli(['summary', '--watch', '1', '--format', 'csv', ...Q], {
      env: { ...env, POSDATA_PASSWORD: 'wrong' },
    });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
  });
});
