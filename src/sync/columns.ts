// The typed columns of a resource (schema/columns.ts, shared with Parquet) as a PostgreSQL
// table, and a record as one line of COPY's text format. Amounts, and floats of unknown
// precision too, go to numeric: exact decimals, as the JSON output rounds them; datetimes to
// timestamptz (Odoo's values are UTC); a many2one to `x_id` integer and `x_name` text; an id
// list to integer[].
import type { FieldMap, OdooRecord } from '../core/types.js';
import { Normalizer } from '../render/normalize.js';
import { type Column, type ColumnKind, columnsFor } from '../schema/columns.js';

const PG_TYPE: Record<ColumnKind, string> = {
  integer: 'integer',
  decimal: 'numeric',
  float: 'numeric',
  timestamp: 'timestamptz',
  date: 'date',
  boolean: 'boolean',
  text: 'text',
  'integer[]': 'integer[]',
  json: 'jsonb',
};

export interface TableColumn {
  name: string;
  /** PostgreSQL type as written in CREATE TABLE / ALTER TABLE. */
  type: string;
}

const NULL = '\\N';

/** COPY text format: backslash, tab, newline and carriage return escaped; NUL cannot be stored. */
export function copyText(s: string): string {
  if (!/[\\\t\n\r\0]/.test(s)) return s;
  return s
    .replace(/\0/g, '')
    .replace(/\\/g, '\\\\')
    .replace(/\t/g, '\\t')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r');
}

function cell(kind: ColumnKind, v: unknown): string {
  if (v === null || v === undefined) return NULL;
  switch (kind) {
    case 'timestamp':
      return (v as Date).toISOString();
    case 'boolean':
      return v ? 't' : 'f';
    case 'integer[]':
      return `{${(v as number[]).join(',')}}`;
    case 'json':
      return copyText(JSON.stringify(v));
    case 'text':
    case 'date':
      return copyText(String(v));
    default:
      return String(v);
  }
}

/** The table of one resource: id first, then every field's columns. */
export class TablePlan {
  readonly columns: TableColumn[];
  private readonly typed: Column[];
  private readonly normalizer: Normalizer;

  constructor(fieldNames: string[], defs: FieldMap) {
    const fields = ['id', ...fieldNames.filter((f) => f !== 'id')];
    const all: FieldMap = { ...defs, id: defs.id ?? { type: 'integer' } };
    this.typed = columnsFor(fields, all);
    this.columns = this.typed.map((c) => ({ name: c.name, type: PG_TYPE[c.kind] }));
    this.normalizer = new Normalizer(fields, all);
  }

  /** One COPY text line (with its newline) for a record. */
  line(rec: OdooRecord): string {
    const row = this.normalizer.row(rec);
    let out = '';
    for (let i = 0; i < this.typed.length; i++) {
      const c = this.typed[i] as Column;
      const v = cell(c.kind, c.value(row[c.field]));
      out += i === 0 ? v : `\t${v}`;
    }
    return `${out}\n`;
  }
}
