// What posdata should print, computed from direct RPC to the same Odoo (test/helpers/rpc.ts):
// the contract's resources (../shared/design/cli-contract.md: model, fixed filter, default
// fields) read with search_read, then shaped by the contract's rules, written here a second
// time and independently of src/: Odoo's false → null (not for booleans), relations
// [id, name], amounts at the currency's decimals, datetimes in UTC or in a zone; for CSV and
// Parquet a relation `x_id` as `x_id` + `x_name` and id lists joined. Nothing here knows the
// bundled data: every expectation is read from the server, so the stage holds on any Odoo
// that POSDATA_TEST_ODOO_URL names.
import { DuckDBInstance } from '@duckdb/node-api';
import { parse } from 'csv-parse/sync';
import { DateTime } from 'luxon';
import { expect } from 'vitest';
import { type CliResult, runCli } from '../helpers/cli.js';
import type { Rpc } from '../helpers/rpc.js';

export type Obj = Record<string, unknown>;
type Domain = unknown[];
type FieldDef = { type: string; digits?: unknown; store?: boolean; relation?: string };
export type Fields = Record<string, FieldDef>;

export interface Spec {
  name: string;
  model: string;
  /** The contract's fixed filter; refunds depend on whether the server stores is_refund (19). */
  domain(fields: Fields): Domain;
  fields: string[];
  /** What --from/--to, --config-id and --session-id filter on, per the contract. */
  time?: string;
  config?: string;
  session?: string;
  /** The amount the table's closing line adds up. */
  sum?: string;
}

const ORDER_FIELDS = ['id', 'name', 'date_order', 'amount_total'];
/** Order states that count as sold (as posdata summary counts them), and the footer's words for the others. */
const COUNTED = ['paid', 'done', 'invoiced'];
const STATE_OF: Record<string, string> = { cancelled: 'cancel', draft: 'draft' };

export const SPECS: Spec[] = [
  {
    name: 'configs',
    model: 'pos.config',
    domain: () => [],
    fields: [
      'id',
      'name',
      'current_session_id',
      'current_session_state',
      'last_session_closing_date',
      'last_session_closing_cash',
      'payment_method_ids',
    ],
  },
  {
    name: 'sales',
    model: 'pos.order',
    domain: () => [],
    fields: [...ORDER_FIELDS, 'amount_paid', 'amount_tax', 'state', 'config_id', 'session_id', 'payment_ids'],
    time: 'date_order',
    config: 'config_id',
    session: 'session_id',
    sum: 'amount_total',
  },
  {
    name: 'refunds',
    model: 'pos.order',
    domain: (f) =>
      f.is_refund?.store ? [['is_refund', '=', true]] : [['lines.refunded_orderline_id', '!=', false]],
    fields: [...ORDER_FIELDS, 'refunded_order_id', 'config_id', 'payment_ids'],
    time: 'date_order',
    config: 'config_id',
    session: 'session_id',
    sum: 'amount_total',
  },
  {
    name: 'cancellations',
    model: 'pos.order',
    domain: () => [['state', 'in', ['cancel']]],
    fields: [...ORDER_FIELDS, 'state', 'config_id'],
    time: 'date_order',
    config: 'config_id',
    session: 'session_id',
    sum: 'amount_total',
  },
  {
    name: 'closures',
    model: 'pos.session',
    domain: () => [['state', '=', 'closed']],
    fields: [
      'id',
      'name',
      'config_id',
      'start_at',
      'stop_at',
      'cash_register_balance_end_real',
      'total_payments_amount',
      'state',
    ],
    time: 'stop_at',
    config: 'config_id',
  },
  {
    name: 'payments',
    model: 'pos.payment',
    domain: () => [],
    fields: ['id', 'amount', 'payment_method_id', 'payment_date', 'pos_order_id', 'session_id'],
    time: 'payment_date',
    config: 'session_id.config_id',
    session: 'session_id',
    sum: 'amount',
  },
  {
    name: 'products',
    model: 'product.template',
    domain: () => [],
    fields: ['id', 'name', 'list_price'],
  },
];

export const LINES: Spec = {
  name: 'lines',
  model: 'pos.order.line',
  domain: () => [],
  fields: [
    'id',
    'order_id',
    'product_id',
    'full_product_name',
    'qty',
    'price_unit',
    'discount',
    'price_subtotal',
    'price_subtotal_incl',
  ],
  sum: 'price_subtotal_incl',
};

export function spec(name: string): Spec {
  const s = name === 'lines' ? LINES : SPECS.find((x) => x.name === name);
  if (!s) throw new Error(`no spec ${name}`);
  return s;
}

/** Money: monetary fields and the float amounts the contract names (totals, prices, cash, balances). */
function isAmount(name: string, def: FieldDef): boolean {
  return def.type === 'monetary' || (def.type === 'float' && /amount|price|total|cash|balance/.test(name));
}

const round = (v: number, d: number): number => {
  const r = Math.round(v * 10 ** d) / 10 ** d;
  return r === 0 ? 0 : r;
};

/** The UTC instant of Odoo's `YYYY-MM-DD HH:MM:SS`. */
export function utc(s: string): DateTime {
  return DateTime.fromSQL(s, { zone: 'UTC' });
}

/** Luxon's instant as Odoo writes it in a domain (UTC). */
export function odooTime(t: DateTime): string {
  return t.toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
}

/** Direct RPC as one user, and the contract's shape of what it reads. */
export class Reference {
  /** The currency's decimals (the user's company), the user's zone (res.users tz). */
  decimals = 2;
  tz = 'UTC';
  private readonly defs = new Map<string, Promise<Fields>>();

  private constructor(readonly rpc: Rpc) {}

  static async open(rpc: Rpc): Promise<Reference> {
    const ref = new Reference(rpc);
    const [user] = (await rpc.kw<Obj[]>('res.users', 'read', [[rpc.uid], ['tz', 'company_id']])) as [Obj];
    ref.tz = (user.tz as string) || 'UTC';
    const company = (user.company_id as [number])[0];
    const [c] = (await rpc.kw<Obj[]>('res.company', 'read', [[company], ['currency_id']])) as [Obj];
    const currency = (c.currency_id as [number])[0];
    const [cur] = (await rpc.kw<Obj[]>('res.currency', 'read', [[currency], ['decimal_places']])) as [Obj];
    ref.decimals = cur.decimal_places as number;
    return ref;
  }

  fields(model: string): Promise<Fields> {
    let f = this.defs.get(model);
    if (!f) {
      f = this.rpc.kw<Fields>(model, 'fields_get', [], {
        attributes: ['type', 'digits', 'store', 'relation'],
      });
      this.defs.set(model, f);
    }
    return f;
  }

  async domain(s: Spec, extra: Domain = []): Promise<Domain> {
    return [...s.domain(await this.fields(s.model)), ...extra];
  }

  /** The records posdata should give for `s` with `extra` ANDed, in the contract's JSON shape, by id. */
  async rows(s: Spec, extra: Domain = [], opts: { tz?: string; context?: Obj } = {}): Promise<Obj[]> {
    const defs = await this.fields(s.model);
    const virtual = s.fields.filter((f) => !(f in defs));
    const read = s.fields.filter((f) => f in defs);
    const recs = await this.rpc.searchRead(s.model, await this.domain(s, extra), {
      fields: read,
      order: 'id',
      ...(opts.context ? { context: opts.context } : {}),
    });
    if (virtual.includes('refunded_order_id')) await this.fillRefunded(recs);
    const all: Fields = { ...defs, refunded_order_id: { type: 'many2one', relation: 'pos.order' } };
    return recs.map((r) =>
      Object.fromEntries(s.fields.map((f) => [f, this.value(f, all[f] as FieldDef, r[f], opts.tz)])),
    );
  }

  /**
   * Odoo 16/17 keep a refund's origin on its lines only: refunded_orderline_id, whose order is
   * the refunded one. [id, name] of the first refunded line's order (posdata's rule).
   */
  private async fillRefunded(recs: Obj[]): Promise<void> {
    const ids = recs.map((r) => r.id as number);
    const lines = await this.rpc.searchRead(
      'pos.order.line',
      [
        ['order_id', 'in', ids],
        ['refunded_orderline_id', '!=', false],
      ],
      { fields: ['order_id', 'refunded_orderline_id'], order: 'id' },
    );
    const originLines = [...new Set(lines.map((l) => (l.refunded_orderline_id as [number])[0]))];
    const origins = await this.rpc.kw<Obj[]>('pos.order.line', 'read', [originLines, ['order_id']]);
    const orderOf = new Map(origins.map((o) => [o.id as number, o.order_id]));
    for (const r of recs) {
      const first = lines.find((l) => (l.order_id as [number])[0] === r.id);
      r.refunded_order_id = first ? orderOf.get((first.refunded_orderline_id as [number])[0]) : false;
    }
  }

  /** One value in the contract's JSON shape. */
  value(name: string, def: FieldDef, v: unknown, tz?: string): unknown {
    switch (def.type) {
      case 'boolean':
        return v;
      case 'float':
      case 'monetary': {
        if (typeof v !== 'number') return null;
        if (isAmount(name, def)) return round(v, this.decimals);
        if (Array.isArray(def.digits)) return round(v, def.digits[1] as number);
        return Number(v.toPrecision(12));
      }
      case 'datetime':
        return typeof v === 'string'
          ? tz
            ? utc(v).setZone(tz).toISO({ suppressMilliseconds: true })
            : v
          : null;
      case 'one2many':
      case 'many2many':
        return Array.isArray(v) ? v : [];
      default:
        return v === false || v === undefined ? null : v;
    }
  }

  /** Every id of `model` in `domain`, by search (a second way than search_read). */
  async count(s: Spec, extra: Domain = []): Promise<number> {
    return this.rpc.count(s.model, await this.domain(s, extra));
  }
}

/** The CSV / Parquet column of a relation's name: `config_id` → `config_name`. */
export const nameColumn = (k: string): string => `${k.endsWith('_id') ? k.slice(0, -3) : k}_name`;

/** A JSON row as CSV and Parquet columns: [id, name] → x_id, x_name. */
export function flat(row: Obj, fields: Fields): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(row)) {
    const type = k === 'refunded_order_id' ? 'many2one' : fields[k]?.type;
    if (type === 'many2one') {
      const pair = v as [number, string] | null;
      out[k] = pair?.[0] ?? null;
      out[nameColumn(k)] = pair?.[1] ?? null;
    } else out[k] = v;
  }
  return out;
}

/** posdata's JSON output equals the reference rows (in id order; posdata's default order is kept aside). */
export function expectJson(got: Obj[], expected: Obj[], what: string): void {
  const byId = [...got].sort((a, b) => (a.id as number) - (b.id as number));
  expect(new Set(got.map((r) => r.id)).size, `${what}: ids unique`).toBe(got.length);
  expect(byId.length, `${what}: count`).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i] as Obj;
    const g = byId[i] as Obj;
    expect(Object.keys(g), `${what}: keys of id ${e.id}`).toEqual(Object.keys(e));
    expect(g, `${what}: id ${e.id}`).toEqual(e);
  }
}

/** CSV per the contract: header = flat columns, cells = text of the flat values. */
export function expectCsv(text: string, expected: Obj[], fields: Fields, what: string): void {
  const rows = parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const flats = expected.map((r) => flat(r, fields));
  expect(rows.length, `${what}: csv rows`).toBe(flats.length);
  const sorted = [...rows].sort((a, b) => Number(a.id) - Number(b.id));
  if (flats[0]) expect(Object.keys(rows[0] as object), `${what}: csv header`).toEqual(Object.keys(flats[0]));
  for (let i = 0; i < flats.length; i++) {
    const e = flats[i] as Obj;
    const g = sorted[i] as Record<string, string>;
    for (const [k, v] of Object.entries(e)) {
      const where = `${what}: csv id ${e.id} ${k}`;
      if (v === null) expect(g[k], where).toBe('');
      else if (Array.isArray(v)) expect(g[k], where).toBe(v.join(';'));
      else if (typeof v === 'number') {
        expect(g[k], where).toMatch(/^-?\d+(\.\d+)?$/);
        expect(Number(g[k]), where).toBe(v);
      } else expect(g[k], where).toBe(String(v));
    }
  }
}

/**
 * The table's closing line: `N things[, total X]`, or for orders `N sales: C counted, total X;
 * n cancelled (x), … not counted` (the total is of the states summary counts), and the ids of
 * its rows.
 */
export function expectTable(text: string, expected: Obj[], sum: string | undefined, what: string): void {
  const lines = text.trimEnd().split('\n');
  const last = lines[lines.length - 1] as string;
  const m =
    /^(\d+) [a-z]+(?:, total (-?\d+\.\d\d)|: (\d+) counted, total (-?\d+\.\d\d); (.*) not counted)?$/.exec(
      last,
    );
  expect(m, `${what}: table closing line '${last}'`).not.toBeNull();
  expect(Number(m?.[1]), `${what}: table count`).toBe(expected.length);
  const cents = (rows: Obj[]) =>
    ((sum ? rows.reduce((a, r) => a + Math.round((r[sum] as number) * 100), 0) : 0) / 100).toFixed(2);
  if (sum && expected.length > 0 && m?.[3] === undefined) {
    expect(m?.[2], `${what}: table total`).toBe(cents(expected));
  } else if (sum && m?.[3] !== undefined) {
    // Orders: the total is of the sold states, the others are named with their own sums.
    const counted = expected.filter((r) => COUNTED.includes(String(r.state)));
    expect(Number(m[3]), `${what}: counted orders`).toBe(counted.length);
    expect(m[4], `${what}: counted total`).toBe(cents(counted));
    const others = new Map<string, Obj[]>();
    for (const r of expected) {
      if (COUNTED.includes(String(r.state))) continue;
      others.set(String(r.state), [...(others.get(String(r.state)) ?? []), r]);
    }
    const named = (m[5] as string).split(', ').map((part) => {
      const [, n, word, amount] = /^(\d+) ([a-z]+) \((-?\d+\.\d\d)\)$/.exec(part) ?? [];
      return { n: Number(n), state: STATE_OF[word as string] ?? word, amount };
    });
    expect(
      named.sort((a, b) => String(a.state).localeCompare(String(b.state))),
      `${what}: the states not counted`,
    ).toEqual(
      [...others]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([state, rows]) => ({ n: rows.length, state, amount: cents(rows) })),
    );
  }
  const ids = lines.flatMap((l) => /^│\s*(\d+) │/.exec(l)?.[1] ?? []).map(Number);
  expect(
    ids.sort((a, b) => a - b),
    `${what}: table ids`,
  ).toEqual(expected.map((r) => r.id));
}

let duck: Promise<DuckDBInstance> | undefined;

/** Rows of a Parquet file as DuckDB reads them (JSON values: decimals as exact text). */
export async function duckRows(file: string, query = `select * from read_parquet('${file}') order by id`) {
  duck ??= DuckDBInstance.create(':memory:');
  const c = await (await duck).connect();
  try {
    return (await c.runAndReadAll(query)).getRowObjectsJson() as Obj[];
  } finally {
    c.closeSync();
  }
}

/** The cents of `field` summed over `rows`, as exact decimal text. */
export function centsSum(rows: Obj[], field: string): string {
  const cents = rows.reduce((a, r) => a + Math.round((r[field] as number) * 100), 0);
  return (cents / 100).toFixed(2);
}

/** Parquet read by DuckDB: the same rows (flat columns) and the amount's exact sum. */
export async function expectParquet(
  file: string,
  expected: Obj[],
  fields: Fields,
  sum: string | undefined,
  what: string,
): Promise<void> {
  const rows = await duckRows(file);
  const flats = expected.map((r) => flat(r, fields));
  expect(rows.length, `${what}: parquet rows`).toBe(flats.length);
  for (let i = 0; i < flats.length; i++) {
    const e = flats[i] as Obj;
    const g = rows[i] as Obj;
    expect(Object.keys(g), `${what}: parquet columns`).toEqual(Object.keys(e));
    for (const [k, v] of Object.entries(e)) {
      const where = `${what}: parquet id ${e.id} ${k}`;
      const got = g[k];
      if (v === null) expect(got, where).toBeNull();
      else if (typeof v === 'number') expect(Number(got), where).toBe(v);
      else if (typeof v === 'string' && fields[k]?.type === 'datetime')
        expect(DateTime.fromSQL(String(got)).toMillis(), where).toBe(utc(v).toMillis());
      else if (typeof v === 'string' && fields[k]?.type === 'date')
        expect(String(got).slice(0, 10), where).toBe(v);
      else expect(got, where).toEqual(v);
    }
  }
  if (sum) {
    const [s] = await duckRows(file, `select sum(${sum})::varchar as s from read_parquet('${file}')`);
    expect(s?.s ?? null, `${what}: parquet sum of ${sum}`).toBe(
      expected.length ? centsSum(expected, sum) : null,
    );
  }
}

/** A posdata run that must succeed quietly; its stdout. */
export async function ok(args: string[], env: Record<string, string>): Promise<CliResult> {
  const r = await runCli([...args, '--rate', '0'], { env });
  expect(r.stderr, `posdata ${args.join(' ')}`).toBe('');
  expect(r.code, `posdata ${args.join(' ')}`).toBe(0);
  return r;
}

/** JSON of a posdata run. */
export async function json(args: string[], env: Record<string, string>): Promise<Obj[]> {
  return JSON.parse((await ok([...args, '--format', 'json'], env)).stdout) as Obj[];
}
