// How the outputs of one command's runs over several servers become one output: each server's
// run wrote its standard output to a file of its own; the joiner reads them in the order given
// and writes one CSV (the profile first, the columns the union of theirs), one ndjson stream or
// JSON array (the profile the first key), one array of documents, or a block per server.
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { type CsvLead, FORMULA_START } from '../render/formats.js';
import type { Flags } from './flags.js';

/** How the servers' outputs become one: the format each run writes and how it is joined. */
export type Join = 'csv' | 'ndjson' | 'json-from-ndjson' | 'json-documents' | 'blocks';

/** Where the joined output goes (writeOutput's sink). */
export interface JoinSink {
  write(s: string | Uint8Array): Promise<void>;
}

/**
 * One server's output: its profile, its file and, for a CSV its run wrote led by the profile's
 * cell (CsvLead), the header it kept instead of writing it.
 */
export interface Joined {
  name: string;
  file: string;
  header?: string[];
}

export interface Joiner {
  /** Sees every healthy server's output before any is added (the CSV header's columns). */
  prepare?(files: Joined[]): Promise<void>;
  add(server: Joined): Promise<boolean>;
  end(): Promise<void>;
}

/**
 * How much of a server's file is read at a time: Node's own default for files. Each read is a
 * new buffer, garbage once its text is taken, freed only when V8 next collects: at 1 MiB a read,
 * a 20-server CSV join held ~33 MB of them at its end (each server's 230 KB file read into a
 * whole MiB), the chain's peak memory.
 */
const READ = 1 << 16;

async function* textOf(file: string, size = READ): AsyncGenerator<string> {
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: size }))
    yield chunk as string;
}

/**
 * How the servers' outputs are joined into `sink`. Exported for its test; `slow` takes every CSV
 * record cell by cell, the path the as-is one is held to.
 */
export function makeJoiner(
  join: Join,
  flags: Flags,
  sink: JoinSink,
  options: { slow?: boolean } = {},
): Joiner {
  switch (join) {
    case 'csv':
      return csvJoiner(csvWriting(flags), sink, options.slow === true);
    case 'ndjson':
      return ndjsonJoiner(sink, false);
    case 'json-from-ndjson':
      return ndjsonJoiner(sink, true);
    case 'json-documents':
      return documentsJoiner(sink);
    case 'blocks':
      return blocksJoiner(sink);
  }
}

/**
 * How every server's run wrote its CSV, known from the chain's flags (each run had them): its
 * delimiter, with --excel a BOM, CRLF and a bare LF quoted too (render/formats.ts, csvWriters).
 */
interface CsvWriting {
  delimiter: string;
  excel: boolean;
  eol: string;
  /** csv-stringify's options that write a record as the servers' runs wrote theirs. */
  opts: Parameters<typeof stringify>[1];
}

function csvWriting(flags: Flags): CsvWriting {
  const delimiter = typeof flags.delimiter === 'string' ? flags.delimiter : ',';
  const excel = flags.excel === true;
  return {
    delimiter,
    excel,
    eol: excel ? '\r\n' : '\n',
    // The cells were written (their formulas already guarded), so none is guarded again.
    opts: { delimiter, record_delimiter: excel ? 'windows' : 'unix', quoted_match: excel ? /[\r\n]/ : /\r/ },
  };
}

/**
 * What a server's run of a CSV chain puts before each of its records (its profile's cell and
 * the delimiter), so that its file joins as it is.
 */
export function csvLeadOf(name: string, flags: Flags): CsvLead {
  const w = csvWriting(flags);
  return { cell: profileCell(name, w) + w.delimiter };
}

/**
 * A CSV cell for the profile's name, quoted where it must be; with --excel a name that starts
 * like a formula (`=1+2`, `+x`, `@x`) gets the quote mark csv-stringify gives every other cell.
 */
function profileCell(name: string, w: CsvWriting): string {
  const value = w.excel && FORMULA_START.has(name[0] ?? '') ? `'${name}` : name;
  return /["\r\n]/.test(value) || value.includes(w.delimiter) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A CSV file's records as csv-parse reads them, the BOM of its start (--excel) dropped. */
function csvRecords(file: string, w: CsvWriting, size = READ): AsyncIterable<string[]> {
  return createReadStream(file, { highWaterMark: size }).pipe(
    parse({ delimiter: w.delimiter, bom: true, relax_column_count: true }),
  );
}

/** The first record of a CSV file (its header's cells), undefined for an empty file. */
async function headerOf(file: string, w: CsvWriting): Promise<string[] | undefined> {
  // A header's worth at a time: the rest of a server's export is not read.
  for await (const record of csvRecords(file, w, 1 << 12)) return record;
  return undefined;
}

/**
 * Servers differ in their columns (a register's payment methods, a version's fields): the
 * header is the union of theirs, in the order first seen, a cell left empty where a server has
 * no such column. A server whose columns are the joined header's, in its order (every server of
 * a run, but where versions or registers differ), has its records copied as they are.
 */
function csvJoiner(w: CsvWriting, sink: JoinSink, slow: boolean): Joiner {
  const columns: string[] = [];
  const heads = new Map<string, string[]>();
  return {
    async prepare(files) {
      for (const { file, header } of files) {
        const head = header ?? (await headerOf(file, w));
        if (head === undefined) continue;
        heads.set(file, head);
        for (const c of head) if (!columns.includes(c)) columns.push(c);
      }
      if (columns.length > 0)
        await sink.write(`${w.excel ? '\uFEFF' : ''}${stringify([['profile', ...columns]], w.opts)}`);
    },
    async add({ name, file, header }) {
      const head = heads.get(file);
      const same =
        head !== undefined && head.length === columns.length && head.every((c, i) => c === columns[i]);
      if (same && header && !slow) await addBytes(file, sink);
      else if (same && !slow) await addAsIs(profileCell(name, w) + w.delimiter, file, w.eol, sink);
      else await addByColumns(profileCell(name, w), file, w, { columns, header }, sink);
      return true;
    },
    async end() {},
  };
}

/**
 * A server's records, each cell put under the joined header's column of its name. A file led
 * by the profile's cell (`header` given, not in the file) has that cell first in each record.
 */
async function addByColumns(
  cell: string,
  file: string,
  w: CsvWriting,
  { columns, header }: { columns: readonly string[]; header: readonly string[] | undefined },
  sink: JoinSink,
): Promise<void> {
  let at = header ? columns.map((c) => (header.includes(c) ? header.indexOf(c) + 1 : -1)) : undefined;
  let s = '';
  for await (const record of csvRecords(file, w)) {
    if (at === undefined) {
      at = columns.map((c) => record.indexOf(c));
      continue;
    }
    s += `${cell}${w.delimiter}${stringify([at.map((i) => (i < 0 ? '' : (record[i] ?? '')))], w.opts)}`;
    if (s.length >= 1 << 16) {
      await sink.write(s);
      s = '';
    }
  }
  if (s) await sink.write(s);
}

/** A file its run wrote led by the profile's cell and without its header: its bytes as they are. */
async function addBytes(file: string, sink: JoinSink): Promise<void> {
  for await (const chunk of createReadStream(file, { highWaterMark: READ }))
    await sink.write(chunk as Buffer);
}

/**
 * A server's records as they are, `lead` (the profile's cell) put before each and its header
 * left out: what addByColumns writes for it, byte for byte (test/cli/servers-csv-join.test.ts),
 * at a scan for line breaks and quotes (indexOf) instead of a parse of every record.
 */
async function addAsIs(lead: string, file: string, eol: string, sink: JoinSink): Promise<void> {
  const at = { quoted: false, header: true, atStart: true };
  for await (const t of textOf(file)) {
    const s = leadRecords(t, lead, at);
    if (s) await sink.write(s);
  }
  // A last record with no line ending gets the joined output's, as csv-stringify gives it.
  if (!at.atStart && !at.header) await sink.write(eol);
}

/**
 * One chunk of a CSV text with `lead` before each record, the header's text left out; `at`
 * is where the scan stands, carried from chunk to chunk (a record may cross them). Quotes are
 * only ever doubled inside a quoted field, so a record ends at a line break outside quotes.
 */
function leadRecords(
  t: string,
  lead: string,
  at: { quoted: boolean; header: boolean; atStart: boolean },
): string {
  let s = '';
  let i = 0;
  let quote = -2; // the next '"' at or after i (-1: none in this chunk; -2: not looked for)
  while (i < t.length) {
    if (at.atStart) {
      if (!at.header) s += lead;
      at.atStart = false;
    }
    if (quote !== -1 && quote < i) quote = t.indexOf('"', i);
    const nl = at.quoted ? -1 : t.indexOf('\n', i);
    // Taken up to the next quote (it opens or closes a field), else to the line's end, else all.
    const toQuote = quote !== -1 && (at.quoted || nl === -1 || quote < nl);
    const end = toQuote ? quote + 1 : nl === -1 ? t.length : nl + 1;
    if (!at.header) s += t.slice(i, end);
    if (toQuote) at.quoted = !at.quoted;
    else if (nl !== -1) {
      at.header = false;
      at.atStart = true;
    }
    i = end;
  }
  return s;
}

/** ndjson lines with the profile as their first key: one stream, or (`array`) one JSON array. */
function ndjsonJoiner(sink: JoinSink, array: boolean): Joiner {
  let first = true;
  return {
    async add({ name, file }) {
      const lead = `{"profile":${JSON.stringify(name)}`;
      let rest = '';
      const take = async (lines: string[]) => {
        let s = '';
        for (const l of lines) {
          if (l.trim() === '') continue;
          const row = l === '{}' ? `${lead}}` : `${lead},${l.slice(1)}`;
          s += array ? (first ? '[\n' : ',\n') + row : `${row}\n`;
          first = false;
        }
        if (s) await sink.write(s);
      };
      for await (const t of textOf(file)) {
        const lines = (rest + t).split('\n');
        rest = lines.pop() ?? '';
        await take(lines);
      }
      await take([rest]);
      return true;
    },
    async end() {
      if (array) await sink.write(first ? '[]\n' : '\n]\n');
    },
  };
}

/** Each server's JSON document (doctor's report) with the profile first, in one array. */
function documentsJoiner(sink: JoinSink): Joiner {
  let first = true;
  return {
    async add({ name, file }) {
      let text = '';
      for await (const t of textOf(file)) text += t;
      const doc = JSON.parse(text) as unknown;
      const row = JSON.stringify({ profile: name, ...(doc as object) }, null, 2);
      await sink.write((first ? '[\n' : ',\n') + row);
      first = false;
      return true;
    },
    async end() {
      await sink.write(first ? '[]\n' : '\n]\n');
    },
  };
}

/** Each server's output as it is, under a line that names its profile. */
function blocksJoiner(sink: JoinSink): Joiner {
  let first = true;
  return {
    async add({ name, file }) {
      await sink.write(`${first ? '' : '\n'}== profile ${name} ==\n`);
      first = false;
      for await (const t of textOf(file)) await sink.write(t);
      return true;
    },
    async end() {},
  };
}
