// posdata is a real npm package: `npm pack` gives a tarball with the built code and none
// of the tests, which installs globally and runs from any folder.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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
    expect(files).toContain('package/dist/cli/main.js');
    expect(files).toContain('package/README.md');
    expect(files.filter((f) => /test|\.ts$|vitest|biome|\.ci\//.test(f) && !f.endsWith('.d.ts'))).toEqual([]);

    const prefix = mkdtempSync(join(tmpdir(), 'posdata-prefix-'));
    await run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', join(out, tarball)], {
      cwd: out,
    });
    const elsewhere = mkdtempSync(join(tmpdir(), 'posdata-cwd-'));
    const { stdout: version } = await run(join(prefix, 'bin', 'posdata'), ['--version'], { cwd: elsewhere });
    expect(version.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const { stdout: help } = await run(join(prefix, 'bin', 'posdata'), ['sales', '--help'], {
      cwd: elsewhere,
    });
    expect(help).toMatch(/Usage: posdata sales/);
  }, 180_000);
});

describe('the esbuild bundles', () => {
  // Modules with process-wide state must exist once: a copy inside a bundle would have its
  // own error classes (exit codes decided by instanceof), its own redactor, or its own
  // registry of what an interrupt must undo.
  const shared = ['../core/errors.js', '../core/redact.js', './live.js', '../sink/pending.js'];
  for (const bundle of ['main.bundle.js', 'list.bundle.js']) {
    it(`${bundle} imports the shared-state modules instead of containing them`, () => {
      const text = readFileSync(join(root, 'dist', 'cli', bundle), 'utf8');
      const imported = [...new Set([...text.matchAll(/from"(\.{1,2}\/[^"]+)"/g)].map((m) => m[1]))];
      expect(imported.sort()).toEqual([...shared].sort());
    });
  }

  it('list.bundle.js leaves what an export does not need to node_modules, and finds it there', () => {
    const text = readFileSync(join(root, 'dist', 'cli', 'list.bundle.js'), 'utf8');
    // Required on demand, by package path: llhttp without SIMD, conf (and ajv).
    const onDemand = ['undici/lib/llhttp/llhttp-wasm.js', 'conf'];
    for (const path of onDemand) {
      expect(text).toContain(`"${path}"`);
      expect(() => createRequire(join(root, 'dist', 'cli', 'list.bundle.js')).resolve(path)).not.toThrow();
    }
    expect(text).not.toMatch(/ajv|node:http2/);
  });
});
