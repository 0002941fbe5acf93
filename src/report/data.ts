// The report's figures: the period at a glance beside the previous one, the groupings its
// charts draw, the cash closings and where the money leaks, per currency. Every figure comes
// from the code `summary` and `reconcile` run (computed by Odoo's grouping calls); the loss
// section adds the few reads that name the orders behind a figure. No HTML here.
import { DateTime } from 'luxon';
import type { OdooClient } from '../core/client.js';
import { UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import type { Domain, OdooRecord } from '../core/types.js';
import {
  fetchReconciliation,
  reconcile as reconcileSessions,
  sessionsDomain,
  toRow,
} from '../reconcile/compute.js';
import { roundAt } from '../records/normalize.js';
import { FIGURE_KEYS, type SummaryRow, totalOf } from '../summary/compute.js';
import type { GroupMemo } from '../summary/grouping.js';
import {
  fetchSummary,
  type Range,
  rangeOf,
  type SummaryParams,
  type SummaryResult,
} from '../summary/query.js';
import { summaryRows } from '../summary/rows.js';
import { type LossSection, lossSection } from './loss.js';

export interface ReportParams {
  from?: string;
  to?: string;
  /** YYYY-MM: that calendar month, and the month before it as the previous period. */
  month?: string;
  configId?: number;
}

/** The period's bounds as summary and reconcile take them (--from/--to). */
export interface Period {
  from: string;
  to: string;
  /** date_order's UTC range, as summary computes it. */
  range: Range;
}

/** The period at a glance: summary's totals over every register. */
export interface Glance {
  orders: number;
  items: number | null;
  gross: number | null;
  discounts: number | null;
  refund_count: number;
  refunds: number;
  net: number | null;
  tax: number | null;
  total: number;
  average_ticket: number | null;
}

export interface CurrencySection {
  currency: string;
  digits: number;
  /** The registers that sell in this currency. */
  registers: { id: number; name: string }[];
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
}

export interface ReportData {
  generated: string;
  server: { url: string; database: string; version: string; user: string; zone: string };
  companies: string[];
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

/** The registers grouped by their currency: one section each. */
async function registersByCurrency(
  client: OdooClient,
  configId: number | undefined,
): Promise<Map<string, { id: number; name: string }[]>> {
  const domain: Domain = configId === undefined ? [] : [['id', '=', configId]];
  const configs = await client.searchRead('pos.config', domain, {
    fields: ['name', 'currency_id'],
    context: { active_test: false },
  });
  const out = new Map<string, { id: number; name: string }[]>();
  for (const c of configs) {
    const cur = m2o(c.currency_id)?.[1] ?? '';
    const list = out.get(cur) ?? [];
    list.push({ id: c.id, name: String(c.name) });
    out.set(cur, list);
  }
  return out;
}

function glanceOf(r: SummaryResult): Glance {
  const t = totalOf(r.summary.groups, r.summary);
  return {
    orders: t.orders,
    items: t.items,
    gross: t.gross,
    discounts: t.discounts,
    refund_count: t.refundCount,
    refunds: t.refunds,
    net: t.net,
    tax: t.tax,
    total: t.total,
    average_ticket: t.orders > 0 ? roundAt(t.total / t.orders, r.summary.digits) : null,
  };
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
  const [version, byCurrency, companies] = await Promise.all([
    client.version(),
    registersByCurrency(client, p.configId),
    client.searchRead('res.company', [], { fields: ['name'] }),
  ]);
  if (byCurrency.size === 0)
    throw new UsageError(
      say`there is no register${own(p.configId === undefined ? '' : ` ${p.configId}`)} to report on`,
      say`see posdata configs`,
    );
  if (byCurrency.size > 1 && p.configId === undefined)
    throw new UsageError(
      say`the registers sell in ${own(String(byCurrency.size))} currencies (${own([...byCurrency.keys()].join(', '))}), which one report does not add up`,
      say`give --config-id for one register`,
    );
  const currencies: CurrencySection[] = [];
  for (const [currency, registers] of byCurrency)
    currencies.push(await currencySection(client, p, c.zone, period, previous, currency, registers));
  return {
    generated: (c.now ?? new Date()).toISOString(),
    server: {
      url: c.url,
      database: c.database,
      version: version.server_version,
      user: c.user,
      zone: c.zone,
    },
    companies: companies.map((x) => String(x.name)),
    period,
    previous,
    currencies,
    requests: client.requestCount - before,
  };
}

async function currencySection(
  client: OdooClient,
  p: ReportParams,
  zone: string,
  period: Period,
  previous: Period,
  currency: string,
  registers: { id: number; name: string }[],
): Promise<CurrencySection> {
  const at = (by: string, top?: number, when: Period = period): SummaryParams => ({
    from: when.from,
    to: when.to,
    configId: p.configId,
    by,
    top,
  });
  // The summaries share their grouping calls (the period's totals, its discounts by day, the
  // lines by product for products and categories are asked once), and leave out the payment
  // methods the page does not show beside registers, days, hours or cashiers (Odoo before 19
  // asks those per cashier): a month stays under one minute's requests at the default --rate.
  const memo: GroupMemo = new Map();
  const sum = (q: SummaryParams) => fetchSummary(client, q, zone, { memo, methods: false });
  // One grouping after the other: each already sends its few calls at once, and a server
  // (the sandbox, or an Odoo with few workers) given them all together drops connections.
  const groupings: SummaryParams[] = [
    at('register'),
    at('register', undefined, previous),
    at('day'),
    at('weekday,hour'),
    at('method'),
    at('product', 10),
    at('category', 10),
    at('cashier'),
  ];
  const results: SummaryResult[] = [];
  for (const q of groupings) results.push(await sum(q));
  const [register, prev, day, weekdayHour, method, product, category, cashier] = results as [
    SummaryResult,
    SummaryResult,
    SummaryResult,
    SummaryResult,
    SummaryResult,
    SummaryResult,
    SummaryResult,
    SummaryResult,
  ];
  const domain = sessionsDomain({ from: period.from, to: period.to, configId: p.configId }, zone);
  const { inputs } = await fetchReconciliation(client, domain);
  const rec = reconcileSessions(inputs, register.summary.digits);
  const glance = glanceOf(register);
  const previousGlance = glanceOf(prev);
  const loss = await lossSection(client, {
    range: period.range,
    configId: p.configId,
    cashier,
    register,
    sessions: rec.sessions,
    sessionUsers: inputs.sessions.map((s) => ({ id: s.id, user: m2o((s as OdooRecord).user_id) })),
    digits: register.summary.digits,
  });
  return {
    currency,
    digits: register.summary.digits,
    registers,
    glance,
    previous: previousGlance,
    change: changeOf(glance, previousGlance),
    summary: {
      register: summaryRows(register),
      day: summaryRows(day),
      weekdayHour: summaryRows(weekdayHour),
      method: summaryRows(method),
      product: summaryRows(product),
      category: summaryRows(category),
      cashier: summaryRows(cashier),
    },
    reconcile: rec.sessions.map((s) => toRow(s, rec.methodKeys, undefined) as Record<string, unknown>),
    loss,
  };
}
