// A page's COPY text, encoded line by line into one buffer kept from page to page.
import { describe, expect, it } from 'vitest';
import type { OdooRecord } from '../../src/core/types.js';
import { CopyText } from '../../src/sync/load.js';

const rec = (id: number, name: string) => ({ id, name }) as unknown as OdooRecord;
const line = (r: OdooRecord) => `${r.id}\t${String(r.name)}\n`;

describe('CopyText', () => {
  it('is the lines as UTF-8, whatever their characters', () => {
    const page = [rec(1, 'Café ☕'), rec(2, 'Ωmega 𝄞'), rec(3, 'plain')];
    const got = new CopyText(Buffer.alloc(64)).page(page, line);
    expect(got.toString('utf8')).toBe(page.map(line).join(''));
  });

  it('grows past its buffer, keeping what it wrote', () => {
    const page = Array.from({ length: 500 }, (_, i) => rec(i, `naïve ${'x'.repeat(i % 40)} €`));
    const got = new CopyText(Buffer.alloc(16)).page(page, line);
    expect(got.toString('utf8')).toBe(page.map(line).join(''));
  });

  it('gives each page its own text, the buffer used again', () => {
    const text = new CopyText(Buffer.alloc(4096));
    const long = Array.from({ length: 50 }, (_, i) => rec(i, 'long name here'));
    expect(text.page(long, line).toString()).toBe(long.map(line).join(''));
    const short = [rec(7, 'é')];
    expect(text.page(short, line).toString()).toBe('7\té\n');
    expect(text.page([], line).length).toBe(0);
  });
});
