// posdata report over two companies in two currencies (a sandbox with My Company in EUR and
// Shop US in USD): by default every company the user may see, one section per currency whose
// figures (read back from the HTML's JSON block) equal `summary --format json` and
// `reconcile --format json` for the same period, each section naming its companies; no figure
// in the page adds EUR and USD; --company narrows it; a company the user may not see is exit 5
// with one line.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { reportData } from '../helpers/report.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const PERIOD = ['--from', '2026-10-01', '--to', '2026-10-31', '--tz', 'UTC', '--rate', '0'];
const FIGURES = ['orders', 'items', 'gross', 'discounts', 'refund_count', 'refunds', 'net', 'tax', 'total'];
const dir = mkdtempSync(join(tmpdir(), 'posdata-report-companies-'));

type Obj = Record<string, unknown>;
let sandbox: SandboxHandle;
let env: Record<string, string>;
let html: string;
let data: Obj;
let sections: Obj[];

async function writeReport(e: Record<string, string>, name: string, extra: string[] = []) {
  const file = join(dir, name);
  const r = await runCli(['report', ...PERIOD, '-o', file, ...extra], { env: e });
  expect(r.code, r.stderr).toBe(0);
  const page = readFileSync(file, 'utf8');
  return { html: page, data: reportData(page) };
}

async function summaryJson(by: string, extra: string[] = []): Promise<Obj[]> {
  const r = await runCli(['summary', ...PERIOD, '--by', by, '--format', 'json', ...extra], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Obj[];
}

const pick = (rows: Obj[], keys: string[]) =>
  rows.map((r) => Object.fromEntries([...keys, ...FIGURES].map((k) => [k, r[k]])));

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 11, orders: 500, days: 60, companies: 2, now: NOW });
  env = await loginEnv(sandbox.url);
  ({ html, data } = await writeReport(env, 'both.html'));
  sections = data.currencies as Obj[];
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('report over two companies in two currencies', { timeout: 120_000 }, () => {
  it('reads every company the user may see: one section per currency, each naming its companies', () => {
    expect(data.companies).toEqual([
      { id: 1, name: 'My Company', currency: 'EUR' },
      { id: 2, name: 'Shop US', currency: 'USD' },
    ]);
    expect(sections.map((s) => [s.profile, s.currency, s.companies])).toEqual([
      [null, 'EUR', [{ id: 1, name: 'My Company' }]],
      [null, 'USD', [{ id: 2, name: 'Shop US' }]],
    ]);
    for (const s of sections) {
      const company = (s.companies as { id: number }[])[0]?.id;
      const registers = s.registers as { company_id: number }[];
      expect(registers.length).toBeGreaterThan(0);
      for (const r of registers) expect(r.company_id).toBe(company);
    }
    // The header names the companies and the currencies.
    expect(html).toContain('companies: 1 My Company (EUR), 2 Shop US (USD); currencies: EUR, USD.');
  });

  it("each currency's groupings equal summary's JSON rows of that currency", async () => {
    const groupings: [string, string, string[], string[]][] = [
      ['register', 'register', ['config_id'], []],
      ['cashier', 'cashier', ['cashier_id'], []],
      ['day', 'day', ['day'], []],
      ['weekdayHour', 'weekday,hour', ['weekday', 'hour'], []],
      ['method', 'method', ['method_id'], []],
      ['product', 'product', ['product_id'], ['--top', '10']],
      ['category', 'category', ['category_id'], ['--top', '10']],
    ];
    for (const [name, by, keys, extra] of groupings) {
      const rows = await summaryJson(by, extra);
      expect(new Set(rows.map((r) => r.currency))).toEqual(new Set(['EUR', 'USD']));
      for (const s of sections) {
        const theirs = rows.filter((r) => r.currency === s.currency);
        expect(theirs.length, `${name} ${s.currency}`).toBeGreaterThan(0);
        const mine = (s.summary as Record<string, Obj[]>)[name] as Obj[];
        expect(pick(mine, keys), `${name} ${s.currency}`).toEqual(pick(theirs, keys));
      }
    }
  });

  it("the period at a glance is summary --by currency's row, this period and the previous", async () => {
    const now = await summaryJson('currency');
    const before = await runCli(
      [
        'summary',
        '--from',
        '2026-08-31',
        '--to',
        '2026-09-30',
        '--tz',
        'UTC',
        '--rate',
        '0',
        '--by',
        'currency',
        '--format',
        'json',
      ],
      { env },
    );
    expect(before.code, before.stderr).toBe(0);
    const prev = JSON.parse(before.stdout) as Obj[];
    for (const s of sections) {
      const row = now.find((r) => r.currency === s.currency) as Obj;
      const glance = s.glance as Obj;
      for (const k of FIGURES) expect(glance[k], `${s.currency} ${k}`).toEqual(row[k]);
      const p = prev.find((r) => r.currency === s.currency) as Obj;
      for (const k of FIGURES) expect((s.previous as Obj)[k], `${s.currency} previous ${k}`).toEqual(p[k]);
    }
    // Two different totals: neither is the other's currency added in.
    const totals = sections.map((s) => (s.glance as Obj).total as number);
    expect(totals[0]).not.toBe(totals[1]);
  });

  it("each currency's cash closings equal reconcile's JSON rows of its company", async () => {
    const r = await runCli(['reconcile', ...PERIOD, '--format', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const theirs = JSON.parse(r.stdout) as Obj[];
    const keys = [
      'company_id',
      'company',
      'currency',
      'session_id',
      'register',
      'expected_cash',
      'counted_cash',
      'difference',
    ];
    const only = (rows: Obj[]) => rows.map((x) => Object.fromEntries(keys.map((k) => [k, x[k]])));
    for (const s of sections) {
      const mine = s.reconcile as Obj[];
      expect(mine.length, s.currency as string).toBeGreaterThan(5);
      expect(only(mine)).toEqual(only(theirs.filter((x) => x.currency === s.currency)));
    }
  });

  it("the loss figures of each currency are its own company's (refunds per cashier over RPC)", async () => {
    const rpc = rpcClient(sandbox.url);
    for (const s of sections) {
      const company = (s.companies as { id: number }[])[0]?.id as number;
      const refunds = await rpc.ok<Obj[]>(
        'pos.order',
        'search_read',
        [
          [
            ['state', 'in', ['paid', 'done', 'invoiced']],
            ['date_order', '>=', '2026-10-01 00:00:00'],
            ['date_order', '<', '2026-11-01 00:00:00'],
            ['amount_total', '<', 0],
          ],
        ],
        { fields: ['user_id', 'amount_total'], context: { allowed_company_ids: [company] } },
      );
      const by = new Map<number, number>();
      for (const o of refunds) {
        const u = (o.user_id as [number, string])[0];
        by.set(u, (by.get(u) ?? 0) + Math.round((o.amount_total as number) * 100));
      }
      const cashiers = (s.loss as { cashiers: { id: number; refunds: number }[] }).cashiers;
      for (const c of cashiers)
        expect(Math.round(c.refunds * 100), `${s.currency} ${c.id}`).toBe(by.get(c.id) ?? 0);
    }
  });

  it("summary --loss over two currencies is exit 2 asking for --company (it printed a split summary, the marks lost, exit 0); with --company, the report's loss figures of that currency", async () => {
    const loss = ['summary', ...PERIOD, '--by', 'cashier', '--loss', '--format', 'json'];
    const r = await runCli(loss, { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^posdata: --loss sets each against the others in one currency, and these companies keep .*EUR.*USD.*; add --company with the companies of one currency, e\.g\. --company 1\n$/,
    );
    const usd = sections.find((s) => s.currency === 'USD') as Obj;
    const company = (usd.companies as { id: number }[])[0]?.id as number;
    const one = await runCli([...loss, '--company', String(company)], { env });
    expect(one.code, one.stderr).toBe(0);
    const rows = JSON.parse(one.stdout) as Obj[];
    const cashiers = (usd.loss as { cashiers: { id: number; refunds: number }[] }).cashiers;
    expect(rows.map((x) => [x.cashier_id, x.refunds])).toEqual(cashiers.map((c) => [c.id, c.refunds]));
    expect(rows.every((x) => 'marks' in x)).toBe(true);
  });

  it('lays out each currency apart and adds none: an overview row per currency, no total of both', () => {
    expect(
      [...html.matchAll(/<section class="currency" [^>]*data-currency="(\w+)"/g)].map((m) => m[1]),
    ).toEqual(['EUR', 'USD']);
    const overview = html.slice(
      html.indexOf('<table class="overview">'),
      html.indexOf('</table>', html.indexOf('<table class="overview">')),
    );
    expect([...overview.matchAll(/<tr data-profile="" data-currency="(\w+)">/g)].map((m) => m[1])).toEqual([
      'EUR',
      'USD',
    ]);
    const sum = sections.reduce((a, s) => a + ((s.glance as Obj).total as number), 0);
    const shown = sum.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect(html).not.toContain(`>${shown}<`);
    // Chart ids stay unique with two sections.
    const ids = [...html.matchAll(/<figure class="chart" id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  it('--company narrows it to one company, equal to that currency section', async () => {
    const { data: one } = await writeReport(env, 'us.html', ['--company', 'shop us']);
    const [us] = one.currencies as Obj[];
    expect((one.currencies as Obj[]).length).toBe(1);
    expect(one.companies).toEqual([{ id: 2, name: 'Shop US', currency: 'USD' }]);
    const both = sections[1] as Obj;
    for (const k of ['currency', 'companies', 'registers', 'glance', 'previous', 'summary', 'reconcile'])
      expect((us as Obj)[k], k).toEqual(both[k]);
  });

  it("--config-id of a register in USD gives that currency's section alone, read with its company", async () => {
    const us = (sections[1] as Obj).registers as { id: number; company_id: number }[];
    const register = us[0] as { id: number; company_id: number };
    const { data: one } = await writeReport(env, 'register.html', ['--config-id', String(register.id)]);
    const [only] = one.currencies as Obj[];
    expect((one.currencies as Obj[]).map((s) => [s.currency, s.registers])).toEqual([['USD', [register]]]);
    const rows = await summaryJson('register', ['--config-id', String(register.id)]);
    expect(pick(((only as Obj).summary as Record<string, Obj[]>).register as Obj[], ['config_id'])).toEqual(
      pick(
        rows.filter((r) => r.currency === undefined || r.currency === 'USD'),
        ['config_id'],
      ),
    );
  });

  it('a user allowed in one company gets that one; a company they may not see is exit 5 in one line', async () => {
    const pos2 = await loginEnv(sandbox.url, 'pos2', 'pos2');
    const { data: theirs } = await writeReport(pos2, 'pos2.html');
    expect((theirs.currencies as Obj[]).map((s) => s.currency)).toEqual(['USD']);
    const file = join(dir, 'refused.html');
    const r = await runCli(['report', ...PERIOD, '--company', '1', '-o', file], { env: pos2 });
    expect(r.code).toBe(5);
    expect(r.stderr.trim().split('\n')).toEqual([
      'posdata: company 1 is not one this user may see; this user may see 2 Shop US (USD)',
    ]);
  });
});
