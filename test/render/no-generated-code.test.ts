// No code is generated at run time: CSV is written by csv-stringify, not by a function built
// from source text (`new Function`, `eval`), which a reader cannot follow and a field name
// could break out of.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('src', () => {
  it('generates no code at run time', () => {
    const root = new URL('../../src', import.meta.url).pathname;
    const found = sources(root).filter((f) => /new Function\b|\beval\(/.test(readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });
});
