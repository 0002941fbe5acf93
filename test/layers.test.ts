// The layer rule covers every folder of src/: a folder in no layer of .dependency-cruiser.cjs
// could import anything above it and lint would pass (src/report/ once did, core → report → cli).
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

interface Rule {
  name: string;
  from: { path?: string; pathNot?: string };
}
const config = createRequire(import.meta.url)(`${root}.dependency-cruiser.cjs`) as { forbidden: Rule[] };

/** The rules that place a folder: the layers' (each imports nothing above it), and the sandbox's own. */
const placing = config.forbidden.filter(
  (r) => r.name.startsWith('no-upward-from-') || r.name === 'sandbox-is-its-own-program',
);

/** Every folder under src/, as `src/a/` and `src/a/b/`. */
function folders(dir: string): string[] {
  return readdirSync(`${root}${dir}`, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => [`${dir}${e.name}/`, ...folders(`${dir}${e.name}/`)]);
}

const placedBy = (folder: string): string[] => {
  const file = `${folder}x.ts`;
  return placing
    .filter(
      (r) =>
        r.from.path !== undefined &&
        new RegExp(r.from.path).test(file) &&
        !(r.from.pathNot !== undefined && new RegExp(r.from.pathNot).test(file)),
    )
    .map((r) => r.name);
};

describe('the layers of src/', () => {
  it('has folders to check', () => {
    expect(folders('src/')).toContain('src/core/');
  });

  it.each(folders('src/'))('%s is in exactly one layer', (folder) => {
    expect(placedBy(folder)).toHaveLength(1);
  });
});
