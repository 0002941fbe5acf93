// The summary over companies in several currencies: never one figure of two currencies. The
// run's companies (--company, else every one the user may see) are split into parts, one per
// currency (or one per company with --by company), each read with only its companies in
// Odoo's allowed_company_ids and computed as a one-currency summary at that currency's
// decimals; rows then say their currency (and company), and a payment method whose name
// repeats across companies is named with its company ("Cash · Shop US").
import type { OdooClient } from '../core/client.js';
import { ServerError, UsageError } from '../core/errors.js';
import { own, type Said, say } from '../core/redact.js';
import { type Company, companyLabel, currenciesOf, runCompanies } from '../read/companies.js';
import { visible } from '../render/visible.js';
import { type SummaryRow, totalOf } from './compute.js';
import { m2oId } from './folder.js';
import { fetchSummary, type SummaryOptions, type SummaryParams, type SummaryResult } from './query.js';
import { summaryFields, summaryRows } from './rows.js';

/** One currency's (or company's) summary. */
export interface SummaryPart {
  companies: Company[];
  currency: string;
  /** `Shop US (USD)`, or `USD` for a part of several companies. */
  label: string;
  client: OdooClient;
  result: SummaryResult;
}

export interface SplitSummary {
  /** The columns each row starts with: `company_id, company` (--by company), `currency`. */
  lead: string[];
  parts: SummaryPart[];
}

/** --by with `company` and `currency` taken out (the rest is the summary's own keys). */
export function splitKeys(by: string | undefined): {
  rest: string | undefined;
  company: boolean;
  currency: boolean;
} {
  if (by === undefined) return { rest: undefined, company: false, currency: false };
  const keys = by
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  const rest = keys.filter((k) => k !== 'company' && k !== 'currency');
  const company = keys.includes('company');
  const currency = keys.includes('currency');
  if ((company || currency) && keys.length > 0 && keys.indexOf(company ? 'company' : 'currency') !== 0)
    throw new UsageError(
      say`--by ${by}: company and currency come first`,
      say`write e.g. --by company,register or --by currency,day`,
    );
  // Only company/currency: one row per part (its registers' figures added, in one currency).
  return { rest: rest.length > 0 ? rest.join(',') : company || currency ? '' : undefined, company, currency };
}

/**
 * The split summary, or undefined where one plain summary says it all: one currency among the
 * run's companies and no --by company or currency (a one-company database reads as it always has).
 * `chain`: this server is one of a chain's (src/cli/servers.ts), whose rows always say their
 * currency and whose method columns are named for the chain (nameChainMethods).
 */
export async function fetchSplitSummary(
  client: OdooClient,
  p: SummaryParams,
  zone: string,
  chain = false,
  /** A summary started beside the companies' read (fetchSummaryOrSplit), taken where it is a part's. */
  ahead?: Ahead,
): Promise<SplitSummary | undefined> {
  const by = splitKeys(p.by);
  let companies: Company[];
  try {
    companies = await runCompanies(client);
  } catch (err) {
    // A user Odoo refuses res.company: one summary, as before (Odoo's rules still apply).
    if (err instanceof ServerError && !by.company && !by.currency) return undefined;
    throw err;
  }
  // What the run's client reads, before a session narrows it (readsAll).
  const run = companies;
  if (p.sessionId !== undefined && companies.length > 1)
    companies = await sessionCompany(client, p.sessionId, companies);
  const currencies = currenciesOf(companies);
  // A chain's server says its currency even where it has one: the chain has several.
  if (!chain && !by.company && !by.currency && currencies.length <= 1) return undefined;
  const groups: Company[][] = by.company
    ? companies.map((c) => [c])
    : currencies.map((cur) => companies.filter((c) => c.currency === cur));
  const parts: SummaryPart[] = [];
  for (const cs of groups) {
    const partClient = client.forCompanies(cs.map((c) => c.id));
    const result = await (ahead?.asPart && groups.length === 1 && readsAll(client, cs, run)
      ? ahead.take()
      : fetchSummary(partClient, partParams(p), zone));
    if (by.rest === '') collapse(result);
    const currency = cs[0]?.currency ?? '';
    parts.push({
      companies: cs,
      currency,
      // Said on stderr and over the part's table: Odoo's text escaped.
      label:
        cs.length === 1
          ? companyLabel({ name: cs[0]?.name ?? '', currency })
          : `${visible(currency)} (${cs.map((c) => visible(c.name)).join(', ')})`,
      client: partClient,
      result,
    });
  }
  if (chain) nameChainMethods(parts);
  else await nameMethods(client, parts);
  return { lead: by.company ? ['company_id', 'company', 'currency'] : ['currency'], parts };
}

/** A part's own keys: --by without company and currency (register where none is left). */
function partParams(p: SummaryParams): SummaryParams {
  const rest = splitKeys(p.by).rest;
  return { ...p, by: rest === '' ? 'register' : rest };
}

/**
 * Whether a part of these companies reads what the run's client reads: every company of the run
 * (`run`, before a session narrows them: the companies' currencies set the decimals), under the
 * client's own allowed_company_ids in its order (the first is Odoo's current company), or under
 * none (Odoo then reads every company the user is in, which is what visibleCompanies lists).
 */
function readsAll(client: OdooClient, part: Company[], run: Company[]): boolean {
  const ids = part.map((c) => c.id);
  const allowed = client.context?.allowed_company_ids;
  if (Array.isArray(allowed) && allowed.length > 0)
    return allowed.length === ids.length && allowed.every((id, i) => id === ids[i]);
  return ids.length === run.length && run.every((c, i) => c.id === ids[i]);
}

/**
 * A summary asked beside the companies' read instead of after it (a round trip less: every
 * summary first reads the companies, to know whether it splits). Its first requests, those it
 * makes before any answer, go at once; the rest wait until the companies say whether it is the
 * summary wanted: the plain one (one currency), or, in a chain or by company or currency, the
 * only part's (of all the run's companies). Where it is not (several currencies; in a chain or
 * by company, a session of one company among several), what waits is never sent, and the
 * summary is asked as before: its first requests (the orders' two groupings, or the orders'
 * fields by cashier) are the cost of guessing wrong.
 */
export class Ahead {
  /** Started with a part's keys (a chain, --by company or currency), else the plain run's. */
  readonly asPart: boolean;
  /** What it asks with: a part's keys, or the plain run's. */
  private readonly params: SummaryParams;
  private result: Promise<SummaryResult> | undefined;
  private decide: (go: boolean) => void = () => undefined;
  private readonly decided = new Promise<void>((go, drop) => {
    this.decide = (yes) => (yes ? go() : drop(new Error('a summary not wanted')));
  });
  private verdict: boolean | undefined;

  constructor(
    private readonly client: OdooClient,
    p: SummaryParams,
    private readonly zone: string,
    chain: boolean,
    private readonly options: SummaryOptions = {},
  ) {
    const by = splitKeys(p.by);
    this.asPart = chain || by.company || by.currency;
    this.params = this.asPart ? partParams(p) : p;
    this.decided.catch(() => undefined);
  }

  /** Starts the summary (after the companies' read is asked: it shares that read). */
  start(): void {
    if (this.verdict === false || this.client.uid === undefined) return;
    let first = true;
    setImmediate(() => {
      first = false;
    });
    const held = this.client.held(() => (first ? undefined : this.decided));
    this.result = fetchSummary(held, this.params, this.zone, this.options);
    this.result.catch(() => undefined);
  }

  /** The summary, as fetchSummary over the run's client gives it. */
  take(): Promise<SummaryResult> {
    this.verdict = true;
    this.decide(true);
    return this.result ?? fetchSummary(this.client, this.params, this.zone, this.options);
  }

  /** Not the summary wanted (or no longer needed): what waits is not sent. */
  drop(): void {
    if (this.verdict !== undefined) return;
    this.verdict = false;
    this.decide(false);
  }
}

/**
 * The split summary, or the plain one where the companies keep one currency (fetchSplitSummary),
 * the latter asked beside the companies' read (Ahead), with `options` (the split's parts without).
 */
export async function fetchSummaryOrSplit(
  client: OdooClient,
  p: SummaryParams,
  zone: string,
  chain: boolean,
  options: SummaryOptions = {},
): Promise<{ split: SplitSummary } | { plain: SummaryResult }> {
  const ahead = new Ahead(client, p, zone, chain, options);
  try {
    const asked = fetchSplitSummary(client, p, zone, chain, ahead);
    ahead.start();
    const split = await asked;
    if (split) return { split };
    return { plain: await (ahead.asPart ? fetchSummary(client, p, zone, options) : ahead.take()) };
  } finally {
    ahead.drop();
  }
}

/**
 * The one company a session is of, where it is found among the run's companies: its figures
 * are that company's, in its currency (each other currency's part, read without the session's
 * company, found no such session: exit 4 for a session that exists).
 */
async function sessionCompany(
  client: OdooClient,
  sessionId: number,
  companies: Company[],
): Promise<Company[]> {
  const [session] = await client.searchRead('pos.session', [['id', '=', sessionId]], {
    fields: ['company_id'],
  });
  const its = companies.find((c) => c.id === m2oId(session?.company_id));
  return its ? [its] : companies;
}

/**
 * --by company (or currency) alone: the part's groups added into one row of no key; a part with
 * no sales is a row of zeros, so a company, or a chain's server (--by profile), with nothing in
 * the period is there to be seen rather than missing.
 */
function collapse(r: SummaryResult): void {
  const total = totalOf(r.summary.groups, r.summary);
  const group = { keys: [], figures: total };
  r.summary.groups = [group];
  r.summary.keys = [];
  r.shown = r.summary.groups;
}

/**
 * A payment method's column, one per method id: `method:<name>` where its name is its own
 * across the parts, `method:<name> · <company>` where two companies' methods share it (Cash ·
 * Shop US), and `#<id>` after it where two methods of one company do (Cash #1, Cash #6 on
 * Odoo 18 and 19): two methods under one column would keep one's money and drop the other's.
 */
async function nameMethods(client: OdooClient, parts: SummaryPart[]): Promise<void> {
  const count = new Map<string, Set<number>>();
  for (const part of parts)
    for (const [id, name] of part.result.summary.methodNames) {
      const ids = count.get(name) ?? new Set<number>();
      ids.add(id);
      count.set(name, ids);
    }
  const repeated = [...count.values()].filter((s) => s.size > 1).flatMap((s) => [...s]);
  const companyOf = new Map<number, string>();
  if (repeated.length > 0) {
    const rows = await client.read('pos.payment.method', repeated, ['company_id']);
    for (const r of rows)
      if (Array.isArray(r.company_id)) companyOf.set(r.id as number, String(r.company_id[1]));
  }
  // A name shared across companies says its company; one still shared (within a company) its id.
  const companies = (name: string) => new Set([...(count.get(name) ?? [])].map((id) => companyOf.get(id)));
  const label = new Map<number, string>();
  for (const part of parts) {
    const s = part.result.summary;
    for (const id of s.methodIds) {
      const name = s.methodNames.get(id) ?? `#${id}`;
      const company = companyOf.get(id);
      label.set(id, company && companies(name).size > 1 ? `${name} · ${company}` : name);
    }
  }
  const labels = [...label.values()];
  for (const [id, l] of label)
    if (labels.indexOf(l) !== labels.lastIndexOf(l)) label.set(id, l.replace(/( · |$)/, ` #${id}$1`));
  for (const part of parts) relabel(part, (id) => label.get(id) ?? `#${id}`);
}

/**
 * A chain's method columns (each server's run names its own, and the joined output puts one
 * name in one column): `method:<name> · <currency>` always, so one method is one column on
 * every server whatever its other companies (Cash · EUR, where alone it would be `Cash` and
 * beside a USD company `Cash · My Company`) and no column holds two currencies; `#<id>` after
 * the name where two methods of one part (one row's figures) share it (Cash #1 · EUR).
 */
function nameChainMethods(parts: SummaryPart[]): void {
  for (const part of parts) {
    const s = part.result.summary;
    const nameOf = (id: number) => s.methodNames.get(id) ?? `#${id}`;
    const count = new Map<string, number>();
    for (const id of s.methodIds) count.set(nameOf(id), (count.get(nameOf(id)) ?? 0) + 1);
    relabel(part, (id) => {
      const name = nameOf(id);
      return `${name}${(count.get(name) ?? 0) > 1 ? ` #${id}` : ''} · ${part.currency}`;
    });
  }
}

/** A part's method columns and its groups' figures put under `method:<label of the method's id>`. */
function relabel(part: SummaryPart, label: (id: number) => string): void {
  const s = part.result.summary;
  const rename = new Map<string, string>();
  s.methodKeys = s.methodKeys.map((old, i) => {
    const key = `method:${label(s.methodIds[i] as number)}`;
    rename.set(old, key);
    return key;
  });
  for (const g of s.groups) {
    if (!g.figures.methods) continue;
    const m: Record<string, number> = {};
    for (const [k, v] of Object.entries(g.figures.methods)) m[rename.get(k) ?? k] = v;
    g.figures.methods = m;
  }
}

/** The parts' rows as json, ndjson and csv carry them: each led by its currency (and company). */
export function splitRows(split: SplitSummary): {
  rows: SummaryRow[];
  fields: string[];
  defs: Record<string, { type: string }>;
} {
  const rows: SummaryRow[] = [];
  const fields: string[] = [...split.lead];
  const defs: Record<string, { type: string }> = {
    company_id: { type: 'integer' },
    company: { type: 'char' },
    currency: { type: 'char' },
  };
  for (const part of split.parts) {
    const own = summaryRows(part.result);
    const f = summaryFields(part.result, own);
    for (const k of f.fields) if (!fields.includes(k)) fields.push(k);
    Object.assign(defs, f.defs);
    const company = part.companies.length === 1 ? part.companies[0] : undefined;
    for (const r of own) {
      const lead: SummaryRow = {};
      if (split.lead.includes('company')) {
        lead.company_id = company?.id ?? null;
        lead.company = company?.name ?? null;
      }
      lead.currency = part.currency;
      rows.push({ ...lead, ...r });
    }
  }
  // A column's amounts in CSV at the most decimals of the parts' currencies, so none loses one.
  const places = Math.max(...split.parts.map((p) => p.result.summary.digits));
  for (const def of Object.values(defs))
    if ((def as { currencyDigits?: number }).currencyDigits !== undefined)
      (def as { currencyDigits?: number }).currencyDigits = places;
  // Method columns of another currency's part are empty (null), never 0 of a wrong currency.
  for (const r of rows) for (const k of fields) if (!(k in r)) r[k] = null;
  return { rows, fields, defs };
}

/** A note that the figures are split, for stderr. */
export function splitNote(split: SplitSummary): Said {
  return say`figures per ${own(split.lead.includes('company') ? 'company' : 'currency')}: ${own(split.parts.map((p) => p.label).join('; '))}; no total adds two currencies`;
}
