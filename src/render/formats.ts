// Output formats: json, ndjson, csv (streamed page by page) and table (for a person).
import { stringify } from 'csv-stringify/sync';
import type { FieldMap, OdooRecord } from '../core/types.js';
import type { Normalizer, Row, Value } from './normalize.js';
import type { Sink } from './sink.js';

export type Format = 'table' | 'json' | 'ndjson' | 'csv';

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
}

/** One cell's value from the field's output value. */
type CellFn = (v: Value | undefined) => Value;

/** A field's one or two cells (a many2one is `x_id`, `x_name`). */
export interface CsvColumn {
  field: string;
  cells: CellFn[];
}

/** The CSV columns of a field: a many2one becomes `x_id` and `x_name`. */
export function csvColumns(fields: string[], defs: FieldMap): { header: string[]; columns: CsvColumn[] } {
  const header: string[] = [];
  const columns: CsvColumn[] = [];
  for (const f of fields) {
    const type = defs[f]?.type;
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
    } else if (type === 'boolean') {
      header.push(f);
      cells = [(v) => (v === null || v === undefined ? '' : v ? 'true' : 'false')];
    } else {
      header.push(f);
      cells = [(v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : (v ?? ''))];
    }
    columns.push({ field: f, cells });
  }
  return { header, columns };
}

/** First characters csv-stringify's escape_formulas (--excel) prefixes with a quote in a string cell. */
const FORMULA_LEAD = '=+-@\t\r\uFF1D\uFF0B\uFF0D\uFF20';

/** A cell with one of these (or the delimiter) needs csv-stringify: quoting, escaping. */
const SPECIAL = /["\r\n]/;

/** Every cell of an item, for csv-stringify. */
function cellsOf(item: Record<string, unknown>, plan: CsvPlan[]): Value[] {
  const out: Value[] = [];
  for (const p of plan) {
    const v = p.conv(item[p.field]);
    for (const cell of p.cells) out.push(cell(v));
  }
  return out;
}

function plainCell(delimiter: string, excel: boolean, comma: boolean): PlainFn {
  // A number's text holds the delimiter only if that is a digit, a sign, a point…
  const numbersPlain = !/[0-9.,eE+-]/.test(delimiter);
  return (v) => {
    if (typeof v === 'string') {
      if (v === '') return v;
      if (SPECIAL.test(v) || v.includes(delimiter) || (excel && FORMULA_LEAD.includes(v[0] as string)))
        return undefined;
      return v;
    }
    if (typeof v === 'number') {
      const t = comma ? String(v).replace('.', ',') : String(v);
      return numbersPlain || !t.includes(delimiter) ? t : undefined;
    }
    return v === null || v === undefined ? '' : undefined;
  };
}

/** A column with the conversion its value goes through first. */
type CsvPlan = CsvColumn & { conv: (v: unknown) => Value };

/** A cell's text when csv-stringify would write it unchanged, else undefined. */
type PlainFn = (v: Value) => string | undefined;

export class CsvRenderer implements Renderer {
  /** Rows are already normalised: their values go into the cells as they are. */
  private readonly asIs: CsvPlan[];
  private readonly header: string[];
  private readonly opts: Parameters<typeof stringify>[1];
  private readonly delimiter: string;
  private readonly eol: string;
  private readonly plain: PlainFn;
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
    const c = csvColumns(fields, defs);
    this.header = c.header;
    this.asIs = c.columns.map((col) => ({ ...col, conv: (v: unknown) => v as Value }));
    if (normalizer) {
      const plan = c.columns.map((col) => ({ ...col, conv: normalizer.converter(col.field) }));
      this.pageRecords = (recs: OdooRecord[]) => this.writeLines(recs, plan);
    }
    this.delimiter = csv.delimiter ?? ',';
    this.eol = csv.excel ? '\r\n' : '\n';
    this.plain = plainCell(this.delimiter, Boolean(csv.excel), csv.decimal === ',');
    // Amounts stay numbers, so escape_formulas leaves negative refunds alone. A bare CR (or
    // LF with CRLF records) is quoted too: csv-stringify quotes only the record delimiter.
    this.opts = {
      escape_formulas: Boolean(csv.excel),
      record_delimiter: csv.excel ? 'windows' : 'unix',
      delimiter: this.delimiter,
      quoted_match: csv.excel ? /[\r\n]/ : /\r/,
      cast: {
        number: csv.decimal === ',' ? (n: number) => String(n).replace('.', ',') : (n: number) => String(n),
      },
    };
  }
  async begin(): Promise<void> {
    const head = stringify([this.header], this.opts);
    await this.sink.write(this.csv.excel ? `\uFEFF${head}` : head);
  }
  async page(rows: Row[]): Promise<void> {
    await this.writeLines(rows, this.asIs);
  }
  /**
   * One CSV line per item: each column's value, converted, written into its cells. A record
   * whose cells need nothing from csv-stringify (no quote, delimiter, CR or LF in them, no
   * formula lead with --excel, no boolean to cast) is its cells' text joined; any other goes
   * through csv-stringify. Its per-cell work (a cast, a context object, several tuples) was
   * 1.3 s of CPU per 200k sales, more than the server took to send them.
   */
  private async writeLines(items: Record<string, unknown>[], plan: CsvPlan[]): Promise<void> {
    const { plain, delimiter, eol } = this;
    let text = '';
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as Record<string, unknown>;
      let line: string | undefined = '';
      for (let c = 0; c < plan.length && line !== undefined; c++) {
        const p = plan[c] as CsvPlan;
        const v = p.conv(item[p.field]);
        for (let k = 0; k < p.cells.length; k++) {
          const t = plain((p.cells[k] as CellFn)(v));
          if (t === undefined) {
            line = undefined;
            break;
          }
          line = c === 0 && k === 0 ? t : `${line}${delimiter}${t}`;
        }
      }
      text += line === undefined ? stringify([cellsOf(item, plan)], this.opts) : line + eol;
    }
    if (text) await this.sink.write(text);
  }
  async end(): Promise<void> {}
}
