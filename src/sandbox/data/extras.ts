/**
 * What a real shop turns on, modelled on the bundled real Odoo 17's `posshop` (made by
 * `shared/odoo17/make-data-shop.py` through Odoo's own front-end payloads):
 *
 * - pos_hr (`posHr`): the cashier is the employee at the register, chosen per order (some work
 *   more than others), not the session's user, who is the user of every order; a refund is rung
 *   by another employee than its sale's.
 * - pos_restaurant (`restaurant`): the last register is the Restaurant, with two floors of
 *   tables; its orders carry `table_id` and `customer_count`; half its card-paid eat-in sales
 *   are tipped (an untaxed line of the product "Tips", `is_tipped`, `tip_amount`, the tip on the
 *   card payment); one in five is take-away (the fiscal position maps 15 % to "Take-away 6%");
 *   and on two evenings its tablet was offline, so the change lines of those evenings' cash
 *   sales are dated when it synced, at 08:40 the next morning.
 * - pos_loyalty (`loyalty`): the programme "Shop Points" (a point per unit spent, 50 points buy
 *   5.00 off, one negative reward line per tax group), eight members, gift cards sold on the
 *   shop's registers (an untaxed "Gift Card" line; a `loyalty.card` with the amount as points)
 *   and redeemed later as a negative reward line, untaxed, that lowers the order's total.
 * - pos_discount (`globalDiscount`): the Discount button, one negative line of "[DISC] Discount"
 *   per tax group, never beside a reward line or a card sold.
 *
 * All of it draws from its own PRNG (`Gen.extra`), never from the data's, so a seed gives the
 * same orders, lines and payments with or without these modules; only their own lines are added.
 */
import { toLocal } from '../calendar.js';
import { Prng } from '../prng.js';
import type { Table } from '../store.js';
import { fmtDatetime, txStamp } from '../time.js';
import type { Rec, Stored } from '../types.js';
import { DAY, type Gen, insert } from './context.js';
import type { SessionPlan } from './sessions.js';
import type { Shop } from './shop.js';

export interface Features {
  posHr: boolean;
  restaurant: boolean;
  loyalty: boolean;
  globalDiscount: boolean;
}

/** The take-away tax and the tax the fiscal position maps to it (15 %, tax id 1). */
export const TAKEAWAY_TAX = { id: 4, name: 'Take-away 6%', amount: 6 };
const MAPPED_TAX = 1;
const TIP_NAMES = ['Tips', 'TIPS'] as const;

/** A line to add, as sales.ts writes lines; returns the row so its extra fields can be set. */
export type AddLine = (productId: number, qty: number, price: number, rate: number, taxIds: number[]) => Rec;

/** The records the extras use, set up once before the sales. */
export interface Extras {
  f: Features;
  rng: Prng;
  /** The Restaurant's register index, or -1. */
  restaurant: number;
  tables: number[];
  fiscalPosition: number;
  products: { tips: number; discount: number; giftCard: number; giftRedeem: number; points: number };
  programs: { points: number; gift: number };
  rewards: { points: number; gift: number };
  members: number[];
  /** Member's points card, once the member has bought something. */
  cardOf: Map<number, Rec>;
  /** loyalty.card (points cards and gift cards), when pos_loyalty is on. */
  cardTable: Table;
  /** Gift cards sold that still hold money. */
  giftCards: Rec[];
  /** UTC day starts of the evenings the Restaurant's tablet was offline. */
  offline: Set<number>;
  employees: number[];
  weights: number[];
}

/** The order being written: what the extras decided for it. */
export interface OrderExtras {
  takeaway: boolean;
  table: number | false;
  guests: number;
  employee: number | false;
  partner: number | false;
  tip: number;
  /** A product the refund flow leaves alone (tips, discounts, rewards, cards) is on the order. */
  special: boolean;
  /** A gift card sold on this order: its amount and code. */
  giftSold: { amount: number; code: string } | undefined;
}

const MEMBERS = [
  'Lieve Claes',
  'Tom Peeters',
  'Sara Maes',
  'Koen Jacobs',
  'An Willems',
  'Pieter Goossens',
  'Nele Wouters',
  'Jef De Smet',
];

function product(g: Gen, name: string, code: string | false, price: number, taxes: number[]): number {
  const t = g.db.table('product.template');
  const tmplId = t.nextId;
  insert(g, 'product.template', {
    id: tmplId,
    name,
    default_code: code,
    list_price: price,
    available_in_pos: true,
    active: true,
    taxes_id: taxes,
    categ_id: 1,
    pos_categ_ids: [],
    ...(g.version >= 18 ? { is_favorite: false } : { priority: '0' }),
    ...g.stamp,
  });
  const id = Math.max(g.db.table('product.product').nextId, tmplId + 10);
  insert(g, 'product.product', { id, product_tmpl_id: tmplId, active: true, ...g.stamp });
  return id;
}

/** Sets up the modules' records (no draws from the data's PRNG). Undefined when none is on. */
export function setupExtras(g: Gen, shop: Shop, seed: number, f: Features): Extras | undefined {
  if (!f.posHr && !f.restaurant && !f.loyalty && !f.globalDiscount) return undefined;
  const rng = new Prng(seed * 7907 + 43);
  const x: Extras = {
    f,
    rng,
    restaurant: f.restaurant ? shop.registers.length - 1 : -1,
    tables: [],
    fiscalPosition: 0,
    products: { tips: 0, discount: 0, giftCard: 0, giftRedeem: 0, points: 0 },
    programs: { points: 0, gift: 0 },
    rewards: { points: 0, gift: 0 },
    members: [],
    cardOf: new Map(),
    cardTable: g.db.tables.get('loyalty.card') ?? g.db.table('pos.order'),
    giftCards: [],
    offline: new Set(),
    employees: [],
    weights: [],
  };
  if (f.posHr) setupEmployees(g, x);
  if (f.restaurant) setupRestaurant(g, shop, x);
  if (f.globalDiscount) x.products.discount = product(g, 'Discount', 'DISC', 0, [MAPPED_TAX]);
  if (f.loyalty) setupLoyalty(g, x);
  registerProducts(g, shop, x);
  return x;
}

/**
 * What a register says of its special products, as 17 sets them: the tip product on every
 * register (the Restaurant asks for tips), pos_discount's product, and the gift card
 * programme's card product (its rule's, `trigger_product_ids`).
 */
function registerProducts(g: Gen, shop: Shop, x: Extras): void {
  shop.registers.forEach((_, i) => {
    const c = g.db.get('pos.config', shop.configBase + i + 1);
    if (!c) return;
    if (x.f.restaurant)
      Object.assign(c, { tip_product_id: x.products.tips, iface_tipproduct: i === x.restaurant });
    if (x.f.globalDiscount) c.discount_product_id = x.products.discount;
  });
  const gift = x.f.loyalty ? g.db.get('loyalty.program', x.programs.gift) : undefined;
  if (gift) gift.trigger_product_ids = [x.products.giftCard];
}

/** pos_hr: the employees who ring orders up, each with a weight (how often). */
function setupEmployees(g: Gen, x: Extras): void {
  for (const e of g.db.table('hr.employee').rows)
    if (e) {
      x.employees.push(e.id);
      x.weights.push(x.rng.int(2, 6));
    }
}

/**
 * pos_restaurant: the last register becomes the Restaurant, with its take-away tax and fiscal
 * position, two floors of tables, the tips product and the days its tablet synced late.
 */
function setupRestaurant(g: Gen, shop: Shop, x: Extras): void {
  const { rng } = x;
  const ins = (model: string, rec: Rec) => insert(g, model, rec);
  // The last register is the Restaurant, with its own cash method.
  const config = g.db.get('pos.config', shop.configBase + x.restaurant + 1);
  const cash = g.db.get('pos.payment.method', shop.cashMethod[x.restaurant] as number);
  shop.registers[x.restaurant] = 'Restaurant';
  if (config) config.name = 'Restaurant';
  if (cash && x.restaurant > 0) cash.name = 'Cash Restaurant';
  ins('account.tax', { ...TAKEAWAY_TAX, type_tax_use: 'sale', ...g.stamp });
  x.fiscalPosition = 1;
  ins('account.fiscal.position', { id: 1, name: 'Take-away', company_id: shop.company, ...g.stamp });
  const configId = shop.configBase + x.restaurant + 1;
  [
    ['Main Floor', 11],
    ['Patio', 12],
  ].forEach(([name, count], i) => {
    const floor = i + 1;
    const ids: number[] = [];
    for (let k = 1; k <= (count as number); k++) {
      const id = x.tables.length + 1;
      ins('restaurant.table', {
        id,
        name: String(k),
        floor_id: floor,
        seats: rng.pick([2, 2, 4, 4, 6]),
        ...g.stamp,
      });
      ids.push(id);
      x.tables.push(id);
    }
    ins('restaurant.floor', {
      id: floor,
      name,
      pos_config_ids: [configId],
      table_ids: ids,
      sequence: 1,
      ...g.stamp,
    });
  });
  x.products.tips = product(g, TIP_NAMES[0], TIP_NAMES[1], 1, []);
  const day0 = g.today - g.days * DAY;
  while (x.offline.size < Math.min(2, g.days - 1))
    x.offline.add(day0 + rng.int(1, Math.max(1, g.days - 1)) * DAY);
}

/** pos_loyalty: gift cards and the points programme, their rewards and the members. */
function setupLoyalty(g: Gen, x: Extras): void {
  const ins = (model: string, rec: Rec) => insert(g, model, rec);
  x.products.giftCard = product(g, 'Gift Card', false, 50, []);
  x.products.giftRedeem = product(g, 'Gift Card', false, 0, [MAPPED_TAX]);
  x.products.points = product(g, '5.00 per order on your order', false, 0, []);
  ins('loyalty.program', {
    id: 1,
    name: 'Gift Cards',
    program_type: 'gift_card',
    active: true,
    pos_ok: true,
    ...g.stamp,
  });
  ins('loyalty.program', {
    id: 2,
    name: 'Shop Points',
    program_type: 'loyalty',
    active: true,
    pos_ok: true,
    ...g.stamp,
  });
  x.programs = { gift: 1, points: 2 };
  ins('loyalty.reward', {
    id: 1,
    program_id: 1,
    description: 'Gift Card',
    reward_type: 'discount',
    discount_line_product_id: x.products.giftRedeem,
    ...g.stamp,
  });
  ins('loyalty.reward', {
    id: 2,
    program_id: 2,
    description: '5.00 per order on your order',
    reward_type: 'discount',
    discount_line_product_id: x.products.points,
    ...g.stamp,
  });
  x.rewards = { gift: 1, points: 2 };
  const partners = g.db.table('res.partner');
  for (const name of MEMBERS) {
    const id = partners.nextId;
    ins('res.partner', { id, name, ...g.stamp });
    x.members.push(id);
  }
}

const state: OrderExtras = {
  takeaway: false,
  table: false,
  guests: 0,
  employee: false,
  partner: false,
  tip: 0,
  special: false,
  giftSold: undefined,
};

/** What the extras decide for an order before its lines: register-wise table, take-away, employee. */
export function beginOrder(
  x: Extras | undefined,
  register: number,
  kind: string,
  original: Rec | undefined,
): OrderExtras {
  state.takeaway = false;
  state.table = false;
  state.guests = 0;
  state.employee = false;
  state.partner = false;
  state.tip = 0;
  state.special = false;
  state.giftSold = undefined;
  if (!x) return state;
  const { rng } = x;
  if (x.f.posHr) state.employee = pickEmployee(x, original);
  if (register === x.restaurant) {
    if (original) {
      // A refund is rung at the sale's table, under its fiscal position, with no guests.
      state.table = original.table_id as number | false;
      state.takeaway = original.fiscal_position_id === x.fiscalPosition;
    } else {
      state.table = rng.pick(x.tables);
      state.guests = kind === 'sale' ? rng.int(1, 6) : 2;
      state.takeaway = kind === 'sale' && rng.chance(0.2);
    }
  }
  if (original) state.partner = (original.partner_id as number | false) ?? false;
  return state;
}

/** Weighted by how much each works; a refund's is another than its sale's. */
function pickEmployee(x: Extras, original: Rec | undefined): number {
  const not = original?.employee_id;
  let total = 0;
  x.employees.forEach((e, i) => {
    if (e !== not) total += x.weights[i] as number;
  });
  let r = x.rng.float() * total;
  for (const [i, e] of x.employees.entries()) {
    if (e === not) continue;
    r -= x.weights[i] as number;
    if (r < 0) return e;
  }
  return x.employees[x.employees.length - 1] as number;
}

/** The taxes a product's line carries: take-away maps 15 % to the 6 % take-away tax. */
export function lineTaxes(o: OrderExtras, rate: number, taxIds: number[]): [number, number[]] {
  return o.takeaway && taxIds[0] === MAPPED_TAX
    ? [TAKEAWAY_TAX.amount / 100, [TAKEAWAY_TAX.id]]
    : [rate, taxIds];
}

/** The order's lines so far, by tax group: Σ price_subtotal, the rate and the taxes. */
function perTax(
  lines: Table,
  l0: number,
): Map<string, { base: number; incl: number; rate: number; taxIds: number[] }> {
  const groups = new Map<string, { base: number; incl: number; rate: number; taxIds: number[] }>();
  for (let id = l0; id < lines.nextId; id++) {
    const l = lines.rows[id] as Rec;
    const taxIds = l.tax_ids as number[];
    const key = taxIds.join(',');
    const base = l.price_subtotal as number;
    const incl = l.price_subtotal_incl as number;
    const rate = base === 0 ? 0 : incl / base - 1;
    const g = groups.get(key);
    if (g) {
      g.base += base;
      g.incl += incl;
    } else groups.set(key, { base, incl, rate, taxIds });
  }
  for (const g of groups.values()) g.rate = g.base === 0 ? 0 : Math.round((g.incl / g.base - 1) * 100) / 100;
  return groups;
}

/**
 * After a sale's own lines: a gift card sold, a member's points (and now and then their reward),
 * a gift card redeemed, or a global discount; at most one kind of reward on an order.
 */
export function extraLines(
  x: Extras | undefined,
  o: OrderExtras,
  kind: string,
  register: number,
  lines: Table,
  l0: number,
  add: AddLine,
): void {
  if (!x || kind !== 'sale') return;
  const { rng } = x;
  let reward = false;
  if (x.f.loyalty) {
    if (register !== x.restaurant && rng.chance(0.05)) {
      const amount = rng.pick([25, 50, 50, 100]);
      add(x.products.giftCard, 1, amount, 0, []);
      o.giftSold = { amount, code: `044${String(rng.int(0, 99_999_999_999)).padStart(11, '0')}` };
      o.special = true;
    } else if (rng.chance(0.3)) {
      o.partner = rng.pick(x.members);
      reward = memberReward(x, o, lines, l0, add);
    } else if (x.giftCards.length > 0 && rng.chance(0.15)) {
      reward = redeemGiftCard(x, o, lines, l0, add);
    }
  }
  if (x.f.globalDiscount && !reward && !o.giftSold && rng.chance(0.07)) {
    const pc = rng.pick([10, 5, 10, 15]);
    for (const g of perTax(lines, l0).values())
      add(x.products.discount, 1, -(pc / 100) * g.base, g.rate, g.taxIds);
    o.special = true;
  }
}

/** The member earns a point per unit spent; with 50 points, 6 times in 10, 5.00 off per tax group. */
function memberReward(x: Extras, o: OrderExtras, lines: Table, l0: number, add: AddLine): boolean {
  const partner = o.partner as number;
  let card = x.cardOf.get(partner);
  const groups = perTax(lines, l0);
  let incl = 0;
  for (const g of groups.values()) incl += g.incl;
  let cost = 0;
  if (card && (card.points as number) >= 50 && x.rng.chance(0.6) && incl > 0) {
    const factor = Math.min(1, 5 / incl);
    const code = String(x.rng.int(0, 999_999)).padStart(6, '0');
    let first = true;
    for (const g of groups.values()) {
      const row = add(x.products.points, 1, -(g.base * factor), g.rate, g.taxIds);
      Object.assign(row, {
        is_reward_line: true,
        reward_id: x.rewards.points,
        coupon_id: card.id,
        points_cost: first ? 50 : 0,
        reward_identifier_code: code,
      });
      first = false;
    }
    cost = 50;
    o.special = true;
  }
  if (!card) {
    card = {
      id: x.cardTable.nextId,
      code: `0${String(x.rng.int(0, 999_999_999)).padStart(9, '0')}`,
      program_id: x.programs.points,
      partner_id: partner,
      points: 0,
    };
    x.cardTable.insert(card);
    x.cardOf.set(partner, card);
  }
  card.points = Math.round(((card.points as number) + incl - cost) * 100) / 100;
  return cost > 0;
}

/** A gift card sold earlier pays part or all of the order: an untaxed negative reward line. */
function redeemGiftCard(x: Extras, o: OrderExtras, lines: Table, l0: number, add: AddLine): boolean {
  const card = x.rng.pick(x.giftCards);
  let due = 0;
  for (const g of perTax(lines, l0).values()) due += g.incl;
  const amount = Math.round(Math.min(card.points as number, due) * 100) / 100;
  if (amount <= 0) return false;
  const row = add(x.products.giftRedeem, 1, -amount, 0, []);
  Object.assign(row, {
    is_reward_line: true,
    reward_id: x.rewards.gift,
    coupon_id: card.id,
    points_cost: amount,
    reward_identifier_code: String(x.rng.int(0, 999_999)).padStart(6, '0'),
  });
  card.points = Math.round(((card.points as number) - amount) * 100) / 100;
  if ((card.points as number) <= 0) x.giftCards.splice(x.giftCards.indexOf(card), 1);
  o.special = true;
  return true;
}

/**
 * After payment: a tip on a card-paid eat-in sale at the Restaurant (added to the card payment),
 * and the change of an offline evening dated when the tablet synced. Returns the tip.
 */
export function afterPayment(
  g: Gen,
  x: Extras | undefined,
  o: OrderExtras,
  kind: string,
  plan: SessionPlan,
  payments: Table,
  p0: number,
  add: AddLine,
): number {
  if (!x || plan.register !== x.restaurant) return 0;
  const first = payments.rows[p0];
  const onlyCard = payments.nextId === p0 + 1 && first !== undefined && isCard(g, first);
  if (kind === 'sale' && !o.takeaway && onlyCard && first && x.rng.chance(0.5)) {
    const amount = first.amount as number;
    const tip = x.rng.chance(0.6)
      ? x.rng.pick([1, 2, 2.5, 3, 5])
      : Math.round(amount * x.rng.pick([0.5, 1])) / 10;
    add(x.products.tips, 1, tip, 0, []);
    first.amount = Math.round((amount + tip) * 100) / 100;
    o.tip = tip;
    o.special = true;
  }
  for (let id = p0; id < payments.nextId; id++) {
    const p = payments.rows[id] as Rec;
    if (p.is_change !== true) continue;
    const synced = syncedAt(x, Date.parse(`${String(p.payment_date).replace(' ', 'T')}Z`) / 1000);
    if (synced !== undefined) p.payment_date = fmtDatetime(synced);
  }
  return o.tip;
}

/**
 * When an order rung up at `t` (UTC seconds) reached the server: on an offline evening (from
 * 17:00 Brussels) at 08:40 the next morning, local time (the offset is the evening's; no change
 * of rule at night); undefined when the tablet was online and synced it at once.
 */
function syncedAt(x: Extras, t: number): number | undefined {
  const local = toLocal(t, 'Europe/Brussels');
  const day = Math.floor(local / DAY) * DAY;
  if (!x.offline.has(day) || local - day < 17 * 3600) return undefined;
  return day + DAY + 8 * 3600 + 40 * 60 - (local - t);
}

function isCard(g: Gen, p: Rec): boolean {
  return g.db.get('pos.payment.method', p.payment_method_id as number)?.is_cash_count === false;
}

/** The order's own fields from the extras (only those of installed modules); `t` its sale time. */
export function orderFields(
  x: Extras | undefined,
  o: OrderExtras,
  plan: SessionPlan,
  t: number,
): Record<string, Stored> {
  const r: Record<string, Stored> = {};
  if (!x) return r;
  const synced = plan.register === x.restaurant ? syncedAt(x, t) : undefined;
  if (synced !== undefined) {
    // An offline evening's order is created when the tablet synced, all of them in the one
    // request (one transaction: one stamp), its date_order when it was sold; its lines and
    // payments are created with it (createdWith).
    r.create_date = txStamp(synced, x.restaurant);
    r.write_date = r.create_date;
  }
  if (x.f.posHr) {
    r.employee_id = o.employee;
    // With pos_hr the session's user is every order's user; the employee is the cashier.
    r.user_id = plan.rec.user_id as number;
  }
  if (plan.register === x.restaurant) {
    r.table_id = o.table;
    r.customer_count = o.guests;
    r.fiscal_position_id = o.takeaway ? x.fiscalPosition : false;
  }
  if (o.tip !== 0) {
    r.is_tipped = true;
    r.tip_amount = o.tip;
  }
  if (o.partner !== false) r.partner_id = o.partner;
  return r;
}

/** After the order is written: a gift card sold becomes a card holding its amount. */
export function afterOrder(x: Extras | undefined, o: OrderExtras, orderId: number): void {
  if (!x || !o.giftSold) return;
  const card: Rec = {
    id: x.cardTable.nextId,
    code: o.giftSold.code,
    program_id: x.programs.gift,
    partner_id: false,
    points: o.giftSold.amount,
    source_pos_order_id: orderId,
  };
  x.cardTable.insert(card);
  x.giftCards.push(card);
}
