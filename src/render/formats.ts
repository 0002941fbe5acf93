// Output formats: json, ndjson, csv (streamed page by page) and table (for a person);
// parquet in parquet.ts.
import { stringify } from 'csv-stringify/sync';
import type { FieldMap, OdooRecord } from '../core/types.js';
import { utcToZoneIso, wallClock } from '../query/time.js';
import type { BareNames } from '../read/names.js';
import {
  atCurrencyDecimals,
  fixedDecimals,
  moneyPlaces,
  type Normalizer,
  odooDate,
  odooDatetime,
  type Row,
  roundAt,
  roundedFixed,
  type Value,
} from '../records/normalize.js';
import type { Sink } from '../sink/sink.js';

export type Format = 'table' | 'json' | 'ndjson' | 'csv' | 'parquet';

export interface Renderer {
  begin(): Promise<void>;
  page(rows: Row[]): Promise<void>;
  /**
   * Where a renderer can work from Odoo's records directly (csv), it says so here; `names`:
   * the many2one names of the ids the records hold bare (CsvRenderer).
   */
  pageRecords?: (records: OdooRecord[], names?: BareNames) => Promise<void>;
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
  /**
   * Where the companies keep several currencies: each company's currency decimals, by
   * company id; an amount is then written at its line's currency's decimals (its company_id's).
   */
  currencies?: ReadonlyMap<number, { digits: number }>;
  /** One server's run of a chain (src/cli/servers.ts): its records led by the profile's cell. */
  lead?: CsvLead;
}

/**
 * A chain's CSV is one file: each server's records with its profile's cell first, under one
 * header. A server's run writes each record with that cell before it, and keeps its header here
 * instead of writing it, so that the join copies the run's bytes as they are rather than
 * reading every record back to put the cell in (servers-join.ts).
 */
export interface CsvLead {
  /** The profile's cell and the delimiter after it, as the joined output writes them. */
  readonly cell: string;
  /** The header's cells, once the renderer has begun. */
  header?: string[];
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
): { header: string[]; columns: CsvColumn[]; places: (number | null)[]; perCurrency: boolean[] } {
  const header: string[] = [];
  const columns: CsvColumn[] = [];
  const places: (number | null)[] = [];
  const perCurrency: boolean[] = [];
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
      cells = [(v) => (Array.isArray(v) ? paymentsText(v as Record<string, unknown>[]) : '')];
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
    for (let i = at; i < header.length; i++) {
      places.push(i === at ? moneyPlaces(f, defs[f]) : null);
      perCurrency.push(i === at && atCurrencyDecimals(f, defs[f]));
    }
  }
  return { header, columns, places, perCurrency };
}

/** --with-payments' cell: each payment's method name and amount, `Cash:10;Card:4.54`. */
function paymentsText(payments: Record<string, unknown>[]): string {
  let s = '';
  for (let i = 0; i < payments.length; i++) {
    const p = payments[i] as Record<string, unknown>;
    const one = `${(p.payment_method_id as [number, string] | null)?.[1] ?? ''}:${p.amount}`;
    s = i === 0 ? one : `${s};${one}`;
  }
  return s;
}

/** A column with the conversion its value goes through first. */
type CsvPlan = CsvColumn & { conv: (v: unknown) => Value };

/** One item's cells, in the header's order, into `cells` (reused from line to line). */
function fillCells(item: Record<string, unknown>, plan: CsvPlan[], cells: Value[]): void {
  let k = 0;
  for (const p of plan) {
    const v = p.conv(item[p.field]);
    for (const cell of p.cells) cells[k++] = cell(v);
  }
}

/**
 * The text of one line when csv-stringify would write every cell of it as it is (a string
 * with no separator, quote or line break, and with --excel none that starts like a formula; a
 * number; an empty cell), joined here; undefined sends the line to csv-stringify. So each line
 * is csv-stringify's, byte for byte (test/render/csv-plain.test.ts), and the common line costs a
 * scan of its cells instead of csv-stringify's per-cell option handling, which was most of an
 * export's CPU (bench/notes.md).
 */
export class PlainLines {
  /** What makes a string cell need quotes: a quote, a line break, the separator. */
  readonly special: RegExp;
  /** Whether a number's text can hold the separator (`,` with the decimal comma, a digit...). */
  readonly numbersSpecial: boolean;
  constructor(
    readonly delimiter: string,
    readonly eol: string,
    readonly excel: boolean,
    readonly numberText: (n: number, column: number) => string,
    decimal: '.' | ',' = '.',
    /** numberText(roundAt(v, digits), column), where csvWriters can do it in one go. */
    readonly roundedText: (v: number, digits: number | null, column: number) => string = (
      v,
      digits,
      column,
    ) => numberText(roundAt(v, digits), column),
  ) {
    const d = delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    this.special = new RegExp(`["\\r\\n]|${d}`);
    this.numbersSpecial =
      /[\d.+\-eEInfityNa]/.test(delimiter) || (decimal === ',' && delimiter.includes(','));
  }
  line(cells: readonly Value[]): string | undefined {
    if (this.delimiter.length !== 1) return undefined;
    let line = '';
    for (let i = 0; i < cells.length; i++) {
      const v = cells[i];
      let s: string;
      if (typeof v === 'string') {
        if (v !== '' && (this.special.test(v) || (this.excel && FORMULA_START.has(v[0] as string))))
          return undefined;
        s = v;
      } else if (typeof v === 'number') {
        s = this.numberText(v, i);
        if (this.numbersSpecial && this.special.test(s)) return undefined;
      } else if (v === null || v === undefined) {
        s = '';
      } else {
        return undefined;
      }
      line = i === 0 ? s : line + this.delimiter + s;
    }
    return line + this.eol;
  }
}

/** How RecordLines writes a field from Odoo's value (its normaliser's type, its CSV cells). */
type RecordKind =
  | 'integer'
  | 'number'
  | 'datetime'
  | 'date'
  | 'boolean'
  | 'many2one'
  | 'list'
  | 'text'
  | 'cell';

interface RecordField {
  field: string;
  kind: RecordKind;
  /** The field's first column in the header (numberText's column). */
  at: number;
  /** Decimals the normaliser rounds a number to. */
  digits: number | null;
  /** The column's own cell ('cell': --with-payments' methods and amounts, one text). */
  cell?: CellFn;
  /**
   * A many2one's last value and its cells' text (undefined: the long way): a page's records
   * share a few values, in runs, and a value's text does not depend on its line.
   */
  lastId?: number;
  lastName?: string;
  lastText?: string;
  /** A many2one's names of the ids the page holds bare (BareNames), where it has them. */
  names?: ReadonlyMap<number, [number, string]>;
}

/**
 * A record's line straight from Odoo's values, where each value has its common shape (a whole
 * number, a finite amount, Odoo's datetime text, [id, name], a list of ids, a string, false)
 * and no cell needs quotes but a list of ids under `;`: the same text the normaliser, the cells and PlainLines would
 * write, in one pass over the fields with no cell array and no call per cell. Any other line
 * (undefined) goes the long way, through the converters and csv-stringify, which decide, and
 * refuse, everything out of the ordinary in one place: with --excel, also a line with a text
 * cell that starts like a formula (csv-stringify's escape_formulas). Only built where the long
 * way would not quote a number (a one-character separator that no number can hold); --tz's
 * datetimes are moved here as the normaliser moves them, --excel's written as the wall clock
 * of its zone. test/render/formats.test.ts, "csv straight from records", holds the two ways to
 * the same bytes, or the same refusal.
 */
export class RecordLines {
  /** A datetime's or a date's text can hold the separator (`-`, `:`, a space, a digit). */
  private readonly timesSpecial: boolean;
  private readonly booleans: [string | undefined, string | undefined];
  /** The separator is `;`, which a list of two ids or more holds (quoted). */
  private readonly idsQuoted: boolean;

  private constructor(
    private readonly plain: PlainLines,
    private readonly plan: RecordField[],
    /** --tz: datetimes written in this zone, as the normaliser moves them. */
    private readonly zone: string | undefined,
    /** --excel: datetimes as the wall clock of this zone (the same instant, whatever --tz). */
    private readonly wall: string | undefined,
  ) {
    // In a zone a datetime is ISO 8601 with its offset: a T, and + or Z, too.
    this.timesSpecial = (zone && !wall ? /[\d\-: T+Z]/ : /[\d\-: ]/).test(plain.delimiter);
    const text = (s: string) => (plain.special.test(s) ? undefined : s);
    this.booleans = [text('false'), text('true')];
    this.idsQuoted = plain.delimiter === ';';
  }

  /** The fast path for these columns, or undefined where it would not write the same bytes. */
  static for(
    plain: PlainLines,
    columns: readonly CsvColumn[],
    defs: FieldMap,
    normalizer: Normalizer,
    /** --excel's zone (CsvOptions.zone): datetimes as its wall clock. */
    wall?: string,
  ): RecordLines | undefined {
    if (plain.delimiter.length !== 1 || plain.numbersSpecial) return undefined;
    const plan: RecordField[] = [];
    let at = 0;
    for (const col of columns) {
      const shape = normalizer.shape(col.field);
      const type = defs[col.field]?.type ?? 'unknown';
      if (shape.type !== type || shape.masked) return undefined;
      // --with-payments' cell is text made from the value as it is (the normaliser's json).
      const own = col.field === 'payments' && type === 'json' && col.cells.length === 1;
      if (col.field === 'payments' && !own) return undefined;
      const kind = own ? 'cell' : recordKind(type);
      // Every field's entry of one shape (the properties a many2one's sets later, there from
      // the start): line() reads them all through one hidden class.
      plan.push({
        field: col.field,
        kind,
        at,
        digits: shape.digits,
        cell: col.cells[0],
        lastId: Number.NaN,
        lastName: undefined,
        lastText: undefined,
        names: undefined,
      });
      at += col.cells.length;
    }
    return new RecordLines(plain, plan, normalizer.zone, plain.excel ? wall : undefined);
  }

  /** The names of the ids the next records hold bare (none: a bare id goes the long way). */
  named(names: BareNames | undefined): void {
    for (const f of this.plan) if (f.kind === 'many2one') f.names = names?.pairs.get(f.field);
  }

  /** Whether a text cell sends the line the long way: quotes, or a formula's start with --excel. */
  private off(s: string): boolean {
    return this.plain.special.test(s) || (this.plain.excel && FORMULA_START.has(s[0] as string));
  }

  /** A many2one's two cells, or undefined (the long way). */
  private pair(f: RecordField, id: number, name: string): string | undefined {
    if (id === f.lastId && name === f.lastName) return f.lastText;
    const s = this.off(name) ? undefined : `${this.plain.numberText(id, f.at)}${this.plain.delimiter}${name}`;
    f.lastId = id;
    f.lastName = name;
    f.lastText = s;
    return s;
  }

  /**
   * A list's cell (its items joined with `;`), or undefined (the long way). Numbers alone hold
   * no quote, no line break and (RecordLines.for) no separator but `;`: with `;` as the
   * separator (spreadsheets in a European locale) two ids or more are quoted, as csv-stringify
   * quotes them, instead of sending the line the long way. With --excel a formula's start
   * (a negative first id) still goes the long way.
   */
  private ids(v: unknown[]): string | undefined {
    let s = '';
    for (let i = 0; i < v.length; i++) {
      const n = v[i];
      if (typeof n !== 'number') return this.joined(v);
      s = i === 0 ? `${n}` : `${s};${n}`;
    }
    if (this.plain.excel && FORMULA_START.has(s[0] as string)) return undefined;
    return this.idsQuoted && v.length > 1 ? `"${s}"` : s;
  }

  private joined(v: unknown[]): string | undefined {
    const s = v.join(';');
    return this.off(s) ? undefined : s;
  }

  line(rec: Record<string, unknown>): string | undefined {
    const { numberText, delimiter } = this.plain;
    let line = '';
    for (let i = 0; i < this.plan.length; i++) {
      const f = this.plan[i] as RecordField;
      const v = rec[f.field];
      let s: string | undefined;
      if (v === false || v === null || v === undefined) {
        // Empty: the normalisers all make it null (a list, []), written as nothing.
        s = f.kind === 'many2one' ? delimiter : '';
        if (f.kind === 'boolean' && v === false) s = this.booleans[0];
      } else {
        switch (f.kind) {
          case 'integer':
            if (Number.isInteger(v)) s = numberText(v as number, f.at);
            break;
          case 'number':
            if (typeof v === 'number' && Number.isFinite(v)) s = this.plain.roundedText(v, f.digits, f.at);
            break;
          case 'datetime':
            if (odooDatetime(v)) {
              const t = this.wall ? wallClock(v, this.wall) : this.zone ? utcToZoneIso(v, this.zone) : v;
              if (!(this.timesSpecial && this.off(t))) s = t;
            }
            break;
          case 'date':
            if (odooDate(v) && !(this.timesSpecial && this.off(v))) s = v;
            break;
          case 'boolean':
            if (typeof v === 'boolean') s = this.booleans[1];
            break;
          case 'many2one':
            if (typeof v === 'number') {
              // A bare id (ManyToOneNames.leftBare): its name is looked up here.
              const named = f.names?.get(v);
              if (named !== undefined) s = this.pair(f, v, named[1]);
            } else if (Array.isArray(v) && typeof v[0] === 'number' && typeof v[1] === 'string')
              s = this.pair(f, v[0], v[1]);
            break;
          case 'list':
            if (Array.isArray(v)) s = this.ids(v);
            break;
          case 'cell': {
            // What PlainLines makes of the cell's text the long way: as it is, or quoted there.
            const t = (f.cell as CellFn)(v as Value);
            if (typeof t === 'string' && (t === '' || !this.off(t))) s = t;
            break;
          }
          default:
            if (typeof v === 'string' && !this.off(v)) s = v;
        }
      }
      if (s === undefined) return undefined;
      line = i === 0 ? s : line + delimiter + s;
    }
    return line + this.plain.eol;
  }
}

function recordKind(type: string): RecordKind {
  switch (type) {
    case 'integer':
    case 'datetime':
    case 'date':
    case 'boolean':
    case 'many2one':
      return type;
    case 'float':
    case 'monetary':
      return 'number';
    case 'one2many':
    case 'many2many':
      return 'list';
    default:
      return 'text';
  }
}

/** First characters csv-stringify's escape_formulas guards in a string (a number's - it leaves). */
export const FORMULA_START = new Set([
  '=',
  '+',
  '-',
  '@',
  '\t',
  '\r',
  '\uFF1D',
  '\uFF0B',
  '\uFF0D',
  '\uFF20',
]);

/**
 * csv-stringify's options for these CSV options and money columns (`places`: each column's
 * decimals, null where it is not money), and the plain-line path that writes what it would.
 */
export function csvWriters(
  csv: CsvOptions,
  places: readonly (number | null)[],
  /** Where a line's currency decides a column's decimals: those columns, and the line's decimals. */
  lineCurrency?: { columns: readonly boolean[]; digits: number | undefined },
): { opts: Parameters<typeof stringify>[1]; plain: PlainLines } {
  const delimiter = csv.delimiter ?? ',';
  // An amount with its currency's decimals (1458.80; JPY 1458), as a spreadsheet's money
  // column shows it; over several currencies, each line's own (EUR 1540.82 beside JPY
  // 306215); other numbers as JavaScript prints them.
  const numberText = (n: number, column: number): string => {
    let p = places[column];
    if (lineCurrency?.columns[column] && lineCurrency.digits !== undefined) p = lineCurrency.digits;
    const s = p === null || p === undefined ? String(n) : fixedDecimals(n, p);
    return csv.decimal === ',' ? s.replace('.', ',') : s;
  };
  // An amount rounded to the decimals its column is written with, in one step (roundedFixed).
  const roundedText = (v: number, digits: number | null, column: number): string =>
    digits !== null && places[column] === digits && csv.decimal !== ',' && !lineCurrency?.columns[column]
      ? roundedFixed(v, digits)
      : numberText(roundAt(v, digits), column);
  const plain = new PlainLines(
    delimiter,
    csv.excel ? '\r\n' : '\n',
    Boolean(csv.excel),
    numberText,
    csv.decimal,
    roundedText,
  );
  // Amounts stay numbers, so escape_formulas leaves negative refunds alone. A bare CR (or
  // LF with CRLF records) is quoted too: csv-stringify quotes only the record delimiter.
  const opts: Parameters<typeof stringify>[1] = {
    escape_formulas: Boolean(csv.excel),
    record_delimiter: csv.excel ? 'windows' : 'unix',
    delimiter,
    quoted_match: csv.excel ? /[\r\n]/ : /\r/,
    cast: {
      number: (n: number, at: { column?: number | string }) =>
        typeof at.column === 'number' ? numberText(n, at.column) : String(n),
    },
  };
  return { opts, plain };
}

export class CsvRenderer implements Renderer {
  private readonly header: string[];
  private readonly opts: Parameters<typeof stringify>[1];
  private readonly plain: PlainLines;
  /** Over several currencies: the line being written's currency decimals (csvWriters reads it). */
  private readonly line?: {
    columns: boolean[];
    digits: number | undefined;
    of: ReadonlyMap<number, { digits: number }>;
  };
  /** Rows are already normalised: their values go into the cells as they are. */
  private readonly rows: CsvPlan[];
  /**
   * A page straight from Odoo's records (given a Normalizer): each value is normalised and
   * written into its cells without an intermediate row object, a few hundred bytes less
   * garbage a record.
   */
  readonly pageRecords?: (records: OdooRecord[], names?: BareNames) => Promise<void>;
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
    this.rows = c.columns.map((col) => ({ ...col, conv: (v: unknown) => v as Value }));
    if (csv.currencies && fields.includes('company_id'))
      this.line = { columns: c.perCurrency, digits: undefined, of: csv.currencies };
    ({ opts: this.opts, plain: this.plain } = csvWriters(csv, c.places, this.line));
    if (normalizer) {
      const plan = c.columns.map((col) => ({ ...col, conv: normalizer.converter(col.field) }));
      const fast = RecordLines.for(this.plain, c.columns, defs, normalizer, zone);
      this.pageRecords = (recs: OdooRecord[], names?: BareNames) => this.writeLines(recs, plan, fast, names);
    }
  }
  /**
   * The header goes out with the first page's lines, made first: a value that stops the run
   * on the first page (exit 6) leaves nothing written, not a header on a pipe.
   */
  async begin(): Promise<void> {
    if (this.csv.lead) {
      this.csv.lead.header = this.header;
      return;
    }
    const head = stringify([this.header], this.opts);
    this.head = this.csv.excel ? `\uFEFF${head}` : head;
  }
  private head = '';
  async page(rows: Row[]): Promise<void> {
    await this.writeLines(rows, this.rows);
  }
  /** A page's lines in one write: each plain line joined, any other written by csv-stringify. */
  private async writeLines(
    items: Record<string, unknown>[],
    plan: CsvPlan[],
    fast?: RecordLines,
    /** The names of the bare ids the items hold (pageRecords). */
    names?: BareNames,
  ): Promise<void> {
    if (items.length === 0) return;
    fast?.named(names);
    let text = this.head;
    const cells: Value[] = new Array(this.header.length);
    const per = this.line;
    const lead = this.csv.lead?.cell;
    for (const item of items) {
      if (per) {
        const c = item.company_id;
        const id = Array.isArray(c) ? c[0] : c;
        per.digits = typeof id === 'number' ? per.of.get(id)?.digits : undefined;
      }
      if (lead !== undefined) text += lead;
      const line = fast?.line(item);
      if (line !== undefined) {
        text += line;
        continue;
      }
      // The long way reads [id, name] where the item holds a bare id.
      names?.name(item as OdooRecord);
      fillCells(item, plan, cells);
      text += this.plain.line(cells) ?? stringify([cells], this.opts);
    }
    this.head = '';
    await this.sink.write(text);
  }
  async end(): Promise<void> {
    if (this.head) await this.sink.write(this.head);
    this.head = '';
  }
}
