// The decimals money is shown and rounded with: those of the company's currency
// (res.currency `decimal_places`: 2 for EUR, 3 for KWD, BHD or TND, 0 for JPY), read once
// per run where money is shown, and kept with the client for the rest of the run.
import type { OdooClient } from '../core/client.js';
import { ServerError } from '../core/errors.js';
import { DEFAULT_MONEY_DIGITS } from '../records/normalize.js';
import { runCompanies } from './companies.js';

const known = new WeakMap<OdooClient, Promise<number>>();

/**
 * The decimals of the companies' currency this user works in. A user of several companies
 * (or `--company` with several) in currencies of different decimals gets the most of them,
 * so that no amount loses a digit it has. Where Odoo refuses the user res.company or
 * res.currency, money keeps two decimals.
 */
export function moneyDigits(client: OdooClient): Promise<number> {
  let digits = known.get(client);
  if (!digits) {
    digits = readDigits(client);
    known.set(client, digits);
  }
  return digits;
}

/** The most decimals of these currencies' decimal_places; two where none is readable. */
function mostOf(places: unknown[]): number {
  const ok = places.filter(
    (d): d is number => Number.isInteger(d) && (d as number) >= 0 && (d as number) <= 6,
  );
  return ok.length > 0 ? Math.max(...ok) : DEFAULT_MONEY_DIGITS;
}

const refused = (err: unknown): boolean =>
  err instanceof ServerError && /AccessError/i.test(`${err.odooName} ${err}`);

/**
 * Odoo 17+ in one request, where the run knows the server's version (summary asks for it) or
 * login stored it: the companies with their currency's decimal_places nested, as the web
 * client reads them (web_search_read's specification). Undefined where that is not for this
 * server (16, or a server upgraded since login that answers otherwise).
 */
async function readNested(client: OdooClient): Promise<number | undefined> {
  if (!(client.majorHint >= 17)) return undefined;
  try {
    const reply = (await client.executeKw('res.company', 'web_search_read', [[]], {
      specification: { currency_id: { fields: { decimal_places: {} } } },
    })) as { records?: { currency_id?: { decimal_places?: unknown } | false }[] } | null;
    if (!Array.isArray(reply?.records)) return undefined;
    return mostOf(reply.records.map((c) => (c.currency_id ? c.currency_id.decimal_places : undefined)));
  } catch (err) {
    if (refused(err)) return DEFAULT_MONEY_DIGITS;
    // Odoo's own error (a server that has the method otherwise, 16's TypeError): the two plain
    // reads say it. A failure of the network or the session is the run's.
    if (err instanceof ServerError) return undefined;
    throw err;
  }
}

async function readDigits(client: OdooClient): Promise<number> {
  // The run's companies, read once for the whole run (src/read/companies.ts).
  try {
    const companies = await runCompanies(client);
    if (companies.length > 0) return mostOf(companies.map((c) => c.digits));
  } catch (err) {
    if (refused(err)) return DEFAULT_MONEY_DIGITS;
    if (!(err instanceof ServerError)) throw err;
  }
  const nested = await readNested(client);
  if (nested !== undefined) return nested;
  try {
    // The companies this user (and the run's allowed_company_ids) sees, then their currencies.
    const companies = await client.searchRead('res.company', [], { fields: ['currency_id'] });
    const ids = [
      ...new Set(
        companies
          .map((c) => (Array.isArray(c.currency_id) ? c.currency_id[0] : undefined))
          .filter((id): id is number => typeof id === 'number'),
      ),
    ];
    if (ids.length === 0) return DEFAULT_MONEY_DIGITS;
    const currencies = await client.read('res.currency', ids, ['decimal_places']);
    return mostOf(currencies.map((c) => c.decimal_places));
  } catch (err) {
    if (refused(err)) return DEFAULT_MONEY_DIGITS;
    throw err;
  }
}
