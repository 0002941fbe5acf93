// A reply's records keep their names out of V8's string table (old space, freed only by a
// mark-compact), and the value parsed is JSON.parse's whatever the text holds.
import { setFlagsFromString } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReply, YOUNG_AFTER } from '../../src/core/young-names.js';

const envelope = (doc: unknown): unknown => (doc as { result?: unknown } | null)?.result;
const body = (doc: unknown): unknown => doc;

/** Odoo's own spacing (Python's json.dumps: `", "` and `": "`) or the sandbox's compact one. */
const spaced = (v: unknown): string =>
  JSON.stringify(v)
    .replace(/":"/g, '": "')
    .replace(/":(?=[\d[{ftn-])/g, '": ');

// %InYoungGeneration says where V8 put a string: a name JSON.parse put in the string table
// is in old space at once.
setFlagsFromString('--allow-natives-syntax');
const young = new Function('s', 'return %InYoungGeneration(s)') as (s: string) => boolean;
const page = (from: number) =>
  Array.from({ length: 200 }, (_, i) => ({
    id: from + i,
    // A real Odoo 17's names: `Shop/0001`, 9 characters (the sandbox's are 10).
    name: `Shop/${String(from + i).padStart(4, '0')}`,
    state: 'paid',
    config_id: [1, 'Shop'],
  }));

// The tests run in this order: the run's first records first.
describe('parseReply', () => {
  it('parses the first pages of a run as they came, names in the string table', () => {
    const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, result: page(1) });
    const plain = (JSON.parse(rpc) as { result: { name: string }[] }).result;
    // What the padding is about: V8 puts every such name in its string table, Node 20's (11.3)
    // up to 10 characters, Node 22's and 24's (12.4, 13.6) up to 9 (.ci/run runs this file
    // on 24 too).
    expect(plain.filter((r) => young(r.name))).toHaveLength(0);
    const got = parseReply(rpc, envelope) as { result: { name: string }[] };
    expect(got).toEqual(JSON.parse(rpc));
    // A short run's names cost the table little: they are left as JSON.parse makes them.
    expect(got.result.filter((r) => young(r.name))).toHaveLength(0);
    // Past YOUNG_AFTER records in all (these 200 count), the names are kept young.
    const rest = `[${'{"id":1},'.repeat(YOUNG_AFTER - 201)}{"id":2}]`;
    expect((parseReply(rest, body) as unknown[]).length).toBe(YOUNG_AFTER - 200);
  });

  it('makes no name of a page of records an old string, once the run is long', () => {
    for (const [text, recordsOf] of [
      [JSON.stringify({ jsonrpc: '2.0', id: 2, result: page(1001) }), envelope],
      [spaced({ jsonrpc: '2.0', id: 3, result: page(2001) }), envelope],
      [JSON.stringify(page(3001)), body],
    ] as const) {
      const got = parseReply(text, recordsOf);
      expect(got).toEqual(JSON.parse(text));
      const records = (recordsOf(got) as { name: string }[]).map((r) => r.name);
      expect(records.filter((n) => !young(n))).toEqual([]);
    }
  });

  it('gives what JSON.parse gives, for any records and any names', () => {
    const name = fc.oneof(
      fc.string({ maxLength: 14 }),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.constantFrom(
        '"name":"x',
        '\\"name\\": "',
        '\x7f'.repeat(10),
        '\x7f'.repeat(12) + 'a',
        '',
        'Shop/0001',
      ),
      fc.constant(false),
    );
    const record = fc.record(
      {
        id: fc.nat(),
        name,
        note: fc.oneof(fc.string(), fc.constant('x","name":"y')),
        // A name nested in a value: its key is written too, and the text is parsed again.
        partner: fc.oneof(fc.constant(false), fc.record({ name, id: fc.nat() })),
        lines: fc.array(fc.record({ name }), { maxLength: 2 }),
      },
      { requiredKeys: ['id'] },
    );
    fc.assert(
      fc.property(fc.array(record, { maxLength: 8 }), fc.boolean(), fc.boolean(), (records, rpc, odoo) => {
        const doc = rpc ? { jsonrpc: '2.0', id: 1, result: records } : records;
        const text = odoo ? spaced(doc) : JSON.stringify(doc);
        expect(parseReply(text, rpc ? envelope : body)).toEqual(JSON.parse(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('parses what is not a list of records as it is', () => {
    for (const text of [
      '{"jsonrpc":"2.0","id":1,"result":{"name":{"name":"name","type":"char"}}}',
      '{"jsonrpc":"2.0","id":1,"error":{"code":200,"data":{"name":"odoo.exceptions.AccessError"}}}',
      '{"name": "odoo.exceptions.AccessError", "message": "no"}',
      '{"length":1,"records":[{"id":1,"name":"Shop"}]}',
      '[1,"name",{"name":"a"}]',
      '7',
      'null',
    ]) {
      expect(parseReply(text, envelope)).toEqual(JSON.parse(text));
      expect(parseReply(text, body)).toEqual(JSON.parse(text));
    }
    expect(() => parseReply('{"name":"a"', body)).toThrow(SyntaxError);
  });
});
