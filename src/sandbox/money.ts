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
  const company = db.get('res.company', 1);
  const c = db.get('res.currency', typeof company?.currency_id === 'number' ? company.currency_id : 1);
  const decimals = typeof c?.decimal_places === 'number' ? c.decimal_places : 2;
  return {
    symbol: String(c?.symbol ?? ''),
    after: (c?.position ?? 'after') === 'after',
    decimals,
    round: roundTo(decimals),
  };
}
