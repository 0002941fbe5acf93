// The interactive page in a real headless Chromium (Debian's, driven by playwright-core; no
// browser download): open the service's index and follow its link to /docs (posdata's name
// and icon there, not the framework's), log in through the page, call GET /api/v1/sales without
// typing the token anywhere, and see records. A screenshot is kept in test-artifacts/.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv } from '../helpers/cli.js';
import { type Served, startServe } from './serve-process.js';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present) console.warn(`docs browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

describe.skipIf(!present)('/docs in headless Chromium', () => {
  // biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
  let sandbox: any;
  let served: Served;
  let profileDir: string;

  beforeAll(async () => {
    const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
    sandbox = await startSandbox({ port: 0, seed: 5, orders: 300 });
    served = await startServe(['--rate', '0'], await loginEnv(sandbox.url));
    profileDir = mkdtempSync(join(tmpdir(), 'posdata-chromium-'));
  });

  afterAll(async () => {
    await served?.stop();
    await sandbox?.close();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  it('logs in through the page, which keeps the token for GET /api/v1/sales', async () => {
    const context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      // Offline: anything not served by posdata itself would be a CDN dependency.
      const foreign: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(served.base) && !r.url().startsWith('data:')) foreign.push(r.url());
      });
      const salesAuth: (string | undefined)[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/v1/sales')) salesAuth.push(r.headers().authorization);
      });

      // From the service's address: its index, whose link leads to the docs.
      await page.goto(`${served.base}/`);
      expect(await page.locator('h1').textContent()).toBe('posdata serve');
      await page.getByRole('link', { name: 'Interactive documentation' }).click();
      await page.waitForURL(/\/docs/);
      // posdata's name and icon, not the framework's: the tab's title, the icon, the top bar.
      expect(await page.title()).toBe('posdata serve');
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/theme\/posdata\.svg$/);
      const logo = page.locator('.topbar-wrapper a img');
      await logo.waitFor();
      const src = (await logo.getAttribute('src')) ?? '';
      expect(Buffer.from(src.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString()).toContain(
        '>posdata</text>',
      );
      // Swagger's own mark (an SVG in the link) is gone; the dark-mode toggle's icon stays.
      expect(await page.locator('.topbar-wrapper a.link svg, a[href*="swagger.io"]').count()).toBe(0);
      const login = page.locator('.opblock-post', { has: page.locator('[data-path="/api/v1/auth/login"]') });
      await login.locator('.opblock-summary').click();
      const body = login.locator('textarea.body-param__text');
      await body.fill(JSON.stringify({ login: 'admin', password: 'admin' }));
      const loginReply = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/login'));
      await login.getByRole('button', { name: 'Execute' }).click();
      expect((await loginReply).status()).toBe(200);
      // The interceptor stored the token: the lock buttons show as authorised.
      await page.locator('.btn.authorize.locked').waitFor();

      const sales = page.locator('.opblock-get', { has: page.locator('[data-path="/api/v1/sales"]') });
      await sales.locator('.opblock-summary').click();
      const limit = sales.locator('tr[data-param-name="limit"] input');
      // The page offers a limit, so that trying the path does not pour every record in.
      expect(await limit.inputValue()).toBe('100');
      await limit.fill('5');
      const salesReply = page.waitForResponse((r) => r.url().includes('/api/v1/sales?'));
      await sales.getByRole('button', { name: 'Execute' }).click();
      const reply = await salesReply;
      expect(reply.status()).toBe(200);
      const records = (await reply.json()) as { name: string }[];
      expect(records).toHaveLength(5);
      const shown = sales.locator('.responses-wrapper .live-responses-table');
      await expect.poll(async () => shown.textContent()).toContain(records[0].name);
      expect(salesAuth.at(-1)).toMatch(/^Bearer [A-Za-z0-9_-]{43}$/);
      expect(foreign).toEqual([]);

      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'serve-docs.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });
});
