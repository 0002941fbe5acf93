/**
 * The counting of the resolved sessions (Odoo's loop over sessions × payments): the cash entry
 * gets its expected and counted cash and its cash moves; a bank entry of a closed session its
 * closing payment; a session without a cash entry a "Cash <session>" line. Entries of sessions
 * the call does not resolve keep `count: false` and none of these keys.
 */
import type { Round } from '../money.js';
import type { Db } from '../store.js';
import type { Env, Json, Rec } from '../types.js';
import { type Dict, num, searchAs } from './query.js';

export function countSessions(db: Db, env: Env, sessions: Rec[], payments: Dict[], round: Round): void {
  for (const p of payments) p.count = false;
  for (const s of sessions) {
    let isCash = false;
    // Odoo searches account.payment for this session once per payment entry, whichever session
    // the entry is for, as the caller: a POS user without accounting rights gets the
    // AccessError here, and only when the call resolved a session that has payments.
    let accountPayments: Rec[] | undefined;
    for (const p of payments) {
      accountPayments ??= searchAs(db, env, 'account.payment', [['pos_session_id', '=', s.id]]);
      if (p.session !== s.id) continue;
      if (p.cash) {
        isCash = true;
        countCash(db, env, s, p);
      } else countBank(p, accountPayments);
    }
    if (!isCash) payments.unshift(noCashEntry(db, env, s, round));
  }
}

/** A bank method of a closed session: what its closing payment booked (none while open). */
function countBank(p: Dict, accountPayments: Rec[]): void {
  const mine = accountPayments.filter((a) => a.pos_payment_method_id === p.id);
  if (mine.length === 0) return;
  p.final_count = p.total as number;
  p.money_counted = mine.reduce((x, a) => x + num(a.amount), 0);
  p.money_difference = (p.money_counted as number) - (p.final_count as number);
  const diff = p.money_difference as number;
  p.cash_moves =
    diff > 0
      ? [{ name: 'Difference observed during the counting (Profit)', amount: diff }]
      : diff < 0
        ? [{ name: 'Difference observed during the counting (Loss)', amount: diff }]
        : [];
  p.count = true;
}

/**
 * The cash entry: expected = cash payments + opening + cash moves (17/18: the previous closing's
 * counted cash; 19: this session's opening balance); counted = the session's end count (0 while
 * open); moves = "Cash Opening" and the session's statement lines, newest first.
 */
function countCash(db: Db, env: Env, s: Rec, p: Dict): void {
  const opening = db.version === 19 ? num(s.cash_register_balance_start) : previousCount(db, env, s);
  p.final_count = (p.total as number) + opening + num(s.cash_real_transaction);
  p.money_counted = num(s.cash_register_balance_end_real);
  p.money_difference = (p.money_counted as number) - (p.final_count as number);
  const moves: Json[] = [];
  if (num(s.cash_register_balance_start) > 0)
    moves.push({ name: 'Cash Opening', amount: num(s.cash_register_balance_start) });
  let ins = 0;
  let outs = 0;
  for (const mv of searchAs(db, env, 'account.bank.statement.line', [['pos_session_id', '=', s.id]])) {
    const amount = num(mv.amount);
    const fallback = amount > 0 ? `Cash in ${++ins}` : `Cash out ${++outs}`;
    moves.push({ name: mv.payment_ref ? String(mv.payment_ref) : fallback, amount });
  }
  p.cash_moves = moves;
  p.count = true;
}

/**
 * A session with no cash entry (no cash taken): 17 shows its opening and end balances; 18/19
 * the previous closing's count plus the cash moves, the moves listed without the closing's
 * difference line.
 */
function noCashEntry(db: Db, env: Env, s: Rec, round: Round): Dict {
  const name = `Cash ${String(s.name)}`;
  const endReal = num(s.cash_register_balance_end_real);
  if (db.version === 17 || db.version === 16) {
    const start = num(s.cash_register_balance_start);
    return {
      name,
      total: 0,
      final_count: start,
      money_counted: endReal,
      money_difference: endReal - start,
      cash_moves: [],
      count: true,
      session: s.id,
    };
  }
  const prev = previousCount(db, env, s);
  const finalCount = prev + num(s.cash_real_transaction);
  const difference = endReal - finalCount;
  let lines = searchAs(
    db,
    env,
    'account.bank.statement.line',
    [['pos_session_id', '=', s.id]],
    'date asc, id',
  );
  if (round(difference) !== 0) lines = lines.slice(0, -1);
  const moves: Json[] = [];
  if (prev > 0) moves.push({ name: 'Cash Opening', amount: prev });
  for (const mv of lines) moves.push({ name: (mv.payment_ref as Json) ?? false, amount: num(mv.amount) });
  return {
    name,
    total: 0,
    final_count: finalCount,
    money_counted: endReal,
    money_difference: difference,
    cash_moves: moves,
    count: true,
    session: s.id,
  };
}

/** The counted cash of the register's last closed session before this one (0 if none). */
function previousCount(db: Db, env: Env, s: Rec): number {
  const [prev] = searchAs(
    db,
    env,
    'pos.session',
    [
      ['id', '<', s.id],
      ['state', '=', 'closed'],
      ['config_id', '=', s.config_id as number],
    ],
    'id desc',
  );
  return num(prev?.cash_register_balance_end_real);
}
