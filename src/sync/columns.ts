// Odoo fields (fields_get) → PostgreSQL columns, and one record → one line of COPY's text
// format. Amounts go to numeric (exact decimals, rounded at the field's precision as the
// JSON output rounds them), datetimes to timestamptz (Odoo's values are UTC), a many2one to
// two columns (`x_id` integer and `x_name` text, the CSV's names), an id list to integer[].
import { UsageError } from '../core/errors.js';
import type { FieldDef, FieldMap, OdooRecord } from '../core/types.js';
import { precisionOf, roundAt } from '../render/normalize.js';

export interface Column {
  name: string;
  /** PostgreSQL type as written in CREATE TABLE / ALTER TABLE. */
  type: string;
}

/** How one Odoo field is stored: its columns and how a value becomes their COPY cells. */
export interface FieldColumns {
  field: string;
  columns: Column[];
  cells: (v: unknown) => string[];
}

const NULL = '\\N';

/** COPY text format: backslash, tab, newline and carriage return escaped; NUL cannot be stored. */
export function copyText(s: string): string {
  if (!/[\\\t\n\r\u0000]/.test(s)) return s;
  return s
    .replace(/\u0000/g, '')
    .replace(/\\/g, '\\\\')
    .replace(/\t/g, '\\t')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r');
}

function empty(v: unknown): boolean {
  return v === false || v === null || v === undefined;
}

function scalar(enc: (v: unknown) => string): (v: unknown) => string[] {
  return (v) => [empty(v) ? NULL : enc(v)];
}

/** The columns of one field; throws a usage error for a field that cannot be synced. */
export function fieldColumns(name: string, def: FieldDef): FieldColumns {
  switch (def.type) {
    case 'integer':
      return { field: name, columns: [{ name, type: 'integer' }], cells: scalar((v) => String(v)) };
    case 'float':
    case 'monetary': {
      const p = precisionOf(name, def);
      return {
        field: name,
        columns: [{ name, type: 'numeric' }],
        cells: scalar((v) => (typeof v === 'number' ? String(roundAt(v, p)) : String(v))),
      };
    }
    case 'boolean':
      return {
        field: name,
        columns: [{ name, type: 'boolean' }],
        // Odoo's false is a value here, not an empty field.
        cells: (v) => [v === null || v === undefined ? NULL : v ? 't' : 'f'],
      };
    case 'datetime':
      return {
        field: name,
        columns: [{ name, type: 'timestamptz' }],
        cells: scalar((v) => `${String(v)}+00`),
      };
    case 'date':
      return { field: name, columns: [{ name, type: 'date' }], cells: scalar((v) => String(v)) };
    case 'many2one': {
      const base = name.endsWith('_id') ? name.slice(0, -3) : name;
      return {
        field: name,
        columns: [
          { name, type: 'integer' },
          { name: `${base}_name`, type: 'text' },
        ],
        cells: (v) => {
          if (Array.isArray(v)) return [String(v[0]), v[1] === undefined ? NULL : copyText(String(v[1]))];
          if (typeof v === 'number') return [String(v), NULL];
          return [NULL, NULL];
        },
      };
    }
    case 'one2many':
    case 'many2many':
      return {
        field: name,
        columns: [{ name, type: 'integer[]' }],
        cells: (v) => [Array.isArray(v) ? `{${v.join(',')}}` : '{}'],
      };
    case 'many2one_reference':
      return { field: name, columns: [{ name, type: 'integer' }], cells: scalar((v) => String(v)) };
    case 'json':
    case 'properties':
      return {
        field: name,
        columns: [{ name, type: 'jsonb' }],
        cells: scalar((v) => copyText(JSON.stringify(v))),
      };
    case 'char':
    case 'text':
    case 'html':
    case 'selection':
    case 'reference':
      return { field: name, columns: [{ name, type: 'text' }], cells: scalar((v) => copyText(String(v))) };
    default:
      throw new UsageError(
        `field '${name}' is of type ${def.type}, which posdata sync does not store`,
        'leave it out of --fields',
      );
  }
}

/** The table of one resource: every field's columns, id first; two fields may not share a column. */
export class TablePlan {
  readonly fields: FieldColumns[];
  readonly columns: Column[];

  constructor(fieldNames: string[], defs: FieldMap, model: string) {
    const ordered = ['id', ...fieldNames.filter((f) => f !== 'id')];
    this.fields = ordered.map((f) => {
      const def = f === 'id' ? { type: 'integer' } : defs[f];
      if (!def) throw new UsageError(`unknown field '${f}' on ${model}`, 'check --fields');
      return fieldColumns(f, def);
    });
    this.columns = this.fields.flatMap((f) => f.columns);
    const seen = new Map<string, string>();
    for (const f of this.fields) {
      for (const c of f.columns) {
        const other = seen.get(c.name);
        if (other !== undefined)
          throw new UsageError(
            `fields '${other}' and '${f.field}' of ${model} would both be column '${c.name}'`,
            'leave one of them out of --fields',
          );
        seen.set(c.name, f.field);
      }
    }
  }

  /** One COPY text line (with its newline) for a record. */
  line(rec: OdooRecord): string {
    let out = '';
    for (let i = 0; i < this.fields.length; i++) {
      const f = this.fields[i] as FieldColumns;
      const cells = f.cells(rec[f.field]);
      out += i === 0 ? cells.join('\t') : `\t${cells.join('\t')}`;
    }
    return `${out}\n`;
  }
}
