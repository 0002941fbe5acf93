// The report's figures: the period at a glance beside the previous one, the groupings its
// charts draw, the cash closings and where the money leaks, per currency. Every figure comes
// from the code `summary` and `reconcile` run (computed by Odoo's grouping calls); the loss
// section adds the few reads that name the orders behind a figure. No HTML here.

import type { BookRow } from '../books/rows.js';
import type { OdooClient } from '../core/client.js';
import { ServerError, UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import type { Domain, OdooRecord } from '../core/types.js';
import { DateTime } from '../query/luxon.js';
import { type Company, currenciesOf, runCompanies } from '../read/companies.js';
import {
  fetchReconciliation,
  reconcile as reconcileSessions,
  sessionsDomain,
  toRow,
} from '../reconcile/compute.js';
import { roundAt } from '../records/normalize.js';
import { type SummaryRow, totalOf } from '../summary/compute.js';
import { FIGURE_KEYS, type FigureValues, figureValues } from '../summary/figures.js';
import { type GroupMemo, groupingApi } from '../summary/grouping.js';
import {
  fetchSummary,
  type Range,
  rangeOf,
  type SummaryParams,
  type SummaryResult,
} from '../summary/query.js';
import { summaryRows } from '../summary/rows.js';
import { partOrder } from '../summary/shop.js';
import { booksDiffering } from './books.js';
import { type Guests, readGuests } from './guests.js';
import { type LossSection, lossSection } from './loss.js';
import { bookNames, cutName, lossNames, rowNames } from './names.js';

export interface ReportParams {
  from?: string;
  to?: string;
  /** YYYY-MM: that calendar month, and the month before it as the previous period. */
  month?: string;
  configId?: number;
  /** --books: the closings whose journal entry differs (posdata books' reads). */
  books?: boolean;
}

/** The period's bounds as summary and reconcile take them (--from/--to). */
export interface Period {
  from: string;
  to: string;
  /** date_order's UTC range, as summary computes it. */
  range: Range;
}

/** The period at a glance: summary's totals over every register. */
export type Glance = FigureValues;

/** A company read: its id and name as Odoo gives them, and its currency's code. */
export interface CompanyRef {
  id: number;
  name: string;
  currency: string;
}

/**
 * One currency of one server: the figures of its companies' registers, never added to
 * another currency's. Each section says which server (profile), companies and currency its
 * figures are of.
 */
export interface CurrencySection {
  /** The profile read (--profile); null where the run named none. */
  profile: string | null;
  currency: string;
  /** The companies whose registers sell in this currency (empty where Odoo refuses res.company). */
  companies: { id: number; name: string }[];
  digits: number;
  /** The registers that sell in this currency. */
  registers: { id: number; name: string; company_id: number | null }[];
  glance: Glance;
  previous: Glance;
  /** Per figure: (current − previous) / |previous| in %, null where the previous is 0. */
  change: Record<string, number | null>;
  /** summary's JSON rows of each grouping the charts draw (--by register, day, ...). */
  summary: {
    register: SummaryRow[];
    day: SummaryRow[];
    weekdayHour: SummaryRow[];
    method: SummaryRow[];
    product: SummaryRow[];
    category: SummaryRow[];
    cashier: SummaryRow[];
  };
  /** reconcile's JSON rows: every closing of the period. */
  reconcile: Record<string, unknown>[];
  loss: LossSection;
  /**
   * What the shop rang up beside its products (summary's part columns: `global_discounts`,
   * `reward:<programme>`, `gift_cards_redeemed`, `gift_cards_sold`, `tips`; positive amounts, tax
   * included), this period and the previous, in `keys`' order; null where neither has any (a
   * server without pos_restaurant's tips, pos_loyalty and pos_discount). In Sales Details' gross
   * and discounts (the glance's) each is a product line, none a discount.
   */
  shop: { keys: string[]; period: Record<string, number>; previous: Record<string, number> } | null;
  /** A restaurant's guests and sales per guest, this period and the previous; null without tables. */
  guests: { period: Guests; previous: Guests } | null;
  /** posdata books' lines that differ (--books); null without it or where the journal may not be read. */
  books: BookRow[] | null;
}

export interface ReportData {
  generated: string;
  /** The profile read (--profile); null where the run named none. */
  profile: string | null;
  server: { url: string; database: string; version: string; user: string; zone: string };
  /** The companies read: --company's, else every one the user may see. */
  companies: CompanyRef[];
  period: Period;
  previous: Period;
  currencies: CurrencySection[];
  /** Requests made to Odoo for the whole report. */
  requests: number;
}

/** The period and the previous one of the same length (the month before, with --month). */
export function periodsOf(p: ReportParams, zone: string): { period: Period; previous: Period } {
  if (p.month !== undefined) {
    if (p.from !== undefined || p.to !== undefined)
      throw new UsageError(say`--month and --from/--to both give the period`, say`use one of them`);
    const m = /^(\d{4})-(\d{2})$/.exec(p.month.trim());
    const first = m
      ? DateTime.fromObject({ year: Number(m[1]), month: Number(m[2]), day: 1 }, { zone })
      : null;
    if (!first?.isValid)
      throw new UsageError(say`--month '${p.month}' is not a month`, say`use YYYY-MM, e.g. --month 2026-11`);
    const days = (d: DateTime) => ({
      from: d.toISODate() as string,
      to: d.endOf('month').toISODate() as string,
    });
    const at = (x: { from: string; to: string }): Period => ({ ...x, range: rangeOf(x, zone, 0) });
    return { period: at(days(first)), previous: at(days(first.minus({ months: 1 }))) };
  }
  if (p.from === undefined)
    throw new UsageError(say`report needs a period`, say`give --month YYYY-MM or --from (and --to)`);
  const to = p.to ?? 'today';
  const range = rangeOf({ from: p.from, to }, zone, 0);
  const start = DateTime.fromSQL(range.start as string, { zone: 'UTC' });
  const end = DateTime.fromSQL(range.end as string, { zone: 'UTC' });
  const before = start.minus(end.diff(start));
  const iso = (d: DateTime) => d.toUTC().toISO({ suppressMilliseconds: true }) as string;
  const previous = { from: iso(before), to: iso(start.minus({ seconds: 1 })) };
  return {
    period: { from: p.from, to, range },
    previous: { ...previous, range: rangeOf(previous, zone, 0) },
  };
}

const m2o = (v: unknown): [number, string] | null =>
  Array.isArray(v) && typeof v[0] === 'number' ? [v[0], String(v[1] ?? '')] : null;

type Register = CurrencySection['registers'][number];

/** One section's reading: its currency, companies and registers, and the client that reads only them. */
interface Part {
  client: OdooClient;
  currency: string;
  companies: Company[];
  registers: Register[];
}

/**
 * The sections of a server: one per currency of the run's companies (--company's, else every
 * one the user may see) that has a register, each read with only that currency's companies in
 * Odoo's allowed_company_ids (where there are several currencies), so that no figure adds two.
 */
async function partsOf(
  client: OdooClient,
  configId: number | undefined,
): Promise<{ parts: Part[]; companies: Company[] }> {
  const domain: Domain = configId === undefined ? [] : [['id', '=', configId]];
  const [companies, configs] = await Promise.all([
    runCompanies(client).catch((err: unknown) => {
      // A user Odoo refuses res.company: the registers' own currencies, as before.
      if (err instanceof ServerError) return undefined;
      throw err;
    }),
    client.searchRead('pos.config', domain, {
      fields: ['name', 'currency_id', 'company_id'],
      context: { active_test: false },
    }),
  ]);
  const registers = configs.map((c) => ({
    id: c.id,
    name: String(c.name),
    company_id: m2o(c.company_id)?.[0] ?? null,
    currency: m2o(c.currency_id)?.[1] ?? '',
  }));
  const ref = (r: (typeof registers)[number]): Register => ({
    id: r.id,
    name: cutName(r.name),
    company_id: r.company_id,
  });
  if (companies === undefined) {
    const currencies = [...new Set(registers.map((r) => r.currency))];
    if (currencies.length > 1 && configId === undefined)
      throw new UsageError(
        say`the registers sell in ${own(String(currencies.length))} currencies (${own(currencies.join(', '))}), and this user may not read the companies that would tell them apart`,
        say`give --config-id for one register, or --company with the companies of one currency`,
      );
    return {
      companies: [],
      parts: currencies.map((currency) => ({
        client,
        currency,
        companies: [],
        registers: registers.filter((r) => r.currency === currency).map(ref),
      })),
    };
  }
  const currencies = currenciesOf(companies);
  const parts: Part[] = [];
  for (const currency of currencies) {
    const cs = companies.filter((c) => c.currency === currency);
    const ids = cs.map((c) => c.id);
    const regs = registers.filter((r) => r.company_id !== null && ids.includes(r.company_id)).map(ref);
    // A currency none of whose companies has a register (a holding company) has nothing to show.
    if (regs.length === 0) continue;
    parts.push({
      client: currencies.length > 1 ? client.forCompanies(ids) : client,
      currency,
      companies: cs,
      registers: regs,
    });
  }
  return { parts, companies };
}

function glanceOf(r: SummaryResult): Glance {
  return figureValues(totalOf(r.summary.groups, r.summary), r.summary.digits);
}

function changeOf(now: Glance, before: Glance): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const k of FIGURE_KEYS) {
    const a = now[k];
    const b = before[k];
    out[k] = a === null || b === null || b === 0 ? null : roundAt(((a - b) / Math.abs(b)) * 100, 1);
  }
  return out;
}

export interface ReportContext {
  /** The profile read (--profile), named on every section. */
  profile?: string;
  url: string;
  database: string;
  user: string;
  zone: string;
  now?: Date;
}

export async function gatherReport(
  client: OdooClient,
  p: ReportParams,
  c: ReportContext,
): Promise<ReportData> {
  const { period, previous } = periodsOf(p, c.zone);
  const before = client.requestCount;
  const [version, { parts, companies }] = await Promise.all([client.version(), partsOf(client, p.configId)]);
  if (parts.length === 0)
    throw new UsageError(
      say`there is no register${own(p.configId === undefined ? '' : ` ${p.configId}`)} to report on`,
      say`see posdata configs`,
    );
  const currencies: CurrencySection[] = [];
  for (const part of parts)
    currencies.push(await currencySection(part, p, c.zone, period, previous, c.profile ?? null));
  return {
    generated: (c.now ?? new Date()).toISOString(),
    profile: c.profile ?? null,
    server: {
      url: c.url,
      database: c.database,
      version: version.server_version,
      user: c.user,
      zone: c.zone,
    },
    companies: companies.map((x) => ({ id: x.id, name: cutName(x.name), currency: x.currency })),
    period,
    previous,
    currencies,
    requests: client.requestCount - before,
  };
}

/** The parts' totals of this period's and the previous one's summary by register; null where neither has one. */
function shopLines(now: SummaryResult, before: SummaryResult): CurrencySection['shop'] {
  const keys = partOrder([...now.summary.partKeys, ...before.summary.partKeys]);
  if (keys.length === 0) return null;
  const parts = (r: SummaryResult): Record<string, number> => {
    const t = totalOf(r.summary.groups, r.summary).parts ?? {};
    return Object.fromEntries(keys.map((k) => [k, t[k] ?? 0]));
  };
  return { keys, period: parts(now), previous: parts(before) };
}

/** summary's rows of a grouping, their names cut as the page shows them. */
const namedRows = (r: SummaryResult): SummaryRow[] => summaryRows(r).map(rowNames);

/** The summaries a currency's section shows, by grouping. */
interface PageGroupings {
  register: SummaryResult;
  prev: SummaryResult;
  day: SummaryResult;
  weekdayHour: SummaryResult;
  method: SummaryResult;
  product: SummaryResult;
  category: SummaryResult;
  cashier: SummaryResult;
}

/**
 * The page's groupings of the period (and the registers' of the previous one). They share their
 * grouping calls (the period's totals, its discounts by day, the lines by product for products and
 * categories are asked once), and leave out the payment methods the page does not show beside
 * registers, days, hours or cashiers (Odoo before 19 asks those per cashier): a month stays under
 * one minute's requests at the default --rate.
 */
async function pageGroupings(
  client: OdooClient,
  p: ReportParams,
  zone: string,
  period: Period,
  previous: Period,
): Promise<PageGroupings> {
  const at = (by: string, top?: number, when: Period = period): SummaryParams => ({
    from: when.from,
    to: when.to,
    configId: p.configId,
    by,
    top,
  });
  const memo: GroupMemo = new Map();
  // The shop's parts beside the products (tips, gift cards, rewards, global discounts) by register
  // and cashier, this period and the previous: shown apart, gross and discounts Sales Details'.
  const beside = new Set(['register', 'cashier', 'register,cashier,hour']);
  const sum = (q: SummaryParams, seed = false) =>
    fetchSummary(client, q, zone, {
      memo,
      methods: false,
      shop: beside.has(q.by ?? '') ? 'beside' : false,
      seed,
    });
  // First the orders by every order key the page groups by (register, cashier, hour), whose
  // answer is not shown: the memo folds the register's, the cashiers', the hours' and the days'
  // groupings from its calls (grouping.ts) instead of asking each, 18 requests fewer on Odoo 16-18.
  await sum(at('register,cashier,hour'), true);
  // One grouping after the other: each already sends its few calls at once, and a server
  // (the sandbox, or an Odoo with few workers) given them all together drops connections.
  return {
    register: await sum(at('register')),
    prev: await sum(at('register', undefined, previous)),
    day: await sum(at('day')),
    weekdayHour: await sum(at('weekday,hour')),
    method: await sum(at('method')),
    product: await sum(at('product', 10)),
    category: await sum(at('category', 10)),
    cashier: await sum(at('cashier')),
  };
}

async function currencySection(
  part: Part,
  p: ReportParams,
  zone: string,
  period: Period,
  previous: Period,
  profile: string | null,
): Promise<CurrencySection> {
  const { client, currency, registers } = part;
  const { register, prev, day, weekdayHour, method, product, category, cashier } = await pageGroupings(
    client,
    p,
    zone,
    period,
    previous,
  );
  const domain = sessionsDomain({ from: period.from, to: period.to, configId: p.configId }, zone);
  const { inputs } = await fetchReconciliation(client, domain);
  const rec = reconcileSessions(inputs, register.summary.digits);
  const glance = glanceOf(register);
  const digits = register.summary.digits;
  const api = groupingApi(client, register.major, zone);
  const seated = await readGuests(client, api, period.range, p.configId, digits);
  const seatedBefore = seated && (await readGuests(client, api, previous.range, p.configId, digits));
  const previousGlance = glanceOf(prev);
  const loss = await lossSection(client, {
    range: period.range,
    configId: p.configId,
    cashier,
    register,
    sessions: rec.sessions,
    sessionUsers: inputs.sessions.map((s) => ({ id: s.id, user: m2o((s as OdooRecord).user_id) })),
    digits: register.summary.digits,
    registerNames: new Map(registers.map((r) => [r.id, r.name])),
  });
  const books = p.books ? await booksDiffering(client, domain, register.summary.digits) : null;
  const companyOf = new Map(part.companies.map((x) => [x.id, x]));
  return {
    profile,
    currency,
    companies: part.companies.map((x) => ({ id: x.id, name: cutName(x.name) })),
    digits: register.summary.digits,
    registers,
    glance,
    previous: previousGlance,
    change: changeOf(glance, previousGlance),
    summary: {
      register: namedRows(register),
      day: namedRows(day),
      weekdayHour: namedRows(weekdayHour),
      method: namedRows(method),
      product: namedRows(product),
      category: namedRows(category),
      cashier: namedRows(cashier),
    },
    reconcile: rec.sessions.map((s) => {
      // Each closing says its company and currency, as reconcile's rows over several do.
      const company = companyOf.get(registers.find((r) => r.id === s.configId)?.company_id ?? -1);
      return rowNames({
        company_id: company?.id ?? null,
        company: company?.name ?? null,
        currency,
        ...toRow(s, rec.methodKeys, undefined),
      } as Record<string, unknown>);
    }),
    loss: lossNames(loss),
    shop: shopLines(register, prev),
    guests: seated && seatedBefore ? { period: seated, previous: seatedBefore } : null,
    books: books?.map(bookNames) ?? null,
  };
}

/** One server of a report over several (--profile a,b): what was read from it, its figures apart. */
export type ServerReport = Omit<ReportData, 'currencies' | 'generated'>;

/**
 * A report over several servers (--profile a,b, --all-profiles): each server's figures as its
 * own report has them, one section per profile and currency, never a figure of two servers or
 * two currencies added; the servers that failed are named.
 */
export interface ChainReport {
  generated: string;
  /** The period as given (each server cuts its days in its own zone: see servers[].period). */
  period: { from: string; to: string };
  previous: { from: string; to: string };
  /** The servers read, in the order given. */
  servers: ServerReport[];
  /** The profiles that failed (each said why on standard error): nothing of theirs is here. */
  failed: string[];
  /** Every section of every server, each with its profile, companies and currency. */
  currencies: CurrencySection[];
  /** Requests made to every server together. */
  requests: number;
}

/** The servers' own reports as one, in the order given; `failed` names those that could not be read. */
export function chainReport(reports: ReportData[], failed: string[], now = new Date()): ChainReport {
  const first = reports[0];
  if (!first) throw new Error('chainReport needs a report');
  return {
    generated: now.toISOString(),
    period: { from: first.period.from, to: first.period.to },
    previous: { from: first.previous.from, to: first.previous.to },
    servers: reports.map(({ currencies: _c, generated: _g, ...server }) => server),
    failed,
    currencies: reports.flatMap((r) => r.currencies),
    requests: reports.reduce((a, r) => a + r.requests, 0),
  };
}
