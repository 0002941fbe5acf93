// Format choice and the sink: the contract's TTY-aware default, -o FILE atomic, the
// format taken from -o's extension when --format is absent.
import { extname } from 'node:path';
import { UsageError } from '../core/errors.js';
import type { FieldMap } from '../core/types.js';
import { CsvRenderer, type Format, JsonRenderer, NdjsonRenderer, type Renderer } from '../render/formats.js';
import type { Normalizer } from '../render/normalize.js';
import type { Sink } from '../render/sink.js';
import { AtomicFileSink } from '../sink/atomic.js';
import { StreamSink } from '../sink/stdout.js';
import type { IO } from './io.js';

const FORMATS: Format[] = ['table', 'json', 'ndjson', 'csv'];

export function chooseFormat(format: string | undefined, output: string | undefined, io: IO): Format {
  if (format !== undefined) {
    if (!FORMATS.includes(format as Format)) {
      throw new UsageError(
        `--format '${format}' is not one of ${FORMATS.join(', ')}`,
        'use --format table|json|ndjson|csv',
      );
    }
    return format as Format;
  }
  if (output) {
    const ext = extname(output).toLowerCase();
    if (ext === '.json') return 'json';
    if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
    return 'csv';
  }
  return io.stdoutTTY ? 'table' : 'csv';
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
  noun: string;
  toFile: boolean;
  names?: Record<string, Map<number, string>>;
  /** For csv straight from records: the same normalisation the rows would get. */
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
    case 'table': {
      const { TableRenderer } = await import('../render/table.js');
      return new TableRenderer(c.sink, c.fields, c.defs, {
        columns: c.toFile ? 200 : c.io.columns,
        color: c.io.color && !c.toFile,
        tz: c.tz,
        preferred: c.preferred,
        sumField: c.sumField,
        noun: c.noun,
        names: c.names,
      });
    }
  }
}
