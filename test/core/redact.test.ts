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

  it('masks a secret of one or two characters only where it stands as a whole quoted value', () => {
    const r = new Redactor();
    const release = r.add('ab');
    expect(r.text(`["demo", 2, "ab", 'ab'] abc ab`)).toBe(`["demo", 2, "${MASK}", '${MASK}'] abc ab`);
    release();
    r.add('');
    expect(r.text('"ab"')).toBe('"ab"');
    expect(r.size).toBe(0);
  });

  it('masks the Python-repr, URL-encoded and base64 forms', () => {
    const r = new Redactor();
    const pw = "O'Neil pass/word+é";
    r.add(pw);
    const forms = [
      "O\\'Neil pass/word+é", // Python repr inside '...'
      encodeURIComponent(pw),
      encodeURIComponent(pw).replace(/%20/g, '+'),
      'O%27Neil%20pass%2fword%2b%c3%a9',
      Buffer.from(pw).toString('base64').replace(/=+$/, ''),
    ];
    for (const f of forms) expect(r.text(`x ${f} y`), f).not.toContain(f);
    // Inside a longer base64 text, at each of the three alignments.
    for (const prefix of ['', 'a', 'ab', 'abc']) {
      const b64 = Buffer.from(`${prefix}${pw}!!`).toString('base64');
      expect(r.text(b64)).toContain(MASK);
    }
  });
});
