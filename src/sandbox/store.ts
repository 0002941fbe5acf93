/**
 * In-memory tables, and what they hold: models and their fields (models.ts builds them per
 * version). Rows live in an array indexed by id (ids are dense, handed out in order), so a lookup
 * by id is one array access and a scan "by id" is a plain loop that can start anywhere. Anything
 * derived from several tables (sums per session, refund links, the open session of a register) is
 * computed on first use and dropped whenever any table changes.
 */

import type { GroupLie } from './faults.js';
import type { Env, FieldType, OdooVersion, Operation, Rec, Role, Stored } from './types.js';

export interface FieldDef {
  name: string;
  type: FieldType;
  string: string;
  /** A database column: searchable and sortable. */
  store: boolean;
  relation?: string;
  /** one2many: the many2one on the comodel pointing back. */
  inverse?: string;
  selection?: [string, string][];
  required?: boolean;
  readonly?: boolean;
  translate?: boolean;
  /** Non-stored but searchable (related fields, inverse one2many): filtered on its computed value. */
  searchable?: boolean;
  /**
   * What fields_get says of searching it, where that is not the sandbox's own rule (`store ||
   * searchable`): Odoo's `searchable` is `store or search`, a method of the field's own or, for
   * a related field, `_search_related` when the end of its path is searchable. display_name on
   * 16/17 and a register's computed currency are read and filtered here, yet Odoo says false.
   */
  search?: boolean;
  /**
   * fields_get's `digits` (Odoo's Float `digits`): [precision, scale], a named decimal precision
   * resolved (`'Product Price'` → [16, 2]), or 0 (`digits=0`: a numeric column at full
   * precision); false on 19 for a field with only `min_display_digits`. Unset: not sent.
   */
  digits?: [number, number] | 0 | false;
  /** fields_get's `related`: the path of a related field (`session_id.config_id`), `_inherits` ones too. */
  related?: string;
  /** Inherited through `_inherits` (a related field Odoo turns into a join): groupable though not stored. */
  inherited?: boolean;
  /** Non-stored computed value. */
  compute?: (rec: Rec, db: Db, env?: Env) => Stored;
  /**
   * read_group's default aggregate for the field named bare in `fields` (17 `group_operator`, 18+
   * `aggregator`); `false` for none. Unset: `sum` on numbers, none otherwise.
   */
  aggregator?: string | false;
  /** Stored field whose value is derived when the row does not hold it (keeps 1M rows small). */
  dflt?: (rec: Rec, db: Db) => Stored;
}

export interface ModelDef {
  name: string;
  description: string;
  order: string;
  hasActive: boolean;
  /**
   * Odoo keeps no multi-company record rule on the model (pos.order.line, 16-19): a search finds
   * every company's records, though a leaf through a relation still meets the comodel's rule.
   */
  noCompanyRule?: boolean;
  /** Odoo's `_parent_store`: child_of and parent_of read parent_path, so their ids must exist. */
  parentStore?: boolean;
  fields: Map<string, FieldDef>;
  displayName: (rec: Rec, db: Db) => string;
  /** Operations per role, as letters r w c u (read write create unlink). */
  acl: Record<Role, string>;
  /** Groups named in the AccessError when an operation is refused. */
  groups: (op: Operation) => string[];
  /** Methods taking no ids that exist beyond the generic ORM ones. */
  extraMethods?: string[];
  /**
   * A SQL view (`_auto = False`): its rows are worked out from other tables, rebuilt only when
   * one of `tables` has changed (the store keeps them like its other derived indexes).
   */
  view?: { tables: string[]; rows: (db: Db) => Rec[] };
}

export class Table {
  /** rows[id]; holes for ids never used or unlinked. */
  readonly rows: (Rec | undefined)[] = [undefined];
  live = 0;
  /** Bumped on every change; sort caches remember the stamp they were built at. */
  stamp = 0;
  /** Sorted ids per order spec, with the first sort key of each id (for range starts). */
  readonly sortCache = new Map<
    string,
    { stamp: number; ids: Int32Array; first: Float64Array | string[] | undefined }
  >();
  /** Every row's value of a field, by id (Db.byColumn), with the stamps it was built at. */
  readonly columns = new Map<string, { key: string; get: (id: number) => Stored }>();
  /** Datetime columns as hour starts (Db.hourColumn). */
  readonly hours = new Map<string, { key: string; get: (id: number) => number }>();

  constructor(readonly model: ModelDef) {}

  get nextId(): number {
    return this.rows.length;
  }

  insert(rec: Rec): void {
    this.rows[rec.id] = rec;
    this.live++;
  }

  get(id: number): Rec | undefined {
    return Number.isInteger(id) && id > 0 ? this.rows[id] : undefined;
  }

  remove(id: number): void {
    if (this.rows[id]) {
      this.rows[id] = undefined;
      this.live--;
    }
  }

  touch(): void {
    this.stamp++;
    this.sortCache.clear();
    this.columns.clear();
    this.hours.clear();
  }
}

export interface SessionFigures {
  cashPayments: number;
  totalPayments: number;
  orderCount: number;
  moves: number;
}

export interface Derived {
  session: Map<number, SessionFigures>;
  /** original order id -> refund order ids. */
  refundsOf: Map<number, number[]>;
  /** refund order id -> refunded (original) order ids. */
  refundedBy: Map<number, number[]>;
  /** line id -> refund line ids. */
  lineRefunds: Map<number, number[]>;
  /** register id -> newest session that is not closed. */
  currentSession: Map<number, number>;
  /** register id -> newest closed session. */
  lastClosed: Map<number, number>;
  /** session id -> the session before it on the same register. */
  prevSession: Map<number, number>;
  /** register id -> its sessions, oldest first. */
  configSessions: Map<number, number[]>;
  sessionMoves: Map<number, number[]>;
  sessionOrders: Map<number, number[]>;
}

export class Db {
  readonly tables = new Map<string, Table>();
  /** Bumped on every change anywhere. */
  stamp = 0;
  /** The most records a search_read answers (--faults cap=N), as a proxy or a module may cap it. */
  searchReadCap: number | undefined;
  /** How every grouping answer lies (--faults lie=LIE), as no Odoo does. */
  groupLie: GroupLie | undefined;

  constructor(
    readonly version: OdooVersion,
    readonly models: Map<string, ModelDef>,
  ) {
    for (const m of models.values()) this.tables.set(m.name, new Table(m));
  }

  table(model: string): Table {
    const t = this.tables.get(model);
    if (!t) throw new Error(`no table ${model}`);
    const view = t.model.view;
    if (!view) return t;
    // A SQL view: its rows, rebuilt when a table it reads has changed (a fresh Table, so its
    // sort caches start empty too).
    return this.cached(`view:${model}`, view.tables, () => {
      const v = new Table(t.model);
      for (const r of view.rows(this)) v.insert(r);
      return v;
    });
  }

  get(model: string, id: number): Rec | undefined {
    return this.tables.get(model)?.get(id);
  }

  changed(model: string): void {
    this.table(model).touch();
    this.stamp++;
  }

  /** The value of a field on a record, computed or stored (with its default when not held). */
  value(field: FieldDef, rec: Rec): Stored {
    if (field.compute) return field.compute(rec, this);
    const v = rec[field.name];
    if (v !== undefined) return v;
    if (field.dflt) return field.dflt(rec, this);
    return emptyValue(field);
  }

  /** Fast access to a field's value: straight off the row when the field has no default or compute. */
  rowGetter(field: FieldDef): (r: Rec) => Stored {
    if (field.compute || field.dflt) return (r) => this.value(field, r);
    const name = field.name;
    const empty = emptyValue(field);
    return (r) => {
      const v = r[name];
      return v === undefined ? empty : v;
    };
  }

  /**
   * A field's value by id, read off its row: what a search reads for the rows it visits (a page
   * of an export reads a few thousand of a million).
   */
  byRow(model: string, field: FieldDef): (id: number) => Stored {
    const rows = this.table(model).rows;
    const get = this.rowGetter(field);
    return (id) => get(rows[id] as Rec);
  }

  /** What a column of `field` was built at: its table's stamp, and for a derived value the store's. */
  private columnKey(table: Table, field: FieldDef): string {
    return field.compute || field.dflt ? `${table.stamp}:${this.stamp}` : String(table.stamp);
  }

  /**
   * A field's value by id from a column of every row's value, built on first use and kept until
   * its table changes (a derived value: until anything changes). A grouping reads a few fields
   * of hundreds of thousands of rows; read off the rows, each is a trip to memory the row's
   * neighbours do not share, while a column is read in the order it is laid out, as a
   * database's columnar scan is.
   */
  byColumn(model: string, field: FieldDef): (id: number) => Stored {
    const table = this.table(model);
    const key = this.columnKey(table, field);
    const hit = table.columns.get(field.name);
    if (hit && hit.key === key) return hit.get;
    const get = new Column(field, table.rows.length, this.byRow(model, field)).getter();
    table.columns.set(field.name, { key, get });
    return get;
  }

  /**
   * A datetime field as the start of each value's hour in seconds since the epoch (NaN where
   * the value is empty or not Odoo's `YYYY-MM-DD HH…` text), filled as it is read: a grouping
   * by day or hour keys on numbers, not on each row's text.
   */
  hourColumn(model: string, field: FieldDef): (id: number) => number {
    const table = this.table(model);
    const key = this.columnKey(table, field);
    const name = `${field.name}:hour`;
    const hit = table.hours.get(name);
    if (hit && hit.key === key) return hit.get;
    const read = this.byColumn(model, field);
    const n = table.rows.length;
    const hours = new Float64Array(n);
    const filled = new Uint8Array(n);
    // Rows of one order share its date's text: the same string, worked out once.
    let last: Stored = false;
    let lastHour = Number.NaN;
    const get = (id: number): number => {
      if (filled[id] === 1) return hours[id] as number;
      const v = read(id);
      let h = Number.NaN;
      if (typeof v === 'string') {
        if (v !== last) {
          last = v;
          lastHour = hourOf(v);
        }
        h = lastHour;
      }
      hours[id] = h;
      filled[id] = 1;
      return h;
    };
    table.hours.set(name, { key, get });
    return get;
  }

  displayName(model: string, id: number): string {
    const m = this.models.get(model);
    const rec = this.get(model, id);
    if (!m || !rec) return `${model},${id}`;
    return m.displayName(rec, this);
  }

  /**
   * Derived indexes, each rebuilt only when the tables it reads have changed: reading orders (whose
   * register label needs the open session) must not rescan millions of lines and payments.
   */
  sessionIdx(): Pick<Derived, 'currentSession' | 'lastClosed' | 'prevSession' | 'configSessions'> {
    return this.cached('sessions', ['pos.session'], () => this.sessionIndex());
  }

  figures(): Pick<Derived, 'session' | 'sessionOrders' | 'sessionMoves'> {
    return this.cached(
      'figures',
      ['pos.order', 'pos.payment', 'pos.payment.method', 'account.bank.statement.line'],
      () => this.sessionFigures(),
    );
  }

  refunds(): Pick<Derived, 'refundsOf' | 'refundedBy' | 'lineRefunds'> {
    return this.cached('refunds', ['pos.order.line'], () => this.refundLinks());
  }

  private readonly caches = new Map<string, { key: string; value: unknown }>();

  private memoStamp = -1;
  private readonly memos = new Map<string, unknown>();

  /**
   * A value that stays good until anything changes (e.g. the orders whose lines match a leaf:
   * refund searches page through the same subquery again and again).
   */
  memo<T>(key: string, build: () => T): T {
    if (this.memoStamp !== this.stamp || this.memos.size > 64) {
      this.memos.clear();
      this.memoStamp = this.stamp;
    }
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const value = build();
    this.memos.set(key, value);
    return value;
  }

  private cached<T>(name: string, tables: string[], build: () => T): T {
    const key = tables.map((t) => this.table(t).stamp).join(',');
    const hit = this.caches.get(name);
    if (hit && hit.key === key) return hit.value as T;
    const value = build();
    this.caches.set(name, { key, value });
    return value;
  }

  private sessionIndex(): Pick<Derived, 'currentSession' | 'lastClosed' | 'prevSession' | 'configSessions'> {
    const currentSession = new Map<number, number>();
    const lastClosed = new Map<number, number>();
    const prevSession = new Map<number, number>();
    const configSessions = new Map<number, number[]>();
    for (const s of this.table('pos.session').rows) {
      if (!s) continue;
      const cfg = s.config_id as number;
      const before = configSessions.get(cfg)?.at(-1);
      if (before !== undefined) prevSession.set(s.id, before);
      push(configSessions, cfg, s.id);
      if (s.state === 'closed') lastClosed.set(cfg, s.id);
      else if (s.rescue !== true) currentSession.set(cfg, s.id);
    }
    return { currentSession, lastClosed, prevSession, configSessions };
  }

  private sessionFigures(): Pick<Derived, 'session' | 'sessionOrders' | 'sessionMoves'> {
    const session = new Map<number, SessionFigures>();
    const sessionOrders = new Map<number, number[]>();
    const sessionMoves = new Map<number, number[]>();
    const fig = (id: number): SessionFigures => {
      let f = session.get(id);
      if (!f) {
        f = { cashPayments: 0, totalPayments: 0, orderCount: 0, moves: 0 };
        session.set(id, f);
      }
      return f;
    };
    const methods = this.table('pos.payment.method').rows;
    const orders = this.table('pos.order').rows;
    for (const p of this.table('pos.payment').rows) {
      if (!p) continue;
      // session_id is a stored related field; rows created through the API may only hold the order.
      const sid =
        typeof p.session_id === 'number' ? p.session_id : orders[p.pos_order_id as number]?.session_id;
      if (typeof sid !== 'number') continue;
      const f = fig(sid);
      const amount = p.amount as number;
      f.totalPayments += amount;
      if (methods[p.payment_method_id as number]?.is_cash_count === true) f.cashPayments += amount;
    }
    for (const o of orders) {
      if (o && typeof o.session_id === 'number') {
        fig(o.session_id).orderCount++;
        push(sessionOrders, o.session_id, o.id);
      }
    }
    for (const l of this.table('account.bank.statement.line').rows) {
      if (l && typeof l.pos_session_id === 'number') {
        fig(l.pos_session_id).moves += l.amount as number;
        push(sessionMoves, l.pos_session_id, l.id);
      }
    }
    // x2many values come back in the comodel's order (newest first for both).
    for (const list of sessionOrders.values()) list.reverse();
    for (const list of sessionMoves.values()) list.reverse();
    return { session, sessionOrders, sessionMoves };
  }

  private refundLinks(): Pick<Derived, 'refundsOf' | 'refundedBy' | 'lineRefunds'> {
    const refundsOf = new Map<number, number[]>();
    const refundedBy = new Map<number, number[]>();
    const lineRefunds = new Map<number, number[]>();
    const lines = this.table('pos.order.line').rows;
    for (const l of lines) {
      if (!l || typeof l.refunded_orderline_id !== 'number') continue;
      const orig = lines[l.refunded_orderline_id];
      const refundOrder = l.order_id as number;
      pushUnique(lineRefunds, l.refunded_orderline_id, l.id);
      if (!orig) continue;
      const origOrder = orig.order_id as number;
      pushUnique(refundsOf, origOrder, refundOrder);
      pushUnique(refundedBy, refundOrder, origOrder);
    }
    return { refundsOf, refundedBy, lineRefunds };
  }
}

function push(map: Map<number, number[]>, key: number, v: number): void {
  const list = map.get(key);
  if (list) list.push(v);
  else map.set(key, [v]);
}

function pushUnique(map: Map<number, number[]>, key: number, v: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [v]);
  else if (!list.includes(v)) list.push(v);
}

const NUMERIC_COLUMN = new Set(['many2one', 'integer', 'float', 'monetary']);
const WHOLE_COLUMN = new Set(['many2one', 'integer']);
/** In a column of whole numbers: no number here (false, or a value kept aside). */
const NONE = -2147483648;

/**
 * One field's values by id, each read off its row the first time it is asked for: many2one ids
 * and integers in an Int32Array, floats in a Float64Array (NONE and NaN standing for false, or
 * for a value kept aside in a map: a number the array cannot hold, or anything else), other
 * values as they are. Filled as groupings read it, so the first pays what a read off the rows
 * costs and the next read arrays laid out in id order.
 */
class Column {
  private readonly filled: Uint8Array;
  private readonly whole: Int32Array | undefined;
  private readonly real: Float64Array | undefined;
  private readonly vals: Stored[] | undefined;
  private aside: Map<number, Stored> | undefined;

  constructor(
    field: FieldDef,
    n: number,
    private readonly read: (id: number) => Stored,
  ) {
    this.filled = new Uint8Array(n);
    if (WHOLE_COLUMN.has(field.type)) this.whole = new Int32Array(n);
    else if (NUMERIC_COLUMN.has(field.type)) this.real = new Float64Array(n);
    else this.vals = new Array<Stored>(n);
  }

  private fill(id: number): void {
    const v = this.read(id);
    this.filled[id] = 1;
    if (this.vals) this.vals[id] = v;
    else if (this.whole) {
      if (typeof v === 'number' && (v | 0) === v && v !== NONE) this.whole[id] = v;
      else {
        this.whole[id] = NONE;
        if (v !== false) this.keep(id, v);
      }
    } else if (this.real) {
      if (typeof v === 'number' && !Number.isNaN(v)) this.real[id] = v;
      else {
        this.real[id] = Number.NaN;
        if (v !== false) this.keep(id, v);
      }
    }
  }

  private keep(id: number, v: Stored): void {
    if (!this.aside) this.aside = new Map();
    this.aside.set(id, v);
  }

  private other(id: number): Stored {
    const aside = this.aside;
    return aside?.has(id) ? (aside.get(id) as Stored) : false;
  }

  /** What the column answers for an id (of a row that exists). */
  getter(): (id: number) => Stored {
    const { filled, whole, real, vals } = this;
    if (vals)
      return (id) => {
        if (filled[id] === 0) this.fill(id);
        return vals[id] as Stored;
      };
    if (whole)
      return (id) => {
        if (filled[id] === 0) this.fill(id);
        const x = whole[id] as number;
        return x !== NONE ? x : this.other(id);
      };
    const col = real as Float64Array;
    return (id) => {
      if (filled[id] === 0) this.fill(id);
      const x = col[id] as number;
      return !Number.isNaN(x) ? x : this.other(id);
    };
  }
}

/** The start of the hour of `YYYY-MM-DD HH…` (UTC), in seconds; NaN for other text. */
function hourOf(v: string): number {
  if (v.length < 13 || v[4] !== '-' || v[7] !== '-' || v[10] !== ' ') return Number.NaN;
  const year = digits(v, 0, 4);
  const month = digits(v, 5, 2);
  const day = digits(v, 8, 2);
  const hour = digits(v, 11, 2);
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour >= 0 && hour <= 23 && year >= 1000))
    return Number.NaN;
  return Date.UTC(year, month - 1, day, hour) / 1000;
}

// A function of its own, not a closure in hourOf: the bundle names every closure it makes.
/** The number written by `len` digits at `at`; NaN where one is not a digit. */
function digits(v: string, at: number, len: number): number {
  let x = 0;
  for (let i = at; i < at + len; i++) {
    const d = v.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number.NaN;
    x = x * 10 + d;
  }
  return x;
}

/** Odoo's read value for an empty field: false, 0 for numbers, [] for x2many. */
export function emptyValue(field: FieldDef): Stored {
  switch (field.type) {
    case 'integer':
    case 'float':
    case 'monetary':
      return 0;
    case 'one2many':
    case 'many2many':
      return [];
    default:
      return false;
  }
}

/** ids lo..lo+n-1, descending when asked (x2many reads follow the comodel's order). */
export function idRange(lo: number, n: number, desc = false): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = desc ? lo + n - 1 - i : lo + i;
  return out;
}
