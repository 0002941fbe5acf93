// The typed columns of a resource (schema/columns.ts, shared with Parquet) as a PostgreSQL
// table, and a record as one line of COPY's text format. Amounts, and floats of unknown
// precision too, go to numeric: exact decimals, as the JSON output rounds them; datetimes to
// timestamptz (Odoo's values are UTC); a many2one to `x_id` integer and `x_name` text; an id
// list to integer[].
import type { FieldMap, OdooRecord } from '../core/types.js';
import { type ColumnKind, columnsFor } from '../records/columns.js';
import { Normalizer } from '../records/normalize.js';

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
  /** Per column: the raw field it reads, and its COPY cell from the raw value. */
  private readonly cells: { field: string; cell: (raw: unknown) => string }[];

  constructor(fieldNames: string[], defs: FieldMap) {
    const fields = ['id', ...fieldNames.filter((f) => f !== 'id')];
    const all: FieldMap = { ...defs, id: defs.id ?? { type: 'integer' } };
    const typed = columnsFor(fields, all);
    this.columns = typed.map((c) => ({ name: c.name, type: PG_TYPE[c.kind] }));
    const normalizer = new Normalizer(fields, all);
    this.cells = typed.map((c) => {
      const norm = normalizer.converter(c.field);
      // Odoo's UTC text goes to timestamptz as it is, with its offset: no Date on the way.
      if (c.kind === 'timestamp')
        return {
          field: c.field,
          cell: (raw: unknown) => {
            const v = norm(raw);
            return typeof v === 'string' && v.length === 19 ? `${v}+00` : cell(c.kind, c.value(v));
          },
        };
      return { field: c.field, cell: (raw: unknown) => cell(c.kind, c.value(norm(raw))) };
    });
  }

  /** One COPY text line (with its newline) for a record. */
  line(rec: OdooRecord): string {
    const cells = this.cells;
    let out = (cells[0] as (typeof cells)[0]).cell(rec.id);
    for (let i = 1; i < cells.length; i++) {
      const c = cells[i] as (typeof cells)[0];
      out += `\t${c.cell(rec[c.field])}`;
    }
    return `${out}\n`;
  }
}
