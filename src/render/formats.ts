// Output formats: json, ndjson, csv (streamed page by page) and table (for a person);
// parquet in parquet.ts.
import { stringify } from 'csv-stringify/sync';
import type { FieldMap, OdooRecord } from '../core/types.js';
import { wallClock } from '../query/time.js';
import { fixedDecimals, moneyPlaces, type Normalizer, type Row, type Value } from '../records/normalize.js';
import type { Sink } from '../sink/sink.js';

export type Format = 'table' | 'json' | 'ndjson' | 'csv' | 'parquet';

export interface Renderer {
  begin(): Promise<void>;
  page(rows: Row[]): Promise<void>;
  /** Where a renderer can work from Odoo's records directly (csv), it says so here. */
  pageRecords?: (records: OdooRecord[]) => Promise<void>;
  end(): Promise<void>;
}

export class JsonRenderer implements Renderer {
  private first = true;
  constructor(private readonly sink: Sink) {}
  async begin(): Promise<void> {}
  async page(rows: Row[]): Promise<void> {
    if (rows.length === 0) return;
    let s = '';
    for (const r of rows) {
      s += (this.first ? '[\n' : ',\n') + JSON.stringify(r);
      this.first = false;
    }
    await this.sink.write(s);
  }
  async end(): Promise<void> {
    await this.sink.write(this.first ? '[]\n' : '\n]\n');
  }
}

export class NdjsonRenderer implements Renderer {
  constructor(private readonly sink: Sink) {}
  async begin(): Promise<void> {}
  async page(rows: Row[]): Promise<void> {
    let s = '';
    for (const r of rows) s += `${JSON.stringify(r)}\n`;
    if (s) await this.sink.write(s);
  }
  async end(): Promise<void> {}
}

export interface CsvOptions {
  excel?: boolean;
  /** Field separator; `;` for spreadsheets set to a European locale. */
  delimiter?: string;
  /** Decimal mark of numbers: `.` (default) or `,`. */
  decimal?: '.' | ',';
  /**
   * With --excel: datetimes as wall-clock times in this zone (the one a table shows), with no
   * offset, which a spreadsheet reads as a date and time; the header stays as it is.
   */
  zone?: string;
}

/** One cell's value from the field's output value. */
type CellFn = (v: Value | undefined) => Value;

/** A field's one or two cells (a many2one is `x_id`, `x_name`). */
export interface CsvColumn {
  field: string;
  cells: CellFn[];
}

/** The CSV columns of a field: a many2one becomes `x_id` and `x_name`. */
export function csvColumns(
  fields: string[],
  defs: FieldMap,
  /** Datetimes as wall-clock times in this zone (--excel). */
  zone?: string,
): { header: string[]; columns: CsvColumn[]; places: (number | null)[] } {
  const header: string[] = [];
  const columns: CsvColumn[] = [];
  const places: (number | null)[] = [];
  for (const f of fields) {
    const type = defs[f]?.type;
    const at = header.length;
    let cells: CellFn[];
    if (type === 'many2one') {
      const base = f.endsWith('_id') ? f.slice(0, -3) : f;
      header.push(f, `${base}_name`);
      cells = [
        (v) => (Array.isArray(v) ? (v[0] as Value) : (v ?? '')),
        (v) => (Array.isArray(v) ? (v[1] as Value) : ''),
      ];
    } else if (type === 'one2many' || type === 'many2many') {
      header.push(f);
      cells = [(v) => (Array.isArray(v) ? v.join(';') : '')];
    } else if (f === 'payments') {
      header.push(f);
      cells = [
        (v) =>
          Array.isArray(v)
            ? (v as Record<string, unknown>[])
                .map((p) => `${(p.payment_method_id as [number, string] | null)?.[1] ?? ''}:${p.amount}`)
                .join(';')
            : '',
      ];
    } else if (type === 'datetime' && zone) {
      header.push(f);
      cells = [(v) => (typeof v === 'string' ? wallClock(v, zone) : (v ?? ''))];
    } else if (type === 'boolean') {
      header.push(f);
      cells = [(v) => (v === null || v === undefined ? '' : v ? 'true' : 'false')];
    } else {
      header.push(f);
      cells = [(v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : (v ?? ''))];
    }
    columns.push({ field: f, cells });
    for (let i = at; i < header.length; i++) places.push(i === at ? moneyPlaces(f, defs[f]) : null);
  }
  return { header, columns, places };
}

/** A column with the conversion its value goes through first. */
type CsvPlan = CsvColumn & { conv: (v: unknown) => Value };

/** Every cell of each item, for csv-stringify: one array per line, in the header's order. */
function cellsOf(items: Record<string, unknown>[], plan: CsvPlan[], width: number): Value[][] {
  const out: Value[][] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as Record<string, unknown>;
    const cells: Value[] = new Array(width);
    let k = 0;
    for (const p of plan) {
      const v = p.conv(item[p.field]);
      for (const cell of p.cells) cells[k++] = cell(v);
    }
    out[i] = cells;
  }
  return out;
}

export class CsvRenderer implements Renderer {
  private readonly header: string[];
  private readonly opts: Parameters<typeof stringify>[1];
  /** Rows are already normalised: their values go into the cells as they are. */
  private readonly rows: CsvPlan[];
  /**
   * A page straight from Odoo's records (given a Normalizer): each value is normalised and
   * written into its cells without an intermediate row object, a few hundred bytes less
   * garbage a record.
   */
  readonly pageRecords?: (records: OdooRecord[]) => Promise<void>;
  constructor(
    private readonly sink: Sink,
    fields: string[],
    defs: FieldMap,
    private readonly csv: CsvOptions = {},
    normalizer?: Normalizer,
  ) {
    const zone = csv.excel ? csv.zone : undefined;
    const c = csvColumns(fields, defs, zone);
    this.header = c.header;
    const delimiter = csv.delimiter ?? ',';
    this.rows = c.columns.map((col) => ({ ...col, conv: (v: unknown) => v as Value }));
    if (normalizer) {
      const plan = c.columns.map((col) => ({ ...col, conv: normalizer.converter(col.field) }));
      this.pageRecords = (recs: OdooRecord[]) => this.writeLines(recs, plan);
    }
    // Amounts stay numbers, so escape_formulas leaves negative refunds alone. A bare CR (or
    // LF with CRLF records) is quoted too: csv-stringify quotes only the record delimiter.
    this.opts = {
      escape_formulas: Boolean(csv.excel),
      record_delimiter: csv.excel ? 'windows' : 'unix',
      delimiter,
      quoted_match: csv.excel ? /[\r\n]/ : /\r/,
      // An amount with its currency's decimals (1458.80; JPY 1458), as a spreadsheet's money
      // column shows it; other numbers as JavaScript prints them.
      cast: {
        number: (n: number, at: { column?: number | string }) => {
          const p = typeof at.column === 'number' ? c.places[at.column] : null;
          const s = p === null || p === undefined ? String(n) : fixedDecimals(n, p);
          return csv.decimal === ',' ? s.replace('.', ',') : s;
        },
      },
    };
  }
  async begin(): Promise<void> {
    const head = stringify([this.header], this.opts);
    await this.sink.write(this.csv.excel ? `\uFEFF${head}` : head);
  }
  async page(rows: Row[]): Promise<void> {
    await this.writeLines(rows, this.rows);
  }
  /** A page's lines, written by csv-stringify in one call (its sync API: a page is held anyway). */
  private async writeLines(items: Record<string, unknown>[], plan: CsvPlan[]): Promise<void> {
    if (items.length === 0) return;
    await this.sink.write(stringify(cellsOf(items, plan, this.header.length), this.opts));
  }
  async end(): Promise<void> {}
}
