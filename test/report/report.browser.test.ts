// The report in a real headless Chromium (Debian's, driven by playwright-core) with the
// network off: every chart is drawn (an SVG with paths, not an empty box), nothing is
// fetched; a screenshot is kept in test-artifacts/. --format pdf prints A4 pages, and every
// chart keeps to one page (break-inside: avoid, and no chart taller than a page). Where no
// Chromium is found, --format pdf is one line and exit 2.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { column, type ReadPage, readPage, reportData, UNREADABLE } from '../helpers/report.js';
import { type SandboxHandle, SHOP_MODULES, startTestSandbox } from '../helpers/sandbox.js';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present)
  console.warn(`report browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
const CHARTS = [
  'sales-per-day',
  'hour-weekday',
  'payment-methods',
  'top-products',
  'top-categories',
  'registers',
];

const dir = mkdtempSync(join(tmpdir(), 'posdata-report-browser-'));
let sandbox: SandboxHandle;
let env: Record<string, string>;
const P = ['--month', '2026-10', '--tz', 'UTC', '--rate', '0'];

beforeAll(async () => {
  sandbox = await startTestSandbox({
    seed: 3,
    orders: 3000,
    days: 60,
    leaks: true,
    now: new Date('2026-11-28T12:00:00Z'),
  });
  env = await loginEnv(sandbox.url);
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!present)('the report in headless Chromium', { timeout: 240_000 }, () => {
  it('draws every chart offline, fetching nothing', async () => {
    const file = join(dir, 'october.html');
    const r = await runCli(['report', ...P, '-o', file], { env });
    expect(r.code, r.stderr).toBe(0);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    });
    try {
      const context = await browser.newContext({ offline: true, viewport: { width: 900, height: 1200 } });
      const page = await context.newPage();
      const fetched: string[] = [];
      page.on('request', (q) => {
        if (!q.url().startsWith('file:')) fetched.push(q.url());
      });
      await page.goto(pathToFileURL(file).href);
      const drawn = await page.$$eval('figure.chart', (figs) =>
        figs.map((f) => {
          const svg = f.querySelector('svg');
          const box = svg?.getBoundingClientRect();
          return {
            id: f.id,
            paths: svg ? svg.querySelectorAll('path').length : 0,
            width: box?.width ?? 0,
            height: box?.height ?? 0,
          };
        }),
      );
      expect(drawn.map((d) => d.id)).toEqual(CHARTS);
      for (const d of drawn) {
        expect(d.paths, d.id).toBeGreaterThan(2);
        expect(d.width, d.id).toBeGreaterThan(300);
        expect(d.height, d.id).toBeGreaterThan(150);
      }
      expect(fetched).toEqual([]);
      mkdirSync(ARTIFACTS, { recursive: true });
      const shot = await page.screenshot({ path: join(ARTIFACTS, 'report.png'), fullPage: true });
      expect(shot.length).toBeGreaterThan(50_000);
      // In print, each chart may not be cut: break-inside avoid, and shorter than an A4 page.
      await page.emulateMedia({ media: 'print' });
      const printed = await page.$$eval('figure.chart', (figs) =>
        figs.map((f) => ({
          // Run in the page; the tests are type-checked without the DOM's globals.
          avoid: (
            globalThis as unknown as { getComputedStyle(e: unknown): { breakInside: string } }
          ).getComputedStyle(f).breakInside,
          height: f.getBoundingClientRect().height,
        })),
      );
      for (const p of printed) {
        expect(p.avoid).toBe('avoid');
        // A4 less the margins: 297 − 28 mm at 96 px per inch.
        expect(p.height).toBeLessThan(((297 - 28) / 25.4) * 96);
      }
    } finally {
      await browser.close();
    }
  });

  it('reads as a person would: every closing has its time, every ticket its register by name', async () => {
    const file = join(dir, 'october-read.html');
    const r = await runCli(['report', ...P, '-o', file], { env });
    expect(r.code, r.stderr).toBe(0);
    const data = reportData(readFileSync(file, 'utf8'));
    const section = (data.currencies as Record<string, unknown>[])[0] as {
      registers: { name: string }[];
      reconcile: unknown[];
    };
    const { text, tables } = await readPage(file, CHROMIUM);
    expect(text.match(UNREADABLE)?.[0]).toBeUndefined();
    // No tips, loyalty or Discount button here: no table of them, not an empty one.
    expect((section as { shop?: unknown }).shop).toBeNull();
    expect(text).not.toContain('Beside the products');
    const closings = tables.find((t) => t[0]?.[0] === 'Session' && t[0]?.includes('Expected')) ?? [];
    expect(closings.length - 1).toBe(section.reconcile.length);
    for (const closed of column(closings, 'Closed')) expect(closed).toMatch(/^2026-10-\d\d \d\d:\d\d$/);
    // A register is its name: not Odoo 17's label of it, which carries the user of its open session.
    const names = new Set(section.registers.map((x) => x.name));
    const listed = tables.flatMap((t) => column(t, 'Register'));
    expect(listed.length).toBeGreaterThan(20);
    expect(listed.filter((n) => !names.has(n))).toEqual([]);
  });

  it("keeps every table within an A4 page's width", async () => {
    const file = join(dir, 'october-a4.html');
    const r = await runCli(['report', ...P, '-o', file], { env });
    expect(r.code, r.stderr).toBe(0);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      // A4 less the page's side margins (210 − 2 × 12 mm), at 96 px per inch.
      const width = Math.floor(((210 - 24) / 25.4) * 96);
      const context = await browser.newContext({ offline: true, viewport: { width, height: 1200 } });
      const page = await context.newPage();
      await page.goto(pathToFileURL(file).href);
      await page.emulateMedia({ media: 'print' });
      const wide = await page.$$eval('table', (tables) =>
        tables.map((t) => ({ kind: t.className, right: Math.ceil(t.getBoundingClientRect().right) })),
      );
      expect(wide.filter((t) => t.kind === 'loss')).toHaveLength(4);
      expect(wide.filter((t) => t.right > width)).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('--format pdf prints A4 pages', async () => {
    const file = join(dir, 'october.pdf');
    const r = await runCli(['report', ...P, '--format', 'pdf', '-o', file], { env });
    expect(r.code, r.stderr).toBe(0);
    const pdf = readFileSync(file).toString('latin1');
    expect(pdf.startsWith('%PDF-')).toBe(true);
    const pages = pdf.match(/\/Type\s*\/Page[^s]/g) ?? [];
    expect(pages.length).toBeGreaterThan(2);
    const boxes = [...pdf.matchAll(/\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/g)].map((m) => [
      Math.round(Number(m[1])),
      Math.round(Number(m[2])),
    ]);
    expect(boxes.length).toBeGreaterThan(0);
    // A4 in points: 595 × 842.
    for (const b of boxes) expect(b).toEqual([595, 842]);
  });
});

describe('--format pdf without a Chromium', () => {
  it('is one line and exit 2, before anything is read', async () => {
    const r = await runCli(['report', ...P, '--format', 'pdf', '-o', join(dir, 'x.pdf')], {
      env: { ...env, POSDATA_CHROMIUM: join(dir, 'no-chromium-here') },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^posdata: --format pdf prints with Chromium, and none is installed here; install chromium/,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'x.pdf'))).toBe(false);
  });
});

describe.skipIf(!present)('a report of two currencies in headless Chromium', { timeout: 240_000 }, () => {
  it("draws every chart of each currency's section, each with an id of its own", async () => {
    const two = await startTestSandbox({
      seed: 11,
      orders: 300,
      days: 60,
      companies: 2,
      now: new Date('2026-11-28T12:00:00Z'),
    });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const file = join(dir, 'two.html');
      const r = await runCli(['report', ...P, '-o', file], { env: await loginEnv(two.url) });
      expect(r.code, r.stderr).toBe(0);
      const context = await browser.newContext({ offline: true, viewport: { width: 900, height: 1200 } });
      const page = await context.newPage();
      await page.goto(pathToFileURL(file).href);
      const drawn = await page.$$eval('section.currency', (sections) =>
        sections.map((s) => ({
          currency: s.getAttribute('data-currency'),
          charts: [...s.querySelectorAll('figure.chart')].map((f) => ({
            id: f.id,
            chart: f.getAttribute('data-chart'),
            paths: f.querySelector('svg')?.querySelectorAll('path').length ?? 0,
          })),
        })),
      );
      expect(drawn.map((s) => s.currency)).toEqual(['EUR', 'USD']);
      for (const s of drawn) {
        expect(s.charts.map((c) => c.chart)).toEqual(CHARTS);
        expect(s.charts.map((c) => c.id)).toEqual(CHARTS.map((c) => `${s.currency?.toLowerCase()}-${c}`));
        for (const c of s.charts) expect(c.paths, c.id).toBeGreaterThan(2);
      }
    } finally {
      await browser.close();
      await two.close();
    }
  });
});

type Row = Record<string, unknown>;
const cents = (v: unknown): number => Math.round(Number(v) * 100);
/** An amount as the page shows it ("2,509.60") in cents. */
const shownCents = (v: string | undefined): number => cents(String(v).replace(/,/g, ''));
const PARTS = /^(global_discounts|reward:.+|gift_cards_redeemed|gift_cards_sold|tips)$/;
/** The parts that lower a sale: in summary's discounts, not in Sales Details' (nor the glance's). */
const LOWERING = /^(global_discounts|reward:.+|gift_cards_redeemed)$/;

describe.skipIf(!present)("a real shop's month in headless Chromium", { timeout: 240_000 }, () => {
  let shop: SandboxHandle;
  let shopEnv: Record<string, string>;
  let section: {
    glance: Record<string, number>;
    shop: { keys: string[]; period: Record<string, number>; previous: Record<string, number> } | null;
    summary: { cashier: Row[] };
  };
  let page: ReadPage;
  const file = join(dir, 'shop.html');
  const summary = async (by: string, from: string, to: string): Promise<Row[]> => {
    const r = await runCli(
      ['summary', '--rate', '0', '--tz', 'UTC', '--from', from, '--to', to, '--by', by, '--format', 'json'],
      { env: shopEnv },
    );
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Row[];
  };
  const sum = (rows: Row[], k: string): number => rows.reduce((a, r) => a + cents(r[k] ?? 0), 0);

  beforeAll(async () => {
    shop = await startTestSandbox({
      seed: 3,
      orders: 3000,
      days: 60,
      leaks: true,
      now: new Date('2026-11-28T12:00:00Z'),
      ...SHOP_MODULES,
    });
    shopEnv = await loginEnv(shop.url);
    const r = await runCli(['report', ...P, '-o', file], { env: shopEnv });
    expect(r.code, r.stderr).toBe(0);
    section = (reportData(readFileSync(file, 'utf8')).currencies as (typeof section)[])[0] as typeof section;
    page = await readPage(file, CHROMIUM);
  }, 240_000);
  afterAll(async () => shop?.close());

  it("shows beside the products summary's parts of the month and the month before, and each cashier's tips", async () => {
    const [now, before, cashiers] = await Promise.all([
      summary('register', '2026-10-01', '2026-10-31'),
      summary('register', '2026-09-01', '2026-09-30'),
      summary('cashier', '2026-10-01', '2026-10-31'),
    ]);
    const keys = Object.keys(now[0] ?? {}).filter((k) => PARTS.test(k));
    expect(keys.filter((k) => !k.startsWith('reward:'))).toEqual([
      'global_discounts',
      'gift_cards_redeemed',
      'gift_cards_sold',
      'tips',
    ]);
    expect(keys.filter((k) => k.startsWith('reward:'))).toEqual(['reward:Shop Points']);
    expect(section.shop?.keys).toEqual(keys);
    for (const k of keys) {
      expect(sum(now, k), k).toBeGreaterThan(0);
      expect(cents(section.shop?.period[k]), k).toBe(sum(now, k));
      expect(cents(section.shop?.previous[k]), `${k}, the month before`).toBe(sum(before, k));
    }
    // The page: a row per part, labelled, this month's amount and the previous one's.
    const table = page.figures.find((f) => f.kind === 'glance shop')?.rows ?? [];
    expect(table[0]).toEqual(['', 'This period', 'Previous period']);
    expect(table.slice(1).map((r) => r[0])).toEqual([
      'Global discounts (the Discount button)',
      'Loyalty reward: Shop Points',
      'Gift cards redeemed',
      'Gift cards sold',
      'Tips',
    ]);
    for (const [i, k] of keys.entries()) {
      expect(shownCents(table[i + 1]?.[1]), k).toBe(sum(now, k));
      expect(shownCents(table[i + 1]?.[2]), k).toBe(sum(before, k));
    }
    expect(page.text).toContain("In Odoo's Sales Details, as in the gross and discounts above");
    // Each cashier's tips: summary --by cashier's, in the JSON and in the per-cashier table.
    const tips = new Map(cashiers.map((r) => [String(r.cashier), cents(r.tips)]));
    expect([...tips.values()].filter((t) => t > 0).length).toBeGreaterThan(1);
    for (const r of section.summary.cashier)
      expect(cents(r.tips), String(r.cashier)).toBe(tips.get(String(r.cashier)));
    const given = page.figures.filter((f) => f.kind === 'loss')[1]?.rows ?? [];
    const names = column(given, 'Cashier');
    const shown = column(given, 'Tips');
    expect(names.length).toBe(tips.size);
    for (const [i, n] of names.entries()) expect(shownCents(shown[i]), n).toBe(tips.get(n));
  });

  it("keeps the glance's gross and discounts Sales Details': the parts that lower a sale are not in its discounts", async () => {
    const now = await summary('register', '2026-10-01', '2026-10-31');
    const lowering = Object.keys(now[0] ?? {}).filter((k) => LOWERING.test(k));
    expect(lowering.length).toBeGreaterThan(2);
    const less = lowering.reduce((a, k) => a + sum(now, k), 0);
    expect(less).toBeGreaterThan(0);
    expect(cents(section.glance.discounts)).toBe(sum(now, 'discounts') - less);
    expect(cents(section.glance.gross)).toBe(sum(now, 'gross') - less);
    expect(cents(section.glance.total)).toBe(sum(now, 'total'));
  });

  it("reads as a person would, every table within an A4 page's width", async () => {
    expect(page.text.match(UNREADABLE)?.[0]).toBeUndefined();
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const width = Math.floor(((210 - 24) / 25.4) * 96);
      const context = await browser.newContext({ offline: true, viewport: { width, height: 1200 } });
      const p = await context.newPage();
      await p.goto(pathToFileURL(file).href);
      await p.emulateMedia({ media: 'print' });
      // Each table's right edge, and the widest of its rows' (a table too wide overflows its box).
      const wide = await p.$$eval('table', (tables) =>
        tables.map((t) => ({
          kind: t.className,
          right: Math.ceil(
            Math.max(
              t.getBoundingClientRect().right,
              ...[...t.querySelectorAll('tr')].map((r) => r.getBoundingClientRect().right),
            ),
          ),
        })),
      );
      expect(wide.filter((t) => t.kind === 'glance shop')).toHaveLength(1);
      expect(wide.filter((t) => t.kind === 'loss')).toHaveLength(4);
      expect(wide.filter((t) => t.right > width)).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
