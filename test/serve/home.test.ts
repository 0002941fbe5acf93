// GET / (the service's index: HTML for a browser, JSON when asked), /docs carrying posdata's
// name and icon rather than the framework's, and a serve started before any login (URL and
// database from flags) that leaves no store behind.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../helpers/cli.js';
import { get, type Served, startServe } from './serve-process.js';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
let sandbox: any;
let served: Served;
let storeDir: string;

beforeAll(async () => {
  const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
  sandbox = await startSandbox({ port: 0, seed: 3, orders: 50 });
  // A store folder that does not exist yet: nobody has logged in on this machine.
  storeDir = join(freshConfigDir(), 'posdata');
  served = await startServe(['--url', sandbox.url, '--db', 'demo', '--rate', '0'], {
    POSDATA_CONFIG_DIR: storeDir,
  });
});

afterAll(async () => {
  await served?.stop();
  await sandbox?.close();
});

async function accept(path: string, type: string) {
  const res = await fetch(served.base + path, { headers: { accept: type } });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

describe('GET /', () => {
  it('a browser gets an HTML index with links to /docs, the OpenAPI document and every path', async () => {
    const r = await accept('/', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8');
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/html/);
    expect(r.text).toContain('<title>posdata serve</title>');
    expect(r.text).toContain('href="/docs"');
    expect(r.text).toContain('href="/api/v1/openapi.json"');
    for (const p of [
      '/api/v1/sales',
      '/api/v1/sales/{order_id}/lines',
      '/api/v1/summary',
      '/api/v1/auth/login',
    ])
      expect(r.text).toContain(`<code>${p}</code>`);
    // Public, like /docs: the Odoo it serves stays unnamed.
    expect(r.text).not.toContain(sandbox.url);
  });

  it('a client that asks for JSON gets the same index as JSON', async () => {
    const r = await accept('/', 'application/json');
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/json/);
    const home = JSON.parse(r.text);
    expect(home).toMatchObject({ name: 'posdata serve', docs: '/docs', openapi: '/api/v1/openapi.json' });
    expect(home.paths).toContainEqual(expect.objectContaining({ method: 'GET', path: '/api/v1/sales' }));
    expect(home.paths).toContainEqual(
      expect.objectContaining({ method: 'POST', path: '/api/v1/auth/login' }),
    );
    // The same paths as the OpenAPI document: one source.
    const doc = JSON.parse((await get(served.base, '/api/v1/openapi.json')).text);
    expect(new Set(home.paths.map((p: { path: string }) => p.path))).toEqual(new Set(Object.keys(doc.paths)));
  });

  it('other unknown paths stay JSON problems', async () => {
    const r = await accept('/nothing', 'text/html');
    expect(r.status).toBe(404);
    expect(r.type).toMatch(/^application\/problem\+json/);
  });
});

describe('/docs', () => {
  it("carries posdata's name and icon, not the framework's", async () => {
    const page = await (await fetch(`${served.base}/docs`)).text();
    expect(page).toContain('<title>posdata serve</title>');
    expect(page).toMatch(/<link rel="icon" type="image\/svg\+xml" href="[^"]*theme\/posdata\.svg"/);
    expect(page).not.toContain('favicon-32x32.png');
    const icon = await get(served.base, '/docs/static/theme/posdata.svg');
    expect(icon.status).toBe(200);
    expect(icon.type).toBe('image/svg+xml');
    const init = (await get(served.base, '/docs/static/swagger-initializer.js')).text;
    const logo = /img\.src = 'data:image\/svg\+xml;base64,([^']+)'/.exec(init);
    expect(logo).not.toBeNull();
    expect(Buffer.from(logo?.[1] ?? '', 'base64').toString('utf8')).toContain('>posdata</text>');
  });
});

describe('serve before any login', () => {
  it('creates no store file (nor its folder)', () => {
    expect(existsSync(storeDir)).toBe(false);
  });
});
