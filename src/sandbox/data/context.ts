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
  /** Cashiers who stand out (LEAKY): set only on request, so a seed's default data stay. */
  leaks: boolean;
}

/**
 * With `leaks`: who stands out and how. Anita Oliver (uid 8) refunds about one order in five,
 * Beth Evans (uid 9) discounts most lines by 20 to 50 %, the closings Marc Demo (uid 6) runs
 * are 10 to 40 short, and Ronnie Hart (uid 10) refunds as often as the others, but the
 * register's last sale, soon after it was paid (the classic pocketed refund).
 */
export const LEAKY = { refunds: 8, discounts: 9, cashShort: 6, quickRefunds: 10 } as const;

export interface Currency {
  name: string;
  symbol: string;
  decimals: number;
  /** Where Odoo's data puts the symbol (base/data/res_currency_data.xml; 'after' unless set). */
  position: 'after' | 'before';
}

/** The company currencies the sandbox can keep its books in (--currency), with Odoo's decimals. */
export const CURRENCIES: Record<string, Currency> = {
  EUR: { name: 'EUR', symbol: '€', decimals: 2, position: 'after' },
  USD: { name: 'USD', symbol: '$', decimals: 2, position: 'before' },
  KWD: { name: 'KWD', symbol: 'KD', decimals: 3, position: 'after' },
  BHD: { name: 'BHD', symbol: 'BD', decimals: 3, position: 'after' },
  TND: { name: 'TND', symbol: 'DT', decimals: 3, position: 'after' },
  JPY: { name: 'JPY', symbol: '¥', decimals: 0, position: 'before' },
};

export function insert(g: Gen, model: string, rec: Rec): Rec {
  g.db.table(model).insert(rec);
  return rec;
}
