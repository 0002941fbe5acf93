/**
 * The generated shop: registers, sessions over `days` days, orders with lines, payments (change given
 * back as a negative cash row), refunds linked line by line, cancellations, drafts in the open
 * session, cash moves, and closings whose counted cash sometimes differs from the expected cash.
 * Everything comes from one seeded PRNG and the data's clock (`now`), so they always give the same
 * data. Figures are summed with plain float addition, as Odoo does, so sums carry the same float
 * noise a real server shows. The steps, in the order they draw from the PRNG: data/reference.ts
 * (no draws), data/shop.ts (registers, catalogue), data/sessions.ts, then per day data/sales.ts
 * and data/closing.ts.
 */
import { bookClosings } from './data/books.js';
import { bankPayments, closeDay, type Drawers } from './data/closing.js';
import { CURRENCIES, DAY, type Gen } from './data/context.js';
import { roundTo } from './money.js';

export { CURRENCIES } from './data/context.js';

import { setupExtras } from './data/extras.js';
import { companyData, OTHER_COMPANIES, referenceData, usersOf } from './data/reference.js';
import { openLedger, sellDay } from './data/sales.js';
import { planSessions, spreadOrders } from './data/sessions.js';
import { catalogue, openShop } from './data/shop.js';
import { buildModels } from './models.js';
import { Prng } from './prng.js';
import { Db } from './store.js';
import { txStamp } from './time.js';
import type { OdooVersion } from './types.js';

export { type SandboxUser, USERS, usersOf } from './data/reference.js';

export interface GenerateOptions {
  seed: number;
  orders: number;
  days: number;
  version: OdooVersion;
  /** The data's "now": history ends just before it; the open session is on its UTC day. */
  now: Date;
  /** pos_hr installed: employees, and orders that name theirs. */
  posHr?: boolean;
  /** pos_restaurant: the last register is a restaurant (tables, guests, tips, take-away, late sync). */
  restaurant?: boolean;
  /** pos_loyalty: a points programme, its members' rewards, gift cards sold and redeemed. */
  loyalty?: boolean;
  /** pos_discount: the Discount button's global discount lines. */
  globalDiscount?: boolean;
  /** The company's currency (CURRENCIES); EUR when not given. */
  currency?: string;
  /** Cashiers who stand out (SandboxOptions.leaks); draws differ only when set. */
  leaks?: boolean;
  /**
   * Companies (1 to 4): company 1 in `currency`, then Shop US (USD), Shop JP (JPY, no decimals),
   * Shop KW (KWD, 3 decimals), each with its own registers, methods, sessions and `orders` orders.
   */
  companies?: number;
  /** --faults books: five closings whose entries differ from their sessions (data/books.ts). */
  booksDrift?: boolean;
  /** The closings' translated labels in French (--faults books-fr). */
  booksFrench?: boolean;
}

export interface Generated {
  db: Db;
  stats: { orders: number; lines: number; payments: number; sessions: number; ms: number };
}

export function generate(opts: GenerateOptions): Generated {
  const t0 = performance.now();
  const currency = CURRENCIES[opts.currency ?? 'EUR'];
  if (!currency) throw new Error(`unknown currency ${opts.currency} (${Object.keys(CURRENCIES).join(', ')})`);
  const db = new Db(
    opts.version,
    buildModels(opts.version, {
      posHr: opts.posHr,
      restaurant: opts.restaurant,
      loyalty: opts.loyalty,
      globalDiscount: opts.globalDiscount,
    }),
  );
  const nowSec = Math.floor(opts.now.getTime() / 1000);
  const today = Math.floor(nowSec / DAY) * DAY;
  const days = Math.max(1, Math.floor(opts.days));
  // Everything set up before the sales was written in one transaction: one stamp.
  const setupAt = txStamp(today - (days + 30) * DAY + 9 * 3600, 1);
  const g: Gen = {
    rng: new Prng(opts.seed),
    db,
    version: opts.version,
    nowSec,
    today,
    days,
    stamp: { create_date: setupAt, write_date: setupAt },
    currency,
    round: roundTo(currency.decimals),
    leaks: opts.leaks === true,
  };
  referenceData(g, opts.posHr === true);
  const shop = openShop(g);
  const products = catalogue(g);
  const extras = setupExtras(g, shop, opts.seed, {
    posHr: opts.posHr === true,
    restaurant: opts.restaurant === true,
    loyalty: opts.loyalty === true,
    globalDiscount: opts.globalDiscount === true,
  });
  const plans = planSessions(g, shop);
  spreadOrders(plans, opts.orders);
  const ledger = openLedger(g, shop, extras);
  const drawers: Drawers = new Map();
  for (const day of plans) {
    const cashSales = sellDay(g, shop, products, ledger, day);
    closeDay(g, ledger, day, cashSales, drawers);
  }
  const companies = Math.max(1, Math.min(1 + OTHER_COMPANIES.length, Math.floor(opts.companies ?? 1)));
  const users = usersOf(companies);
  for (let k = 2; k <= companies; k++) {
    const other = OTHER_COMPANIES[k - 2] as (typeof OTHER_COMPANIES)[number];
    // Another company's currency: USD, JPY, KWD, or EUR where company 1 keeps that one.
    const cur = (
      other.currency === currency.name ? CURRENCIES.EUR : CURRENCIES[other.currency]
    ) as typeof currency;
    const gk: Gen = {
      ...g,
      rng: new Prng(opts.seed * 7919 + k),
      currency: cur,
      round: roundTo(cur.decimals),
    };
    companyData(gk, k, other.name, users);
    const shopK = openShop(gk, { company: k, tag: other.tag, cashier: other.cashier });
    // Products are shared; each company sells them at its own prices (a pricelist in Odoo).
    const productsK = products.map((p) => ({ ...p, price: gk.round(p.price * other.factor) }));
    const plansK = planSessions(gk, shopK);
    spreadOrders(plansK, opts.orders);
    const ledgerK = openLedger(gk, shopK);
    const drawersK: Drawers = new Map();
    for (const day of plansK) {
      const cashSales = sellDay(gk, shopK, productsK, ledgerK, day);
      closeDay(gk, ledgerK, day, cashSales, drawersK);
    }
  }
  bankPayments(g, ledger);
  bookClosings(g, opts.booksDrift === true, opts.booksFrench === true);
  for (const t of db.tables.values()) t.touch();
  db.stamp++;
  return {
    db,
    stats: {
      orders: ledger.orders.live,
      lines: ledger.lines.live,
      payments: ledger.payments.live,
      sessions: db.table('pos.session').live,
      ms: performance.now() - t0,
    },
  };
}
