/**
 * What Sales Details says per resolved session beyond its payments: discounts (17 per session;
 * 18/19 from the report's own orders), invoices, and the session's figures.
 */
import type { Round } from '../money.js';
import type { Db } from '../store.js';
import type { Json, Rec } from '../types.js';
import { computeAll } from './products.js';
import { num, value } from './query.js';

function linesOf(db: Db, o: Rec): Rec[] {
  const rows = db.table('pos.order.line').rows;
  return (value(db, 'pos.order', 'lines', o) as number[]).map((id) => rows[id]).filter((l): l is Rec => !!l);
}

function sessionOrders(db: Db, s: Rec): Rec[] {
  return (db.figures().sessionOrders.get(s.id) ?? [])
    .map((id) => db.get('pos.order', id))
    .filter((o): o is Rec => !!o);
}

/** pos.order.line._get_discount_amount: the price before discount, taxes included, minus the line's total. */
function discountOf(db: Db, l: Rec, round: Round): number {
  let rate = 0;
  for (const id of l.tax_ids as number[]) rate += num(db.get('account.tax', id)?.amount) / 100;
  const [base, tax] = computeAll(num(l.price_unit), num(l.qty), rate, round);
  return base + tax - num(l.price_subtotal_incl);
}

/**
 * 17: per session, the orders (any state) with a discounted line, and get_total_discount over
 * its closed orders. 18/19: the report's orders with a discounted line, and their discount.
 */
export function discounts(
  db: Db,
  sessions: Rec[],
  orders: Rec[],
  round: Round,
): { number: number; amount: number } {
  let number = 0;
  let amount = 0;
  const discounted = (o: Rec) => linesOf(db, o).filter((l) => num(l.discount) > 0);
  if (db.version >= 18) {
    for (const o of orders) {
      const ls = discounted(o);
      if (ls.length > 0) number++;
      for (const l of ls) amount += discountOf(db, l, round);
    }
    return { number, amount };
  }
  for (const s of sessions) {
    const so = sessionOrders(db, s);
    number += so.filter((o) => discounted(o).length > 0).length;
    // get_total_discount searches the closed orders' discounted lines in id order.
    const lines = so
      .filter((o) => o.state !== 'draft' && o.state !== 'cancel')
      .flatMap(discounted)
      .sort((a, b) => a.id - b.id);
    for (const l of lines) amount += discountOf(db, l, round);
  }
  return { number, amount };
}

/** Per session: its invoiced orders (_get_invoice_total_list) and what they were paid. */
export function invoices(db: Db, sessions: Rec[]): { list: Json[]; total: number } {
  const list: Json[] = [];
  let total = 0;
  for (const s of sessions) {
    const rows: Json[] = [];
    for (const o of sessionOrders(db, s)) {
      if (typeof o.account_move !== 'number') continue;
      const mv = db.get('account.move', o.account_move);
      rows.push({
        total: num(mv?.amount_total),
        name: String(mv?.name ?? ''),
        order_ref: value(db, 'pos.order', 'pos_reference', o) as Json,
      });
      total += num(o.amount_paid);
    }
    list.push({ name: String(s.name), invoices: rows });
  }
  return { list, total };
}

/** 18/19's top-level total_paid: Σ total_payments_amount of the resolved sessions. */
export function sessionsPaid(db: Db, sessions: Rec[]): number {
  return sessions.reduce((x, s) => x + (db.figures().session.get(s.id)?.totalPayments ?? 0), 0);
}
