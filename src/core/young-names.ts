// A reply's JSON parsed so that its records' names die young.
//
// V8's JSON.parse puts every string value of at most 10 characters (Node 20; 9 on Node 22 and
// 24) in its string table, which lives in the old generation: such a string is freed only by
// a mark-compact.
// Odoo names sales in 9-10 characters (`Shop/0001` on a real 17, `POS/000001` on the
// sandbox), each one new, so a long export piled its names into old space (32 MB of them in
// an export of 1M sales), and V8 let old space run to ~40 MB before collecting them: the peak
// RSS grew with the export's length (bench/notes.md, "The names die young"). A longer string
// is allocated young and dies with its page.
//
// So every `"name":"` key of the reply's text (`"name": "` where the server spaces its JSON, as
// Odoo does) is written with PAD after it, the parse makes names of 11 characters or more, and
// each record's name is cut back to what was sent. Where the names cut back are not every key
// written (a `name` nested in a value, a reply that is not a list of records), the text is
// parsed again as it came: the value is JSON.parse's, always. Writing the keys costs about what
// the parse saves by not looking every new name up in the table (~0.5 ms a page of 2,000).

// The string table is only a cost over a long run: the first pages' names (at most this many
// records, ~2 MB of old strings) are parsed as they came, which spares them the copy of the text and
// the key's search. A chain of 20 servers of 2,000 sales is all first pages: 40-55 ms less CPU, and no
// second copy of each page held while the 20 replies come in at once.
export const YOUNG_AFTER = 50_000;
let parsed = 0;

// Where the first record has no name within this, the reply is parsed as it came: a page
// without the field costs no scan of its whole text.
const LOOK = 4096;
// Ten characters: a name of one character then has eleven. DEL is a character a JSON string
// may hold as it is and that no name starts with ten of.
const PAD = '\x7f'.repeat(10);

/**
 * `JSON.parse(text)`, with the names of the records `recordsOf` finds in it (the JSON-RPC
 * envelope's `result`, JSON-2's body) kept out of V8's string table.
 */
export function parseReply(text: string, recordsOf: (doc: unknown) => unknown): unknown {
  if (parsed < YOUNG_AFTER) {
    const doc = JSON.parse(text) as unknown;
    const records = recordsOf(doc);
    if (Array.isArray(records)) parsed += records.length;
    return doc;
  }
  // Outside a string (where a quote is always escaped) this is a key; the character after
  // its colon says how the server separates keys from values.
  const at = text.lastIndexOf('"name":', LOOK);
  if (at === -1) return JSON.parse(text);
  const key = text.charCodeAt(at + 7) === 32 ? '"name": "' : '"name":"';
  const padded = text.replaceAll(key, key + PAD);
  const written = (padded.length - text.length) / PAD.length;
  if (written === 0) return JSON.parse(text);
  const doc = JSON.parse(padded) as unknown;
  const records = recordsOf(doc);
  let cut = 0;
  if (Array.isArray(records)) {
    for (const r of records as unknown[]) {
      if (r === null || typeof r !== 'object') continue;
      const rec = r as { name?: unknown };
      const name = rec.name;
      if (typeof name === 'string' && name.startsWith(PAD)) {
        rec.name = name.slice(PAD.length);
        cut++;
      }
    }
  }
  return cut === written ? doc : JSON.parse(text);
}
