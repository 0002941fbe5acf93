// The renderer of a format: json, ndjson and csv at once; Parquet and the table loaded when
// asked for (hyparquet-writer, cli-table3).
import type { FieldMap } from '../core/types.js';
import type { Normalizer } from '../records/normalize.js';
import type { Sink } from '../sink/sink.js';
import {
  type CsvLead,
  CsvRenderer,
  type Format,
  JsonRenderer,
  NdjsonRenderer,
  type Renderer,
} from './formats.js';
import type { TableOptions } from './table.js';

/** What a renderer is made from: the records' shape and format, and a table's look (TableOptions). */
export interface RenderContext extends Omit<TableOptions, 'maxRows'> {
  format: Format;
  sink: Sink;
  fields: string[];
  defs: FieldMap;
  excel?: boolean;
  delimiter?: string;
  decimal?: '.' | ',';
  /** For csv and parquet straight from records: the same normalisation the rows would get. */
  normalizer?: Normalizer;
  /** csv: one server's run of a chain, its records led by the profile's cell (CsvLead). */
  lead?: CsvLead;
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
        {
          excel: c.excel,
          delimiter: c.delimiter,
          decimal: c.decimal,
          zone: c.tz,
          currencies: c.currencies,
          lead: c.lead,
        },
        c.normalizer,
      );
    case 'parquet': {
      const [{ ParquetRenderer }, { columnsFor }] = await Promise.all([
        import('./parquet.js'),
        import('../records/columns.js'),
      ]);
      return new ParquetRenderer(c.sink, columnsFor(c.fields, c.defs), { normalizer: c.normalizer });
    }
    case 'table': {
      const { TableRenderer } = await import('./table.js');
      return new TableRenderer(c.sink, c.fields, c.defs, c);
    }
  }
}
