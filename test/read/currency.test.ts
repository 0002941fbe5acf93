// Money at the decimals of the company's currency (res.currency decimal_places), in every
// format: a sandbox whose company keeps its books in KWD (3 decimals) shows 3, one in JPY none,
// one in EUR 2 as before. The values are Odoo's own (search_read) at those decimals, and the
// currency is read once per run.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedDecimals, roundAt } from '../../src/records/normalize.js';
import { ALL_TIME, debugCalls, loginEnv, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { Rpc } from '../helpers/rpc.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { get, login, startServe } from '../serve/serve-process.js';

type Sale = { id: number; amount_total: number; amount_tax: number; payments: { amount: number }[] };

const decimalsOf = (v: number): number => (String(v).split('.')[1] ?? '').length;

const MONEY = ['gross', 'discounts', 'refunds', 'net', 'tax', 'total', 'average_ticket'];

describe.each([
  ['KWD', 3],
  ['JPY', 0],
  ['EUR', 2],
] as const)('a company in %s (%i decimals)', (currency, digits) => {
  let sandbox: SandboxHandle;
  let proxy: RpcProxy;
  let rpc: Rpc;
  let env: Record<string, string>;
  const P = ['--rate', '0', '--limit', '300'];

  beforeAll(async () => {
    sandbox = await startTestSandbox({
      seed: 9,
      orders: 300,
      days: 3,
      currency,
      now: new Date('2026-11-20T12:00:00Z'),
    });
    proxy = await startRpcProxy(sandbox.url);
    rpc = new Rpc(sandbox.url);
    await rpc.auth();
    env = await loginEnv(proxy.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
  });

  it("res.currency answers the currency's decimal_places, as Odoo does", async () => {
    const [c] = await rpc.searchRead('res.currency', [], { fields: ['name', 'decimal_places', 'rounding'] });
    expect(c).toMatchObject({ name: currency, decimal_places: digits, rounding: 10 ** -digits });
  });

  it("json: every amount is Odoo's at the currency's decimals, payments too; the currency read once", async () => {
    proxy.reset();
    const r = await runCli(['sales', ...P, '--format', 'json', '--with-payments'], { env });
    expect(r.code, r.stderr).toBe(0);
    const sales = JSON.parse(r.stdout) as Sale[];
    const odoo = new Map(
      (
        await rpc.searchRead('pos.order', [], {
          fields: ['amount_total', 'amount_tax'],
          order: 'id',
          limit: 300,
        })
      ).map((o) => [o.id as number, o]),
    );
    const amounts = sales.flatMap((s) => [s.amount_total, s.amount_tax, ...s.payments.map((p) => p.amount)]);
    for (const v of amounts) expect(decimalsOf(v), String(v)).toBeLessThanOrEqual(digits);
    // Amounts that use every decimal the currency has: not cut to two (KWD), not padded (JPY).
    if (digits > 0) expect(amounts.filter((v) => decimalsOf(v) === digits).length).toBeGreaterThan(10);
    for (const s of sales) {
      const o = odoo.get(s.id) as { amount_total: number; amount_tax: number };
      expect(s.amount_total).toBe(roundAt(o.amount_total, digits));
      expect(s.amount_tax).toBe(roundAt(o.amount_tax, digits));
    }
    // Once, and in one request: the sandbox is an Odoo 17, as login stored it.
    expect((proxy.seen.get('web_search_read') ?? []).filter((b) => b.includes('res.company'))).toHaveLength(
      1,
    );
    expect((proxy.seen.get('read') ?? []).filter((b) => b.includes('res.currency'))).toHaveLength(0);
  });

  it("csv carries the json values; the table shows every amount and the total with the currency's decimals", async () => {
    const [json, csv, table] = await Promise.all([
      runCli(['sales', ...P, '--format', 'json'], { env }),
      runCli(['sales', ...P, '--format', 'csv'], { env }),
      runCli(['sales', ...P, '--format', 'table', '--fields', 'id,amount_total,amount_tax'], {
        env: { ...env, COLUMNS: '120' },
      }),
    ]);
    const sales = JSON.parse(json.stdout) as Sale[];
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    const money = digits === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${digits}}$`);
    // CSV writes each amount at the currency's decimals (13.80, 13.800): the JSON's number.
    expect(rows.map((r) => Number(r.amount_total))).toEqual(sales.map((s) => s.amount_total));
    for (const r of rows) expect(r.amount_total).toMatch(money);
    expect(table.code, table.stderr).toBe(0);
    const cells = table.stdout
      .split('\n')
      .filter((l) => /^│\s+\d+ │/.test(l))
      .flatMap((l) =>
        l
          .split('│')
          .slice(2, 4)
          .map((c) => c.trim()),
      );
    expect(cells.length).toBe(2 * sales.length);
    for (const c of cells) expect(c).toMatch(money);
    const total = /total (\S+) of every state/.exec(table.stdout)?.[1] ?? '';
    expect(total).toMatch(money);
  });

  it('the first pages are asked for while the currency is read, and come out at its decimals all the same', async () => {
    proxy.reset();
    // The currency's reply is held until the proxy sees a page of sales asked for (at most
    // 5 s): an export that waits for the decimals before its first page waits out the 5 s.
    const held: string[] = [];
    let pageAsked = (): void => undefined;
    proxy.before.set('search_read', async (body) => {
      if (body.includes('"pos.order"')) pageAsked();
    });
    const gated = (args: string[], extra: Record<string, string> = {}) => {
      const asked = new Promise<void>((r) => {
        pageAsked = r;
      });
      proxy.before.set('web_search_read', async (body) => {
        if (!body.includes('res.company')) return;
        held.push(
          await Promise.race([
            asked.then(() => 'a page'),
            new Promise<string>((r) => setTimeout(() => r('nothing'), 5000)),
          ]),
        );
      });
      return runCli(['sales', ...P, ...args], { env: { ...env, ...extra } });
    };
    const csv = await gated(['--format', 'csv', '--fields', 'id,amount_total']);
    const table = await gated(['--format', 'table', '--fields', 'id,amount_total,config_id'], {
      COLUMNS: '120',
    });
    expect(held).toEqual(['a page', 'a page']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(table.code, table.stderr).toBe(0);
    const odoo = await rpc.searchRead('pos.order', [], { fields: ['amount_total'], order: 'id', limit: 300 });
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => Number(r.amount_total))).toEqual(
      odoo.map((o) => roundAt(o.amount_total as number, digits)),
    );
    const money = digits === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${digits}}$`);
    const cells = table.stdout
      .split('\n')
      .filter((l) => /^│\s+\d+ │/.test(l))
      .map((l) => (l.split('│')[2] ?? '').trim());
    expect(cells.length).toBe(odoo.length);
    for (const c of cells) expect(c).toMatch(money);
    expect((proxy.seen.get('web_search_read') ?? []).filter((b) => b.includes('res.company'))).toHaveLength(
      2,
    );
  });

  it("reconcile: each difference is Odoo's cash_register_difference at the currency's decimals, in json and the table", async () => {
    const json = await runCli(
      ['reconcile', '--rate', '0', '--from', '2000-01-01', '--to', 'today', '--format', 'json'],
      {
        env,
      },
    );
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as Record<string, number>[];
    expect(rows.length).toBeGreaterThan(2);
    const odoo = new Map(
      (
        await rpc.searchRead('pos.session', [['state', '=', 'closed']], {
          fields: ['cash_register_difference'],
        })
      ).map((s) => [s.id as number, s.cash_register_difference as number]),
    );
    const amounts = rows.flatMap((r) =>
      Object.entries(r)
        .filter(
          ([k]) =>
            k.startsWith('method:') ||
            ['cash_taken', 'expected_cash', 'counted_cash', 'difference'].includes(k),
        )
        .map(([, v]) => v),
    );
    for (const v of amounts) expect(decimalsOf(v), String(v)).toBeLessThanOrEqual(digits);
    if (digits > 0) expect(amounts.some((v) => decimalsOf(v) === digits)).toBe(true);
    for (const r of rows)
      expect(r.difference).toBe(roundAt(odoo.get(r.session_id as number) ?? Number.NaN, digits));
    const table = await runCli(
      ['reconcile', '--rate', '0', '--from', '2000-01-01', '--to', 'today', '--format', 'table'],
      {
        env: { ...env, COLUMNS: '200' },
      },
    );
    expect(table.code, table.stderr).toBe(0);
    const cells = table.stdout.match(/[│ ]-?\+?\d+(\.\d+)? (?=│)/g) ?? [];
    const amountsShown = cells.map((c) => c.trim()).filter((c) => !/^\d+$/.test(c) || digits === 0);
    expect(amountsShown.length).toBeGreaterThan(0);
    const money = digits === 0 ? /^[-+]?\d+$/ : new RegExp(`^[-+]?\\d+\\.\\d{${digits}}$`);
    for (const c of amountsShown) expect(c).toMatch(money);
  });

  it('serve answers what the command prints, at the same decimals', async () => {
    const served = await startServe(['--rate', '0'], env);
    try {
      const token = await login(served.base, 'admin', 'admin');
      const answer = await get(served.base, '/api/v1/sales?limit=300', token);
      expect(answer.status, answer.text).toBe(200);
      const cli = await runCli(['sales', ...P, '--format', 'json'], { env });
      expect(JSON.parse(answer.text)).toEqual(JSON.parse(cli.stdout));
    } finally {
      await served.stop();
    }
  });

  it("summary: every amount at the currency's decimals, the columns adding up to Odoo's own sums rounded once", async () => {
    proxy.reset();
    const args = ['summary', ...ALL_TIME, '--by', 'register'];
    const [json, table] = await Promise.all([
      runCli([...args, '--format', 'json'], { env }),
      runCli([...args, '--format', 'table'], { env: { ...env, COLUMNS: '250' } }),
    ]);
    expect(json.code, json.stderr).toBe(0);
    expect(table.code, table.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as Record<string, unknown>[];
    const counted = await rpc.searchRead('pos.order', [['state', 'in', ['paid', 'done', 'invoiced']]], {
      fields: ['amount_total', 'amount_tax'],
    });
    const odoo = (k: string): number =>
      roundAt(
        counted.reduce((a, o) => a + (o[k] as number), 0),
        digits,
      );
    const ours = (k: string): number =>
      roundAt(
        rows.reduce((a, r) => a + (r[k] as number), 0),
        digits,
      );
    expect(ours('total')).toBe(odoo('amount_total'));
    expect(ours('tax')).toBe(odoo('amount_tax'));
    const money = rows.flatMap((r) =>
      Object.entries(r)
        .filter(([k, v]) => typeof v === 'number' && (MONEY.includes(k) || k.startsWith('method:')))
        .map(([, v]) => v as number),
    );
    for (const v of money) expect(decimalsOf(v), String(v)).toBeLessThanOrEqual(digits);
    if (digits > 2) expect(money.filter((v) => decimalsOf(v) === digits).length).toBeGreaterThan(3);
    // The table's totals row shows Odoo's total at the currency's decimals.
    const totals = table.stdout.split('\n').find((l) => /^│ total /.test(l)) ?? '';
    const cells = totals.split('│').map((c) => c.trim());
    expect(cells).toContain(fixedDecimals(odoo('amount_total'), digits));
    // The decimals read once a run, in one request (Odoo 17: web_search_read).
    expect((proxy.seen.get('web_search_read') ?? []).filter((b) => b.includes('res.company'))).toHaveLength(
      2,
    );
    expect((proxy.seen.get('read') ?? []).filter((b) => b.includes('res.currency'))).toHaveLength(0);
  });

  it('doctor: every check holds in this currency', async () => {
    const r = await runCli(['doctor', '--rate', '0', '--tz', 'UTC', '--date', '2026-11-19'], { env });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(
      /^ok +reconcile +2026-11-19: the difference of \d+ closed sessions? is Odoo's cash_register_difference/m,
    );
  });
});

describe("the summary's decimals: one request on Odoo 17 and 19 (web_search_read), two on 16", () => {
  const cases = [
    [16, 'admin', 'jsonrpc'],
    [17, 'admin', 'jsonrpc'],
    [19, SUITE_SECRET, 'json2'],
  ] as const;
  it.each(cases)(
    'Odoo %i, KWD: the amounts at three decimals (logged in with %s, over %s)',
    async (version, secret, protocol) => {
      const sandbox = await startTestSandbox({
        seed: 9,
        orders: 300,
        days: 3,
        currency: 'KWD',
        odooVersion: version,
        adminKey: SUITE_SECRET,
        now: new Date('2026-11-20T12:00:00Z'),
      });
      try {
        const env = await loginEnv(sandbox.url, 'admin', secret);
        const r = await runCli(['summary', ...ALL_TIME, '--format', 'json', '--debug'], { env });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr.split('\n').filter((l) => l.includes(`→ ${protocol} `)).length).toBeGreaterThan(3);
        const currency = debugCalls(r.stderr).filter((c) => /^res\.(company|currency)\./.test(c));
        expect(currency).toEqual(
          version === 16 ? ['res.company.search_read', 'res.currency.read'] : ['res.company.web_search_read'],
        );
        const rows = JSON.parse(r.stdout) as Record<string, number>[];
        const total = rows.reduce((a, x) => a + (x.total as number), 0);
        const rpc = new Rpc(sandbox.url);
        const counted = await rpc.searchRead('pos.order', [['state', 'in', ['paid', 'done', 'invoiced']]], {
          fields: ['amount_total'],
        });
        const odoo = counted.reduce((a, o) => a + (o.amount_total as number), 0);
        expect(roundAt(total, 3)).toBe(roundAt(odoo, 3));
        expect(rows.some((x) => decimalsOf(x.total as number) === 3)).toBe(true);
      } finally {
        await sandbox.close();
      }
    },
  );
});

describe('a login that remembers Odoo 17, a server that is 16 now', () => {
  it("web_search_read is refused with 16's TypeError: the two plain reads give the decimals", async () => {
    const opts = { seed: 9, orders: 200, days: 3, currency: 'KWD', now: new Date('2026-11-20T12:00:00Z') };
    const [v17, v16] = await Promise.all([
      startTestSandbox({ ...opts, odooVersion: 17 }),
      startTestSandbox({ ...opts, odooVersion: 16 }),
    ]);
    try {
      const env = await loginEnv(v17.url);
      // The stored profile now points at the 16 (same data, same uid): it still says 17.
      const file = join(env.POSDATA_CONFIG_DIR as string, 'config.json');
      const store = JSON.parse(readFileSync(file, 'utf8'));
      expect(store.profiles.default.serverVersion).toMatch(/^17\./);
      store.profiles.default.url = `${v16.url.replace(/\/$/, '')}/`;
      writeFileSync(file, JSON.stringify(store));
      const r = await runCli(['sales', '--rate', '0', '--limit', '50', '--format', 'json', '--debug'], {
        env,
      });
      expect(r.code, r.stderr).toBe(0);
      const currency = debugCalls(r.stderr).filter((c) => /^res\.(company|currency)\./.test(c));
      expect(currency).toEqual([
        'res.company.web_search_read',
        'res.company.search_read',
        'res.currency.read',
      ]);
      const sales = JSON.parse(r.stdout) as Sale[];
      expect(sales.some((s) => decimalsOf(s.amount_total) === 3)).toBe(true);
    } finally {
      await Promise.all([v17.close(), v16.close()]);
    }
  });
});
