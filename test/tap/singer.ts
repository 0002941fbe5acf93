// The Singer rules a tap's output is held to, as the common loaders need them: every line a
// message valid against the message schemas of the specification (RECORD, SCHEMA, STATE),
// a SCHEMA before the first RECORD of its stream, every RECORD valid against its stream's
// SCHEMA (ajv, formats checked), date-times RFC 3339 in UTC to the second, each key once,
// every STATE monotonic per stream and after the records it covers (none after it is
// covered by it), and a STATE last.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';

// ajv-formats is CommonJS: its default export is the function, wrapped once more under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

export type Rec = Record<string, unknown> & { id: number; write_date: string };

export interface Bookmark {
  write_date?: string;
  id?: number;
  /** A first read under way (id order): the records up to after_id written before the end of until. */
  full_read?: { until: string; after_id: number };
  /** Before it every record had committed when the run read (RFC 3339). */
  settled?: string;
  sent: [number, string, string][];
}

export interface StateValue {
  bookmarks: Record<string, Bookmark>;
}

export interface Checked {
  messages: Record<string, unknown>[];
  schemas: Map<string, Record<string, unknown>>;
  records: Map<string, Rec[]>;
  states: StateValue[];
  /** The last STATE's value. */
  last: StateValue;
}

// The message schemas of the Singer specification (SPEC.md: "Output").
const MESSAGE = {
  oneOf: [
    {
      type: 'object',
      required: ['type', 'stream', 'record'],
      properties: {
        type: { const: 'RECORD' },
        stream: { type: 'string', minLength: 1 },
        record: { type: 'object' },
        time_extracted: { type: 'string', format: 'date-time' },
      },
    },
    {
      type: 'object',
      required: ['type', 'stream', 'schema', 'key_properties'],
      properties: {
        type: { const: 'SCHEMA' },
        stream: { type: 'string', minLength: 1 },
        schema: { type: 'object' },
        key_properties: { type: 'array', items: { type: 'string' } },
        bookmark_properties: { type: 'array', items: { type: 'string' } },
      },
    },
    {
      type: 'object',
      required: ['type', 'value'],
      properties: { type: { const: 'STATE' }, value: { type: 'object' } },
    },
  ],
};

const RFC3339_UTC_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

export function makeAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv;
}

const before = (a: { write_date: string; id: number }, b: { write_date: string; id: number }) =>
  a.write_date < b.write_date || (a.write_date === b.write_date && a.id <= b.id);

/** The bookmark covers the record: a first read's up to its id, else up to its (write_date, id). */
export function covers(b: Bookmark | undefined, r: Rec): boolean {
  if (!b) return false;
  if (b.full_read) return r.id <= b.full_read.after_id && r.write_date <= b.full_read.until;
  return before(r, b as { write_date: string; id: number });
}

/** `b` is not behind `p`: a first read moves by id, then becomes a (write_date, id) bookmark. */
function notBehind(p: Bookmark, b: Bookmark): boolean {
  if (p.full_read && b.full_read)
    return p.full_read.until === b.full_read.until && p.full_read.after_id <= b.full_read.after_id;
  if (p.full_read) return (b.write_date as string) >= p.full_read.until;
  if (b.full_read) return false;
  return before(p as { write_date: string; id: number }, b as { write_date: string; id: number });
}

/** Checks every rule on a tap's standard output; `partial` drops a last line cut by a kill. */
export function checkOutput(stdout: string, opts: { partial?: boolean } = {}): Checked {
  const ajv = makeAjv();
  const message = ajv.compile(MESSAGE);
  // What a kill -9 cut in the middle of a line is not a message; all before it is.
  const text = opts.partial ? stdout.slice(0, stdout.lastIndexOf('\n') + 1) : stdout;
  expect(text.endsWith('\n') || text === '', 'output ends with a newline').toBe(true);
  const lines = text === '' ? [] : text.slice(0, -1).split('\n');
  const messages: Record<string, unknown>[] = [];
  const schemas = new Map<string, Record<string, unknown>>();
  const validators = new Map<string, ValidateFunction>();
  const records = new Map<string, Rec[]>();
  const states: StateValue[] = [];
  const sinceState = new Map<string, Rec[]>();
  const seen = new Map<string, Set<number>>();
  for (const line of lines) {
    const m = JSON.parse(line) as Record<string, unknown>;
    messages.push(m);
    if (!message(m))
      throw new Error(`not a Singer message: ${line.slice(0, 200)} ${ajv.errorsText(message.errors)}`);
    if (m.type === 'SCHEMA') {
      const schema = m.schema as Record<string, unknown>;
      schemas.set(m.stream as string, schema);
      validators.set(m.stream as string, ajv.compile(schema));
      expect(schema.required).toEqual(['id']);
      expect(m.key_properties).toEqual(['id']);
      expect(m.bookmark_properties).toEqual(['write_date']);
    } else if (m.type === 'RECORD') {
      const stream = m.stream as string;
      const validate = validators.get(stream);
      if (!validate) throw new Error(`a RECORD of ${stream} before its SCHEMA`);
      if (!validate(m.record))
        throw new Error(
          `RECORD of ${stream} not valid: ${ajv.errorsText(validate.errors)} ${line.slice(0, 300)}`,
        );
      const rec = m.record as Rec;
      const props = (schemas.get(stream) as { properties: Record<string, { format?: string }> }).properties;
      for (const [k, p] of Object.entries(props))
        if (p.format === 'date-time' && rec[k] !== null) expect(rec[k]).toMatch(RFC3339_UTC_SECONDS);
      const ids = seen.get(stream) ?? new Set<number>();
      if (ids.has(rec.id)) throw new Error(`${stream} ${rec.id} twice in one run`);
      ids.add(rec.id);
      seen.set(stream, ids);
      records.set(stream, [...(records.get(stream) ?? []), rec]);
      sinceState.set(stream, [...(sinceState.get(stream) ?? []), rec]);
      const prev = states[states.length - 1]?.bookmarks[stream];
      // Nothing after a STATE is covered by it.
      if (covers(prev, rec))
        throw new Error(`${stream} ${rec.id} (${rec.write_date}) after a STATE that covers it`);
    } else {
      const value = m.value as StateValue;
      const prev = states[states.length - 1];
      for (const [stream, b] of Object.entries(value.bookmarks)) {
        expect(b.full_read?.until ?? b.write_date).toMatch(RFC3339_UTC_SECONDS);
        const p = prev?.bookmarks[stream];
        if (p && !notBehind(p, b))
          throw new Error(`STATE of ${stream} moved back: ${JSON.stringify([p, b])}`);
        // The STATE covers the records before it.
        for (const r of sinceState.get(stream) ?? [])
          if (!covers(b, r))
            throw new Error(`STATE ${JSON.stringify(b)} before ${stream} ${r.id} it does not cover`);
      }
      for (const [stream, p] of Object.entries(prev?.bookmarks ?? {}))
        if (!value.bookmarks[stream])
          throw new Error(`STATE dropped the bookmark of ${stream}: ${JSON.stringify(p)}`);
      sinceState.clear();
      states.push(value);
    }
  }
  const lastMessage = messages[messages.length - 1];
  if (!opts.partial) expect(lastMessage?.type).toBe('STATE');
  return {
    messages,
    schemas,
    records,
    states,
    last: states[states.length - 1] ?? { bookmarks: {} },
  };
}

/** The STATE value a run would be given by Meltano after this output: the last one. */
export function stateOf(c: Checked): StateValue {
  return c.last;
}
