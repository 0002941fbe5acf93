// Values as Odoo sends them → values as posdata shows them, by field type (fields_get):
// Odoo's `false` for an empty non-boolean field becomes null, float noise is rounded away
// at the field's precision, datetimes move to the chosen zone only when asked.
import { ProtocolError } from '../core/errors.js';
import { own, type Said, say } from '../core/redact.js';
import type { FieldDef, FieldMap, OdooRecord } from '../core/types.js';
import { utcToZoneIso } from '../query/time.js';

export type Value = string | number | boolean | null | unknown[] | Record<string, unknown>;
export type Row = Record<string, Value>;

// Money by name where Odoo 16-18 type it `float` (19 makes most of them `monetary`): pos.order's
// tip_amount is Float(digits=0) on 17 (pos_restaurant), monetary on 19.
const MONEY =
  /^(amount|price_|cash_|list_price$|standard_price$|last_session_closing_cash$|total_payments_amount$|tip_amount$|balance)/;

/** A money field's definition with the decimals of the company's currency (inCurrency). */
type MoneyDef = FieldDef & { currencyDigits?: number };

/** Decimals of money where the company's currency is not known: most currencies' (EUR, USD). */
export const DEFAULT_MONEY_DIGITS = 2;

/**
 * Decimal places a float field is shown with; null = only strip binary noise. A field with
 * digits of its own (Odoo's decimal precision, e.g. Product Price) keeps them; money without
 * (Odoo 16-19 send `digits: 0` for pos.order's amounts, none for monetary fields) has the
 * decimals of the company's currency (res.currency `decimal_places`): 3 for KWD, 0 for JPY.
 */
export function precisionOf(name: string, def: FieldDef): number | null {
  if (Array.isArray(def.digits) && def.digits[1] > 0) return def.digits[1];
  if (isMoney(name, def)) return (def as MoneyDef).currencyDigits ?? DEFAULT_MONEY_DIGITS;
  return null;
}

/**
 * The decimals an amount is written with in CSV (a spreadsheet's money column: 1458.80, JPY
 * 1458, KWD 3 places): those of precisionOf for money fields, null for any other field.
 */
export function moneyPlaces(name: string, def: FieldDef | undefined): number | null {
  if (def === undefined || (def.type !== 'float' && def.type !== 'monetary') || !isMoney(name, def))
    return null;
  return precisionOf(name, def);
}

/** Money at its currency's decimals (no decimals of its own): a KWD amount has three, JPY none. */
export function atCurrencyDecimals(name: string, def: FieldDef | undefined): boolean {
  return (
    def !== undefined &&
    (def.type === 'float' || def.type === 'monetary') &&
    !(Array.isArray(def.digits) && def.digits[1] > 0) &&
    isMoney(name, def)
  );
}

function isMoney(name: string, def: FieldDef): boolean {
  return def.type === 'monetary' || MONEY.test(name);
}

/** The definitions with the currency's decimals on each money field that has none of its own. */
export function inCurrency(defs: FieldMap, digits: number): FieldMap {
  const out: FieldMap = {};
  for (const [name, def] of Object.entries(defs))
    out[name] = atCurrencyDecimals(name, def) ? ({ ...def, currencyDigits: digits } as MoneyDef) : def;
  return out;
}

/** Whether any of these output fields is money shown at the currency's decimals. */
export function showsMoney(fields: string[], defs: FieldMap): boolean {
  return fields.some((f) => atCurrencyDecimals(f, defs[f]));
}

const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * Amounts of `digits` decimals are carried to the last decimal below this bound, and only
 * there: JSON's numbers are doubles, and every amount n·10^-digits below it has a double of
 * its own that prints back as that amount (the doubles there lie closer together than
 * 10^-digits). Beyond it two amounts a cent apart can be one double, and the decimal that
 * JSON, CSV, Parquet and PostgreSQL would each make of it may differ. For 2 decimals the
 * spacing of doubles reaches 2^-6 > 0.01 at 2^46 = 70,368,744,177,664 (not 2^53/100:
 * below that the spacing is 2^-7 < 0.01); DECIMAL(18, 2) would hold more (10^16).
 */
export function amountBound(digits: number): number {
  let bits = 0;
  while (2 ** bits < 10 ** digits) bits++;
  return 2 ** (53 - bits);
}

/**
 * Refuses (exit 6) a page whose amounts a double cannot carry to their decimals: an amount
 * of `fields` (those shown with a fixed number of decimals) at or beyond amountBound, or
 * not a finite number. Naming the field and the record, so it can be corrected in Odoo.
 */
export function amountCheck(
  model: string,
  fields: string[],
  defs: FieldMap,
  hint: Said = LEAVE_OUT,
): (records: OdooRecord[]) => void {
  const checks: { field: string; digits: number; bound: number }[] = [];
  for (const field of fields) {
    const def = defs[field];
    if (def?.type !== 'float' && def?.type !== 'monetary') continue;
    const digits = precisionOf(field, def);
    if (digits !== null) checks.push({ field, digits, bound: amountBound(digits) });
  }
  return (records) => {
    for (const c of checks) {
      const { field, bound } = c;
      for (let i = 0; i < records.length; i++) {
        const r = records[i] as OdooRecord;
        const v = r[field];
        if (typeof v === 'number' && !(v < bound && v > -bound))
          throw amountError(model, r.id, field, v, c.digits, hint);
      }
    }
  };
}

const LEAVE_OUT = say`correct the record in Odoo, or leave the field out with --fields`;

export function amountError(
  model: string,
  id: number,
  field: string,
  v: number,
  digits: number,
  hint: Said = LEAVE_OUT,
): ProtocolError {
  const bound = amountBound(digits);
  return new ProtocolError(
    say`the server sent ${v} for ${field} of ${model} ${id}: an amount of ${own(String(digits))} decimals is carried exactly only below ${own(bound.toLocaleString('en-US'))} (2^${own(String(Math.log2(bound)))})`,
    hint,
  );
}

/**
 * The integer n with n / 10^digits === v, for v at `digits` decimals below amountBound:
 * v·10^digits in floating point can land a unit off (43069124697332.27 × 100 gives
 * …228), which the neighbours put right.
 */
export function unscaled(v: number, digits: number): number {
  const f = POW10[digits] ?? 10 ** digits;
  const n = Math.round(v * f);
  if (n / f === v) return n;
  if ((n - 1) / f === v) return n - 1;
  if ((n + 1) / f === v) return n + 1;
  return n;
}

/**
 * `v` at `digits` decimals, half away from zero on its shortest decimal text (what
 * `String(v)` prints): 2.675 → 2.68 and -2.675 → -2.68, as a person reads the amount, so a
 * refund mirrors its sale. An amount that already has at most `digits` decimals is returned
 * as it is, at any size (adding a multiple of the value, as before, gained a cent past
 * 2.25e13). `digits` null: only binary noise is stripped (12 significant digits).
 */
export function roundAt(v: number, digits: number | null): number {
  if (digits === null) return Number(v.toPrecision(12));
  const f = POW10[digits] ?? 10 ** digits;
  const x = v * f;
  // The common case, cheap: n / f is the double nearest n·10^-digits, so v has at most
  // `digits` decimals exactly when it equals it.
  if (Math.round(x) / f === v) return v === 0 ? 0 : v;
  // Binary noise: the result is the double nearest N·10^-digits, as the text's would be.
  const n = noiseWhole(x);
  if (!Number.isNaN(n)) {
    const r = n / f;
    return r === 0 ? 0 : r;
  }
  return roundText(v, digits);
}

/**
 * The whole number N of 10^-digits that x = v·10^digits stands for where v carries binary
 * noise (12.580000000000002, a third of Odoo's amounts): x is far from a half compared with how
 * far the decimal text can be from v (2 ulp of x), so the text rounds where |x| does. NaN where
 * it is not so (near a half, too large, not finite): the decimal text decides (roundText).
 */
function noiseWhole(x: number): number {
  const a = x < 0 ? -x : x;
  if (!(a < 2 ** 52)) return Number.NaN;
  const half = a - Math.floor(a) - 0.5;
  if (!(half > a * 1e-15 || -half > a * 1e-15)) return Number.NaN;
  return (half > 0 ? Math.ceil(a) : Math.floor(a)) * (x < 0 ? -1 : 1);
}

/** The slow path of roundAt: the decimal text, rounded by its digits. */
function roundText(v: number, digits: number): number {
  if (!Number.isFinite(v)) return v;
  let text = String(v < 0 ? -v : v);
  const e = text.indexOf('e');
  if (e >= 0) {
    const exp = Number(text.slice(e + 1));
    if (exp > 0) return v; // 1e21 and up: whole numbers
    // 1.5e-7 → 0.00000015
    const mant = text.slice(0, e).replace('.', '');
    text = `0.${'0'.repeat(-exp - 1)}${mant}`;
  }
  const point = text.indexOf('.');
  if (point < 0 || text.length - point - 1 <= digits) return v;
  const kept = text.slice(0, point) + text.slice(point + 1, point + 1 + digits);
  const up = (text.charCodeAt(point + 1 + digits) as number) >= 53; // '5'
  const whole = up ? incremented(kept) : kept;
  const at = whole.length - digits;
  const r = Number(digits > 0 ? `${whole.slice(0, at)}.${whole.slice(at)}` : whole);
  return r === 0 ? 0 : v < 0 ? -r : r;
}

/**
 * A rounded amount with exactly `digits` decimals, for tables: its shortest text padded
 * with zeros, so that a table shows the very number json and csv carry (toFixed reads the
 * binary value, which near 2^53/100 is a cent off the decimal one).
 */
export function fixedDecimals(v: number, digits: number): string {
  // The common amount, cheap: it has at most `digits` decimals and as a whole number of
  // hundredths (thousandths...) it is a small integer, whose text V8 writes far faster than a
  // double's shortest text; the point goes in by hand (an export's every amount comes here).
  const f = POW10[digits];
  if (f !== undefined) {
    const n = Math.round(v * f);
    if (n / f === v && n <= 0x7fffffff && n >= -0x7fffffff) return withPoint(n, digits);
  }
  const r = roundAt(v, digits);
  const s = String(r);
  if (s.includes('e')) return r.toFixed(digits);
  const point = s.indexOf('.');
  const have = point < 0 ? 0 : s.length - point - 1;
  if (digits === 0) return s;
  return `${s}${point < 0 ? '.' : ''}${'0'.repeat(digits - have)}`;
}

/**
 * fixedDecimals(roundAt(v, digits), digits), the common amount's whole number of 10^-digits
 * found once instead of by each of them in turn (an export's every amount comes here).
 */
export function roundedFixed(v: number, digits: number): string {
  const f = POW10[digits];
  if (f !== undefined) {
    const x = v * f;
    let n = Math.round(x);
    // roundAt's binary noise, rounded as it rounds it (any other value: NaN, the long way).
    if (n / f !== v) n = noiseWhole(x);
    if (n <= 0x7fffffff && n >= -0x7fffffff) return withPoint(n, digits);
  }
  return fixedDecimals(roundAt(v, digits), digits);
}

/**
 * '.0'-'.9', '.00'-'.99', '.000'-'.999': the decimals of an amount as one string each, so that
 * its text is its whole part's and one of these (a string for the number's digits, two slices
 * and a template was ~90 bytes of garbage and ~150 ns an amount; three amounts a sale).
 */
const DECIMALS = [1, 2, 3].map((d) =>
  Array.from({ length: 10 ** d }, (_, i) => `.${String(i).padStart(d, '0')}`),
);

/** The whole number `n` of 10^-digits as a decimal text: (1250, 2) → '12.50', (-5, 2) → '-0.05'. */
function withPoint(n: number, digits: number): string {
  if (digits === 0) return String(n);
  const tails = DECIMALS[digits - 1];
  if (tails) {
    const f = POW10[digits] as number;
    const a = n < 0 ? -n : n;
    const whole = Math.floor(a / f);
    const s = `${whole}${tails[a - whole * f]}`;
    return n < 0 ? `-${s}` : s;
  }
  const neg = n < 0;
  let s = String(neg ? -n : n);
  if (s.length <= digits) s = '0'.repeat(digits - s.length + 1) + s;
  const at = s.length - digits;
  return `${neg ? '-' : ''}${s.slice(0, at)}.${s.slice(at)}`;
}

/** An amount at `digits` decimals (the currency's) with its sign, + when over (a cash difference). */
export function signed(v: number, digits = DEFAULT_MONEY_DIGITS): string {
  return v > 0 ? `+${fixedDecimals(v, digits)}` : fixedDecimals(v, digits);
}

/** A string of decimal digits plus one: '1299' → '1300', '99' → '100'. */
function incremented(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i--;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return (
    digits.slice(0, i) +
    String.fromCharCode((digits.charCodeAt(i) as number) + 1) +
    '0'.repeat(digits.length - 1 - i)
  );
}

/**
 * A value of a field's type that Odoo would never send (a datetime that is no time, an amount
 * as a string): the reply is not Odoo's, and no format writes it (exit 6), as Parquet's
 * typed columns never could; json, csv and tables would pass it on as if it were data.
 */
export function notA(field: string, kind: string, v: unknown): never {
  throw new ProtocolError(
    say`the server sent ${JSON.stringify(v)?.slice(0, 40)} for ${field}, which is not a ${own(kind)}`,
    say`report this with --debug output`,
  );
}

/** Odoo's datetime text: UTC, `YYYY-MM-DD HH:MM:SS`, a moment that exists. */
const ODOO_DATETIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
const ODOO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Whether `s` (starting YYYY-MM-DD, its fields in range) is a day of the calendar (not 02-30). */
function onCalendar(s: string): boolean {
  const day = (s.charCodeAt(8) - 48) * 10 + (s.charCodeAt(9) - 48);
  if (day <= 28) return true;
  const y = Number(s.slice(0, 4));
  const m = Number(s.slice(5, 7));
  return new Date(Date.UTC(y, m, 0)).getUTCDate() >= day;
}

/** Whether `v` is Odoo's date text, a day that exists. */
export function odooDate(v: unknown): v is string {
  return typeof v === 'string' && ODOO_DATE.test(v) && onCalendar(v);
}

/** Whether `v` is Odoo's UTC datetime text. */
export function odooDatetime(v: unknown): v is string {
  return typeof v === 'string' && ODOO_DATETIME.test(v) && onCalendar(v);
}

export interface NormalizeOptions {
  /** Show datetimes in this zone (ISO 8601 with offset); undefined = Odoo's UTC string. */
  tz?: string;
}

/** What a field's values are to a writer that turns their common shape into text itself. */
export interface FieldShape {
  /** Odoo's type of the field, as the converter reads it ('unknown' where none is known). */
  type: string;
  /** Decimals a float or monetary value is rounded to (precisionOf); null for other types. */
  digits: number | null;
  /** A many2one whose name holds a code that spends money (a gift card's): written masked. */
  masked?: boolean;
}

export class Normalizer {
  private readonly plan: { name: string; conv: (v: unknown) => Value; shape: FieldShape }[];
  /** The zone datetimes are moved to (--tz), where they are not Odoo's UTC text as it came. */
  readonly zone: string | undefined;

  constructor(
    readonly fields: string[],
    defs: FieldMap,
    opts: NormalizeOptions = {},
  ) {
    this.plan = fields.map((name) => {
      const shape = shapeOf(name, defs[name]);
      return { name, conv: converter(name, shape, opts), shape };
    });
    this.zone = opts.tz || undefined;
  }

  /** The conversion of one output field's values. */
  converter(name: string): (v: unknown) => Value {
    const p = this.plan.find((x) => x.name === name);
    if (!p) throw new Error(`no such output field: ${name}`);
    return p.conv;
  }

  /**
   * The type and decimals behind one output field's converter, for a writer that handles the
   * common values itself (formats.ts's RecordLines) and leaves any other to converter().
   */
  shape(name: string): FieldShape {
    const p = this.plan.find((x) => x.name === name);
    if (!p) throw new Error(`no such output field: ${name}`);
    return p.shape;
  }

  /** A new object with the output fields, in the order asked for. */
  row(rec: OdooRecord): Row {
    const out: Row = {};
    for (const p of this.plan) out[p.name] = p.conv(rec[p.name]);
    return out;
  }
}

function shapeOf(name: string, def: FieldDef | undefined): FieldShape {
  const type = def?.type ?? 'unknown';
  return {
    type,
    digits: type === 'float' || type === 'monetary' ? precisionOf(name, def as FieldDef) : null,
    ...(type === 'many2one' && def?.relation !== undefined && MASKED_RELATIONS.has(def.relation)
      ? { masked: true }
      : {}),
  };
}

/**
 * The models whose display name carries a bearer code: a loyalty card's is "<programme>: <code>"
 * (pos_loyalty), and a gift card's code is what spends its money at the register. A line's
 * coupon_id would write it in clear into every export, sync table and tap stream.
 */
const MASKED_RELATIONS = new Set(['loyalty.card']);

/** Every run of six or more letters and digits with a digit in it, all but its last four as '*'. */
export function maskCodes(text: string): string {
  return text.replace(/[A-Za-z0-9-]{6,}/g, (m) =>
    /\d/.test(m) ? `${'*'.repeat(m.length - 4)}${m.slice(-4)}` : m,
  );
}

function converter(name: string, shape: FieldShape, opts: NormalizeOptions): (v: unknown) => Value {
  switch (shape.type) {
    case 'boolean':
      return (v) => (v === undefined || v === null ? null : Boolean(v));
    case 'integer':
      return (v) =>
        Number.isInteger(v) ? (v as number) : v === false || v == null ? null : notA(name, 'whole number', v);
    case 'float':
    case 'monetary': {
      const p = shape.digits;
      return (v) =>
        typeof v === 'number' && Number.isFinite(v)
          ? roundAt(v, p)
          : v === false || v == null
            ? null
            : notA(name, 'number', v);
    }
    case 'datetime': {
      const tz = opts.tz;
      const checked = (v: unknown): v is string =>
        odooDatetime(v) || (v !== false && v != null && notA(name, 'datetime', v));
      return tz ? (v) => (checked(v) ? utcToZoneIso(v, tz) : null) : (v) => (checked(v) ? v : null);
    }
    case 'date':
      return (v) => (odooDate(v) ? v : v === false || v == null ? null : notA(name, 'date', v));
    case 'many2one':
      if (shape.masked)
        return (v) =>
          Array.isArray(v)
            ? [v[0] as number, maskCodes(String(v[1] ?? ''))]
            : v === false || v == null
              ? null
              : (v as Value);
      return (v) => (Array.isArray(v) ? (v as Value) : v === false || v == null ? null : (v as Value));
    case 'one2many':
    case 'many2many':
      return (v) =>
        Array.isArray(v) ? (v as Value) : v === false || v == null ? [] : notA(name, 'list of ids', v);
    default:
      return (v) => (v === false || v === undefined ? null : (v as Value));
  }
}
