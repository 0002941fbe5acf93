// The summary's parameters → the server calls → the summary, shared by the command and by
// `posdata serve`: the range (business days in the zone, shifted by --day-starts), the
// grouping API of the server's version, the cashier field, and with a session the cash
// section of reconcile (its own fetch and arithmetic).
import type { DateTime } from 'luxon';
import type { OdooClient } from '../core/client.js';
import { NotFoundError, UsageError } from '../core/errors.js';
import { say } from '../core/redact.js';
import type { Domain } from '../core/types.js';
import { majorVersion } from '../core/types.js';
import { parseDay, parseWhen, toOdoo } from '../query/time.js';
import { moneyDigits } from '../read/currency.js';
import { fetchReconciliation, reconcile, type SessionFigures } from '../reconcile/compute.js';
import { computeSummary, ordersDomain, type Summary, type SummaryGroup, topGroups } from './compute.js';
import { type GroupMemo, groupingApi } from './grouping.js';
import { checkTop, dayCut, type Key, parseDayStarts, parseKeys } from './keys.js';

export interface SummaryParams {
  date?: string;
  from?: string;
  to?: string;
  configId?: number;
  sessionId?: number;
  by?: string;
  top?: number;
  dayStarts?: string;
  /**
   * The range already worked out from these flags in `zone` (the command's options do it to
   * refuse a bad range before connecting): taken as it is where the summary is asked in that
   * zone, not worked out again (each a few luxon calls, on every server of a chain).
   */
  range?: { zone: string; range: Range };
}

export interface CheckedParams {
  keys: Key[];
  dayStarts: number;
  top: number | undefined;
  range: Range;
}

/** Everything that can be refused without the server. */
export function checkParams(p: SummaryParams, zone = 'UTC'): CheckedParams {
  const keys = parseKeys(p.by);
  const dayStarts = parseDayStarts(p.dayStarts);
  const top = checkTop(p.top);
  const range = p.range?.zone === zone ? p.range.range : rangeOf(p, zone, dayStarts);
  return { keys, dayStarts, top, range };
}

export interface Range {
  /** UTC `YYYY-MM-DD HH:MM:SS`, inclusive; null = open. */
  start: string | null;
  /** UTC, exclusive; null = open. */
  end: string | null;
}

/**
 * The range of `date_order`: `--date D` is that business day in `zone` (from `--day-starts`
 * to the same time the next day, DST-correct); a date-only `--from`/`--to` moves its cut
 * the same way; no range and no session is today.
 */
export function rangeOf(p: SummaryParams, zone: string, dayStarts: number, now?: DateTime): Range {
  if (p.date !== undefined && (p.from !== undefined || p.to !== undefined)) {
    throw new UsageError(
      say`--date and --from/--to both give the range`,
      say`use either --date D or --from/--to`,
    );
  }
  const shift = (d: DateTime): DateTime => dayCut(d, dayStarts);
  if (p.date !== undefined || (p.from === undefined && p.to === undefined && p.sessionId === undefined)) {
    const raw = p.date ?? 'today';
    const day = parseDay(raw, zone, '--date', now);
    return { start: toOdoo(shift(day)), end: toOdoo(shift(day.plus({ days: 1 }).startOf('day'))) };
  }
  const f = p.from !== undefined ? parseWhen(p.from, zone, '--from', now) : undefined;
  const t = p.to !== undefined ? parseWhen(p.to, zone, '--to', now) : undefined;
  const start = f ? (f.wholeDay ? shift(f.at) : f.at) : undefined;
  // A date-only --to covers that business day; a time is the last instant counted.
  const end = t
    ? t.wholeDay
      ? shift(t.at.plus({ days: 1 }).startOf('day'))
      : t.at.plus({ seconds: 1 })
    : undefined;
  if (start && end && start >= end) {
    throw new UsageError(say`--from ${p.from} is not before --to ${p.to}`, say`swap them or widen the range`);
  }
  return { start: start ? toOdoo(start) : null, end: end ? toOdoo(end) : null };
}

function rangeDomain(r: Range): Domain {
  const d: Domain = [];
  if (r.start) d.push(['date_order', '>=', r.start]);
  if (r.end) d.push(['date_order', '<', r.end]);
  return d;
}

export interface CashSection {
  /** X on an open session (a snapshot), Z on a closed one. */
  report: 'X' | 'Z';
  state: string;
  figures: SessionFigures;
}

export interface SummaryResult {
  summary: Summary;
  /** The groups to show: all, or the --top N by total. */
  shown: SummaryGroup[];
  range: Range;
  cash?: CashSection;
  /** The server's major version. */
  major: number;
}

/** How a caller that runs several summaries at once (a report) has them made. */
export interface SummaryOptions {
  /** Grouping calls shared between the summaries (the same call asked once). */
  memo?: GroupMemo;
  /** false: no payment method columns (a report that does not show them saves their requests). */
  methods?: boolean;
  /**
   * false: no shop part columns (shop.ts; a view that does not show them saves their requests);
   * 'beside': the columns, with gross and discounts as Sales Details counts them (none in discounts).
   */
  shop?: boolean | 'beside';
  /** A summary that only fills `memo` for the others (SummaryQuery.seed): its figures are not read. */
  seed?: boolean;
}

/**
 * The server's major version, which decides the summary's requests. Where login stored 16, 17
 * or 18 that is taken without a request: a server only moves up, and 19 still answers
 * read_group in 17's shape over the same models, so the way of an older version gives the same
 * figures on a newer one (what an upgrade adds, 19's grouping through the order, waits for the
 * next login). 19 and an unknown version are asked.
 */
async function summaryMajor(client: OdooClient): Promise<number> {
  const hint = client.majorHint;
  if (hint >= 16 && hint <= 18) return hint;
  const version = await client.version();
  return majorVersion(version) || Number.parseInt(version.server_version, 10) || 17;
}

export async function fetchSummary(
  client: OdooClient,
  p: SummaryParams,
  zone: string,
  options: SummaryOptions = {},
): Promise<SummaryResult> {
  const { keys, dayStarts, top, range } = checkParams(p, zone);
  const major = await summaryMajor(client);
  const api = groupingApi(client, major, zone, options.memo);

  let cashierField = 'user_id';
  let paymentCashier = false;
  // Odoo 16 relates pos.order.config_id to the session without storing it (17+ store it):
  // known from the version, or from the fields where they are read anyway.
  let configStored = major >= 17;
  if (keys.includes('cashier') || keys.includes('table') || keys.includes('floor')) {
    // pos_hr records the employee at the register; without it the user is the cashier.
    const fields = await client.fieldsGet('pos.order');
    if ('employee_id' in fields) cashierField = 'employee_id';
    // 18's pos_hr stores the order's employee on its payments too (16/17's do not, 19 groups
    // payments through their order): one grouping gives the methods per cashier.
    if (cashierField === 'employee_id' && major === 18 && keys.includes('cashier'))
      paymentCashier = (await client.fieldsGet('pos.payment')).employee_id?.store === true;
    if (fields.config_id) configStored = fields.config_id.store !== false;
    const table = keys.find((k) => k === 'table' || k === 'floor');
    if (table && !('table_id' in fields))
      throw new UsageError(
        say`--by ${table}: this Odoo's orders have no table (pos_restaurant is not installed)`,
        say`group by register, session or cashier instead`,
      );
  }
  let cash: CashSection | undefined;
  const sessionPart = async (): Promise<void> => {
    if (p.sessionId === undefined) return;
    const { inputs } = await fetchReconciliation(client, [['id', '=', p.sessionId]]);
    const s = inputs.sessions[0];
    if (!s) {
      throw new NotFoundError(
        say`session ${p.sessionId} does not exist`,
        say`see posdata closures or posdata configs`,
      );
    }
    const figures = reconcile(inputs).sessions[0];
    const state = typeof s.state === 'string' ? s.state : 'opened';
    if (figures) cash = { report: state === 'closed' ? 'Z' : 'X', state, figures };
  };
  // The currency's decimals are read while the groups are (awaited once they are in).
  const digits = moneyDigits(client);
  digits.catch(() => undefined);
  const [summary] = await Promise.all([
    computeSummary(client, api, {
      keys,
      zone,
      dayStarts,
      orderDomain: ordersDomain(rangeDomain(range), p.configId, p.sessionId),
      cashierField,
      paymentCashier,
      configStored,
      digits,
      methods: options.methods ?? true,
      shop: options.shop ?? true,
      seed: options.seed,
    }),
    sessionPart(),
  ]);
  return { summary, shown: topGroups(summary.groups, top), range, cash, major };
}
