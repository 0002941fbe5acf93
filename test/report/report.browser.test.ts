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
import { column, readPage, reportData, UNREADABLE } from '../helpers/report.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

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
