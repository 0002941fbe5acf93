// The books of a range of closed sessions, as posdata books and serve's /api/v1/books give
// them: every company of the run read at once (each row names its session's company and
// currency), the figures at the decimals of each currency.
import type { OdooClient } from '../core/client.js';
import { ServerError } from '../core/errors.js';
import type { Domain } from '../core/types.js';
import { fetchBooks } from './read.js';
import { type BookRow, bookRows } from './rows.js';

export interface Books {
  rows: BookRow[];
  sessions: number;
  /** Decimals by currency code (2 where unknown). */
  digits: (currency: string | null) => number;
}

export async function readBooks(
  client: OdooClient,
  domain: Domain,
  o: { posOnly: boolean; tz?: string; tolerance: number },
): Promise<Books> {
  const { runCompanies } = await import('../read/companies.js');
  const byId = new Map<number, number>();
  const byCode = new Map<string, number>();
  let reader = client;
  try {
    const companies = await runCompanies(client);
    if (companies.length > 0) reader = client.forCompanies(companies.map((c) => c.id));
    for (const c of companies) {
      byId.set(c.currencyId, c.digits);
      byCode.set(c.currency, c.digits);
    }
  } catch (err) {
    // A server that hides its companies: the sessions' own, at two decimals.
    if (!(err instanceof ServerError)) throw err;
  }
  const inputs = await fetchBooks(reader, domain, o.posOnly);
  const rows = bookRows(inputs, {
    digits: (id) => (id === null ? 2 : (byId.get(id) ?? 2)),
    tz: o.tz,
    tolerance: o.tolerance,
  });
  return { rows, sessions: inputs.sessions.length, digits: (c) => (c === null ? 2 : (byCode.get(c) ?? 2)) };
}
