// The companies a run reads: those the user may see (res.company as Odoo's record rule gives it:
// without allowed_company_ids, every company the user is allowed in), each with its currency
// and that currency's decimals; `--company ID|NAME[,…]` narrows them, sent as Odoo's
// allowed_company_ids. Money is never added across two currencies: commands that total split
// by these companies' currencies (src/read/split.ts).
import type { OdooClient } from '../core/client.js';
import { ServerError, UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import { commaList } from '../query/domain.js';
import { DEFAULT_MONEY_DIGITS } from '../records/normalize.js';
import { visible } from '../render/visible.js';

export interface Company {
  id: number;
  name: string;
  currencyId: number;
  /** The currency's code (EUR), or `#<id>` where res.currency cannot be read. */
  currency: string;
  /** The currency's decimal_places: 2 for EUR, 3 for KWD, 0 for JPY. */
  digits: number;
}

// Keyed by the transport: the parts of a run (client.forCompanies) share one login and one read.
const seenBy = new WeakMap<object, Promise<Company[]>>();

/** The companies the user may see (no allowed_company_ids in the context), read once per login. */
export function visibleCompanies(client: OdooClient): Promise<Company[]> {
  let p = seenBy.get(client.transport);
  if (!p) {
    p = readCompanies(client);
    seenBy.set(client.transport, p);
    // A failed read is not kept: the next caller asks again (and says why).
    p.catch(() => seenBy.delete(client.transport));
  }
  return p;
}

async function readCompanies(client: OdooClient): Promise<Company[]> {
  // Odoo 16 has no web_search_read: its read is asked at once, ahead of the pages (no turn
  // taken on a read that would not be sent). The version is decided here, once.
  const nested = client.majorHint >= 17 ? await readNested(client) : undefined;
  if (nested) return nested;
  // An empty allowed_company_ids is Odoo's "every company the user is allowed in" (16-19).
  const rows = await client.executeKw('res.company', 'search_read', [[]], {
    fields: ['name', 'currency_id'],
    order: 'id',
    context: { allowed_company_ids: [] },
  });
  const companies = (Array.isArray(rows) ? rows : []) as {
    id: number;
    name: unknown;
    currency_id: unknown;
  }[];
  const currencyIds = [
    ...new Set(companies.flatMap((c) => (Array.isArray(c.currency_id) ? [c.currency_id[0] as number] : []))),
  ];
  const currencies = new Map<number, { name: string; digits: number }>();
  if (currencyIds.length > 0) {
    try {
      const cs = await client.read('res.currency', currencyIds, ['name', 'decimal_places']);
      for (const c of cs) {
        const d = c.decimal_places;
        currencies.set(c.id as number, {
          name: String(c.name),
          digits:
            Number.isInteger(d) && (d as number) >= 0 && (d as number) <= 6
              ? (d as number)
              : DEFAULT_MONEY_DIGITS,
        });
      }
    } catch (err) {
      if (!(err instanceof ServerError)) throw err;
    }
  }
  return companies.map((c) => {
    const cid = Array.isArray(c.currency_id) ? (c.currency_id[0] as number) : 0;
    const label = Array.isArray(c.currency_id) ? String(c.currency_id[1]) : '';
    const cur = currencies.get(cid);
    return {
      id: c.id,
      name: String(c.name),
      currencyId: cid,
      currency: cur?.name ?? (label || `#${cid}`),
      digits: cur?.digits ?? DEFAULT_MONEY_DIGITS,
    };
  });
}

/**
 * Odoo 17+ in one request (readCompanies asks it only where the run knows the version): the
 * companies with their currency's code and decimals nested (web_search_read's specification,
 * as the web client).
 */
async function readNested(client: OdooClient): Promise<Company[] | undefined> {
  try {
    const reply = (await client.executeKw('res.company', 'web_search_read', [[]], {
      specification: { name: {}, currency_id: { fields: { name: {}, decimal_places: {} } } },
      order: 'id',
      context: { allowed_company_ids: [] },
    })) as { records?: { id: number; name: unknown; currency_id: unknown }[] } | null;
    if (!Array.isArray(reply?.records)) return undefined;
    return reply.records.map((c) => {
      const cur = (c.currency_id || {}) as { id?: number; name?: unknown; decimal_places?: unknown };
      const d = cur.decimal_places;
      return {
        id: c.id,
        name: String(c.name),
        currencyId: typeof cur.id === 'number' ? cur.id : 0,
        currency: typeof cur.name === 'string' ? cur.name : `#${cur.id}`,
        digits:
          Number.isInteger(d) && (d as number) >= 0 && (d as number) <= 6
            ? (d as number)
            : DEFAULT_MONEY_DIGITS,
      };
    });
  } catch (err) {
    if (err instanceof ServerError && !/AccessError/.test(err.odooName)) return undefined;
    throw err;
  }
}

/** `1`, `Shop US`, `1,Shop US`: the companies named, each an id or a name (case-insensitive). */
export function parseCompanyFlag(raw: string): string[] {
  const items = commaList(raw);
  if (items.length === 0)
    throw new UsageError(
      say`--company is empty`,
      say`give company ids or names, e.g. --company 1 or --company "Shop US"`,
    );
  return items;
}

/**
 * A company as a person reads it on a terminal or in a log: `Shop US (USD)`. Its name and
 * currency code are Odoo's text: an escape sequence or a newline in them is shown escaped
 * (`\x1b`), never obeyed, as in Odoo's own messages.
 */
export function companyLabel(c: { name: string; currency: string }): string {
  return `${visible(c.name)} (${visible(c.currency)})`;
}

/** One line naming the companies: `1 My Company (EUR), 2 Shop US (USD)`. */
export function describeCompanies(cs: Company[]): string {
  return cs.map((c) => `${c.id} ${companyLabel(c)}`).join(', ');
}

/**
 * The companies `--company` names, among those the user may see. A company the user may not
 * see (or that does not exist: Odoo does not tell them apart) is exit 5, as Odoo's own
 * AccessError for it is: the user is logged in, the server refuses that company.
 */
export async function resolveCompanies(client: OdooClient, raw: string): Promise<Company[]> {
  const wanted = parseCompanyFlag(raw);
  const seen = await visibleCompanies(client);
  const out: Company[] = [];
  for (const w of wanted) {
    const id = /^\d+$/.test(w) ? Number(w) : undefined;
    const c =
      id !== undefined
        ? seen.find((x) => x.id === id)
        : seen.find((x) => x.name.toLowerCase() === w.toLowerCase());
    if (!c) {
      throw new ServerError(
        'odoo.exceptions.AccessError',
        say`company ${w} is not one this user may see`,
        say`this user may see ${own(describeCompanies(seen) || 'no company')}`,
      );
    }
    if (!out.includes(c)) out.push(c);
  }
  return out;
}

/** The companies the run reads: those `--company` names, else every one the user may see. */
export async function runCompanies(client: OdooClient): Promise<Company[]> {
  const seen = await visibleCompanies(client);
  const ids = client.context?.allowed_company_ids;
  if (!Array.isArray(ids) || ids.length === 0) return seen;
  return seen.filter((c) => ids.includes(c.id));
}

/** Several currencies among these companies: money must then be split by currency. */
export function currenciesOf(cs: Company[]): string[] {
  return [...new Set(cs.map((c) => c.currency))];
}

/**
 * Each company's currency, by company id, where the run's companies have several currencies
 * (a table's closing line then totals each apart); undefined where they have one.
 */
export async function tableCurrencies(
  client: OdooClient,
): Promise<Map<number, { code: string; digits: number }> | undefined> {
  const cs = await runCompanies(client);
  if (currenciesOf(cs).length < 2) return undefined;
  return new Map(cs.map((c) => [c.id, { code: c.currency, digits: c.digits }]));
}

/**
 * The currency code of each company the user may see (read once per login); none where Odoo
 * refuses the user res.company: rows then keep their company_id and no currency.
 */
export async function currencyCodes(client: OdooClient): Promise<Map<number, string>> {
  try {
    return new Map((await visibleCompanies(client)).map((c) => [c.id, c.currency]));
  } catch (err) {
    if (err instanceof ServerError) return new Map();
    throw err;
  }
}

/**
 * The run's companies' ids, sorted (what a sync's state and a checkpoint are kept for), or
 * undefined where Odoo will not list the companies to this user.
 */
export async function runCompanyIds(client: OdooClient): Promise<number[] | undefined> {
  try {
    return (await runCompanies(client)).map((c) => c.id).sort((a, b) => a - b);
  } catch (err) {
    if (err instanceof ServerError) return undefined;
    throw err;
  }
}
