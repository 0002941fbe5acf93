/**
 * Money as Odoo rounds it: float_round at a currency's decimals (half away from zero, with its
 * epsilon), and the company's currency, which every register and order of the sandbox keeps
 * its books in (their currency_id is related to the company's).
 */
import type { Db } from './store.js';

export type Round = (x: number) => number;

/** Odoo's currency.round for a currency of these decimals. */
export function roundTo(decimals: number): Round {
  const f = 10 ** decimals;
  return (x) => Math.round((x + (x >= 0 ? 1e-9 : -1e-9)) * f) / f;
}

export interface CompanyCurrency {
  symbol: string;
  /** The symbol after the amount (Odoo's `position == 'after'`). */
  after: boolean;
  decimals: number;
  round: Round;
}

/** res.company's currency_id as stored: its symbol, position, decimals and rounding. */
export function companyCurrency(db: Db): CompanyCurrency {
  return currencyOfCompany(db, 1);
}

/** Several companies in the data (--companies): records then carry theirs, else company 1. */
export function multiCompany(db: Db): boolean {
  return db.table('res.company').live > 1;
}

/** A register's company (pos.config company_id, stored). */
export function configCompany(db: Db, configId: unknown): number {
  if (!multiCompany(db)) return 1;
  const c = typeof configId === 'number' ? db.get('pos.config', configId)?.company_id : undefined;
  return typeof c === 'number' ? c : 1;
}

/** An order's company (stored on the order; its register's where it was not given). */
export function orderCompany(db: Db, orderId: unknown): number {
  if (!multiCompany(db)) return 1;
  const o = typeof orderId === 'number' ? db.get('pos.order', orderId) : undefined;
  if (typeof o?.company_id === 'number') return o.company_id;
  if (typeof o?.config_id === 'number') return configCompany(db, o.config_id);
  const s = typeof o?.session_id === 'number' ? db.get('pos.session', o.session_id) : undefined;
  return configCompany(db, s?.config_id);
}

/** A session's company: its register's. */
export function sessionCompany(db: Db, sessionId: unknown): number {
  if (!multiCompany(db)) return 1;
  const s = typeof sessionId === 'number' ? db.get('pos.session', sessionId) : undefined;
  return configCompany(db, s?.config_id);
}

/** A company's currency id (res.company currency_id). */
export function currencyOf(db: Db, companyId: number): number {
  if (companyId === 1 && !multiCompany(db)) {
    const c = db.get('res.company', 1)?.currency_id;
    return typeof c === 'number' ? c : 1;
  }
  const c = db.get('res.company', companyId)?.currency_id;
  return typeof c === 'number' ? c : 1;
}

/** A company's currency as companyCurrency gives company 1's. */
export function currencyOfCompany(db: Db, companyId: number): CompanyCurrency {
  const c = db.get('res.currency', currencyOf(db, companyId));
  const decimals = typeof c?.decimal_places === 'number' ? c.decimal_places : 2;
  return {
    symbol: String(c?.symbol ?? ''),
    after: (c?.position ?? 'after') === 'after',
    decimals,
    round: roundTo(decimals),
  };
}
