// Output formats: json, ndjson, csv (streamed page by page) and table (for a person).
import { stringify } from 'csv-stringify/sync';
import type { FieldMap } from '../core/types.js';
import type { Row, Value } from './normalize.js';
import type { Sink } from './sink.js';

export type Format = 'table' | 'json' | 'ndjson' | 'csv';

export interface Renderer {
  begin(): Promise<void>;
  page(rows: Row[]): Promise<void>;
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

type CellFn = (row: Row, out: Value[]) => void;

/** The CSV columns of a field: a many2one becomes `x_id` and `x_name`. */
export function csvColumns(fields: string[], defs: FieldMap): { header: string[]; cells: CellFn[] } {
  const header: string[] = [];
  const cells: CellFn[] = [];
  for (const f of fields) {
    const type = defs[f]?.type;
    if (type === 'many2one') {
      const base = f.endsWith('_id') ? f.slice(0, -3) : f;
      header.push(f, `${base}_name`);
      cells.push((r, out) => {
        const v = r[f];
        if (Array.isArray(v)) out.push(v[0] as Value, v[1] as Value);
        else out.push(v ?? '', '');
      });
    } else if (type === 'one2many' || type === 'many2many') {
      header.push(f);
      cells.push((r, out) => {
        const v = r[f];
        out.push(Array.isArray(v) ? v.join(';') : '');
      });
    } else if (f === 'payments') {
      header.push(f);
      cells.push((r, out) => {
        const v = r[f];
        out.push(
          Array.isArray(v)
            ? (v as Record<string, unknown>[])
                .map((p) => `${(p.payment_method_id as [number, string] | null)?.[1] ?? ''}:${p.amount}`)
                .join(';')
            : '',
        );
      });
    } else if (type === 'boolean') {
      header.push(f);
      cells.push((r, out) => {
        const v = r[f];
        out.push(v === null || v === undefined ? '' : v ? 'true' : 'false');
      });
    } else {
      header.push(f);
      cells.push((r, out) => {
        const v = r[f];
        out.push(v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : v);
      });
    }
  }
  return { header, cells };
}

export class CsvRenderer implements Renderer {
  private readonly header: string[];
  private readonly cells: CellFn[];
  private readonly opts: Parameters<typeof stringify>[1];
  constructor(
    private readonly sink: Sink,
    fields: string[],
    defs: FieldMap,
    private readonly csv: CsvOptions = {},
  ) {
    const c = csvColumns(fields, defs);
    this.header = c.header;
    this.cells = c.cells;
    // Amounts stay numbers, so escape_formulas leaves negative refunds alone.
    this.opts = {
      escape_formulas: Boolean(csv.excel),
      record_delimiter: csv.excel ? 'windows' : 'unix',
      delimiter: csv.delimiter ?? ',',
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
    const records: Value[][] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const out: Value[] = [];
      for (const c of this.cells) c(rows[i], out);
      records[i] = out;
    }
    if (records.length) await this.sink.write(stringify(records, this.opts));
  }
  async end(): Promise<void> {}
}
