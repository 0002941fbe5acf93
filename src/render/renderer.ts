// The renderer of a format: json, ndjson and csv at once; Parquet and the table loaded when
// asked for (hyparquet-writer, cli-table3).
import type { FieldMap } from '../core/types.js';
import type { Normalizer } from '../records/normalize.js';
import type { Sink } from '../sink/sink.js';
import { CsvRenderer, type Format, JsonRenderer, NdjsonRenderer, type Renderer } from './formats.js';

export interface RenderContext {
  format: Format;
  sink: Sink;
  fields: string[];
  defs: FieldMap;
  excel?: boolean;
  delimiter?: string;
  decimal?: '.' | ',';
  /** The table's width (the terminal's; 200 into a file). */
  columns: number;
  /** Colour in a table (a terminal, and not into a file). */
  color: boolean;
  tz: string;
  preferred: string[];
  sumField?: string;
  /** Decimals of money (the company's currency) for a table's totals and payments; 2 if not given. */
  moneyDigits?: number;
  /** The states a table's total counts; rows of other states are named apart. */
  countedStates?: string[];
  noun: string;
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
        { excel: c.excel, delimiter: c.delimiter, decimal: c.decimal, zone: c.tz },
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
      return new TableRenderer(c.sink, c.fields, c.defs, {
        columns: c.columns,
        color: c.color,
        tz: c.tz,
        preferred: c.preferred,
        sumField: c.sumField,
        moneyDigits: c.moneyDigits,
        countedStates: c.countedStates,
        noun: c.noun,
        names: c.names,
      });
    }
  }
}
