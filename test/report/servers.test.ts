// posdata report over several Odoo servers (--profile a,b): shop-a (two companies, EUR and
// USD), shop-b (one, EUR) and shop-down (its port closed since login). One page with a part
// per healthy profile, a section per currency inside, each section's figures (from the JSON
// block, which carries profile, companies and currency on each) equal to that profile's own
// `summary --format json` and its single report; the failing server named on stderr and in
// the page, and exit 8. With {profile} in -o, one report per server.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, loginProfile, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { reportData } from '../helpers/report.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const PERIOD = ['--from', '2026-10-01', '--to', '2026-10-31', '--tz', 'UTC', '--rate', '0'];
const FIGURES = ['orders', 'items', 'gross', 'discounts', 'refund_count', 'refunds', 'net', 'tax', 'total'];
const dir = mkdtempSync(join(tmpdir(), 'posdata-report-servers-'));

type Obj = Record<string, unknown>;
const sandboxes: SandboxHandle[] = [];
let env: Record<string, string>;
let run: { code: number | null; stderr: string };
let html: string;
let data: Obj;

beforeAll(async () => {
  env = { POSDATA_CONFIG_DIR: freshConfigDir() };
  const a = await startTestSandbox({
    seed: 21,
    orders: 300,
    days: 60,
    companies: 2,
    adminKey: SUITE_SECRET,
    now: NOW,
  });
  const b = await startTestSandbox({ seed: 22, orders: 400, days: 60, adminKey: SUITE_SECRET, now: NOW });
  sandboxes.push(a, b);
  await loginProfile(env, 'shop-a', a.url);
  await loginProfile(env, 'shop-b', b.url);
  const gone = await startTestSandbox({ seed: 23, orders: 5, adminKey: SUITE_SECRET, now: NOW });
  await loginProfile(env, 'shop-down', gone.url);
  await gone.close();
  const file = join(dir, 'chain.html');
  run = await runCli(
    ['report', ...PERIOD, '--profile', 'shop-a,shop-down,shop-b', '--jobs', '2', '-o', file],
    { env },
  );
  html = readFileSync(file, 'utf8');
  data = reportData(html);
}, 180_000);
afterAll(async () => {
  for (const s of sandboxes) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const pick = (rows: Obj[], keys: string[]) =>
  rows.map((r) => Object.fromEntries([...keys, ...FIGURES].map((k) => [k, r[k]])));

describe('report over several servers, one of them down', { timeout: 120_000 }, () => {
  it('names the failed server on stderr and in the page, writes the healthy ones, exit 8', () => {
    expect(run.code, run.stderr).toBe(8);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines.find((l) => l.startsWith('posdata: profile shop-down: '))).toMatch(/connect|refused/i);
    expect(lines.at(-1)).toMatch(
      /^posdata: 1 of 3 servers failed \(shop-down\); the others' data is complete/,
    );
    expect(data.failed).toEqual(['shop-down']);
    expect((data.servers as Obj[]).map((s) => s.profile)).toEqual(['shop-a', 'shop-b']);
    expect(html).toContain('<p class="failed">Not read: shop-down');
    expect([...html.matchAll(/<section class="profile" data-profile="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'shop-a',
      'shop-b',
    ]);
  });

  it('has a section per profile and currency, each carrying profile, companies and currency', () => {
    const sections = data.currencies as Obj[];
    expect(sections.map((s) => [s.profile, s.currency, s.companies])).toEqual([
      ['shop-a', 'EUR', [{ id: 1, name: 'My Company' }]],
      ['shop-a', 'USD', [{ id: 2, name: 'Shop US' }]],
      ['shop-b', 'EUR', [{ id: 1, name: 'My Company' }]],
    ]);
    // The overview has a row per profile and currency, and no total: two EUR shops are not added either.
    const at = html.indexOf('<table class="overview">');
    const overview = html.slice(at, html.indexOf('</table>', at));
    expect(
      [...overview.matchAll(/<tr data-profile="([^"]+)" data-currency="(\w+)">/g)].map(
        (m) => `${m[1]} ${m[2]}`,
      ),
    ).toEqual(['shop-a EUR', 'shop-a USD', 'shop-b EUR']);
    expect(overview.split('<tbody>')[1]?.match(/<tr/g)).toHaveLength(3);
  });

  it("each profile's sections equal that profile's summary JSON, per currency", async () => {
    const groupings: [string, string, string[]][] = [
      ['register', 'register', ['config_id']],
      ['day', 'day', ['day']],
      ['cashier', 'cashier', ['cashier_id']],
      ['method', 'method', ['method_id']],
    ];
    for (const profile of ['shop-a', 'shop-b']) {
      const mine = (data.currencies as Obj[]).filter((s) => s.profile === profile);
      for (const [name, by, keys] of groupings) {
        const r = await runCli(['summary', ...PERIOD, '--profile', profile, '--by', by, '--format', 'json'], {
          env,
        });
        expect(r.code, r.stderr).toBe(0);
        const rows = JSON.parse(r.stdout) as Obj[];
        for (const s of mine) {
          // A one-currency server's rows carry no currency: they are all of it.
          const theirs = rows.filter((x) => x.currency === undefined || x.currency === s.currency);
          expect(theirs.length).toBeGreaterThan(0);
          expect(
            pick((s.summary as Record<string, Obj[]>)[name] as Obj[], keys),
            `${profile} ${name}`,
          ).toEqual(pick(theirs, keys));
        }
      }
    }
  });

  it("the glance of each is summary --profile a,b --by profile's row for that profile and currency", async () => {
    const r = await runCli(
      ['summary', ...PERIOD, '--profile', 'shop-a,shop-b', '--by', 'profile', '--format', 'json'],
      {
        env,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Obj[];
    expect(rows.map((x) => `${x.profile} ${x.currency}`)).toEqual(['shop-a EUR', 'shop-a USD', 'shop-b EUR']);
    for (const s of data.currencies as Obj[]) {
      const row = rows.find((x) => x.profile === s.profile && x.currency === s.currency) as Obj;
      for (const k of FIGURES)
        expect((s.glance as Obj)[k], `${s.profile} ${s.currency} ${k}`).toEqual(row[k]);
    }
  });

  it("each profile's part is its single report: figures, cash and loss alike", async () => {
    for (const profile of ['shop-a', 'shop-b']) {
      const file = join(dir, `${profile}.json`);
      const r = await runCli(['report', ...PERIOD, '--profile', profile, '--format', 'json', '-o', file], {
        env,
      });
      expect(r.code, r.stderr).toBe(0);
      const one = JSON.parse(readFileSync(file, 'utf8')) as Obj;
      expect(one.profile).toBe(profile);
      expect(one.currencies).toEqual((data.currencies as Obj[]).filter((s) => s.profile === profile));
      const server = (data.servers as Obj[]).find((s) => s.profile === profile) as Obj;
      expect(server.companies).toEqual(one.companies);
    }
  });

  it('-o with {profile}: one report per healthy server, none for the failed one, exit 8', async () => {
    const root = freshConfigDir();
    const r = await runCli(
      ['report', ...PERIOD, '--profile', 'shop-b,shop-down', '-o', `${root}/{profile}.html`],
      { env },
    );
    expect(r.code, r.stderr).toBe(8);
    const b = reportData(readFileSync(`${root}/shop-b.html`, 'utf8'));
    expect(b.profile).toBe('shop-b');
    expect(b.currencies).toEqual((data.currencies as Obj[]).filter((s) => s.profile === 'shop-b'));
    expect(existsSync(`${root}/shop-down.html`)).toBe(false);
  });

  it('all healthy is exit 0; a bad period is exit 2 before any server is asked', async () => {
    const file = join(dir, 'healthy.json');
    const r = await runCli(['report', ...PERIOD, '--profile', 'shop-a,shop-b', '-o', file], { env });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Obj;
    expect(doc.failed).toEqual([]);
    expect((doc.currencies as Obj[]).map((s) => `${s.profile} ${s.currency}`)).toEqual([
      'shop-a EUR',
      'shop-a USD',
      'shop-b EUR',
    ]);
    const pdf = await runCli(['report', ...PERIOD, '--profile', 'shop-a,shop-down', '--format', 'pdf'], {
      env: { ...env, POSDATA_CHROMIUM: join(dir, 'no-chromium-here') },
    });
    expect(pdf.code).toBe(2);
    expect(pdf.stderr.trim().split('\n')).toHaveLength(1);
    expect(pdf.stderr).toMatch(/^posdata: --format pdf prints with Chromium, and none is installed here/);
    const bad = await runCli(['report', '--month', '2026-13', '--profile', 'shop-a,shop-down'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([
      "posdata: --month '2026-13' is not a month; use YYYY-MM, e.g. --month 2026-11",
    ]);
  });
});
