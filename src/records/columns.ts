// Typed columns of a resource's output fields, from the server's fields_get: what a typed
// file or a warehouse table holds. No file format or database here; each of those maps a
// column kind to its own type (Parquet INT32/DECIMAL/TIMESTAMP…, PostgreSQL integer/numeric/
// timestamptz…). The values a column takes are the normalised rows' (render/normalize.ts):
// `null` for empty, amounts already rounded at their precision, many2one as [id, name].
import { UsageError } from '../core/errors.js';
import { say } from '../core/redact.js';
import type { FieldDef, FieldMap } from '../core/types.js';
import { notA, precisionOf, type Value } from './normalize.js';

export type ColumnKind =
  /** A whole number; Odoo's integers and ids are 32-bit (`int4` in its database). */
  | 'integer'
  /** An exact amount with `scale` decimals: monetary fields and floats with known digits. */
  | 'decimal'
  /** A float with no known precision (a quantity, a percentage): a double. */
  | 'float'
  /** An instant, UTC (Odoo's datetime). */
  | 'timestamp'
  /** A calendar date, `YYYY-MM-DD`. */
  | 'date'
  | 'boolean'
  | 'text'
  /** A list of record ids (one2many, many2many). */
  | 'integer[]'
  /** Structured data with no fixed shape (e.g. --with-payments' payments). */
  | 'json';

/** A column's value: by kind, a number, a Date (timestamp), a string (text, date), ids, or JSON data. */
export type ColumnValue =
  | number
  | string
  | boolean
  | Date
  | number[]
  | Record<string, unknown>
  | unknown[]
  | null;

export interface Column {
  /** The column's name: the field's, or for a many2one `<x>_id` and `<x>_name`. */
  name: string;
  /** The output field it comes from. */
  field: string;
  kind: ColumnKind;
  /** Decimals of a decimal column. */
  scale?: number;
  /** False only for `id`. */
  nullable: boolean;
  /** The column's value from the field's normalised value. */
  value: (v: Value | undefined) => ColumnValue;
}

/** Odoo's datetime text (UTC, `YYYY-MM-DD HH:MM:SS`) or ISO 8601 with an offset (--tz) as an instant. */
export function parseTimestamp(s: string): Date {
  const ms =
    s.length === 19 && s[10] === ' ' ? Date.parse(`${s.slice(0, 10)}T${s.slice(11)}Z`) : Date.parse(s);
  return new Date(ms);
}

const bad = notA;

const integer =
  (field: string) =>
  (v: Value | undefined): ColumnValue =>
    v === null || v === undefined
      ? null
      : typeof v === 'number' && Number.isInteger(v)
        ? v
        : bad(field, 'whole number', v);

const number =
  (field: string) =>
  (v: Value | undefined): ColumnValue =>
    v === null || v === undefined ? null : typeof v === 'number' ? v : bad(field, 'number', v);

const text = (v: Value | undefined): ColumnValue =>
  v === null || v === undefined
    ? null
    : typeof v === 'string'
      ? v
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);

/** A field's one or two columns. */
export function columnsOf(field: string, def: FieldDef | undefined): Column[] {
  const nullable = field !== 'id';
  const col = (kind: ColumnKind, value: Column['value'], extra: Partial<Column> = {}): Column => ({
    name: field,
    field,
    kind,
    nullable,
    value,
    ...extra,
  });
  switch (def?.type) {
    case 'integer':
    case 'many2one_reference':
      return [col('integer', integer(field))];
    case 'float':
    case 'monetary': {
      const scale = precisionOf(field, def);
      return scale === null ? [col('float', number(field))] : [col('decimal', number(field), { scale })];
    }
    case 'datetime':
      return [
        col('timestamp', (v) => {
          if (v === null || v === undefined) return null;
          const d = typeof v === 'string' ? parseTimestamp(v) : undefined;
          return d && !Number.isNaN(d.getTime()) ? d : bad(field, 'datetime', v);
        }),
      ];
    case 'date':
      return [
        col('date', (v) =>
          v === null || v === undefined
            ? null
            : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)
              ? v
              : bad(field, 'date', v),
        ),
      ];
    case 'boolean':
      return [col('boolean', (v) => (v === null || v === undefined ? null : Boolean(v)))];
    case 'many2one': {
      // As in CSV: `config_id` gives `config_id` and `config_name`.
      const base = field.endsWith('_id') ? field.slice(0, -3) : field;
      const id = integer(field);
      return [
        col('integer', (v) => (Array.isArray(v) ? id(v[0] as Value) : typeof v === 'number' ? v : null)),
        col('text', (v) => (Array.isArray(v) ? text(v[1] as Value) : null), {
          name: `${base}_name`,
          nullable: true,
        }),
      ];
    }
    case 'one2many':
    case 'many2many':
      return [
        col('integer[]', (v) => {
          if (v === null || v === undefined) return [];
          if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isInteger(x)))
            return bad(field, 'list of ids', v);
          return v as number[];
        }),
      ];
    case 'json':
    case 'properties':
      return [col('json', (v) => (v === null || v === undefined ? null : (v as ColumnValue)))];
    default:
      // char, text, html, selection, reference, binary, and what we do not know.
      return [col('text', text)];
  }
}

/** The typed columns of the output fields, in their order. */
export function columnsFor(fields: string[], defs: FieldMap): Column[] {
  const columns = fields.flatMap((f) => columnsOf(f, defs[f]));
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c.name)) {
      throw new UsageError(
        say`two columns would be named ${c.name} (a many2one gives <x>_id and <x>_name)`,
        say`leave ${c.field} or ${c.name} out of --fields`,
      );
    }
    seen.add(c.name);
  }
  return columns;
}

/** A row of column values, keyed by column name, from a normalised row. */
export function columnRow(columns: Column[], row: Record<string, Value>): Record<string, ColumnValue> {
  const out: Record<string, ColumnValue> = {};
  for (const c of columns) out[c.name] = c.value(row[c.field]);
  return out;
}
