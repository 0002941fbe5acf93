/**
 * The generated shop: registers, sessions over `days` days, orders with lines, payments (change given
 * back as a negative cash row), refunds linked line by line, cancellations, drafts in the open
 * session, cash moves, and closings whose counted cash sometimes differs from the expected cash.
 * Everything comes from one seeded PRNG, so a seed always gives the same data. Figures are summed with
 * plain float addition, as Odoo does, so sums carry the same float noise a real server shows.
 */
import { buildModels, CASHIER_UIDS } from './models.js';
import { Prng } from './prng.js';
import { Db, type Table } from './store.js';
import { fmtDate, fmtDatetime, txStamp } from './time.js';
import type { OdooVersion, Rec } from './types.js';

export interface GenerateOptions {
  seed: number;
  orders: number;
  days: number;
  version: OdooVersion;
  /** The data's "now": history ends just before it; the open session is on its UTC day. */
  now: Date;
  /** pos_hr installed: employees, and orders that name theirs. */
  posHr?: boolean;
}

export interface SandboxUser {
  login: string;
  password: string;
  uid: number;
  role: 'manager' | 'user' | 'clerk';
  name: string;
  label: string;
  tz: string | false;
}

export const USERS: SandboxUser[] = [
  {
    login: 'admin',
    password: 'admin',
    uid: 2,
    role: 'manager',
    name: 'Mitchell Admin',
    label: 'POS administrator',
    tz: 'Europe/Brussels',
  },
  {
    login: 'pos',
    password: 'pos',
    uid: 6,
    role: 'user',
    name: 'Marc Demo',
    label: 'POS user',
    tz: 'Europe/Brussels',
  },
  {
    login: 'clerk',
    password: 'clerk',
    uid: 7,
    role: 'clerk',
    name: 'Joel Willis',
    label: 'no POS rights',
    tz: 'UTC',
  },
];

const REGISTER_NAMES = ['Shop', 'Boutique', 'Bar', 'Terrace', 'Kiosk', 'Corner'];

const CATALOG: [string, string][] = [
  ['FURN_0001', 'Office Chair'],
  ['FURN_0002', 'Desk Lamp'],
  ['FURN_0003', 'Corner Desk'],
  ['FURN_0004', 'Drawer Unit'],
  ['FURN_0005', 'Magnetic Board'],
  ['FURN_0006', 'Large Cabinet'],
  ['FURN_0007', 'Storage Box'],
  ['FURN_0008', 'Small Shelf'],
  ['FURN_0009', 'Wall Shelf Unit'],
  ['FURN_0010', 'Monitor Stand'],
  ['FURN_0011', 'Acoustic Bloc Screens'],
  ['FURN_0012', 'Flipover'],
  ['FURN_0013', 'Pedal Bin'],
  ['FURN_0014', 'Whiteboard Pen'],
  ['FURN_0015', 'Letter Tray'],
  ['FURN_0016', 'Coat Rack'],
  ['FOOD_0001', 'Espresso'],
  ['FOOD_0002', 'Cappuccino'],
  ['FOOD_0003', 'Croissant'],
  ['FOOD_0004', 'Bagel'],
  ['FOOD_0005', 'Orange Juice'],
  ['FOOD_0006', 'Green Tea'],
  ['FOOD_0007', 'Chocolate Muffin'],
  ['FOOD_0008', 'Club Sandwich'],
  ['FOOD_0009', 'Caesar Salad'],
  ['FOOD_0010', 'Sparkling Water'],
  ['FOOD_0011', 'Lemonade'],
  ['FOOD_0012', 'Brownie'],
  ['BOOK_0001', 'Notebook A5'],
  ['BOOK_0002', 'City Guide'],
  ['BOOK_0003', 'Postcard Set'],
  ['BOOK_0004', 'Wall Calendar'],
  ['GIFT_0001', 'Gift Card'],
  ['GIFT_0002', 'Tote Bag'],
  ['GIFT_0003', 'Ceramic Mug'],
  ['GIFT_0004', 'Scented Candle'],
  ['GIFT_0005', 'Keychain'],
  ['GIFT_0006', 'Sunglasses'],
  ['GIFT_0007', 'Umbrella'],
  ['GIFT_0008', 'Water Bottle'],
];

/** Cashiers who ring up orders but never log in through the API (uids in CASHIER_UIDS). */
const CASHIERS = ['Anita Oliver', 'Beth Evans', 'Ronnie Hart'];

/** Product categories (id, name, parent) and, per catalogue code prefix, the product's category. */
const CATEGORIES: [number, string, number | false][] = [
  [1, 'All', false],
  [2, 'Saleable', 1],
  [3, 'Office Furniture', 2],
  [4, 'Food & Drinks', 2],
  [5, 'Books', 2],
  [6, 'Gifts', 2],
];
const CATEGORY_OF: Record<string, number> = { FURN: 3, FOOD: 4, BOOK: 5, GIFT: 6 };
const POS_CATEGORIES = ['Furniture', 'Food', 'Drinks', 'Books', 'Gifts'];
const DRINKS = new Set(['FOOD_0001', 'FOOD_0002', 'FOOD_0005', 'FOOD_0006', 'FOOD_0010', 'FOOD_0011']);
const POS_CATEGORY_OF: Record<string, number> = { FURN: 1, FOOD: 2, BOOK: 4, GIFT: 5 };

const TAXES = [
  { id: 1, name: '15%', amount: 15 },
  { id: 2, name: '21%', amount: 21 },
  { id: 3, name: '6%', amount: 6 },
];

const NOTES = [5, 10, 20, 50, 100];

interface PayTick {
  orderId: number;
  at: string;
  sessionId: number;
  cash: number;
  paid: number;
  cashTaken: number;
}
const tick: PayTick = { orderId: 0, at: '', sessionId: 0, cash: 0, paid: 0, cashTaken: 0 };

function payOnce(payments: Table, t: PayTick, method: number, amount: number, change: boolean): void {
  payments.insert({
    id: payments.nextId,
    name: change ? 'return' : false,
    pos_order_id: t.orderId,
    amount,
    payment_method_id: method,
    payment_date: t.at,
    session_id: t.sessionId,
    is_change: change,
  });
  t.paid += amount;
  if (method === t.cash) t.cashTaken += amount;
}

/** The share of all orders sold in the busy session (its closing writes them in one transaction). */
const BUSY_SHARE = 0.3;

const round2 = (x: number): number => Math.round((x + (x >= 0 ? 1e-9 : -1e-9)) * 100) / 100;
const DAY = 86400;

interface Product {
  productId: number;
  price: number;
  taxRate: number;
  taxIds: number[];
}

interface SessionPlan {
  rec: Rec;
  register: number;
  start: number;
  /** Orders are sold in [start, end]; for closed sessions end is the closing time. */
  end: number;
  open: boolean;
  cash: number;
  orders: number;
}

export interface Generated {
  db: Db;
  stats: { orders: number; lines: number; payments: number; sessions: number; ms: number };
}

export function generate(opts: GenerateOptions): Generated {
  const t0 = performance.now();
  const rng = new Prng(opts.seed);
  const db = new Db(opts.version, buildModels(opts.version, { posHr: opts.posHr }));
  const v19 = opts.version === 19;
  const nowSec = Math.floor(opts.now.getTime() / 1000);
  const today = Math.floor(nowSec / DAY) * DAY;
  const days = Math.max(1, Math.floor(opts.days));
  // Everything set up before the sales was written in one transaction: one stamp.
  const setupAt = txStamp(today - (days + 30) * DAY + 9 * 3600, 1);
  const ins = (model: string, rec: Rec): Rec => {
    db.table(model).insert(rec);
    return rec;
  };
  const stamp = { create_date: setupAt, write_date: setupAt };

  // Reference data: currency, company, partners, users, taxes.
  ins('res.currency', { id: 1, name: 'EUR', symbol: '€', ...stamp });
  ins('res.company', { id: 1, name: 'My Company', currency_id: 1, ...stamp });
  ins('res.partner', { id: 1, name: 'My Company', ...stamp });
  ins('res.partner', { id: 2, name: 'OdooBot', active: false, ...stamp });
  ins('res.users', {
    id: 1,
    name: 'OdooBot',
    login: '__system__',
    tz: false,
    active: false,
    partner_id: 2,
    ...stamp,
  });
  for (const u of USERS) {
    const partner = ins('res.partner', { id: u.uid + 1, name: u.name, ...stamp });
    ins('res.users', {
      id: u.uid,
      name: u.name,
      login: u.login,
      tz: u.tz,
      active: true,
      partner_id: partner.id,
      ...stamp,
    });
  }
  for (const t of TAXES)
    ins('account.tax', { id: t.id, name: t.name, amount: t.amount, type_tax_use: 'sale', ...stamp });
  // Reference data added later (cashiers, categories, employees) draws nothing from the PRNG, so a
  // seed keeps giving the data it gave before they existed.
  CASHIERS.forEach((name, i) => {
    const uid = CASHIER_UIDS[i] as number;
    const partner = ins('res.partner', { id: 20 + i, name, ...stamp });
    ins('res.users', {
      id: uid,
      name,
      login: name.split(' ')[0]?.toLowerCase(),
      tz: 'Europe/Brussels',
      active: true,
      partner_id: partner.id,
      ...stamp,
    });
  });
  const completeName = (id: number): string => {
    const c = CATEGORIES.find((x) => x[0] === id);
    if (!c) return '';
    return c[2] === false ? c[1] : `${completeName(c[2])} / ${c[1]}`;
  };
  for (const [id, name, parent] of CATEGORIES)
    ins('product.category', { id, name, complete_name: completeName(id), parent_id: parent, ...stamp });
  POS_CATEGORIES.forEach((name, i) => {
    ins('pos.category', { id: i + 1, name, parent_id: false, sequence: i + 1, ...stamp });
  });
  if (opts.posHr) {
    const staff: [string, number | false][] = [
      ...USERS.filter((u) => u.role !== 'clerk').map((u): [string, number] => [u.name, u.uid]),
      ...CASHIERS.map((n, i): [string, number] => [n, CASHIER_UIDS[i] as number]),
      ['Ava Student', false],
    ];
    staff.forEach(([name, uid], i) => {
      ins('hr.employee', { id: i + 1, name, user_id: uid, active: true, ...stamp });
    });
  }

  // Registers and payment methods: one cash method per register (Odoo gives each its own cash
  // journal), one shared card method, and an archived method to exercise active_test.
  const registerCount = rng.int(2, 4);
  const names = [...REGISTER_NAMES];
  const registers: string[] = ['Shop'];
  names.shift();
  while (registers.length < registerCount)
    registers.push(names.splice(rng.int(0, names.length - 1), 1)[0] as string);
  const cashMethod: number[] = [];
  registers.forEach((name, i) => {
    const id = i + 1;
    ins('pos.payment.method', {
      id,
      name: i === 0 ? 'Cash' : `Cash ${name}`,
      sequence: i,
      is_cash_count: true,
      active: true,
      ...stamp,
    });
    cashMethod.push(id);
  });
  const cardMethod = registers.length + 1;
  ins('pos.payment.method', {
    id: cardMethod,
    name: 'Card',
    sequence: 10,
    is_cash_count: false,
    active: true,
    ...stamp,
  });
  ins('pos.payment.method', {
    id: cardMethod + 1,
    name: 'Gift Voucher',
    sequence: 11,
    is_cash_count: false,
    active: false,
    ...stamp,
  });
  registers.forEach((name, i) => {
    ins('pos.config', { id: i + 1, name, active: true, payment_method_ids: [i + 1, cardMethod], ...stamp });
  });

  // Catalogue: ~40 templates with codes; product.product ids are offset from template ids, as in
  // a real database where variants are created after other records.
  const products: Product[] = [];
  const taxIdArrays = TAXES.map((t) => [t.id]);
  CATALOG.forEach(([code, name], i) => {
    const id = i + 1;
    const food = code.startsWith('FOOD');
    const price = food
      ? rng.pick([1.8, 2.2, 2.5, 2.9, 3.4, 3.9, 4.5, 6.5, 8.9, 9.5])
      : rng.pick([4.99, 7.5, 12.0, 14.9, 19.99, 24.5, 39.0, 59.9, 89.0, 149.0, 295.0]);
    const tax = food ? TAXES[2] : rng.chance(0.7) ? TAXES[1] : TAXES[0];
    const t = tax ?? TAXES[0];
    const archived = i === CATALOG.length - 1;
    const inPos = !archived && i !== 15;
    const tmpl: Rec = {
      id,
      name,
      default_code: code,
      list_price: price,
      available_in_pos: inPos,
      active: !archived,
      taxes_id: [t?.id ?? 1],
      categ_id: CATEGORY_OF[code.slice(0, 4)] ?? 2,
      pos_categ_ids: [DRINKS.has(code) ? 3 : (POS_CATEGORY_OF[code.slice(0, 4)] ?? 5)],
      ...stamp,
    };
    if (opts.version >= 18) tmpl.is_favorite = i % 13 === 0;
    else tmpl.priority = i % 13 === 0 ? '1' : '0';
    ins('product.template', tmpl);
    const productId = id + 10;
    ins('product.product', { id: productId, product_tmpl_id: id, active: !archived, ...stamp });
    if (inPos)
      products.push({
        productId,
        price,
        taxRate: (t?.amount ?? 15) / 100,
        taxIds: taxIdArrays[(t?.id ?? 1) - 1] as number[],
      });
  });

  // Sessions: one per register per past day, opened in the morning and closed in the evening (UTC),
  // plus today's open session on the first register. Ids follow opening time.
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
          config_id: p.register + 1,
          user_id: p.open || rng.chance(0.6) ? 2 : 6,
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

  // Spread the orders over the sessions in proportion to their opening hours, after the busy day:
  // the first register's last closed session (yesterday's) sells BUSY_SHARE of all orders, so its
  // closing writes more orders in one transaction (one write_date) than a page holds.
  const flat = plans.flat();
  const busy = flat.filter((p) => !p.open && p.register === 0).at(-1);
  const rest = flat.filter((p) => p !== busy);
  const busyOrders = busy ? Math.round(opts.orders * BUSY_SHARE) : 0;
  if (busy) busy.orders = busyOrders;
  const total = rest.reduce((s, p) => s + (p.end - p.start), 0);
  let acc = 0;
  let given = 0;
  for (const p of rest) {
    acc += p.end - p.start;
    const upTo = Math.round(((opts.orders - busyOrders) * acc) / total);
    p.orders = upTo - given;
    given = upTo;
  }

  const orders = db.table('pos.order');
  const lines = db.table('pos.order.line');
  const payments = db.table('pos.payment');
  const moves = db.table('account.bank.statement.line');
  const invoices = db.table('account.move');
  let seq = 0;
  let invoiceSeq = 0;
  const prevReal = new Map<number, number>();
  /** Per register: recent sales that can still be refunded. */
  const refundable: Rec[][] = registers.map(() => []);
  const lineCountWeights = [1, 1, 1, 2, 2, 2, 3, 3, 4, 5];

  for (const day of plans) {
    const cashSales = new Map<SessionPlan, number>();
    // Orders of all registers of the day in time order, so order ids follow sale time.
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
      const t = times[i] as number;
      const session = plan.rec;
      const r = plan.register;
      const at = fmtDatetime(t);
      const orderId = orders.nextId;
      const ref = ++perSession[owner[i] as number];
      const roll = rng.float();
      const candidates = refundable[r] as Rec[];
      let state: string;
      let kind: 'sale' | 'refund' | 'cancel' | 'draft';
      if (plan.open && roll < 0.015) kind = 'draft';
      else if (roll < 0.035) kind = 'cancel';
      else if (roll < 0.065 && candidates.length > 0) kind = 'refund';
      else kind = 'sale';

      const l0 = lines.nextId;
      let amountTotal = 0;
      let amountTax = 0;
      let name: string;
      let original: Rec | undefined;
      if (kind === 'refund') {
        original = candidates.splice(
          rng.int(Math.max(0, candidates.length - 50), candidates.length - 1),
          1,
        )[0] as Rec;
        name = `${original.name} REFUND`;
        const ol0 = original._l0 as number;
        const oln = original._ln as number;
        const one = oln > 1 && rng.chance(0.3) ? ol0 + rng.int(0, oln - 1) : -1;
        for (let lid = ol0; lid < ol0 + oln; lid++) {
          if (one !== -1 && lid !== one) continue;
          const ol = lines.rows[lid] as Rec;
          const qty = -(ol.qty as number);
          const price = ol.price_unit as number;
          const disc = ol.discount as number;
          const taxIds = ol.tax_ids as number[];
          const rate = (TAXES[(taxIds[0] ?? 1) - 1]?.amount ?? 15) / 100;
          const base = qty * price * (1 - disc / 100);
          const excl = round2(base);
          const incl = round2(base * (1 + rate));
          lines.insert({
            id: lines.nextId,
            order_id: orderId,
            product_id: ol.product_id,
            qty,
            price_unit: price,
            discount: disc,
            price_subtotal: excl,
            price_subtotal_incl: incl,
            tax_ids: taxIds,
            refunded_orderline_id: lid,
          });
          amountTotal += incl;
          amountTax += incl - excl;
        }
      } else {
        const count = lineCountWeights[rng.int(0, lineCountWeights.length - 1)] as number;
        for (let j = 0; j < count; j++) {
          const p = products[rng.int(0, products.length - 1)] as Product;
          const qr = rng.float();
          const qty = qr < 0.72 ? 1 : qr < 0.92 ? 2 : qr < 0.98 ? 3 : 5;
          const disc = rng.chance(0.09) ? rng.pick([5, 10, 15, 20, 25, 50]) : 0;
          const base = qty * p.price * (1 - disc / 100);
          const excl = round2(base);
          const incl = round2(base * (1 + p.taxRate));
          lines.insert({
            id: lines.nextId,
            order_id: orderId,
            product_id: p.productId,
            qty,
            price_unit: p.price,
            discount: disc,
            price_subtotal: excl,
            price_subtotal_incl: incl,
            tax_ids: p.taxIds,
            refunded_orderline_id: false,
          });
          amountTotal += incl;
          amountTax += incl - excl;
        }
        name = kind === 'sale' ? `POS/${String(++seq).padStart(6, '0')}` : '/';
      }

      // Payments: cash (change given back as a negative cash row), card, or both.
      const p0 = payments.nextId;
      let amountPaid = 0;
      let amountReturn = 0;
      const due = round2(amountTotal);
      const cash = cashMethod[r] as number;
      // One reusable context instead of a closure per order: generation allocates as little as it can.
      tick.orderId = orderId;
      tick.at = at;
      tick.sessionId = session.id;
      tick.cash = cash;
      tick.paid = 0;
      tick.cashTaken = 0;
      let method = 0;
      if (kind === 'refund') {
        const origFirst = payments.rows[original?._p0 as number];
        method = origFirst?.payment_method_id === cash ? cash : cardMethod;
        payOnce(payments, tick, method, due, false);
      } else if (kind === 'sale') {
        const how = rng.float();
        if (how < 0.45) {
          let tendered = due;
          if (rng.chance(0.5)) {
            const note = NOTES.find((v) => v >= due) ?? Math.ceil(due / 50) * 50;
            tendered = rng.chance(0.5) ? Math.ceil(due / 5) * 5 : note;
          }
          payOnce(payments, tick, cash, tendered, false);
          const change = round2(tendered - due);
          if (change > 0) {
            payOnce(payments, tick, cash, -change, true);
            amountReturn = change;
          }
        } else if (how < 0.9) {
          payOnce(payments, tick, cardMethod, due, false);
        } else {
          const card = round2(due * (0.3 + 0.4 * rng.float()));
          payOnce(payments, tick, cardMethod, card, false);
          payOnce(payments, tick, cash, round2(due - card), false);
        }
      }

      amountPaid = tick.paid;
      plan.cash += tick.cashTaken;
      for (let id = p0; id < payments.nextId; id++)
        if (payments.rows[id]?.payment_method_id === cash)
          cashSales.set(plan, (cashSales.get(plan) ?? 0) + 1);
      // Each later write of the order is its own transaction (its own microseconds); a draft was
      // last written when it was created.
      let writeDate: string = txStamp(t, orderId);
      let account: number | false = false;
      if (kind === 'draft') state = 'draft';
      else if (kind === 'cancel') {
        state = 'cancel';
        writeDate = txStamp(Math.min(t + rng.int(30, 600), plan.end), orderId);
      } else if (plan.open) {
        state = 'paid';
        writeDate = txStamp(t + 2, orderId);
      } else if (kind === 'sale' && rng.chance(0.05)) {
        // Invoiced at the counter: 16-18 mark the order 'invoiced'; 19 keeps 'done' with the move.
        state = v19 ? 'done' : 'invoiced';
        const moveId = invoices.nextId;
        invoices.insert({
          id: moveId,
          name: `INV/${at.slice(0, 4)}/${String(++invoiceSeq).padStart(5, '0')}`,
          date: at.slice(0, 10),
          invoice_date: at.slice(0, 10),
          amount_total: due,
          _at: txStamp(t + 5, orderId),
        });
        account = moveId;
        writeDate = txStamp(t + 5, orderId);
      } else {
        state = 'done';
        writeDate = ''; // set when the session closes
      }

      const order: Rec = {
        id: orderId,
        name,
        date_order: at,
        session_id: session.id,
        config_id: r + 1,
        state,
        amount_total: amountTotal,
        amount_tax: amountTax,
        amount_paid: amountPaid,
        amount_return: amountReturn,
        account_move: account,
        write_date: writeDate,
        _l0: l0,
        _ln: lines.nextId - l0,
        _p0: p0,
        _pn: payments.nextId - p0,
        _n: ref,
      };
      if (v19) order.is_refund = kind === 'refund';
      orders.insert(order);
      if (kind === 'sale' && state !== 'draft') {
        candidates.push(order);
        if (candidates.length > 400) candidates.splice(0, 200);
      }
    }

    // Cash moves and closings.
    for (const plan of day) {
      const s = plan.rec;
      const r = plan.register;
      const start = prevReal.get(r);
      s.cash_register_balance_start = start ?? 0;
      let movesSum = 0;
      const closingLine = (amount: number, ref: string, at: number, stamp?: string): void => {
        moves.insert({
          id: moves.nextId,
          pos_session_id: s.id,
          amount,
          payment_ref: ref,
          date: fmtDate(at),
          _at: stamp ?? txStamp(at, moves.nextId),
        });
      };
      // Cash put in or taken out during the session (Odoo's try_cash_in_out names them so).
      const move = (amount: number, label: string, at: number): void => {
        closingLine(amount, `${s.name}-${amount >= 0 ? 'in' : 'out'}-${label}`, at);
        movesSum += amount;
      };
      // The very first session of a register starts from an empty drawer and puts a float in.
      if (start === undefined) move(rng.int(10, 30) * 10, 'Opening float', plan.start + 90);
      else if (rng.chance(0.15)) move(rng.pick([50, 100]), 'Change float', plan.start + 300);
      if (!plan.open && rng.chance(0.1))
        move(-rng.int(5, 40), 'Office supplies', plan.start + Math.floor((plan.end - plan.start) / 2));
      const drawer = (start ?? 0) + movesSum + plan.cash;
      // Most evenings the takings above a float go to the bank, so drawers stay plausible.
      if (!plan.open && drawer > 600 && rng.chance(0.7))
        move(-Math.floor((drawer - rng.int(150, 300)) / 10) * 10, 'Cash to bank', plan.end - 600);
      if (plan.open) continue;
      const expected = (start ?? 0) + movesSum + plan.cash;
      const dr = rng.float();
      const diff = dr < 0.75 ? 0 : dr < 0.88 ? -rng.int(5, 500) / 100 : rng.int(5, 500) / 100;
      const counted = round2(expected + diff);
      // The closing is one transaction: the session, its posted orders and its bank payments share it.
      const closedAt = txStamp(plan.end + 25, s.id);
      s.stop_at = fmtDatetime(plan.end);
      s.cash_register_balance_end_real = counted;
      // Odoo sums the session's cash lines before it adds the closing ones.
      s.cash_real_transaction = movesSum;
      s.closing_notes = '';
      s.write_date = closedAt;
      // Closing books the cash sales as one statement line named after the session, then the
      // counting difference (Odoo's _create_account_move, then _post_statement_difference).
      if (cashSales.has(plan)) closingLine(plan.cash, String(s.name), plan.end + 25, closedAt);
      if (Math.abs(counted - expected) >= 0.005) {
        const kind = counted < expected ? 'Loss' : 'Profit';
        const ref = `Cash difference observed during the counting (${kind}) - closing`;
        closingLine(counted - expected, ref, plan.end + 25, closedAt);
      }
      prevReal.set(r, counted);
      // Closing the session posts its paid orders: they become 'done' and are written then.
      const first = orders.rows.length;
      for (let id = first - 1; id > 0; id--) {
        const o = orders.rows[id];
        if (!o) continue;
        if ((o.date_order as string) < (s.start_at as string)) break;
        if (o.session_id === s.id && o.write_date === '') o.write_date = closedAt;
      }
    }
  }
  // Closing posts one combined account.payment per bank (non-cash) method used in the session.
  const bank = new Map<string, { session: Rec; method: number; amount: number }>();
  for (const p of payments.rows) {
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
    accountPayments.insert({
      id: accountPayments.nextId,
      name: `PBNK/${at.slice(0, 4)}/${String(accountPayments.nextId).padStart(5, '0')}`,
      date: at.slice(0, 10),
      amount: round2(e.amount),
      pos_session_id: e.session.id,
      pos_payment_method_id: e.method,
      _at: at,
    });
  }
  for (const t of db.tables.values()) t.touch();
  db.stamp++;
  return {
    db,
    stats: {
      orders: orders.live,
      lines: lines.live,
      payments: payments.live,
      sessions: sessions.live,
      ms: performance.now() - t0,
    },
  };
}
