// The decimals money is shown and rounded with: those of the company's currency
// (res.currency `decimal_places`: 2 for EUR, 3 for KWD, BHD or TND, 0 for JPY), read once
// per run where money is shown, and kept with the client for the rest of the run.
import type { OdooClient } from '../core/client.js';
import { ServerError } from '../core/errors.js';
import { DEFAULT_MONEY_DIGITS } from '../records/normalize.js';

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

async function readDigits(client: OdooClient): Promise<number> {
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
    const places = currencies
      .map((c) => c.decimal_places)
      .filter((d): d is number => Number.isInteger(d) && (d as number) >= 0 && (d as number) <= 6);
    return places.length > 0 ? Math.max(...places) : DEFAULT_MONEY_DIGITS;
  } catch (err) {
    if (err instanceof ServerError && /AccessError/i.test(`${err.odooName} ${err}`))
      return DEFAULT_MONEY_DIGITS;
    throw err;
  }
}
