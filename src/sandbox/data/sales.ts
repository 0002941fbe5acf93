/**
 * The sales of a day: every register's orders in time order (so order ids follow sale time), each
 * a sale, a refund of a recent sale (line by line), a cancellation or, in the open session, a
 * draft; its lines, its payments (cash with change given back as a negative row, card, or both)
 * and its state. Draws from the PRNG in a fixed order, so a seed gives the same orders.
 */

import { cashierOf } from '../models.js';
import { roundTo } from '../money.js';
import type { Table } from '../store.js';
import { fmtDatetime, txStamp } from '../time.js';
import type { Rec } from '../types.js';
import { type Gen, LEAKY } from './context.js';
import {
  afterOrder,
  afterPayment,
  beginOrder,
  type Extras,
  extraLines,
  lineTaxes,
  type OrderExtras,
  orderFields,
  TAKEAWAY_TAX,
} from './extras.js';

/** The run's currency rounding (set by sellDay from the generation's currency). */
let roundMoney = roundTo(2);

import { TAXES } from './reference.js';
import type { SessionPlan } from './sessions.js';
import type { Product, Shop } from './shop.js';

const NOTES = [5, 10, 20, 50, 100];
const LINE_COUNT_WEIGHTS = [1, 1, 1, 2, 2, 2, 3, 3, 4, 5];

type Kind = 'sale' | 'refund' | 'cancel' | 'draft';

/** What the sales write and carry from one day to the next. */
export interface Ledger {
  orders: Table;
  lines: Table;
  payments: Table;
  invoices: Table;
  /** The last sale number (POS/000001...) and invoice number handed out. */
  seq: number;
  invoiceSeq: number;
  /** Per register: recent sales that can still be refunded. */
  refundable: Rec[][];
  /** The optional modules' records (data/extras.ts), company 1's only. */
  extras: Extras | undefined;
}

export function openLedger(g: Gen, shop: Shop, extras?: Extras): Ledger {
  return {
    orders: g.db.table('pos.order'),
    lines: g.db.table('pos.order.line'),
    payments: g.db.table('pos.payment'),
    invoices: g.db.table('account.move'),
    seq: 0,
    invoiceSeq: 0,
    refundable: shop.registers.map(() => []),
    extras,
  };
}

/** What the optional modules decided for the order being written (data/extras.ts). */
let ox: OrderExtras = beginOrder(undefined, 0, 'sale', undefined);

/** One order being written; one object reused for every order (generation allocates little). */
interface Draft {
  id: number;
  t: number;
  at: string;
  plan: SessionPlan;
  kind: Kind;
  original: Rec | undefined;
  amountTotal: number;
  amountTax: number;
  /** With `leaks`: the order's cashier (uid), so one who stands out can behave so. */
  cashier: number;
  /** Σ price_subtotal of the lines, unrounded. */
  untaxed: number;
}
const draft: Draft = {
  id: 0,
  t: 0,
  at: '',
  plan: undefined as unknown as SessionPlan,
  kind: 'sale',
  original: undefined,
  amountTotal: 0,
  amountTax: 0,
  cashier: 0,
  untaxed: 0,
};

interface PayTick {
  orderId: number;
  at: string;
  sessionId: number;
  cash: number;
  paid: number;
  cashTaken: number;
}
const tick: PayTick = { orderId: 0, at: '', sessionId: 0, cash: 0, paid: 0, cashTaken: 0 };

/**
 * Sells a day's orders. Returns, per session, how many cash payments it took (a closing books
 * the cash sales as a statement line only when there were some).
 */
export function sellDay(
  g: Gen,
  shop: Shop,
  products: Product[],
  ledger: Ledger,
  day: SessionPlan[],
): Map<SessionPlan, number> {
  const { rng } = g;
  roundMoney = g.round;
  const cashSales = new Map<SessionPlan, number>();
  let n = 0;
  for (const p of day) n += p.orders;
  const times = new Float64Array(n);
  const owner = new Int32Array(n);
  let k = 0;
  day.forEach((p, i) => {
    const span = p.end - p.start - 120;
    for (let j = 0; j < p.orders; j++) {
      times[k] = p.start + 60 + Math.floor(rng.float() * Math.max(1, span));
      owner[k++] = i;
    }
  });
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  idx.sort((a, b) => (times[a] as number) - (times[b] as number) || a - b);
  const perSession = new Int32Array(day.length);
  for (let q = 0; q < n; q++) {
    const i = idx[q] as number;
    const plan = day[owner[i] as number] as SessionPlan;
    const ref = ++perSession[owner[i] as number];
    const cashPayments = sellOrder(g, shop, products, ledger, plan, times[i] as number, ref);
    if (cashPayments > 0) cashSales.set(plan, (cashSales.get(plan) ?? 0) + cashPayments);
  }
  return cashSales;
}

/** Writes one order (lines, payments, the order itself); returns the number of cash payments. */
function sellOrder(
  g: Gen,
  shop: Shop,
  products: Product[],
  ledger: Ledger,
  plan: SessionPlan,
  t: number,
  ref: number,
): number {
  const { orders, lines, payments } = ledger;
  const r = plan.register;
  const candidates = ledger.refundable[r] as Rec[];
  startDraft(g, plan, t, orders.nextId, candidates);
  const l0 = lines.nextId;
  const { name, ownLines } = writeLines(g, shop, products, ledger, candidates);
  const p0 = payments.nextId;
  const { due, amountReturn, cashPayments } = payOrder(g, shop, ledger, plan);
  const { state, writeDate, account } = settle(g, ledger, due);
  const order: Rec = {
    id: draft.id,
    name,
    date_order: draft.at,
    session_id: plan.rec.id,
    config_id: shop.configBase + r + 1,
    state,
    amount_total: draft.amountTotal,
    amount_tax: draft.amountTax,
    amount_paid: tick.paid,
    amount_return: amountReturn,
    account_move: account,
    write_date: writeDate,
    _l0: l0,
    _ln: lines.nextId - l0,
    _p0: p0,
    _pn: payments.nextId - p0,
    _n: ref,
    ...(ledger.extras && draft.kind === 'sale' ? { _lo: ownLines } : {}),
    ...orderFields(ledger.extras, ox, plan, draft.t),
  };
  if (g.version === 19) order.is_refund = draft.kind === 'refund';
  orders.insert(order);
  afterOrder(ledger.extras, ox, draft.id);
  if (draft.kind === 'sale' && state !== 'draft') {
    candidates.push(order);
    if (candidates.length > 400) candidates.splice(0, 200);
  }
  return cashPayments;
}

/** The order being written: its id, time, session, cashier and kind, its amounts at zero. */
function startDraft(g: Gen, plan: SessionPlan, t: number, id: number, candidates: Rec[]): void {
  draft.id = id;
  draft.t = t;
  draft.at = fmtDatetime(t);
  draft.plan = plan;
  draft.cashier = g.leaks ? cashierOf({ id: draft.id, session_id: plan.rec.id }, g.db) : 0;
  draft.kind = pickKind(g, plan, candidates);
  draft.original = undefined;
  draft.amountTotal = 0;
  draft.amountTax = 0;
  draft.untaxed = 0;
}

/**
 * The order's lines: a refund's of a recent sale (taken out of the candidates), or a sale's
 * own and those the optional modules add (tips, discounts, rewards, cards). Its name, and how
 * many lines are the sale's own.
 */
function writeLines(
  g: Gen,
  shop: Shop,
  products: Product[],
  ledger: Ledger,
  candidates: Rec[],
): { name: string; ownLines: number } {
  const { lines } = ledger;
  const r = draft.plan.register;
  if (draft.kind === 'refund') {
    const last = candidates.length - 1;
    // Drawn in every case, so that the other draws stay those of the same seed.
    const drawn = g.rng.int(Math.max(0, last - 49), last);
    const at = draft.cashier === LEAKY.quickRefunds ? last : drawn;
    const original = candidates.splice(at, 1)[0] as Rec;
    draft.original = original;
    ox = beginOrder(ledger.extras, r, draft.kind, original);
    refundLines(g, ledger, original);
    return { name: `${original.name} REFUND`, ownLines: 0 };
  }
  const l0 = lines.nextId;
  ox = beginOrder(ledger.extras, r, draft.kind, undefined);
  saleLines(g, ledger, products);
  const ownLines = lines.nextId - l0;
  extraLines(ledger.extras, ox, draft.kind, r, lines, l0, (product, qty, price, rate, taxIds) =>
    addLine(lines, product, qty, price, 0, rate, taxIds, false, true),
  );
  const name = draft.kind === 'sale' ? `${shop.orderPrefix}/${String(++ledger.seq).padStart(6, '0')}` : '/';
  return { name, ownLines };
}

/**
 * The order's totals, its payments (and a restaurant's tip on the card); the amount due, the
 * change given back and how many payments were in cash.
 */
function payOrder(
  g: Gen,
  shop: Shop,
  ledger: Ledger,
  plan: SessionPlan,
): { due: number; amountReturn: number; cashPayments: number } {
  const { lines, payments } = ledger;
  // As Odoo's _onchange_amount_all: the tax and the untaxed sum each rounded, the total their sum.
  draft.amountTax = roundMoney(draft.amountTax);
  draft.amountTotal = roundMoney(draft.amountTax + roundMoney(draft.untaxed));
  const p0 = payments.nextId;
  const cash = shop.cashMethod[plan.register] as number;
  const due = roundMoney(draft.amountTotal);
  const amountReturn = pay(g, shop, ledger, cash, due);
  const tip = afterPayment(
    g,
    ledger.extras,
    ox,
    draft.kind,
    plan,
    payments,
    p0,
    (product, qty, price, rate, taxIds) => addLine(lines, product, qty, price, 0, rate, taxIds, false, true),
  );
  if (tip !== 0) {
    // The tip is an untaxed line paid on the card: the total and the paid amount grow by it.
    draft.amountTotal = roundMoney(draft.amountTotal + tip);
    tick.paid = roundMoney(tick.paid + tip);
  }
  plan.cash += tick.cashTaken;
  let cashPayments = 0;
  for (let id = p0; id < payments.nextId; id++)
    if (payments.rows[id]?.payment_method_id === cash) cashPayments++;
  return { due, amountReturn, cashPayments };
}

/** A draft (open session only), a cancellation, a refund of a recent sale, or a sale. */
function pickKind(g: Gen, plan: SessionPlan, candidates: Rec[]): Kind {
  const roll = g.rng.float();
  if (plan.open && roll < 0.015) return 'draft';
  if (roll < 0.035) return 'cancel';
  const refunds = draft.cashier === LEAKY.refunds ? 0.22 : 0.065;
  if (roll < refunds && candidates.length > 0) return 'refund';
  return 'sale';
}

/** A refund gives back all the original's lines, or (3 times in 10) one of them, negated. */
function refundLines(g: Gen, { lines }: Ledger, original: Rec): void {
  const ol0 = original._l0 as number;
  // Tips, discounts, rewards and cards are not given back line by line (as the front end's
  // refund leaves them): only the sale's own lines, so the draws stay those without them.
  const oln = (original._lo ?? original._ln) as number;
  const one = oln > 1 && g.rng.chance(0.3) ? ol0 + g.rng.int(0, oln - 1) : -1;
  for (let lid = ol0; lid < ol0 + oln; lid++) {
    if (one !== -1 && lid !== one) continue;
    const ol = lines.rows[lid] as Rec;
    const taxIds = ol.tax_ids as number[];
    const tax = taxIds[0] === TAKEAWAY_TAX.id ? TAKEAWAY_TAX : TAXES[(taxIds[0] as number) - 1];
    const rate = taxIds.length === 0 ? 0 : (tax?.amount ?? 15) / 100;
    addLine(
      lines,
      ol.product_id as number,
      -(ol.qty as number),
      ol.price_unit as number,
      ol.discount as number,
      rate,
      taxIds,
      lid,
    );
  }
}

/** 1 to 5 lines of random products, mostly one of each, 9 in 100 discounted. */
function saleLines(g: Gen, { lines }: Ledger, products: Product[]): void {
  const { rng } = g;
  const count = LINE_COUNT_WEIGHTS[rng.int(0, LINE_COUNT_WEIGHTS.length - 1)] as number;
  for (let j = 0; j < count; j++) {
    const p = products[rng.int(0, products.length - 1)] as Product;
    const qr = rng.float();
    const qty = qr < 0.72 ? 1 : qr < 0.92 ? 2 : qr < 0.98 ? 3 : 5;
    const disc =
      draft.cashier === LEAKY.discounts
        ? rng.chance(0.6)
          ? rng.pick([20, 25, 30, 40, 50])
          : 0
        : rng.chance(0.09)
          ? rng.pick([5, 10, 15, 20, 25, 50])
          : 0;
    const [rate, taxIds] = lineTaxes(ox, p.taxRate, p.taxIds);
    addLine(lines, p.productId, qty, p.price, disc, rate, taxIds, false);
  }
}

/**
 * One line with its subtotals: rounded to the currency where the line is taxed (Odoo's
 * compute_all), as computed where it is not (3 × 1.98 − 15 % = 5.049), as Odoo 17 stores them.
 */
function addLine(
  lines: Table,
  productId: number,
  qty: number,
  price: number,
  disc: number,
  rate: number,
  taxIds: number[],
  refunded: number | false,
  rounded = false,
): Rec {
  const base = qty * price * (1 - disc / 100);
  const taxed = taxIds.length > 0 || rounded;
  const excl = taxed ? roundMoney(base) : base;
  const incl = taxed ? roundMoney(base * (1 + rate)) : base;
  const row: Rec = {
    id: lines.nextId,
    order_id: draft.id,
    product_id: productId,
    qty,
    price_unit: price,
    discount: disc,
    price_subtotal: excl,
    price_subtotal_incl: incl,
    tax_ids: taxIds,
    refunded_orderline_id: refunded,
  };
  lines.insert(row);
  draft.untaxed += excl;
  draft.amountTax += incl - excl;
  return row;
}

/**
 * Payments: a refund goes back the way the original was paid (cash or card); a sale is paid in
 * cash (45%: exact, rounded up or with a note, the change given back as a negative cash row), by
 * card (45%) or both (10%). Returns the change given back.
 */
function pay(g: Gen, shop: Shop, { payments }: Ledger, cash: number, due: number): number {
  const { rng } = g;
  tick.orderId = draft.id;
  tick.at = draft.at;
  tick.sessionId = draft.plan.rec.id;
  tick.cash = cash;
  tick.paid = 0;
  tick.cashTaken = 0;
  let amountReturn = 0;
  if (draft.kind === 'refund') {
    const origFirst = payments.rows[draft.original?._p0 as number];
    payOnce(payments, origFirst?.payment_method_id === cash ? cash : shop.cardMethod, due, false);
  } else if (draft.kind === 'sale') {
    const how = rng.float();
    if (how < 0.45) {
      let tendered = due;
      if (rng.chance(0.5)) {
        const note = NOTES.find((v) => v >= due) ?? Math.ceil(due / 50) * 50;
        tendered = rng.chance(0.5) ? Math.ceil(due / 5) * 5 : note;
      }
      payOnce(payments, cash, tendered, false);
      const change = roundMoney(tendered - due);
      if (change > 0) {
        payOnce(payments, cash, -change, true);
        amountReturn = change;
      }
    } else if (how < 0.9) {
      payOnce(payments, shop.cardMethod, due, false);
    } else {
      const card = roundMoney(due * (0.3 + 0.4 * rng.float()));
      payOnce(payments, shop.cardMethod, card, false);
      payOnce(payments, cash, roundMoney(due - card), false);
    }
  }
  return amountReturn;
}

function payOnce(payments: Table, method: number, amount: number, change: boolean): void {
  payments.insert({
    id: payments.nextId,
    name: change ? 'return' : false,
    pos_order_id: tick.orderId,
    amount,
    payment_method_id: method,
    payment_date: tick.at,
    session_id: tick.sessionId,
    is_change: change,
  });
  tick.paid += amount;
  if (method === tick.cash) tick.cashTaken += amount;
}

/**
 * The order's state and last write: a draft as created; a cancellation some minutes later; paid in
 * the open session; in a closed session 1 sale in 20 invoiced at the counter (16-18 'invoiced', 19
 * 'done' with the move), the others 'done' when the session closes (write date set then). Each
 * later write is its own transaction (its own microseconds).
 */
function settle(
  g: Gen,
  ledger: Ledger,
  due: number,
): { state: string; writeDate: string; account: number | false } {
  const { t, id, plan, kind, at } = draft;
  if (kind === 'draft') return { state: 'draft', writeDate: txStamp(t, id), account: false };
  if (kind === 'cancel')
    return {
      state: 'cancel',
      writeDate: txStamp(Math.min(t + g.rng.int(30, 600), plan.end), id),
      account: false,
    };
  if (plan.open) return { state: 'paid', writeDate: txStamp(t + 2, id), account: false };
  if (kind === 'sale' && g.rng.chance(0.05)) {
    const moveId = ledger.invoices.nextId;
    ledger.invoices.insert({
      id: moveId,
      name: `INV/${at.slice(0, 4)}/${String(++ledger.invoiceSeq).padStart(5, '0')}`,
      date: at.slice(0, 10),
      invoice_date: at.slice(0, 10),
      amount_total: due,
      _at: txStamp(t + 5, id),
    });
    return { state: g.version === 19 ? 'done' : 'invoiced', writeDate: txStamp(t + 5, id), account: moveId };
  }
  return { state: 'done', writeDate: '', account: false };
}
