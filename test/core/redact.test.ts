// The redactor masks a secret for as long as someone holds it, and no longer.
import { describe, expect, it } from 'vitest';
import { MASK, Redactor } from '../../src/core/redact.js';

describe('Redactor', () => {
  it('masks a secret, plain and JSON-escaped, until its last holder lets go', () => {
    const r = new Redactor();
    const first = r.add('pa"ss');
    const second = r.add('pa"ss');
    expect(r.text('x pa"ss y')).toBe(`x ${MASK} y`);
    expect(r.text(JSON.stringify({ p: 'pa"ss' }))).toBe(`{"p":"${MASK}"}`);
    first();
    first(); // a second call of the same release changes nothing
    expect(r.text('x pa"ss y')).toBe(`x ${MASK} y`);
    second();
    expect(r.text('x pa"ss y')).toBe('x pa"ss y');
    expect(r.size).toBe(0);
  });

  it('ignores secrets too short to mask without hiding ordinary text', () => {
    const r = new Redactor();
    r.add('ab')();
    r.add('');
    expect(r.text('ab')).toBe('ab');
    expect(r.size).toBe(0);
  });
});
