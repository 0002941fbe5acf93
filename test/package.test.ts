// posdata is a real npm package: `npm pack` gives a tarball with the built code and none
// of the tests, which installs globally and runs from any folder.
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

describe('npm pack', () => {
  it('installs globally and runs from any folder, without the tests', async () => {
    const out = mkdtempSync(join(tmpdir(), 'posdata-pack-'));
    await run('npm', ['pack', '--pack-destination', out, '--ignore-scripts'], { cwd: root });
    const [tarball] = readdirSync(out).filter((f) => f.endsWith('.tgz'));
    const { stdout: listing } = await run('tar', ['tzf', join(out, tarball)]);
    const files = listing.trim().split('\n');
    expect(files).toContain('package/bin/posdata.js');
    expect(files).toContain('package/dist/main.js');
    expect(files).toContain('package/dist/main.js.map');
    expect(files).toContain('package/README.md');
    // the pages the README links to
    expect(files).toContain('package/docs/exports.md');
    // The man pages, built with the code, and linked by npm install -g through package.json's man.
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { man: string[] };
    for (const page of pkg.man) expect(files).toContain(`package/${page}`);
    expect(files.filter((f) => /test|\.ts$|vitest|biome|\.ci\//.test(f) && !f.endsWith('.d.ts'))).toEqual([]);

    const prefix = mkdtempSync(join(tmpdir(), 'posdata-prefix-'));
    await run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', join(out, tarball)], {
      cwd: out,
    });
    const elsewhere = mkdtempSync(join(tmpdir(), 'posdata-cwd-'));
    const { stdout: version } = await run(join(prefix, 'bin', 'posdata'), ['--version'], { cwd: elsewhere });
    expect(version.split('\n')[0]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(existsSync(join(prefix, 'share', 'man', 'man1', 'posdata.1'))).toBe(true);
    expect(existsSync(join(prefix, 'share', 'man', 'man1', 'posdata-sales.1'))).toBe(true);
    const { stdout: help } = await run(join(prefix, 'bin', 'posdata'), ['sales', '--help'], {
      cwd: elsewhere,
    });
    expect(help).toMatch(/Usage: posdata sales/);

    // The sandbox's one public entry, posdata/sandbox, from a project that has the installed
    // package in its node_modules: plain Node resolves package.json's `default`, the built
    // dist/sandbox/index.js (`posdata-source`, the tests' source, is not in the tarball).
    // No other path of the package is reachable.
    const consumer = mkdtempSync(join(tmpdir(), 'posdata-consumer-'));
    mkdirSync(join(consumer, 'node_modules'));
    symlinkSync(join(prefix, 'lib', 'node_modules', 'posdata'), join(consumer, 'node_modules', 'posdata'));
    writeFileSync(
      join(consumer, 'use.mjs'),
      [
        "const { startSandbox } = await import('posdata/sandbox');",
        'const h = await startSandbox({ port: 0, seed: 1, orders: 5, days: 1 });',
        "const init = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' };",
        "const r = await fetch(h.url + '/web/webclient/version_info', init);",
        'console.log(JSON.stringify({ url: h.url, status: r.status }));',
        'await h.close();',
        "console.log(await import('posdata/dist/sandbox/index.js').then(() => 'loaded', (e) => e.code));",
      ].join('\n'),
    );
    const { stdout: used } = await run(process.execPath, ['use.mjs'], { cwd: consumer });
    const [first, second] = used.trim().split('\n');
    expect(JSON.parse(first)).toMatchObject({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      status: 200,
    });
    expect(second).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  }, 180_000);
});

describe('the build', () => {
  const dist = join(root, 'dist');
  const maps = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.js.map'))
      .map((f) => join(dir, f));

  // A module with process-wide state must exist once in the CLI (the registry of temporary
  // files an interrupt removes); its error kinds carry a brand besides, so a copy could not
  // change an exit code either.
  it('holds each module of the CLI in one file only', () => {
    const where = new Map<string, string[]>();
    for (const map of maps(dist).filter((m) => !m.includes('/sandbox/'))) {
      const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
      for (const src of sources) where.set(src, [...(where.get(src) ?? []), map]);
    }
    expect(where.size).toBeGreaterThan(50);
    expect([...where].filter(([, files]) => files.length > 1)).toEqual([]);
  });

  it('loads its packages by their public entry, and ships its source maps', () => {
    const text = readdirSync(dist, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(dist, f), 'utf8'))
      .join('\n');
    // No package is loaded at run time past its public entry.
    expect(text).not.toMatch(/from ?"undici\/|require\("undici\//);
    // undici is bundled into the chunk that makes requests (one file to parse instead of
    // 111, see scripts/bundle.mjs), from its Agent's module and not from its entry, which
    // also loads fetch, WebSocket, the caches and the mocks (src/core/http.ts). Bundled, no
    // run resolves undici's paths: a moved module fails the build, not a user's run.
    const sources = maps(dist).flatMap(
      (m) => (JSON.parse(readFileSync(m, 'utf8')) as { sources: string[] }).sources,
    );
    expect(sources.some((s) => /node_modules\/undici\/lib\/dispatcher\/agent\.js$/.test(s))).toBe(true);
    expect(sources.some((s) => /node_modules\/undici\/index\.js$/.test(s))).toBe(false);
    // Nor its HTTP/2 client nor fetch's body, which posdata never reaches (scripts/undici-left-out.cjs).
    expect(sources.filter((s) => /node_modules\/undici\/lib\/(dispatcher\/client-h2|web\/)/.test(s))).toEqual(
      [],
    );
    for (const map of maps(dist))
      expect(readFileSync(map.replace(/\.map$/, ''), 'utf8')).toContain('sourceMappingURL=');
  });

  // esbuild's keepNames would define the name of every function as it is made: a
  // defineProperty per closure, which luxon's parser makes several of a value (scripts/bundle.mjs).
  it('names no function at run time (no keepNames)', () => {
    for (const f of readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((x) => x.endsWith('.js')))
      expect(readFileSync(join(dist, f), 'utf8'), f).not.toMatch(/"name",\{value:[\w$]+,configurable:!0\}/);
  });

  it('ships maps without copies of the source (sourcesContent: false)', () => {
    for (const map of maps(dist)) {
      const parsed = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[]; sourcesContent?: unknown };
      expect(parsed.sourcesContent, map).toBeUndefined();
    }
  });
});
