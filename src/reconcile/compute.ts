// The daily cash reconciliation: closed sessions, their payments by method, cash moves and
// Odoo's own theoretical balance, read in a fixed handful of batched calls however many
// sessions there are, and turned into one row per session. No terminal knowledge here.
import type { OdooClient } from '../core/client.js';
import { ServerError, UsageError } from '../core/errors.js';
import { say } from '../core/redact.js';
import type { Domain, FieldMap, OdooRecord } from '../core/types.js';
import { parseDay, rangeDomain, utcToZoneIso } from '../query/time.js';
import { readGroups } from '../read/groups.js';
import { readPaged } from '../read/whole.js';
import { DEFAULT_MONEY_DIGITS, inCurrency, roundAt } from '../records/normalize.js';

/**
 * A session's cash figures as columns, each declared once: its key (the contract's column), its
 * table heading and how soon it gives way on a narrow terminal, and its value. The rows here,
 * reconcile's table, a session's summary row and serve's schema read them from here.
 */
export const CASH_FIGURES = [
  { key: 'opening_cash', label: 'opening', priority: 6, value: (f: SessionFigures) => f.openingCash },
  { key: 'cash_taken', label: 'taken', priority: 6, value: (f: SessionFigures) => f.cashTaken },
  { key: 'cash_moves', label: 'moves', priority: 6, value: (f: SessionFigures) => f.cashMoves },
  { key: 'expected_cash', label: 'expected', priority: 3, value: (f: SessionFigures) => f.expectedCash },
  { key: 'counted_cash', label: 'counted', priority: 4, value: (f: SessionFigures) => f.countedCash },
  { key: 'difference', label: 'difference', priority: 0, value: (f: SessionFigures) => f.difference },
] as const;

/** The keys every row carries, in the contract's order; `method:<name>` keys follow. */
export const AMOUNT_KEYS = CASH_FIGURES.map((c) => c.key);

/** A session's cash figures by key, as a row carries them. */
export function cashValues(f: SessionFigures): Record<AmountKey, number> {
  const out = {} as Record<AmountKey, number>;
  for (const c of CASH_FIGURES) out[c.key] = c.value(f);
  return out;
}

export const BASE_KEYS = [
  'session_id',
  'session',
  'config_id',
  'register',
  'opened',
  'closed',
  ...CASH_FIGURES.map((c) => c.key),
];

export type AmountKey = (typeof CASH_FIGURES)[number]['key'];

export interface SessionFigures {
  sessionId: number;
  session: string;
  configId: number;
  register: string;
  /** Odoo's UTC strings. */
  openedUtc: string | null;
  closedUtc: string | null;
  openingCash: number;
  cashTaken: number;
  cashMoves: number;
  expectedCash: number;
  countedCash: number;
  difference: number;
  /** Total taken per payment method key (`method:<name>`). */
  byMethod: Record<string, number>;
  /** Expected cash is Odoo's theoretical balance, which differs from opening + taken + moves. */
  fromOdoo: boolean;
}

export interface Reconciliation {
  sessions: SessionFigures[];
  /** The `method:<name>` keys, in Odoo's order of the payment methods. */
  methodKeys: string[];
  /** Sessions whose expected cash follows Odoo's theoretical balance (docs/reconcile.md, expected_cash). */
  adjusted: SessionFigures[];
  /** Decimals of the figures: the company's currency's. */
  moneyDigits: number;
}

export interface SessionRange {
  /** One business day (YYYY-MM-DD, today, yesterday). */
  date?: string;
  from?: string;
  to?: string;
  configId?: number;
}

/**
 * The sessions a reconciliation covers: closed, by closing time, `date` being that whole
 * business day in `zone`, else from/to; optionally one register. Messages name the command's
 * flags (serve turns them into its parameter names).
 */
export function sessionsDomain(r: SessionRange, zone: string): Domain {
  if (r.date !== undefined && (r.from !== undefined || r.to !== undefined)) {
    throw new UsageError(
      say`--date and --from/--to both give the range`,
      say`use either --date D or --from/--to`,
    );
  }
  const domain: Domain = [['state', '=', 'closed']];
  if (r.date === undefined) domain.push(...rangeDomain('stop_at', r.from, r.to, zone));
  else {
    // A span such as 2h is refused rather than read as "from two hours ago".
    parseDay(r.date, zone, '--date');
    domain.push(...rangeDomain('stop_at', r.date, r.date, zone));
  }
  if (r.configId !== undefined) domain.push(['config_id', '=', r.configId]);
  return domain;
}

export interface FetchOptions {
  pageSize?: number;
}

const money = (v: unknown): number => (typeof v === 'number' ? v : 0);
const m2oId = (v: unknown): number | undefined =>
  Array.isArray(v) && typeof v[0] === 'number' ? v[0] : typeof v === 'number' ? v : undefined;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

interface PaymentTotal {
  sessionId: number;
  methodId: number;
  amount: number;
}

/**
 * Reads everything the reconciliation needs for the closed sessions matching `domain`:
 * fields_get of pos.session, the sessions (paged), then at once the payment totals per
 * session and method (one read_group), the registers, the payment methods and, only where
 * the server does not store the session's cash in/out, the cash statement lines.
 */
export async function fetchReconciliation(
  client: OdooClient,
  domain: Domain,
  opts: FetchOptions = {},
): Promise<{ sessionFields: FieldMap; inputs: Inputs }> {
  const sessionFields = await client.fieldsGet('pos.session');
  const has = (f: string): boolean => f in sessionFields;
  const fields = [
    'id',
    'name',
    'config_id',
    'start_at',
    'stop_at',
    'cash_register_balance_start',
    'cash_register_balance_end_real',
    // Open or closed: the summary's X or Z report.
    'state',
    // Who ran it: the report's cash differences per cashier.
    'user_id',
  ];
  // Stored when Odoo closes a session: the sum of its statement lines at that moment, i.e. the
  // cash put in and taken out, before closing adds its own lines (takings, counted difference).
  if (has('cash_real_transaction')) fields.push('cash_real_transaction');
  // Odoo's theoretical closing balance (computed, not stored).
  if (has('cash_register_balance_end')) fields.push('cash_register_balance_end');

  // Read on under a cap where no page size was asked: none of the callers (reconcile, report,
  // summary's closings) has a --page-size to give.
  const sessions = await readPaged(client, { model: 'pos.session', domain, fields }, opts.pageSize);
  if (sessions.length === 0) {
    return { sessionFields, inputs: { sessions, payments: [], configs: [], methods: [], moves: [] } };
  }
  const ids = sessions.map((s) => s.id);
  const configIds = [...new Set(sessions.map((s) => m2oId(s.config_id)).filter((i) => i !== undefined))];
  const [payments, configs, methods, moves] = await Promise.all([
    paymentTotals(client, ids, opts.pageSize ?? 2000),
    client.read('pos.config', configIds, ['name', 'payment_method_ids']),
    // Archived methods still carry old payments: read them too.
    client.searchRead('pos.payment.method', [], {
      fields: ['name', 'is_cash_count'],
      context: { active_test: false },
    }),
    has('cash_real_transaction')
      ? Promise.resolve([] as OdooRecord[])
      : client.searchRead('account.bank.statement.line', [['pos_session_id', 'in', ids]], {
          fields: ['pos_session_id', 'amount', 'create_date'],
        }),
  ]);
  return {
    sessionFields,
    inputs: {
      sessions,
      payments,
      configs,
      methods: await everyMethod(client, methods, configs, payments),
      moves,
    },
  };
}

/**
 * The methods read, with any a register or a payment names that the read left out: a server
 * that caps search_read answers only the first few, and a method missing is a column named by
 * its id whose cash is not counted as cash. Those are read by id (none in the normal case).
 */
async function everyMethod(
  client: OdooClient,
  methods: OdooRecord[],
  configs: OdooRecord[],
  payments: PaymentTotal[],
): Promise<OdooRecord[]> {
  const known = new Set(methods.map((m) => m.id));
  const named = new Set([
    ...configs.flatMap((c) => idList(c.payment_method_ids)),
    ...payments.map((p) => p.methodId),
  ]);
  const missing = [...named].filter((id) => !known.has(id));
  if (missing.length === 0) return methods;
  return [...methods, ...(await client.read('pos.payment.method', missing, ['name', 'is_cash_count']))];
}

/** Totals per (session, method): one read_group, or paged payments where the server lacks it. */
async function paymentTotals(client: OdooClient, ids: number[], pageSize: number): Promise<PaymentTotal[]> {
  const domain: Domain = [['session_id', 'in', ids]];
  try {
    const groups = await readGroups(client, {
      model: 'pos.payment',
      method: 'read_group',
      domain,
      groupby: ['session_id', 'payment_method_id'],
      aggregates: ['amount:sum'],
    });
    return groups.flatMap((g) => {
      const sessionId = m2oId(g.values.session_id);
      const methodId = m2oId(g.values.payment_method_id);
      return sessionId === undefined || methodId === undefined
        ? []
        : [{ sessionId, methodId, amount: g.aggs['amount:sum'] ?? 0 }];
    });
  } catch (err) {
    // Only a server that refuses read_group itself (removed or deprecated method) falls back.
    if (!(err instanceof ServerError) || !/read_group/i.test(err.message)) throw err;
  }
  const out: PaymentTotal[] = [];
  for await (const page of client.pages({
    model: 'pos.payment',
    domain,
    fields: ['session_id', 'payment_method_id', 'amount'],
    order: 'id',
    pageSize,
  })) {
    for (const p of page) {
      const sessionId = m2oId(p.session_id);
      const methodId = m2oId(p.payment_method_id);
      if (sessionId !== undefined && methodId !== undefined)
        out.push({ sessionId, methodId, amount: money(p.amount) });
    }
  }
  return out;
}

export interface Inputs {
  sessions: OdooRecord[];
  payments: PaymentTotal[];
  configs: OdooRecord[];
  methods: OdooRecord[];
  /** account.bank.statement.line rows; read only where sessions lack cash_real_transaction. */
  moves: OdooRecord[];
}

/**
 * Turns the raw records into figures per session, at the decimals of the currency (2 where it
 * is not known); pure, so every rule is in one place.
 */
export function reconcile(inputs: Inputs, digits = DEFAULT_MONEY_DIGITS): Reconciliation {
  const { sessions, payments, configs, methods, moves } = inputs;
  const cashMethods = new Set(methods.filter((m) => m.is_cash_count === true).map((m) => m.id));
  const { ordered, keyOf } = methodColumnOrder(inputs);
  const ctx: SessionContext = {
    digits,
    cashMethods,
    configById: new Map(configs.map((c) => [c.id, c])),
    totals: totalsBySession(payments),
    lineMoves: movesBySession(moves),
    methodKeys: ordered.map((id) => [id, keyOf.get(id) as string]),
  };
  const out = sessions.map((s) => sessionFigures(s, ctx));
  // Before sorting: in the order the sessions were read.
  const adjusted = out.filter((r) => r.fromOdoo);
  // Closing time, then id: the order in which the day's drawers were counted.
  out.sort((a, b) => (a.closedUtc ?? '').localeCompare(b.closedUtc ?? '') || a.sessionId - b.sessionId);
  return {
    sessions: out,
    methodKeys: ordered.map((id) => keyOf.get(id) as string),
    adjusted,
    moneyDigits: digits,
  };
}

/** What every session's figures are worked out with. */
interface SessionContext {
  digits: number;
  cashMethods: Set<number>;
  configById: Map<number, OdooRecord>;
  totals: Map<number, Map<number, number>>;
  lineMoves: Map<number, OdooRecord[]>;
  /** The method columns, in order: the method's id and its key. */
  methodKeys: [number, string][];
}

/**
 * Which methods get a column, in order: those of the registers involved and those that took
 * money, Odoo's order first, then unknown ids by number; and each one's key.
 */
function methodColumnOrder({ configs, payments, methods }: Inputs): {
  ordered: number[];
  keyOf: Map<number, string>;
} {
  const methodById = new Map(methods.map((m) => [m.id, m]));
  const used = new Set<number>();
  for (const c of configs) for (const id of idList(c.payment_method_ids)) used.add(id);
  for (const p of payments) used.add(p.methodId);
  const ordered = [
    ...methods.filter((m) => used.has(m.id)).map((m) => m.id),
    ...[...used].filter((id) => !methodById.has(id)).sort((a, b) => a - b),
  ];
  return { ordered, keyOf: methodKeys(ordered, methodById) };
}

/** The amount taken per session and method. */
function totalsBySession(payments: PaymentTotal[]): Map<number, Map<number, number>> {
  const totals = new Map<number, Map<number, number>>();
  for (const p of payments) {
    let m = totals.get(p.sessionId);
    if (!m) {
      m = new Map();
      totals.set(p.sessionId, m);
    }
    m.set(p.methodId, (m.get(p.methodId) ?? 0) + p.amount);
  }
  return totals;
}

/** The statement lines per session. */
function movesBySession(moves: OdooRecord[]): Map<number, OdooRecord[]> {
  const lineMoves = new Map<number, OdooRecord[]>();
  for (const l of moves) {
    const sid = m2oId(l.pos_session_id);
    if (sid === undefined) continue;
    const list = lineMoves.get(sid) ?? [];
    list.push(l);
    lineMoves.set(sid, list);
  }
  return lineMoves;
}

/** One session's figures: taken per method, cash moves, expected (Odoo's where it must), counted. */
function sessionFigures(s: OdooRecord, ctx: SessionContext): SessionFigures {
  const { digits, cashMethods } = ctx;
  const r2 = (v: number): number => roundAt(v, digits);
  const configId = m2oId(s.config_id) ?? 0;
  const config = ctx.configById.get(configId);
  const byMethodId = ctx.totals.get(s.id) ?? new Map<number, number>();
  const byMethod: Record<string, number> = {};
  for (const [id, key] of ctx.methodKeys) byMethod[key] = r2(byMethodId.get(id) ?? 0);
  let taken = 0;
  for (const [id, amount] of byMethodId) if (cashMethods.has(id)) taken += amount;

  const stop = str(s.stop_at);
  const cashMoves =
    'cash_real_transaction' in s
      ? money(s.cash_real_transaction)
      : (ctx.lineMoves.get(s.id) ?? [])
          // Lines Odoo writes when it closes the session (takings, counted difference) are
          // not moves; without the stored figure, only lines from before closing count.
          .filter((l) => !stop || typeof l.create_date !== 'string' || l.create_date < stop)
          .reduce((a, l) => a + money(l.amount), 0);

  const opening = r2(money(s.cash_register_balance_start));
  const counted = r2(money(s.cash_register_balance_end_real));
  const cashTaken = r2(taken);
  let moved = r2(cashMoves);
  let expected = r2(opening + cashTaken + moved);
  let fromOdoo = false;
  // Odoo's theoretical balance counts the first cash method only, so it is used only where the
  // register has exactly one. On 16/17 it starts from the previous session's counted cash: an
  // opening count that differed was posted as a statement line, which Odoo nets out there.
  const registerCash = idList(config?.payment_method_ids).filter((id) => cashMethods.has(id));
  if (typeof s.cash_register_balance_end === 'number' && registerCash.length === 1) {
    const odoo = r2(s.cash_register_balance_end);
    if (Math.abs(odoo - expected) > 0.5 * 10 ** -digits) {
      expected = odoo;
      moved = r2(expected - opening - cashTaken);
      fromOdoo = true;
    }
  }
  return {
    sessionId: s.id,
    session: str(s.name) ?? String(s.id),
    configId,
    register: str(config?.name) ?? (Array.isArray(s.config_id) ? String(s.config_id[1]) : String(configId)),
    openedUtc: str(s.start_at),
    closedUtc: stop,
    openingCash: opening,
    cashTaken,
    cashMoves: moved,
    expectedCash: expected,
    countedCash: counted,
    difference: r2(counted - expected),
    byMethod,
    fromOdoo,
  };
}

function idList(v: unknown): number[] {
  return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : [];
}

/** `method:<name>`; two methods with one name (two companies) keep apart by id. */
function methodKeys(ids: number[], byId: Map<number, OdooRecord>): Map<number, string> {
  const name = (id: number): string => str(byId.get(id)?.name) ?? `#${id}`;
  const count = new Map<string, number>();
  for (const id of ids) count.set(name(id), (count.get(name(id)) ?? 0) + 1);
  return new Map(
    ids.map((id) => [
      id,
      (count.get(name(id)) ?? 0) > 1 ? `method:${name(id)} #${id}` : `method:${name(id)}`,
    ]),
  );
}

export type OutRow = Record<string, string | number | null>;

/** The row as json, ndjson and csv carry it. Times as the list commands show them. */
export function toRow(f: SessionFigures, methodKeys: string[], tz: string | undefined): OutRow {
  const time = (v: string | null): string | null => (v === null ? null : tz ? utcToZoneIso(v, tz) : v);
  const row: OutRow = {
    session_id: f.sessionId,
    session: f.session,
    config_id: f.configId,
    register: f.register,
    opened: time(f.openedUtc),
    closed: time(f.closedUtc),
    ...cashValues(f),
  };
  for (const k of methodKeys) row[k] = f.byMethod[k] ?? 0;
  return row;
}

/** Beyond the tolerance, with a margin for the binary noise of two-decimal amounts. */
export function beyond(difference: number, tolerance: number): boolean {
  return Math.abs(difference) - tolerance > 1e-9;
}

/** Opened and closed: Odoo's UTC times (ISO with an offset under --tz). */
const TIME_KEYS = ['opened', 'closed'] as const;

/** The rows' fields and their types for csv and Parquet: ids stay numbers, amounts numbers, times instants, the rest text. */
export function sessionFields(rec: Reconciliation): { fields: string[]; defs: FieldMap } {
  const fields = [...BASE_KEYS, ...rec.methodKeys];
  const defs: FieldMap = {};
  for (const k of fields) {
    defs[k] = {
      type:
        k === 'session_id' || k === 'config_id'
          ? 'integer'
          : (AMOUNT_KEYS as readonly string[]).includes(k) || k.startsWith('method:')
            ? 'monetary'
            : (TIME_KEYS as readonly string[]).includes(k)
              ? 'datetime'
              : 'char',
    };
  }
  return { fields, defs: inCurrency(defs, rec.moneyDigits) };
}
