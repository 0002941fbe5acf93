// Format choice and the sink: the contract's TTY-aware default, -o FILE atomic, the
// format taken from -o's extension when --format is absent, no Parquet onto a terminal.
import { extname } from 'node:path';
import { UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import type { FieldMap } from '../core/types.js';
import { CsvRenderer, type Format, JsonRenderer, NdjsonRenderer, type Renderer } from '../render/formats.js';
import type { Normalizer } from '../render/normalize.js';
import type { Sink } from '../render/sink.js';
import { AtomicFileSink, resolveTarget } from '../sink/atomic.js';
import { StreamSink } from '../sink/stdout.js';
import type { IO } from './io.js';

const FORMATS: Format[] = ['table', 'json', 'ndjson', 'csv', 'parquet'];

export function chooseFormat(format: string | undefined, output: string | undefined, io: IO): Format {
  const chosen = pick(format, output, io);
  if (chosen === 'parquet' && (output === undefined || output === '-') && io.stdoutTTY) {
    throw new UsageError(
      say`Parquet is binary and standard output is a terminal`,
      say`write it to a file with -o FILE.parquet, or pipe it`,
    );
  }
  return chosen;
}

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
    return 'csv';
  }
  return io.stdoutTTY ? 'table' : 'csv';
}

/**
 * The output flags, checked before anything is asked of the server: `--decimal` (and its
 * delimiter), and -o as the file it really is (symlinks followed; a folder or a device is
 * refused). Returns -o's resolved path, undefined for standard output.
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

export async function openSink(output: string | undefined): Promise<Sink> {
  if (output === undefined || output === '-') return new StreamSink(process.stdout);
  return AtomicFileSink.create(output);
}

export interface RenderContext {
  format: Format;
  sink: Sink;
  fields: string[];
  defs: FieldMap;
  excel?: boolean;
  delimiter?: string;
  decimal?: '.' | ',';
  io: IO;
  tz: string;
  preferred: string[];
  sumField?: string;
  /** The states a table's total counts; rows of other states are named apart. */
  countedStates?: string[];
  noun: string;
  toFile: boolean;
  names?: Record<string, Map<number, string>>;
  /** For csv and parquet straight from records: the same normalisation the rows would get. */
  normalizer?: Normalizer;
}

export async function makeRenderer(c: RenderContext): Promise<Renderer> {
  switch (c.format) {
    case 'json':
      return new JsonRenderer(c.sink);
    case 'ndjson':
      return new NdjsonRenderer(c.sink);
    case 'csv':
      return new CsvRenderer(
        c.sink,
        c.fields,
        c.defs,
        { excel: c.excel, delimiter: c.delimiter, decimal: c.decimal },
        c.normalizer,
      );
    case 'parquet': {
      const [{ ParquetRenderer }, { columnsFor }] = await Promise.all([
        import('../render/parquet.js'),
        import('../schema/columns.js'),
      ]);
      return new ParquetRenderer(c.sink, columnsFor(c.fields, c.defs), { normalizer: c.normalizer });
    }
    case 'table': {
      const { TableRenderer } = await import('../render/table.js');
      return new TableRenderer(c.sink, c.fields, c.defs, {
        columns: c.toFile ? 200 : c.io.columns,
        color: c.io.color && !c.toFile,
        tz: c.tz,
        preferred: c.preferred,
        sumField: c.sumField,
        countedStates: c.countedStates,
        noun: c.noun,
        names: c.names,
      });
    }
  }
}
