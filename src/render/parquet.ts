// Parquet output: typed columns (schema/columns.ts) in row groups written as pages arrive,
// through hyparquet-writer's ParquetWriter and a byte writer that hands each finished row
// group to the sink, so memory holds one row group, never the export.
//
// Types (README, Decisions): integer → INT32 (Odoo's ids and integers are int4); decimal →
// DECIMAL(18, scale) on INT64, exact cents; float → DOUBLE; timestamp → TIMESTAMP(MICROS,
// adjusted to UTC); date → DATE; boolean → BOOLEAN; text → STRING; id list → LIST<INT32>;
// json → JSON. Every column but `id` is optional (null where Odoo has nothing).
import type { SchemaElement } from 'hyparquet';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { ProtocolError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import type { OdooRecord } from '../core/types.js';
import type { Column, ColumnKind, ColumnValue } from '../records/columns.js';
import { amountBound, type Normalizer, type Row, unscaled } from '../records/normalize.js';
import type { Sink } from '../sink/sink.js';
import type { Renderer } from './formats.js';

/** Rows per row group: small enough that memory stays flat, large enough for readers to skip by statistics. */
export const ROW_GROUP_ROWS = 10_000;
/** Digits of a DECIMAL held in INT64. */
const DECIMAL_PRECISION = 18;
const DAY_MS = 86_400_000;
const INT32_MAX = 2 ** 31 - 1;

/** A leaf's physical type and, where Parquet annotates it, its annotation (older and newer name). */
type Leaf = Pick<SchemaElement, 'type' | 'converted_type' | 'logical_type'>;

/** The kinds whose leaf is the same for every column; a decimal's has its scale, an id list is a LIST. */
const LEAVES: Record<Exclude<ColumnKind, 'decimal' | 'integer[]'>, Leaf> = {
  integer: { type: 'INT32' },
  date: { type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } },
  timestamp: {
    type: 'INT64',
    converted_type: 'TIMESTAMP_MICROS',
    logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
  },
  float: { type: 'DOUBLE' },
  boolean: { type: 'BOOLEAN' },
  json: { type: 'BYTE_ARRAY', converted_type: 'JSON', logical_type: { type: 'JSON' } },
  text: { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } },
};

/** The Parquet schema of the columns: a flat root, a three-level LIST for id lists. */
export function parquetSchema(columns: Column[]): SchemaElement[] {
  const schema: SchemaElement[] = [{ name: 'root', num_children: columns.length }];
  for (const c of columns) {
    const repetition_type = c.nullable ? 'OPTIONAL' : 'REQUIRED';
    const name = c.name;
    if (c.kind === 'integer[]')
      schema.push(
        { name, repetition_type, converted_type: 'LIST', logical_type: { type: 'LIST' }, num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', type: 'INT32', repetition_type: 'REQUIRED' },
      );
    else if (c.kind === 'decimal') {
      const scale = c.scale ?? 0;
      schema.push({
        name,
        type: 'INT64',
        repetition_type,
        converted_type: 'DECIMAL',
        scale,
        precision: DECIMAL_PRECISION,
        logical_type: { type: 'DECIMAL', scale, precision: DECIMAL_PRECISION },
      });
    } else schema.push({ name, ...LEAVES[c.kind], repetition_type });
  }
  return schema;
}

/** A column value as the writer takes it: days for a date, the rest as they are. */
function physical(c: Column): (v: ColumnValue) => unknown {
  const tooBig = (v: number) =>
    new ProtocolError(
      say`the server sent ${v} for ${c.field}, beyond a 32-bit integer`,
      say`report this with --debug output`,
    );
  switch (c.kind) {
    case 'integer':
      return (v) => {
        if (typeof v === 'number' && (v > INT32_MAX || v < -INT32_MAX - 1)) throw tooBig(v);
        return v;
      };
    case 'integer[]':
      return (v) => {
        for (const x of v as number[]) if (x > INT32_MAX || x < -INT32_MAX - 1) throw tooBig(x);
        return v;
      };
    case 'date':
      return (v) => (typeof v === 'string' ? Date.parse(`${v}T00:00:00Z`) / DAY_MS : v);
    case 'decimal': {
      // The unscaled integer of the amount's own decimal digits, as JSON prints them: the
      // writer's own v × 10^scale can land a unit off (a cent, on amounts past 2^45).
      const scale = c.scale ?? 0;
      const bound = amountBound(scale);
      return (v) => {
        if (typeof v !== 'number') return v;
        if (!(v < bound && v > -bound))
          throw new ProtocolError(
            say`${v} for ${c.field} cannot be written to ${own(String(scale))} decimals exactly (only below ${own(bound.toLocaleString('en-US'))})`,
            say`correct the record in Odoo, or leave the field out with --fields`,
          );
        return BigInt(unscaled(v, scale));
      };
    }
    default:
      return (v) => v;
  }
}

/** Bytes of each finished row group go to the sink, and the buffer starts again. */
class SinkWriter extends ByteWriter {
  constructor(private readonly sink: Sink) {
    super(1 << 20);
  }
  flush(): Promise<void> {
    const bytes = new Uint8Array(this.buffer, 0, this.index).slice();
    this.index = 0;
    return this.sink.write(bytes);
  }
  override finish(): Promise<void> {
    return this.flush();
  }
}

export class ParquetRenderer implements Renderer {
  private readonly schema: SchemaElement[];
  /** Each column's value from a normalised row. */
  private readonly fromRow: ((row: Row) => unknown)[];
  /**
   * A page straight from Odoo's records (given a Normalizer), as CSV does: each field is
   * normalised into its columns without a row object in between.
   */
  readonly pageRecords?: (records: OdooRecord[]) => Promise<void>;
  private writer: ParquetWriter | undefined;
  /** One array per column for the row group being gathered. */
  private data: unknown[][];
  private rows = 0;

  constructor(
    private readonly sink: Sink,
    private readonly columns: Column[],
    opts: { normalizer?: Normalizer } = {},
  ) {
    this.schema = parquetSchema(columns);
    this.fromRow = columns.map((c) => {
      const phys = physical(c);
      return (row: Row) => phys(c.value(row[c.field]));
    });
    const { normalizer } = opts;
    if (normalizer) {
      const fromRecord = columns.map((c) => {
        const phys = physical(c);
        const conv = normalizer.converter(c.field);
        return (rec: OdooRecord) => phys(c.value(conv(rec[c.field])));
      });
      this.pageRecords = (records) => this.gather(records, fromRecord);
    }
    this.data = columns.map(() => []);
  }

  async begin(): Promise<void> {
    this.writer = new ParquetWriter({
      writer: new SinkWriter(this.sink),
      schema: this.schema,
      codec: 'SNAPPY',
      createdBy: 'posdata',
    });
  }

  async page(rows: Row[]): Promise<void> {
    await this.gather(rows, this.fromRow);
  }

  /** Each column's value of each item into the row group being gathered. */
  private async gather<T>(items: T[], from: ((item: T) => unknown)[]): Promise<void> {
    const { data } = this;
    for (let c = 0; c < from.length; c++) {
      const get = from[c] as (item: T) => unknown;
      const out = data[c] as unknown[];
      for (let i = 0; i < items.length; i++) out.push(get(items[i] as T));
    }
    this.rows += items.length;
    if (this.rows >= ROW_GROUP_ROWS) await this.writeGroup();
  }

  private async writeGroup(): Promise<void> {
    if (!this.writer) await this.begin();
    const columnData = this.columns.map((c, i) => ({ name: c.name, data: this.data[i] as unknown[] }));
    const n = this.rows;
    this.data = this.columns.map(() => []);
    this.rows = 0;
    // biome-ignore lint/suspicious/noExplicitAny: hyparquet's DecodedArray is any[] at heart
    await this.writer?.write({ columnData: columnData as any, rowGroupSize: n });
  }

  async end(): Promise<void> {
    if (!this.writer) await this.begin();
    if (this.rows > 0) await this.writeGroup();
    await this.writer?.finish();
  }
}
