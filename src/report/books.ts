// The report's "books" section: the lines of the period's closings whose journal entry does
// not say what the POS took (posdata books' rows that do not agree), read in the same handful
// of grouping calls as posdata books. A user without accounting rights gets the report without
// it (null): the report is the owner's, the books the accountant's.
import { fetchBooks } from '../books/read.js';
import { type BookRow, bookRows } from '../books/rows.js';
import type { OdooClient } from '../core/client.js';
import { ServerError } from '../core/errors.js';
import type { Domain } from '../core/types.js';

/** The lines that differ (empty where every closing agrees); null where the journal is refused. */
export async function booksDiffering(
  client: OdooClient,
  domain: Domain,
  digits: number,
): Promise<BookRow[] | null> {
  try {
    const inputs = await fetchBooks(client, domain, false);
    return bookRows(inputs, { digits: () => digits, tolerance: 0 }).filter((r) => !r.agrees);
  } catch (err) {
    if (err instanceof ServerError && err.odooName === 'odoo.exceptions.AccessError') return null;
    throw err;
  }
}
