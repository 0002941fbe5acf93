// The redactor masks a secret for as long as someone holds it, and no longer.
import { describe, expect, it } from 'vitest';
import { mapOdooError } from '../../src/core/odoo-errors.js';
import { jsonSaid, MASK, nameList, own, Redactor, say, stackSaid } from '../../src/core/redact.js';

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

describe('a secret inside another (issue 22, item 1)', () => {
  it('masks both whole, whichever was added first and in every form', () => {
    const r = new Redactor();
    r.add('admin');
    r.add('adminkey-abc123');
    for (const key of [
      'adminkey-abc123',
      encodeURIComponent('adminkey-abc123'),
      JSON.stringify('adminkey-abc123'),
      Buffer.from('x:adminkey-abc123').toString('base64'),
    ]) {
      const out = r.text(`GET /api/v1/sales?limit=${key} 400`);
      expect(out, key).not.toMatch(/key-abc|abc123|YWJjMTIz|a2V5LWFiYzEy/);
      expect(out).toContain(MASK);
    }
    expect(r.text('an admin and adminkey-abc123.')).toBe(`an ${MASK} and ${MASK}.`);
  });

  it('masks two secrets that overlap as one run, leaving no piece of either', () => {
    const r = new Redactor();
    r.add('keyab');
    r.add('abc123');
    expect(r.text('x keyabc123 y')).toBe(`x ${MASK} y`);
  });
});

describe('posdata words are never masked, values always (issue 22, item 2)', () => {
  it('masks the holes of a Said, not its words', () => {
    const r = new Redactor();
    r.add('pos');
    const field = 'pos_secret';
    expect(r.said(say`unknown field '${field}' on ${own('pos.order')}; see posdata closures`)).toBe(
      `unknown field '${MASK}_secret' on pos.order; see posdata closures`,
    );
    // Nested: the inner template's words stay too.
    expect(r.said(say`not logged in${say` (profile ${'pos'})`}`)).toBe(`not logged in (profile ${MASK})`);
  });

  it('a secret that runs from a value into the words around it is masked whole', () => {
    const r = new Redactor();
    r.add('dataXY');
    expect(r.said(say`posdata${'XY'} end`)).toBe(`pos${MASK} end`);
  });

  it("Odoo's names (fields, models, the database) only where one is the secret as a whole", () => {
    const r = new Redactor();
    r.add('pos');
    const call = jsonSaid([
      'demo',
      6,
      MASK,
      'pos.order',
      'search_read',
      [[['pos_reference', 'ilike', 'pos']]],
      {},
    ]);
    expect(r.said(call)).toBe(
      `["demo",6,"${MASK}","pos.order","search_read",[[["pos_reference","ilike","${MASK}"]]],{}]`,
    );
    expect(r.said(say`valid fields: ${nameList(['pos', 'pos_reference'])}`)).toBe(
      `valid fields: ${MASK}, pos_reference`,
    );
    // A value that is not a name is masked wherever the secret stands in it.
    expect(r.said(jsonSaid({ note: 'my pos!' }))).toBe(`{"note":"my ${MASK}!"}`);
  });

  it("an Odoo refusal: its message masked, posdata's hint whole", () => {
    const r = new Redactor();
    r.add('admin');
    const err = mapOdooError(
      { name: 'odoo.exceptions.AccessError', message: 'You may not read admin records' },
      { host: 'odoo.example', db: 'demo' },
    );
    expect(err.line(r)).toBe(
      `Odoo refused access: You may not read ${MASK} records; ask an Odoo administrator for the Point of Sale / User group`,
    );
  });

  it("an error's stack keeps its frames, masks its message", () => {
    const r = new Redactor();
    r.add('posd');
    const e = new Error('bad posd');
    e.stack = 'Error: bad posd\n    at run (/opt/posdata/dist/cli/main.js:1:1)';
    expect(r.said(stackSaid(e))).toBe(`Error: bad ${MASK}\n    at run (/opt/posdata/dist/cli/main.js:1:1)`);
  });
});
