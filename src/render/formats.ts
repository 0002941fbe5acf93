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

/** Writes one field's cells (one, or two for a many2one) from its output value. */
type CellFn = (v: Value | undefined, out: Value[]) => void;

export interface CsvColumn {
  field: string;
  cell: CellFn;
}

/** The CSV columns of a field: a many2one becomes `x_id` and `x_name`. */
export function csvColumns(fields: string[], defs: FieldMap): { header: string[]; columns: CsvColumn[] } {
  const header: string[] = [];
  const columns: CsvColumn[] = [];
  for (const f of fields) {
    const type = defs[f]?.type;
    let cell: CellFn;
    if (type === 'many2one') {
      const base = f.endsWith('_id') ? f.slice(0, -3) : f;
      header.push(f, `${base}_name`);
      cell = (v, out) => {
        if (Array.isArray(v)) out.push(v[0] as Value, v[1] as Value);
        else out.push(v ?? '', '');
      };
    } else if (type === 'one2many' || type === 'many2many') {
      header.push(f);
      cell = (v, out) => {
        out.push(Array.isArray(v) ? v.join(';') : '');
      };
    } else if (f === 'payments') {
      header.push(f);
      cell = (v, out) => {
        out.push(
          Array.isArray(v)
            ? (v as Record<string, unknown>[])
                .map((p) => `${(p.payment_method_id as [number, string] | null)?.[1] ?? ''}:${p.amount}`)
                .join(';')
            : '',
        );
      };
    } else if (type === 'boolean') {
      header.push(f);
      cell = (v, out) => {
        out.push(v === null || v === undefined ? '' : v ? 'true' : 'false');
      };
    } else {
      header.push(f);
      cell = (v, out) => {
        out.push(v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : v);
      };
    }
    columns.push({ field: f, cell });
  }
  return { header, columns };
}

/** First characters csv-stringify's escape_formulas (--excel) prefixes with a quote in a string cell. */
const FORMULA_LEAD = '=+-@\t\r\uFF1D\uFF0B\uFF0D\uFF20';

/** A cell with one of these (or the delimiter) needs csv-stringify: quoting, escaping. */
const SPECIAL = /["\r\n]/;

/** A column with the conversion its value goes through first. */
type CsvPlan = CsvColumn & { conv: (v: unknown) => Value };

export class CsvRenderer implements Renderer {
  /** Rows are already normalised: their values go into the cells as they are. */
  private readonly asIs: CsvPlan[];
  private readonly header: string[];
  private readonly opts: Parameters<typeof stringify>[1];
  private readonly delimiter: string;
  private readonly eol: string;
  /** Whether a number's text can never hold the delimiter (it cannot, unless that is a digit, sign, point…). */
  private readonly numbersPlain: boolean;
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
    // Amounts stay numbers, so escape_formulas leaves negative refunds alone. A bare CR (or
    // LF with CRLF records) is quoted too: csv-stringify quotes only the record delimiter.
    this.delimiter = csv.delimiter ?? ',';
    this.eol = csv.excel ? '\r\n' : '\n';
    this.numbersPlain = !/[0-9.,eE+-]/.test(this.delimiter);
    this.opts = {
      escape_formulas: Boolean(csv.excel),
      record_delimiter: csv.excel ? 'windows' : 'unix',
      delimiter: csv.delimiter ?? ',',
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
    let text = '';
    const cells: Value[] = [];
    for (let i = 0; i < items.length; i++) {
      cells.length = 0;
      const item = items[i];
      for (const p of plan) p.cell(p.conv(item[p.field]), cells);
      text += this.plain(cells) ?? stringify([cells], this.opts);
    }
    if (text) await this.sink.write(text);
  }
  /** The line of cells csv-stringify would write unchanged, or undefined. */
  private plain(cells: Value[]): string | undefined {
    let line = '';
    let probe = '';
    for (let i = 0; i < cells.length; i++) {
      const v = cells[i];
      let t: string;
      if (typeof v === 'string') {
        if (this.csv.excel && v !== '' && FORMULA_LEAD.includes(v[0] as string)) return undefined;
        t = v;
        probe += v;
      } else if (typeof v === 'number') {
        t = this.csv.decimal === ',' ? String(v).replace('.', ',') : String(v);
        if (!this.numbersPlain) probe += t;
      } else if (v === null || v === undefined) {
        t = '';
      } else return undefined;
      line += i === 0 ? t : this.delimiter + t;
    }
    return SPECIAL.test(probe) || probe.includes(this.delimiter) ? undefined : line + this.eol;
  }
  async end(): Promise<void> {}
}
