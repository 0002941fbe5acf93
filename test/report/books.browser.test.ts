// The report's "books" section (report --books) in a real headless Chromium: on a sandbox whose
// closings drift (--faults books) the month's page lists the lines whose journal entry differs
// from the POS, each drift named; on one whose books agree, and without --books, it has none.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
const dir = mkdtempSync(join(tmpdir(), 'posdata-report-books-'));
const P = ['--books'];
const sandboxes: SandboxHandle[] = [];
afterAll(async () => {
  for (const s of sandboxes) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The books section's heading and table rows as the page shows them. */
async function booksOnPage(
  faults: string | undefined,
  args = P,
): Promise<{ headings: string[]; rows: string[][] }> {
  const sandbox = await startTestSandbox({ seed: 7, orders: 1200, days: 12, ...(faults ? { faults } : {}) });
  sandboxes.push(sandbox);
  const env = await loginEnv(sandbox.url);
  const file = join(dir, `november-${faults ?? 'agreeing'}-${args.length}.html`);
  const r = await runCli(
    ['report', '--month', '2026-11', '--tz', 'UTC', '--rate', '0', ...args, '-o', file],
    { env },
  );
  expect(r.code, r.stderr).toBe(0);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await (await browser.newContext({ offline: true })).newPage();
    await page.goto(pathToFileURL(file).href);
    const headings = await page.$$eval('h2.books', (hs) =>
      hs.map((h) => (h as unknown as { innerText: string }).innerText),
    );
    const rows = await page.$$eval('table.books tbody tr', (trs) =>
      trs.map((tr) =>
        [...tr.querySelectorAll('td')].map((c) => (c as unknown as { innerText: string }).innerText),
      ),
    );
    return { headings, rows };
  } finally {
    await browser.close();
  }
}

describe.skipIf(!present)("the report's books section", { timeout: 240_000 }, () => {
  it('lists the lines whose journal entry differs, each drift named', async () => {
    const { headings, rows } = await booksOnPage('books');
    expect(headings).toEqual(['Books']);
    // Session, Entry, State, Line, POS, Books, Difference, Note
    const notes = rows.map((r) => `${r[2]}|${r[3]}|${r[6]}|${r[7]}`);
    expect(notes).toContainEqual(expect.stringMatching(/^draft\|entry\|\|the entry is draft, not posted$/));
    expect(notes).toContainEqual(
      expect.stringMatching(/^missing\|entry\|\|no journal entry for this session$/),
    );
    expect(notes).toContainEqual(expect.stringMatching(/^posted\|sales\|-10\.00\|/));
    expect(notes).toContainEqual(expect.stringMatching(/^posted\|payment: Card\|-[\d,.]+\|/));
    expect(new Set(rows.map((r) => r[0])).size).toBe(4);
  });

  it('has no books section where every closing agrees', async () => {
    const { headings, rows } = await booksOnPage(undefined);
    expect(headings).toEqual([]);
    expect(rows).toEqual([]);
  });

  it('has none without --books: the journal is not read', async () => {
    const { headings } = await booksOnPage('books', []);
    expect(headings).toEqual([]);
  });
});
