// A stream's JSON Schema and its records, from the typed columns of the sync resources
// (records/columns.ts, as PostgreSQL and Parquet have them): what Singer loaders were seen
// to need. Every column but `id` may be empty, so its type is ["null", type] and an empty
// Odoo value is null (never Odoo's `false`); integers carry a minimum and a maximum (the
// JSON-safe range, past 2^31 so that loaders make bigint); amounts are numbers already
// rounded to their decimals, with no `multipleOf` (loaders' float checks refuse 0.1 + 0.2);
// date-times are RFC 3339, UTC, whole seconds (`2026-11-25T10:15:00Z`).
import { defaultSyncFields, type SyncResource } from '../catalog/resources.js';
import type { FieldMap, OdooRecord } from '../core/types.js';
import { type Column, type ColumnKind, columnsFor } from '../records/columns.js';
import { Normalizer, type Value } from '../records/normalize.js';

export type JsonSchema = Record<string, unknown>;

const INTEGER = {
  type: 'integer',
  minimum: -Number.MAX_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
};

function typeOf(kind: ColumnKind): JsonSchema {
  switch (kind) {
    case 'integer':
      return INTEGER;
    case 'decimal':
    case 'float':
      return { type: 'number' };
    case 'timestamp':
      return { type: 'string', format: 'date-time' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'boolean':
      return { type: 'boolean' };
    case 'integer[]':
      return { type: 'array', items: INTEGER };
    case 'json':
      return { type: 'object' };
    default:
      return { type: 'string' };
  }
}

/** A column's property: its type, with null where the column may be empty. */
export function propertyOf(c: Column): JsonSchema {
  const t = typeOf(c.kind);
  return c.nullable ? { ...t, type: ['null', t.type] } : t;
}

const ODOO_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Odoo's UTC text (`YYYY-MM-DD HH:MM:SS`) as RFC 3339: `YYYY-MM-DDTHH:MM:SSZ`. */
export function rfc3339(odoo: string): string {
  return `${odoo.slice(0, 10)}T${odoo.slice(11, 19)}Z`;
}

/** RFC 3339 (as rfc3339 writes it) back to Odoo's UTC text, or undefined when it is not one. */
export function fromRfc3339(s: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})Z$/.exec(s);
  return m ? `${m[1]} ${m[2]}` : undefined;
}

/**
 * A column's value from Odoo's raw one: the common shapes directly (an id, a [id, name]
 * pair, a string, Odoo's UTC text), anything else by the general path (normalised, then
 * the column's value), which also refuses what does not fit.
 */
function fastPath(
  c: Column,
  type: string | undefined,
  general: (raw: unknown) => unknown,
): (raw: unknown) => unknown {
  if (type === 'many2one') {
    return c.kind === 'integer'
      ? (raw) => (Array.isArray(raw) && Number.isInteger(raw[0]) ? raw[0] : general(raw))
      : (raw) => (Array.isArray(raw) && typeof raw[1] === 'string' ? raw[1] : general(raw));
  }
  switch (c.kind) {
    case 'integer':
      return (raw) => (Number.isInteger(raw) ? raw : general(raw));
    case 'text':
      return type === 'char' || type === 'selection' || type === 'text'
        ? (raw) => (typeof raw === 'string' ? raw : general(raw))
        : general;
    case 'timestamp':
      return (raw) => {
        if (typeof raw === 'string' && ODOO_TIME.test(raw)) return rfc3339(raw);
        const d = general(raw);
        return d instanceof Date ? rfc3339(d.toISOString().replace('T', ' ')) : d;
      };
    default:
      return general;
  }
}

/** A stream's columns: `id` first, then each field's (a many2one gives `x_id` and `x_name`). */
export function streamColumns(fields: string[], defs: FieldMap): Column[] {
  const all: FieldMap = { ...defs, id: defs.id ?? { type: 'integer' } };
  return columnsFor(['id', ...fields.filter((f) => f !== 'id')], all);
}

/**
 * A stream's fields: the sync's, with `write_date` (the replication key) and the company
 * (`company_id`, every POS model has one) even where the sync leaves it out: a chain's
 * records are told apart by company in every database, one company or several, so that a
 * pipeline's schema does not change when a second company is added.
 */
export function tapFields(r: SyncResource, defs: FieldMap): string[] {
  const fields = defaultSyncFields(r, defs);
  if ('company_id' in defs && !fields.includes('company_id')) fields.push('company_id');
  if (!fields.includes('write_date')) fields.push('write_date');
  return fields;
}

/** Columns whose value is derived from their field rather than the field's own (no fast path). */
const DERIVED = new WeakSet<Column>();

/**
 * A stream's columns: streamColumns, and where the stream has money and a company, `currency`:
 * the company's currency code (EUR), the currency its amounts are in (Odoo keeps each record
 * in its company's currency), from the companies read once per run. Null where the record has
 * no company (a product shared by every company) or the code is not known.
 */
export function tapColumns(fields: string[], defs: FieldMap, currencyOf?: Map<number, string>): Column[] {
  const columns = streamColumns(fields, defs);
  if (!fields.includes('company_id') || !columns.some((c) => c.kind === 'decimal')) return columns;
  const currency: Column = {
    name: 'currency',
    field: 'company_id',
    kind: 'text',
    nullable: true,
    value: (v) => (Array.isArray(v) && typeof v[0] === 'number' ? (currencyOf?.get(v[0]) ?? null) : null),
  };
  DERIVED.add(currency);
  return [...columns, currency];
}

/** The SCHEMA message's schema of these columns. */
export function streamSchema(columns: Column[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const c of columns) properties[c.name] = propertyOf(c);
  return { type: 'object', additionalProperties: false, required: ['id'], properties };
}

/**
 * Odoo's records as RECORD values: normalised as every output is (empty as null, amounts
 * rounded), then each column's value as its schema says.
 */
export class RecordMaker {
  /** Per column: its name, the raw field it reads, and its value from the raw one. */
  private readonly cells: { key: string; field: string; value: (raw: unknown) => unknown }[];

  constructor(
    readonly columns: Column[],
    defs: FieldMap,
  ) {
    const fields = [...new Set(columns.map((c) => c.field))];
    const normalizer = new Normalizer(fields, { ...defs, id: defs.id ?? { type: 'integer' } });
    this.cells = columns.map((c, i) => {
      const norm = normalizer.converter(c.field);
      const general = (raw: unknown) => c.value(norm(raw) as Value);
      // `{"id":` first, `,"name":` after.
      const key = `${i === 0 ? '{' : ','}${JSON.stringify(c.name)}:`;
      // A masked name (normalize.ts: a card's code) takes the general path, which masks it.
      const value =
        DERIVED.has(c) || normalizer.shape(c.field).masked
          ? general
          : fastPath(c, defs[c.field]?.type, general);
      return { key, field: c.field, value };
    });
  }

  /**
   * The record's JSON, written as JSON.stringify would write the object of its columns (the
   * same keys in the same order, the same text for each value), without making the object.
   */
  json(rec: OdooRecord): string {
    let s = '';
    for (let i = 0; i < this.cells.length; i++) {
      const c = this.cells[i] as (typeof this.cells)[number];
      const v = c.value(rec[c.field]);
      s += c.key;
      if (v === null || v === undefined) s += 'null';
      else if (typeof v === 'number') s += Number.isFinite(v) ? String(v) : 'null';
      else if (typeof v === 'boolean') s += v ? 'true' : 'false';
      else s += JSON.stringify(v);
    }
    return this.cells.length === 0 ? '{}' : `${s}}`;
  }
}
