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
}

export function insert(g: Gen, model: string, rec: Rec): Rec {
  g.db.table(model).insert(rec);
  return rec;
}

export const round2 = (x: number): number => Math.round((x + (x >= 0 ? 1e-9 : -1e-9)) * 100) / 100;
