/** What every step of the generation shares: the PRNG, the database, the clock, the setup stamp. */
import type { Prng } from '../prng.js';
import type { Db } from '../store.js';
import type { OdooVersion, Rec } from '../types.js';

export const DAY = 86400;

export interface Gen {
  rng: Prng;
  db: Db;
  version: OdooVersion;
  /** The data's clock (seconds) and the start of its UTC day. */
  nowSec: number;
  today: number;
  days: number;
  /** create_date/write_date of everything set up before the sales (one transaction). */
  stamp: { create_date: string; write_date: string };
  /** The company's currency: its amounts are rounded to its decimals (round). */
  currency: Currency;
  round: (x: number) => number;
}

export interface Currency {
  name: string;
  symbol: string;
  decimals: number;
}

/** The company currencies the sandbox can keep its books in (--currency), with Odoo's decimals. */
export const CURRENCIES: Record<string, Currency> = {
  EUR: { name: 'EUR', symbol: '€', decimals: 2 },
  USD: { name: 'USD', symbol: '$', decimals: 2 },
  KWD: { name: 'KWD', symbol: 'KD', decimals: 3 },
  BHD: { name: 'BHD', symbol: 'BD', decimals: 3 },
  TND: { name: 'TND', symbol: 'DT', decimals: 3 },
  JPY: { name: 'JPY', symbol: '¥', decimals: 0 },
};

/** Rounding to a currency's decimals, half away from zero as Odoo's float_round. */
export function roundTo(decimals: number): (x: number) => number {
  const f = 10 ** decimals;
  return (x) => Math.round((x + (x >= 0 ? 1e-9 : -1e-9)) * f) / f;
}

export function insert(g: Gen, model: string, rec: Rec): Rec {
  g.db.table(model).insert(rec);
  return rec;
}

export const round2 = (x: number): number => Math.round((x + (x >= 0 ? 1e-9 : -1e-9)) * 100) / 100;
