// Where a command's data goes, and the one lifecycle of writing it: the output flags (format,
// -o, csv's dialect) checked into typed options before anything is asked of the server (the
// contract's TTY-aware default format, the format taken from -o's extension, no Parquet onto a
// terminal, -o a file that can be replaced); then open the sink (standard output, or -o
// atomically), abort it on an interrupt, let the command render, and commit or abort.
import { extname } from 'node:path';
import { UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import type { Format } from '../render/formats.js';
import type { Sink } from '../sink/sink.js';
import { refuseClosedStdout, StreamSink } from '../sink/stdout.js';
import { resolveTarget } from '../sink/target.js';
import type { AfterWriting, Context } from './context.js';
import { type FlagValues, group } from './flags.js';
import type { IO, Output } from './io.js';
import { delimiter } from './values.js';

const FORMATS: Format[] = ['table', 'json', 'ndjson', 'csv', 'parquet'];

export const OUTPUT = group('output', [
  {
    spec: '--format <fmt>',
    description: 'table, json, ndjson, csv or parquet (default: table on a terminal, else csv)',
    offer: FORMATS,
  },
  {
    spec: '-o, --output <file>',
    description: 'write to FILE atomically; the format follows its extension',
    value: 'file',
  },
  { spec: '--excel', description: 'csv for spreadsheets: UTF-8 BOM, CRLF, formula cells neutralised' },
  {
    spec: '--delimiter <char>',
    description: 'csv field separator (e.g. ";" for European spreadsheets)',
    parse: delimiter('--delimiter'),
    default: ',',
  },
  { spec: '--decimal <char>', description: "csv decimal mark: '.' or ','", default: '.', offer: ['.', ','] },
]);

type OutputFlags = FlagValues<typeof OUTPUT>;

export interface OutputOptions {
  format: Format;
  /** -o as given; undefined for standard output (also `-o -`). */
  file: string | undefined;
  /** -o as the file it really is (symlinks followed). */
  path: string | undefined;
  excel: boolean;
  delimiter: string | undefined;
  decimal: '.' | ',' | undefined;
}

/** The output flags, checked: the format, csv's dialect, and -o (a folder or a device is refused). */
export function outputOptions(f: OutputFlags, io: IO): OutputOptions {
  const format = chooseFormat(f.format, f.output, io);
  if (format !== 'csv') csvOnly(f, format);
  const path = checkOutput(f);
  const file = f.output !== undefined && f.output !== '-' ? f.output : undefined;
  return {
    format,
    file,
    path,
    excel: f.excel === true,
    delimiter: f.delimiter,
    // checkOutput refused any other mark.
    decimal: f.decimal === ',' ? ',' : '.',
  };
}

export function chooseFormat(format: string | undefined, output: string | undefined, io: IO): Format {
  const chosen = pick(format, output, io);
  if (chosen === 'parquet' && (output === undefined || output === '-') && io.out.isTTY) {
    throw new UsageError(
      say`Parquet is binary and standard output is a terminal`,
      say`write it to a file with -o FILE.parquet, or pipe it`,
    );
  }
  return chosen;
}

/** --excel, --delimiter and --decimal shape CSV: with another format they would do nothing. */
function csvOnly(f: OutputFlags, format: Format): void {
  const given = [
    f.excel === true ? '--excel' : undefined,
    f.delimiter !== undefined && f.delimiter !== ',' ? '--delimiter' : undefined,
    f.decimal !== undefined && f.decimal !== '.' ? '--decimal' : undefined,
  ].filter((x): x is string => x !== undefined);
  if (given.length === 0) return;
  throw new UsageError(
    say`${own(given.join(' and '))} ${own(given.length === 1 ? 'shapes' : 'shape')} CSV, and the format is ${own(format)}`,
    say`add --format csv (or -o FILE.csv), or leave ${own(given.join(' and '))} out`,
  );
}

/** Spreadsheet workbooks, which posdata does not write: CSV under such a name does not open. */
const WORKBOOKS = ['.xlsx', '.xlsm', '.xls', '.ods', '.numbers'];

function pick(format: string | undefined, output: string | undefined, io: IO): Format {
  if (format !== undefined) {
    if (!FORMATS.includes(format as Format)) {
      throw new UsageError(
        say`--format '${format}' is not one of ${own(FORMATS.join(', '))}`,
        say`use --format ${own(FORMATS.join('|'))}`,
      );
    }
    return format as Format;
  }
  if (output) {
    const ext = extname(output).toLowerCase();
    if (ext === '.json') return 'json';
    if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
    if (ext === '.parquet') return 'parquet';
    if (WORKBOOKS.includes(ext))
      throw new UsageError(
        say`-o ${output}: posdata writes no ${own(ext)} workbooks, and CSV under that name does not open in a spreadsheet`,
        say`write -o ${own(output.slice(0, -ext.length))}.csv --excel, which spreadsheets open as it is`,
      );
    return 'csv';
  }
  return io.out.isTTY ? 'table' : 'csv';
}

/**
 * `--decimal` (and its delimiter), and -o as the file it really is (symlinks followed; a
 * folder or a device is refused). Returns -o's resolved path, undefined for standard output.
 */
export function checkOutput(o: {
  output?: string;
  decimal?: string;
  delimiter?: string;
}): string | undefined {
  if (o.decimal !== undefined && o.decimal !== '.' && o.decimal !== ',') {
    throw new UsageError(
      say`--decimal '${o.decimal}' is not '.' or ','`,
      say`use --decimal ',' with --delimiter ';'`,
    );
  }
  if (o.decimal === ',' && (o.delimiter ?? ',') === ',') {
    throw new UsageError(
      say`--decimal ',' needs another --delimiter`,
      say`use --delimiter ';' with --decimal ','`,
    );
  }
  return o.output !== undefined && o.output !== '-' ? resolveTarget(o.output) : undefined;
}

/** A table's width and colour: the terminal's, or 200 columns and no colour into a file. */
export function tableLook(io: IO, toFile: boolean): { columns: number; color: boolean } {
  return { columns: toFile ? 200 : io.out.width, color: io.color && !toFile };
}

/**
 * A table for a person on a terminal: kept whole, then shown through the pager when it is
 * taller than the terminal (io.ts), as git and gh do. Nothing is shown if the run fails.
 */
class PagedSink implements Sink {
  private chunks: string[] = [];
  constructor(private readonly out: Output) {}
  async write(chunk: string | Uint8Array): Promise<void> {
    this.chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
  }
  async commit(): Promise<void> {
    const text = this.chunks.join('');
    this.chunks = [];
    await this.out.page(text);
  }
  async abort(): Promise<void> {
    this.chunks = [];
  }
}

export type { AfterWriting } from './context.js';

/**
 * The output lifecycle, the same for every command: the sink for `path` (standard output
 * without one) opened, aborted on an interrupt, `write` renders into it, then the sink is
 * committed (-o replaced at once, or the last bytes out on standard output), or aborted if
 * anything failed (the old -o file stays, no temporary file is left). A table for a person
 * (`paged`) on a terminal goes through the pager when it is taller than the terminal.
 */
export async function writeOutput(
  ctx: Context,
  path: string | undefined,
  write: (sink: Sink) => Promise<AfterWriting | undefined>,
  /** A table for a person: paged on a terminal when long. */
  paged = false,
): Promise<void> {
  if (!path) refuseClosedStdout(ctx.io.out.fd);
  const sink: Sink = path
    ? await (await import('../sink/atomic.js')).AtomicFileSink.create(path)
    : paged && ctx.io.out.pager
      ? new PagedSink(ctx.io.out)
      : new StreamSink(ctx.io.out.stream, ctx.io.out.fd);
  const release = ctx.onInterrupt(() => sink.abort());
  let written: AfterWriting | undefined;
  try {
    written = await write(sink);
    await sink.commit();
  } catch (err) {
    written?.aborted?.();
    await sink.abort();
    throw err;
  } finally {
    release();
  }
  // In a chain whose output is joined, the output is whole only once the chain's is written.
  if (written && ctx.whenJoined) ctx.whenJoined(written);
  else written?.committed?.();
}
