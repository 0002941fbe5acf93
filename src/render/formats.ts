// Output formats: json, ndjson, csv (streamed page by page) and table (for a person);
// parquet in parquet.ts.
import { stringify } from 'csv-stringify/sync';
import type { FieldDef, FieldMap, OdooRecord } from '../core/types.js';
import { wallClock } from '../query/time.js';
import { type Normalizer, precisionOf, type Row, roundAt, type Value } from '../records/normalize.js';
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
): { header: string[]; columns: CsvColumn[] } {
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
  }
  return { header, columns };
}

/** First characters csv-stringify's escape_formulas (--excel) prefixes with a quote in a string cell. */
const FORMULA_LEAD = '=+-@\t\r\uFF1D\uFF0B\uFF0D\uFF20';

/** Every cell of an item, for csv-stringify. */
function cellsOf(item: Record<string, unknown>, plan: CsvPlan[]): Value[] {
  const out: Value[] = [];
  for (const p of plan) {
    const v = p.conv(item[p.field]);
    for (const cell of p.cells) out.push(cell(v));
  }
  return out;
}

/** A column with the conversion its value goes through first. */
type CsvPlan = CsvColumn & { conv: (v: unknown) => Value };

/** A cell's text when csv-stringify would write it unchanged, else undefined. */
type TextFn = (v: unknown) => string | undefined;

/** The text of a string cell and of a number's digits, when csv-stringify leaves them alone. */
interface PlainText {
  str(s: string): string | undefined;
  num(digits: string): string | undefined;
  /** Any output value: a string, a number, or null/undefined for an empty cell. */
  value(v: Value | undefined): string | undefined;
}

function plainText(delimiter: string, excel: boolean, comma: boolean): PlainText {
  // A cell with a quote, CR, LF or the delimiter needs csv-stringify: quoting, escaping.
  const special = new RegExp(`["\\r\\n${delimiter.replace(/[\\\]^-]/g, '\\$&')}]`, 'u');
  // A number's text holds the delimiter only if that is a digit, a sign, a point…
  const numbersPlain = !/[0-9.,eE+-]/.test(delimiter);
  const str = (s: string): string | undefined =>
    s === '' ? s : special.test(s) || (excel && FORMULA_LEAD.includes(s[0] as string)) ? undefined : s;
  const num = (digits: string): string | undefined => {
    const t = comma ? digits.replace('.', ',') : digits;
    return numbersPlain || !t.includes(delimiter) ? t : undefined;
  };
  return {
    str,
    num,
    value: (v) =>
      typeof v === 'string' ? str(v) : typeof v === 'number' ? num(String(v)) : v == null ? '' : undefined,
  };
}

const SCALE = [1, 10, 100, 1e3, 1e4, 1e5, 1e6];

/**
 * `String(roundAt(v, digits))` from integers: the rounded value is n / 10^digits, and for
 * |n| < 10^15 (fifteen significant digits at most) the shortest text that reads back as
 * that double is n's digits with the point put in and trailing zeros dropped. Formatting
 * a double is the dearest step of a CSV line; integers are cheap. Null outside that range.
 */
export function fixedText(v: number, digits: number): string | null {
  const f = SCALE[digits] as number;
  let n = Math.round(v * f);
  // Already at `digits` decimals (the usual amount) or not: then roundAt's decimal rounding,
  // whose result has at most `digits` decimals, so that times f is a whole number again.
  if (n / f !== v) n = Math.round(roundAt(v, digits) * f);
  if (!(n > -1e15 && n < 1e15)) return null;
  const a = n < 0 ? -n : n;
  const whole = Math.floor(a / f);
  let frac = a - whole * f;
  let text = `${whole}`;
  if (frac !== 0) {
    let d = digits;
    while (frac % 10 === 0) {
      frac /= 10;
      d--;
    }
    const part = `${frac}`;
    text += part.length < d ? `.${'0'.repeat(d - part.length)}${part}` : `.${part}`;
  }
  return n < 0 ? `-${text}` : text;
}

/**
 * The cells of a column read straight from Odoo's value, for the shapes a default export is
 * made of (numbers, texts, many2one pairs, lists of one id); any other value takes
 * `slow`, the normaliser and the column's cells. The property test holds both to the same
 * output.
 */
function fastCells(
  col: CsvColumn,
  def: FieldDef | undefined,
  zoned: boolean,
  t: PlainText,
  slow: TextFn[],
): TextFn[] {
  const [s0, s1] = slow as [TextFn, TextFn];
  const type = col.field === 'payments' ? 'payments' : def?.type;
  switch (type) {
    case 'integer':
      return [(v) => (typeof v === 'number' ? t.num(String(v)) : s0(v))];
    case 'float':
    case 'monetary': {
      const digits = precisionOf(col.field, def as FieldDef);
      if (digits === null || digits >= SCALE.length) return slow;
      return [
        (v) => {
          const text = typeof v === 'number' ? fixedText(v, digits) : null;
          return text === null ? s0(v) : t.num(text);
        },
      ];
    }
    case 'many2one':
      return [
        (v) => (Array.isArray(v) && typeof v[0] === 'number' ? t.num(String(v[0])) : s0(v)),
        (v) => (Array.isArray(v) && typeof v[1] === 'string' ? t.str(v[1]) : s1(v)),
      ];
    case 'one2many':
    case 'many2many':
      return [
        (v) =>
          Array.isArray(v) && v.length < 2
            ? v.length === 0
              ? ''
              : typeof v[0] === 'number'
                ? t.str(String(v[0]))
                : s0(v)
            : s0(v),
      ];
    case 'datetime':
      if (zoned) return slow;
      return [(v) => (typeof v === 'string' ? t.str(v) : s0(v))];
    case 'char':
    case 'text':
    case 'selection':
    case 'date':
      return [(v) => (typeof v === 'string' ? t.str(v) : s0(v))];
    default:
      return slow;
  }
}

type LineFn = (item: Record<string, unknown>) => string | undefined;

/**
 * One function for a CSV line of these columns, its cells unrolled: each call site sees one
 * cell function and one property name, so V8 inlines them (a loop over the columns calls
 * a dozen different functions from one place, and reads a key that changes every time).
 * Field names go in as JSON string literals.
 */
function compileLine(fields: string[], cells: TextFn[][], delimiter: string): LineFn {
  const names: string[] = [];
  const fns: TextFn[] = [];
  const texts: string[] = [];
  let body = '';
  fields.forEach((field, c) => {
    body += `  v = item[${JSON.stringify(field)}];\n`;
    for (const fn of cells[c] as TextFn[]) {
      const k = fns.length;
      names.push(`c${k}`);
      fns.push(fn);
      texts.push(`t${k}`);
      body += `  const t${k} = c${k}(v);\n  if (t${k} === undefined) return undefined;\n`;
    }
  });
  // An array joined is one flat string; a chain of + is a tree of pieces, copied again later.
  const source = `return function line(item) {\n  let v;\n${body}  return [${texts.join(', ')}].join(${JSON.stringify(delimiter)});\n};`;
  return new Function(...names, source)(...fns) as LineFn;
}

export class CsvRenderer implements Renderer {
  private readonly header: string[];
  private readonly opts: Parameters<typeof stringify>[1];
  private readonly eol: string;
  /** Rows are already normalised: their values go into the cells as they are. */
  private readonly rows: { plan: CsvPlan[]; line: LineFn };
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
    const t = plainText(delimiter, Boolean(csv.excel), csv.decimal === ',');
    const slow = (col: CsvPlan): TextFn[] => col.cells.map((cell) => (v) => t.value(cell(col.conv(v))));
    const asIs = c.columns.map((col) => ({ ...col, conv: (v: unknown) => v as Value }));
    this.rows = { plan: asIs, line: compileLine(fields, asIs.map(slow), delimiter) };
    if (normalizer) {
      const plan = c.columns.map((col) => ({ ...col, conv: normalizer.converter(col.field) }));
      const moved = normalizer.zoned || zone !== undefined;
      const cells = plan.map((col) => fastCells(col, defs[col.field], moved, t, slow(col)));
      const records = { plan, line: compileLine(fields, cells, delimiter) };
      this.pageRecords = (recs: OdooRecord[]) => this.writeLines(recs, records);
    }
    this.eol = csv.excel ? '\r\n' : '\n';
    // Amounts stay numbers, so escape_formulas leaves negative refunds alone. A bare CR (or
    // LF with CRLF records) is quoted too: csv-stringify quotes only the record delimiter.
    this.opts = {
      escape_formulas: Boolean(csv.excel),
      record_delimiter: csv.excel ? 'windows' : 'unix',
      delimiter,
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
    await this.writeLines(rows, this.rows);
  }
  /**
   * One CSV line per item. A line whose cells need nothing from csv-stringify (no quote,
   * delimiter, CR or LF in them, no formula lead with --excel, no boolean to cast) is its
   * cells' text joined; any other goes through csv-stringify. Its per-cell work (a cast, a
   * context object, several tuples) was 1.3 s of CPU per 200k sales, more than the server
   * took to send them.
   */
  private async writeLines(
    items: Record<string, unknown>[],
    how: { plan: CsvPlan[]; line: LineFn },
  ): Promise<void> {
    if (items.length === 0) return;
    const { eol } = this;
    const lines: string[] = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as Record<string, unknown>;
      // csv-stringify ends its record with the record delimiter, which is eol.
      lines.push(how.line(item) ?? stringify([cellsOf(item, how.plan)], this.opts).slice(0, -eol.length));
    }
    lines.push('');
    await this.sink.write(lines.join(eol));
  }
  async end(): Promise<void> {}
}
