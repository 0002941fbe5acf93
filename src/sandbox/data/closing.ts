/**
 * The cash side of each session and its closing: cash put in and taken out (Odoo's
 * `<session>-in-<reason>` lines), the counted cash (sometimes over or short), and the closing
 * transaction: the session closed, its paid orders posted, the cash sales and the counting
 * difference booked as cash lines, one account.payment per bank method.
 */

import { currencyOfCompany, roundTo } from '../money.js';
import { fmtDate, fmtDatetime, txStamp } from '../time.js';
import type { Rec } from '../types.js';
import { type Gen, LEAKY } from './context.js';
import type { Ledger } from './sales.js';
import type { SessionPlan } from './sessions.js';

/** Per register: the cash counted at its last closing (the next session opens with it). */
export type Drawers = Map<number, number>;

/** Cash moves and closings of a day's sessions, in their opening order. */
export function closeDay(
  g: Gen,
  ledger: Ledger,
  day: SessionPlan[],
  cashSales: Map<SessionPlan, number>,
  drawers: Drawers,
): void {
  for (const plan of day) {
    const start = drawers.get(plan.register);
    plan.rec.cash_register_balance_start = start ?? 0;
    const moved = cashMoves(g, plan, start);
    if (!plan.open) drawers.set(plan.register, close(g, ledger, plan, start, moved, cashSales.has(plan)));
  }
}

/** One line in the session's cash journal (account.bank.statement.line). */
function statementLine(g: Gen, s: Rec, amount: number, ref: string, at: number, stamp?: string): void {
  const moves = g.db.table('account.bank.statement.line');
  moves.insert({
    id: moves.nextId,
    pos_session_id: s.id,
    amount,
    payment_ref: ref,
    date: fmtDate(at),
    _at: stamp ?? txStamp(at, moves.nextId),
  });
}

/**
 * Cash put in or taken out during the session: the very first session of a register puts a float
 * into an empty drawer, some add change, some pay office supplies, most evenings take the takings
 * above a float to the bank. Returns their sum.
 */
function cashMoves(g: Gen, plan: SessionPlan, start: number | undefined): number {
  const { rng } = g;
  const s = plan.rec;
  let sum = 0;
  const move = (amount: number, label: string, at: number): void => {
    statementLine(g, s, amount, `${s.name}-${amount >= 0 ? 'in' : 'out'}-${label}`, at);
    sum += amount;
  };
  if (start === undefined) move(rng.int(10, 30) * 10, 'Opening float', plan.start + 90);
  else if (rng.chance(0.15)) move(rng.pick([50, 100]), 'Change float', plan.start + 300);
  if (!plan.open && rng.chance(0.1))
    move(-rng.int(5, 40), 'Office supplies', plan.start + Math.floor((plan.end - plan.start) / 2));
  const drawer = (start ?? 0) + sum + plan.cash;
  if (!plan.open && drawer > 600 && rng.chance(0.7))
    move(-Math.floor((drawer - rng.int(150, 300)) / 10) * 10, 'Cash to bank', plan.end - 600);
  return sum;
}

/**
 * Closes a session in one transaction (one stamp): the count (3 times in 4 exact, else a few cents
 * to euros over or short), the cash lines Odoo books then (the cash sales named after the session,
 * then the difference), and its paid orders posted ('done', written then). Returns the count.
 */
function close(
  g: Gen,
  ledger: Ledger,
  plan: SessionPlan,
  start: number | undefined,
  moved: number,
  tookCash: boolean,
): number {
  const { rng } = g;
  const s = plan.rec;
  const expected = (start ?? 0) + moved + plan.cash;
  const dr = rng.float();
  const diff =
    g.leaks && s.user_id === LEAKY.cashShort
      ? -rng.int(1000, 4000) / 100
      : dr < 0.75
        ? 0
        : dr < 0.88
          ? -rng.int(5, 500) / 100
          : rng.int(5, 500) / 100;
  const counted = g.round(expected + diff);
  const closedAt = txStamp(plan.end + 25, s.id);
  s.stop_at = fmtDatetime(plan.end);
  s.cash_register_balance_end_real = counted;
  // Odoo sums the session's cash lines before it adds the closing ones.
  s.cash_real_transaction = moved;
  s.closing_notes = '';
  s.write_date = closedAt;
  // Odoo's _create_account_move books the cash sales, then _post_statement_difference the difference.
  if (tookCash) statementLine(g, s, plan.cash, String(s.name), plan.end + 25, closedAt);
  if (Math.abs(counted - expected) >= 0.005) {
    const kind = counted < expected ? 'Loss' : 'Profit';
    const ref = `Cash difference observed during the counting (${kind}) - closing`;
    statementLine(g, s, counted - expected, ref, plan.end + 25, closedAt);
  }
  // Closing the session posts its paid orders: they become 'done' and are written then.
  const rows = ledger.orders.rows;
  for (let id = rows.length - 1; id > 0; id--) {
    const o = rows[id];
    if (!o) continue;
    if ((o.date_order as string) < (s.start_at as string)) break;
    if (o.session_id === s.id && o.write_date === '') o.write_date = closedAt;
  }
  return counted;
}

/** The closings' bank side: one combined account.payment per bank method a closed session took. */
export function bankPayments(g: Gen, ledger: Ledger): void {
  const { db } = g;
  const bank = new Map<string, { session: Rec; method: number; amount: number }>();
  for (const p of ledger.payments.rows) {
    if (!p) continue;
    const m = db.get('pos.payment.method', p.payment_method_id as number);
    const s = db.get('pos.session', p.session_id as number);
    if (!m || m.is_cash_count === true || !s || s.state !== 'closed') continue;
    const k = `${s.id}|${m.id}`;
    const e = bank.get(k) ?? { session: s, method: m.id, amount: 0 };
    e.amount += p.amount as number;
    bank.set(k, e);
  }
  const accountPayments = db.table('account.payment');
  for (const e of bank.values()) {
    const at = e.session.write_date as string;
    const method = db.get('pos.payment.method', e.method);
    const round =
      typeof method?.company_id === 'number' && method.company_id !== 1
        ? roundTo(currencyOfCompany(db, method.company_id).decimals)
        : g.round;
    accountPayments.insert({
      id: accountPayments.nextId,
      name: `PBNK/${at.slice(0, 4)}/${String(accountPayments.nextId).padStart(5, '0')}`,
      date: at.slice(0, 10),
      amount: round(e.amount),
      pos_session_id: e.session.id,
      pos_payment_method_id: e.method,
      _at: at,
    });
  }
}
