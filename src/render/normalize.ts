// Values as Odoo sends them → values as posdata shows them, by field type (fields_get):
// Odoo's `false` for an empty non-boolean field becomes null, float noise is rounded away
// at the field's precision, datetimes move to the chosen zone only when asked.
import type { FieldDef, FieldMap, OdooRecord } from '../core/types.js';
import { utcToZoneIso } from '../query/time.js';

export type Value = string | number | boolean | null | unknown[] | Record<string, unknown>;
export type Row = Record<string, Value>;

const MONEY =
  /^(amount|price_|cash_|list_price$|standard_price$|last_session_closing_cash$|total_payments_amount$|balance)/;

/** Decimal places a float field is shown with; null = only strip binary noise. */
export function precisionOf(name: string, def: FieldDef): number | null {
  if (Array.isArray(def.digits) && def.digits[1] > 0) return def.digits[1];
  if (def.type === 'monetary' || MONEY.test(name)) return 2;
  return null;
}

export function roundAt(v: number, digits: number | null): number {
  if (digits === null) return Number(v.toPrecision(12));
  const f = 10 ** digits;
  const r = Math.round((v + Math.sign(v) * Number.EPSILON * Math.abs(v)) * f) / f;
  return Object.is(r, -0) ? 0 : r;
}

export interface NormalizeOptions {
  /** Show datetimes in this zone (ISO 8601 with offset); undefined = Odoo's UTC string. */
  tz?: string;
}

export class Normalizer {
  private readonly plan: { name: string; conv: (v: unknown) => Value }[];
  /** Datetimes are moved to a zone (they are not Odoo's UTC text as it came). */
  readonly zoned: boolean;

  constructor(
    readonly fields: string[],
    defs: FieldMap,
    opts: NormalizeOptions = {},
  ) {
    this.plan = fields.map((name) => ({ name, conv: converter(name, defs[name], opts) }));
    this.zoned = Boolean(opts.tz);
  }

  /** The conversion of one output field's values. */
  converter(name: string): (v: unknown) => Value {
    const p = this.plan.find((x) => x.name === name);
    if (!p) throw new Error(`no such output field: ${name}`);
    return p.conv;
  }

  /** A new object with the output fields, in the order asked for. */
  row(rec: OdooRecord): Row {
    const out: Row = {};
    for (const p of this.plan) out[p.name] = p.conv(rec[p.name]);
    return out;
  }
}

function converter(name: string, def: FieldDef | undefined, opts: NormalizeOptions): (v: unknown) => Value {
  const type = def?.type ?? 'unknown';
  switch (type) {
    case 'boolean':
      return (v) => (v === undefined || v === null ? null : Boolean(v));
    case 'integer':
      return (v) => (typeof v === 'number' ? v : v === false || v == null ? null : (v as Value));
    case 'float':
    case 'monetary': {
      const p = precisionOf(name, def as FieldDef);
      return (v) => (typeof v === 'number' ? roundAt(v, p) : v === false || v == null ? null : (v as Value));
    }
    case 'datetime': {
      const tz = opts.tz;
      return tz
        ? (v) => (typeof v === 'string' ? utcToZoneIso(v, tz) : null)
        : (v) => (typeof v === 'string' ? v : null);
    }
    case 'many2one':
      return (v) => (Array.isArray(v) ? (v as Value) : v === false || v == null ? null : (v as Value));
    case 'one2many':
    case 'many2many':
      return (v) => (Array.isArray(v) ? (v as Value) : []);
    default:
      return (v) => (v === false || v === undefined ? null : (v as Value));
  }
}
