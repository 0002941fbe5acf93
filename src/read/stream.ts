// Records of one resource as a stream of normalised pages: the query against the server's
// fields, key-range paging, and the per-page enrichment (payments with method names,
// refunded_order_id where the server has no such field). Shared by the commands and
// `posdata serve`; no terminal knowledge here.

import type { Resource } from '../catalog/resources.js';
import type { OdooClient } from '../core/client.js';
import { ServerError } from '../core/errors.js';
import { own, type Said, say } from '../core/redact.js';
import type { Domain, FieldDef, FieldMap, OdooRecord } from '../core/types.js';
import { type BuiltQuery, buildQuery, type QueryFlags } from '../query/build.js';
import {
  amountBound,
  amountCheck,
  amountError,
  DEFAULT_MONEY_DIGITS,
  inCurrency,
  Normalizer,
  type Row,
  roundAt,
  showsMoney,
} from '../records/normalize.js';
import { type Company, currenciesOf, runCompanies } from './companies.js';
import { moneyDigits } from './currency.js';
import { INVOICE, InvoiceNumbers } from './invoices.js';
import { type BareNames, ManyToOneNames, namedPages } from './names.js';

export interface Prepared {
  resource: Resource;
  fields: FieldMap;
  query: BuiltQuery;
  /** Output fields, `payments` included with --with-payments. */
  outFields: string[];
  defs: FieldMap;
  withPayments: boolean;
  /** Decimals of money: the company's currency's, where the output shows money. */
  moneyDigits: number;
  /**
   * Where the run's companies keep several currencies and the output shows money: each
   * company's currency, by company id; every record then carries company_id and `currency`
   * (withCurrencies).
   */
  currencies?: Map<number, { code: string; digits: number }>;
}

export async function prepare(
  client: OdooClient,
  resource: Resource,
  flags: QueryFlags,
  opts: { fixed?: Domain; withPayments?: boolean } = {},
): Promise<Prepared> {
  return prepareFrom(await client.fieldsGet(resource.model), resource, flags, opts);
}

/** The query against these fields (the server's, or a guess at them: remembered). */
export function prepareFrom(
  fields: FieldMap,
  resource: Resource,
  flags: QueryFlags,
  opts: { fixed?: Domain; withPayments?: boolean } = {},
): Prepared {
  const query = buildQuery(resource, fields, flags, opts.fixed ?? []);
  const withPayments = Boolean(opts.withPayments);
  const outFields = withPayments ? [...query.fields, 'payments'] : [...query.fields];
  const defs: FieldMap = { ...query.defs };
  if (withPayments) {
    defs.payments = { type: 'json' };
    if (!query.fetchFields.includes('payment_ids')) query.fetchFields.push('payment_ids');
  }
  return { resource, fields, query, outFields, defs, withPayments, moneyDigits: DEFAULT_MONEY_DIGITS };
}

/**
 * The fields a query was prepared from are the server's own: the same reply builds the same
 * query, the same output and the same requests, so pages asked from a guess may be kept.
 */
export function sameFields(guess: Prepared, fresh: Prepared): boolean {
  return guess.fields === fresh.fields || JSON.stringify(guess.fields) === JSON.stringify(fresh.fields);
}

/** The query's guessed fields were not the server's: what was asked from them is dropped. */
export class FieldsMoved extends Error {}

/**
 * The query with money at the decimals of the company's currency, for a run that shows
 * records: the currency is read (once per run) only where the output has money in it.
 */
export async function inCompanyCurrency(client: OdooClient, p: Prepared): Promise<Prepared> {
  if (!p.withPayments && !showsMoney(p.outFields, p.defs)) return p;
  const digits = await moneyDigits(client);
  return { ...p, defs: inCurrency(p.defs, digits), moneyDigits: digits };
}

/** The output shows money: amounts, or sales' payments. */
function moneyShown(p: Prepared): boolean {
  return p.withPayments || showsMoney(p.outFields, p.defs);
}

/**
 * company_id is read with the records wherever the output shows money (a bare id, a few bytes
 * a record): whether the companies keep several currencies is known only once they are read,
 * while the first pages are already asked for.
 */
export function readCompany(p: Prepared): void {
  if ('company_id' in p.fields && moneyShown(p) && !p.query.fetchFields.includes('company_id'))
    p.query.fetchFields.push('company_id');
}

/**
 * Money says its currency: where the run's companies keep books in several currencies, every
 * money record carries its company (company_id) and that company's currency code (`currency`),
 * after the fields asked for, so no reader adds euros to dollars unknowingly. A run in one
 * currency is as it always was. Where Odoo refuses the user res.company, the records stay as
 * they are (their money then has the one currency the user's company has).
 */
export async function withCurrencies(client: OdooClient, p: Prepared): Promise<Prepared> {
  if (!('company_id' in p.fields) || !moneyShown(p)) return p;
  let companies: Company[];
  try {
    companies = await runCompanies(client);
  } catch (err) {
    if (err instanceof ServerError) return p;
    throw err;
  }
  if (currenciesOf(companies).length < 2) return p;
  const outFields = [...p.outFields];
  if (!outFields.includes('company_id')) outFields.push('company_id');
  // Odoo's own currency_id, where asked for, says it already.
  if (!outFields.includes('currency') && !outFields.includes('currency_id')) outFields.push('currency');
  return {
    ...p,
    outFields,
    defs: { ...p.defs, company_id: p.fields.company_id as FieldDef, currency: CURRENCY_DEF },
    currencies: new Map(companies.map((c) => [c.id, { code: c.currency, digits: c.digits }])),
  };
}

const CURRENCY_DEF: FieldDef = { type: 'char', string: 'Currency' };

/** Each record's `currency`: its company's currency code (null where the company is unknown). */
function addCurrency(records: OdooRecord[], currencies: NonNullable<Prepared['currencies']>): void {
  for (const r of records) {
    const c = r.company_id;
    const id = Array.isArray(c) ? c[0] : c;
    r.currency = (typeof id === 'number' && currencies.get(id)?.code) || false;
  }
}

export interface StreamOptions {
  pageSize: number;
  /** Extra leaves ANDed to the query (the checkpoint window). */
  extraDomain?: Domain;
  /** Overrides the query's order (the checkpoint's `write_date, id`). */
  order?: string;
  tz?: string;
  offset?: number;
  /** Build the normalised rows (default); a renderer that reads records directly skips them. */
  rows?: boolean;
  /**
   * Without rows: a consumer that looks the many2one names up itself (each page's `names`),
   * so that the pages' bare ids are left as they came (ManyToOneNames.leftBare).
   */
  bareNames?: boolean;
  /**
   * `p` with money at the company's decimals (inCompanyCurrency), still being read: the
   * first pages are asked for meanwhile (the query is the same), and worked on once it is in.
   * Against a distant server that is two round trips less before the first record.
   */
  priced?: Promise<Prepared>;
  /** A line on standard error: news about the data (Odoo refuses the invoices' numbers). */
  warn?: (line: Said) => void;
}

interface MethodInfo {
  name: string;
  is_cash_count: boolean;
}

export class PaymentResolver {
  private readonly methods = new Map<number, MethodInfo>();
  private readonly bound: number;
  constructor(
    private readonly client: OdooClient,
    private readonly digits = DEFAULT_MONEY_DIGITS,
  ) {
    this.bound = amountBound(digits);
  }

  /** One batched read of the page's payments, one cached read of new methods. */
  async attach(records: OdooRecord[]): Promise<void> {
    const ids: number[] = [];
    for (const r of records) for (const id of (r.payment_ids as number[]) ?? []) ids.push(id);
    const payments = await this.client.read('pos.payment', ids, [
      'amount',
      'payment_method_id',
      'payment_date',
    ]);
    const missing = new Set<number>();
    for (const p of payments) {
      if (typeof p.amount === 'number' && !(Math.abs(p.amount) < this.bound))
        throw amountError('pos.payment', p.id, 'amount', p.amount, this.digits);
      const m = p.payment_method_id as [number, string] | false;
      if (m && !this.methods.has(m[0])) missing.add(m[0]);
    }
    if (missing.size > 0) {
      const rows = await this.client.read('pos.payment.method', [...missing], ['name', 'is_cash_count']);
      for (const m of rows)
        this.methods.set(m.id, { name: String(m.name), is_cash_count: Boolean(m.is_cash_count) });
    }
    const byId = new Map(payments.map((p) => [p.id, p]));
    for (const r of records) {
      r.payments = ((r.payment_ids as number[]) ?? [])
        .map((id) => byId.get(id))
        .filter((p): p is OdooRecord => p !== undefined)
        .map((p) => {
          const m = p.payment_method_id as [number, string] | false;
          const info = m ? this.methods.get(m[0]) : undefined;
          return {
            id: p.id,
            amount: roundAt(p.amount as number, this.digits),
            payment_method_id: m ? [m[0], info?.name ?? m[1]] : null,
            is_cash_count: info?.is_cash_count ?? null,
            payment_date: p.payment_date || null,
          };
        });
    }
  }
}

/** Fills refunded_order_id ([id, name]) from refunded_order_ids on servers without the field (16/17). */
async function fillRefundedOrder(client: OdooClient, records: OdooRecord[]): Promise<void> {
  const ids = new Set<number>();
  for (const r of records) {
    const list = r.refunded_order_ids as number[] | undefined;
    if (list?.length) ids.add(list[0]);
  }
  const names = new Map<number, string>();
  if (ids.size > 0) {
    for (const o of await client.read('pos.order', [...ids], ['name'])) names.set(o.id, String(o.name));
  }
  for (const r of records) {
    const first = (r.refunded_order_ids as number[] | undefined)?.[0];
    r.refunded_order_id = first !== undefined ? [first, names.get(first) ?? String(first)] : false;
  }
}

export function normalizerFor(p: Prepared, tz?: string): Normalizer {
  return new Normalizer(p.outFields, p.defs, { tz });
}

/**
 * The query's records page by page, with their rows. The first page is asked for at the call,
 * not at the first `next()`: a caller that still has things to get ready (the money's
 * decimals, `priced`) has it in flight meanwhile.
 */
export function streamRows(
  client: OdooClient,
  p: Prepared,
  opts: StreamOptions,
): AsyncGenerator<{ rows: Row[]; records: OdooRecord[]; names?: BareNames }> {
  const domain = opts.extraDomain ? [...p.query.domain, ...opts.extraDomain] : p.query.domain;
  const manyToOne = p.query.fetchFields.filter((f) => p.fields[f]?.type === 'many2one');
  const names =
    opts.bareNames && opts.rows === false && manyToOne.length > 0
      ? new ManyToOneNames(client, p.query.model, manyToOne, true)
      : undefined;
  const pages = namedPages(
    client,
    {
      model: p.query.model,
      domain,
      fields: p.query.fetchFields,
      order: opts.order ?? p.query.order,
      limit: p.query.limit,
      pageSize: opts.pageSize,
      offset: opts.offset,
    },
    manyToOne,
    names,
  )[Symbol.asyncIterator]();
  const first = pages.next();
  first.catch(() => undefined);
  return rowsOf(client, pages, first, opts.priced ?? Promise.resolve(p), opts, names);
}

async function* rowsOf(
  client: OdooClient,
  pages: AsyncIterator<OdooRecord[]>,
  first: Promise<IteratorResult<OdooRecord[]>>,
  priced: Promise<Prepared>,
  opts: StreamOptions,
  names: BareNames | undefined,
): AsyncGenerator<{ rows: Row[]; records: OdooRecord[]; names?: BareNames }> {
  try {
    const q = await priced;
    const normalizer = new Normalizer(q.outFields, q.defs, { tz: opts.tz });
    const needRefundFill = q.outFields.includes('refunded_order_id') && !('refunded_order_id' in q.fields);
    const invoices =
      q.outFields.includes(INVOICE) && !(INVOICE in q.fields)
        ? new InvoiceNumbers(client, () =>
            opts.warn?.(
              say`posdata: Odoo refuses this user account.move (AccessError), so ${own(INVOICE)} is empty; export as a user who may read the invoices`,
            ),
          )
        : undefined;
    const payments = q.withPayments ? new PaymentResolver(client, q.moneyDigits) : undefined;
    const checkAmounts = amountCheck(q.query.model, q.outFields, q.defs);
    for (let next = await first; !next.done; next = await pages.next()) {
      const records = next.value;
      checkAmounts(records);
      if (needRefundFill) await fillRefundedOrder(client, records);
      if (invoices) await invoices.fill(records);
      if (payments) await payments.attach(records);
      if (q.currencies) addCurrency(records, q.currencies);
      if (opts.rows === false) {
        yield names ? { rows: [], records, names } : { rows: [], records };
        continue;
      }
      const rows = new Array<Row>(records.length);
      for (let i = 0; i < records.length; i++) rows[i] = normalizer.row(records[i]);
      yield { rows, records };
    }
  } finally {
    // Stopped early (an error, a consumer done): the pages' own cleanup, as for-await does,
    // once the page being read is in.
    pages.return?.(undefined)?.catch(() => undefined);
  }
}
