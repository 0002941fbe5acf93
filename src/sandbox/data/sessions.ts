/**
 * Sessions: one per register per past day, opened in the morning and closed in the evening (UTC),
 * plus today's open session on the first register, and how many orders each sells.
 */
import { fmtDatetime, txStamp } from '../time.js';
import type { Rec } from '../types.js';
import { DAY, type Gen, insert } from './context.js';
import type { Shop } from './shop.js';

/** The share of all orders sold in the busy session (its closing writes them in one transaction). */
const BUSY_SHARE = 0.3;

export interface SessionPlan {
  rec: Rec;
  register: number;
  start: number;
  /** Orders are sold in [start, end]; for closed sessions end is the closing time. */
  end: number;
  open: boolean;
  /** Cash taken (change given back included), as the sales go. */
  cash: number;
  orders: number;
}

/** The sessions, day by day (oldest first), each day's in opening order. Ids follow opening time. */
export function planSessions(g: Gen, { registers, configBase, cashier }: Shop): SessionPlan[][] {
  const { rng, db, days, today, nowSec } = g;
  const v19 = g.version === 19;
  const ins = (model: string, rec: Rec) => insert(g, model, rec);
  const plans: SessionPlan[][] = [];
  const sessions = db.table('pos.session');
  const lastClose = new Map<number, number>();
  const perRegister: number[] = [];
  for (let d = days - 1; d >= 0; d--) {
    const dayStart = today - d * DAY;
    const day: { register: number; start: number; end: number; open: boolean }[] = [];
    if (d > 0) {
      for (let r = 0; r < registers.length; r++) {
        const start = dayStart + 7 * 3600 + rng.int(0, 120) * 60;
        const end = dayStart + 17 * 3600 + rng.int(0, 180) * 60;
        day.push({ register: r, start, end, open: false });
        lastClose.set(r, end);
      }
    } else {
      // Never in the future: the open session's sales end just before "now".
      let start = dayStart + 7 * 3600 + rng.int(0, 90) * 60;
      if (start > nowSec - 1800)
        start = Math.max((lastClose.get(0) ?? nowSec - 2 * DAY) + 1800, nowSec - 2 * 3600);
      day.push({ register: 0, start, end: Math.max(start + 60, nowSec - 120), open: true });
    }
    day.sort((a, b) => a.start - b.start);
    plans.push(
      day.map((p) => {
        const id = sessions.nextId;
        const nth = (perRegister[p.register] ?? 0) + 1;
        perRegister[p.register] = nth;
        const rec: Rec = {
          id,
          // 16-18 number sessions POS/00001 across registers; 19 per register, "<register>/00001".
          name: v19
            ? `${registers[p.register]}/${String(nth).padStart(5, '0')}`
            : `POS/${String(id).padStart(5, '0')}`,
          config_id: configBase + p.register + 1,
          user_id: p.open || rng.chance(0.6) ? 2 : cashier,
          start_at: fmtDatetime(p.start),
          stop_at: false,
          state: p.open ? 'opened' : 'closed',
          rescue: false,
          cash_register_balance_start: 0,
          cash_register_balance_end_real: 0,
          cash_real_transaction: 0,
          // Opened with the cash count's (empty) note; closing_notes is set when it closes.
          opening_notes: '',
          create_date: txStamp(p.start - 30, id),
          write_date: txStamp(p.start, id),
        };
        ins('pos.session', rec);
        return { rec, register: p.register, start: p.start, end: p.end, open: p.open, cash: 0, orders: 0 };
      }),
    );
  }
  return plans;
}

/**
 * Spreads the orders over the sessions in proportion to their opening hours, after the busy day:
 * the first register's last closed session (yesterday's) sells BUSY_SHARE of all orders, so its
 * closing writes more orders in one transaction (one write_date) than a page holds.
 */
export function spreadOrders(plans: SessionPlan[][], orders: number): void {
  const flat = plans.flat();
  const busy = flat.filter((p) => !p.open && p.register === 0).at(-1);
  const rest = flat.filter((p) => p !== busy);
  const busyOrders = busy ? Math.round(orders * BUSY_SHARE) : 0;
  if (busy) busy.orders = busyOrders;
  const total = rest.reduce((s, p) => s + (p.end - p.start), 0);
  let acc = 0;
  let given = 0;
  for (const p of rest) {
    acc += p.end - p.start;
    const upTo = Math.round(((orders - busyOrders) * acc) / total);
    p.orders = upTo - given;
    given = upTo;
  }
}
