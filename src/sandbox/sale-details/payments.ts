/**
 * The payments of Sales Details: one entry per (payment method, session) of the report's orders,
 * as Odoo's SQL groups them, named "<method> <session>" at the end; 19 adds one total per method.
 * Only resolved sessions are counted (counting.ts).
 */
import type { Db } from '../store.js';
import type { Env, Json, Rec } from '../types.js';
import { type Dict, num, searchAs } from './query.js';

/** A pos.payment amount column summed as PostgreSQL sums numeric: exactly (micro-units here). */
const SCALE = 1e6;

/** The sandbox has no journals: a stable id per method stands in (cash: one journal per register). */
export function journalOf(method: number, cash: boolean): number {
  return cash ? 10 + method : 9;
}

/**
 * `SELECT method.id, payment.session_id, method.name, method.is_cash_count, sum(amount),
 * method.journal_id ... GROUP BY ...`: 19 orders it by method id, then session id; 17/18 have no
 * ORDER BY (the sandbox answers by session, then method: an order, not one to rely on).
 */
export function paymentsPerMethodAndSession(db: Db, env: Env, orders: Rec[]): Dict[] {
  // The payments are searched as the caller (pos.payment's access rule), then summed in SQL.
  const payments = searchAs(db, env, 'pos.payment', [['pos_order_id', 'in', orders.map((o) => o.id)]], 'id');
  const groups = new Map<string, { method: number; session: number; micros: number }>();
  for (const p of payments) {
    const session = (p.session_id ?? db.get('pos.order', p.pos_order_id as number)?.session_id) as number;
    const method = p.payment_method_id as number;
    const k = `${method}|${session}`;
    let g = groups.get(k);
    if (!g) {
      g = { method, session, micros: 0 };
      groups.set(k, g);
    }
    g.micros += Math.round(num(p.amount) * SCALE);
  }
  const list = [...groups.values()];
  if (db.version === 19) list.sort((a, b) => a.method - b.method || a.session - b.session);
  else list.sort((a, b) => a.session - b.session || a.method - b.method);
  return list.map((g) => {
    const m = db.get('pos.payment.method', g.method);
    const cash = m?.is_cash_count === true;
    return {
      id: g.method,
      session: g.session,
      name: String(m?.name ?? ''),
      cash,
      total: g.micros / SCALE,
      journal_id: journalOf(g.method, cash),
    };
  });
}

/** The last step: each method entry renamed "<method name> <session name>". */
export function nameBySession(db: Db, payments: Dict[]): void {
  for (const p of payments) {
    if (!p.id) continue;
    const method = db.get('pos.payment.method', p.id as number);
    const session = db.get('pos.session', p.session as number);
    p.name = `${String(method?.name ?? '')} ${String(session?.name ?? '')}`;
  }
}

/**
 * 19's payments_per_method: `{method id: {'name': <method>, 'total': Σ}}` in first-appearance
 * order, sent as the str() of its dict_values (json_default turns what it cannot serialise into
 * a string). Two methods with one name stay apart.
 */
export function paymentsPerMethod(db: Db, payments: Dict[]): string {
  const per = new Map<number, { name: string; total: number }>();
  for (const p of payments) {
    if (!p.id) continue;
    const id = p.id as number;
    const e = per.get(id);
    if (e) e.total += p.total as number;
    else
      per.set(id, { name: String(db.get('pos.payment.method', id)?.name ?? ''), total: p.total as number });
  }
  return `dict_values([${[...per.values()].map((e) => pyRepr({ name: e.name, total: e.total })).join(', ')}])`;
}

/** Python's repr() of a str: single quotes unless it holds one and no double quote. */
function pyStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${quote}${out}${quote}`;
}

/** Python's repr() of a float: shortest round-trip digits, `.0` on whole numbers, e-notation as Python. */
function pyFloat(v: number): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-4 || a >= 1e16)) {
    const [mant, exp] = v.toExponential().split('e') as [string, string];
    const e = Number(exp);
    return `${mant}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  return Number.isInteger(v) ? `${v}.0` : String(v);
}

function pyRepr(v: Json): string {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return pyFloat(v);
  if (typeof v === 'string') return pyStr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(v)
    .map(([k, x]) => `${pyStr(k)}: ${pyRepr(x)}`)
    .join(', ')}}`;
}
