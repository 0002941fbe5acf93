// What one refresh of `summary --watch` shows, without the terminal: the day's totals as one
// record stamped with the refresh time (a csv or ndjson row per refresh off a terminal), the
// same as one line of text (--format table off a terminal), and the heading line above the
// redrawn table on a terminal.

import type { FieldMap } from '../core/types.js';
import { DateTime } from '../query/luxon.js';
import { fixedDecimals } from '../records/normalize.js';
import { type SummaryRow, toRow, totalOf } from './compute.js';
import { FIGURE_KEYS, MONEY_KEYS } from './figures.js';
import type { SummaryResult } from './query.js';
import { summaryFields } from './rows.js';

/**
 * A datetime as the contract writes them: UTC `YYYY-MM-DD HH:MM:SS`, or with --tz ISO 8601
 * with that zone's offset.
 */
function stamp(at: Date, tz?: string): string {
  return tz
    ? (DateTime.fromJSDate(at, { zone: tz })
        .startOf('second')
        .toISO({ suppressMilliseconds: true }) as string)
    : DateTime.fromJSDate(at, { zone: 'utc' }).toFormat('yyyy-MM-dd HH:mm:ss');
}

/** The totals of every group (not only --top's), stamped: one record per refresh. */
export function liveRow(r: SummaryResult, at: Date, tz?: string): SummaryRow {
  const figures = totalOf(r.summary.groups, r.summary);
  return { refreshed_at: stamp(at, tz), ...toRow({ keys: [], figures }, r.summary) };
}

/** The record's fields: the refresh time, the figures, a column per payment method. */
export function liveFields(r: SummaryResult): { fields: string[]; defs: FieldMap } {
  const { defs } = summaryFields(r, []);
  const fields = ['refreshed_at', ...FIGURE_KEYS, ...r.summary.partKeys, ...r.summary.methodKeys];
  // A datetime: an --excel CSV writes it as the zone's wall-clock time, as every other.
  return { fields, defs: { ...defs, refreshed_at: { type: 'datetime' } } };
}

const MONEY = new Set(MONEY_KEYS);

/** One line of text per refresh: the time in the business zone, then `name value` pairs. */
export function liveLine(r: SummaryResult, at: Date, zone: string): string {
  const row = liveRow(r, at, zone);
  const parts = [DateTime.fromJSDate(at, { zone }).toFormat('yyyy-MM-dd HH:mm:ss')];
  for (const k of [...FIGURE_KEYS, ...r.summary.partKeys, ...r.summary.methodKeys]) {
    const v = row[k];
    if (v === null || v === undefined) continue;
    const name = k.startsWith('method:') ? k.slice('method:'.length) : k;
    parts.push(
      `${name} ${typeof v === 'number' && (MONEY.has(k) || k.startsWith('method:') || r.summary.partKeys.includes(k)) ? fixedDecimals(v, r.summary.digits) : String(v)}`,
    );
  }
  return `${parts.join('  ')}\n`;
}

/** What the figures cover, in the business zone: a day, a range, or a session. */
export function coverage(r: SummaryResult, zone: string, sessionId?: number): string {
  if (sessionId !== undefined) return `session ${sessionId}`;
  const at = (s: string | null) => (s ? DateTime.fromSQL(s, { zone: 'utc' }).setZone(zone) : undefined);
  const start = at(r.range.start);
  const end = at(r.range.end);
  if (start && end && end.diff(start, 'hours').hours <= 25)
    return `${start.toFormat('yyyy-MM-dd')} (${zone})`;
  const f = (d: DateTime | undefined) => (d ? d.toFormat('yyyy-MM-dd HH:mm') : '…');
  return `${f(start)} to ${f(end)} (${zone})`;
}

/** The line above the redrawn table: what, when it was refreshed, how often, how to stop. */
export function liveHeading(
  what: string,
  refreshed: Date | undefined,
  every: number,
  zone: string,
  trouble?: { failedAt: Date; nextAt: Date },
): string {
  const t = (d: Date) => DateTime.fromJSDate(d, { zone }).toFormat('HH:mm:ss');
  const parts = [`summary of ${what}`, refreshed ? `refreshed ${t(refreshed)}` : 'not refreshed yet'];
  if (trouble) parts.push(`refresh failed at ${t(trouble.failedAt)}, next try ${t(trouble.nextAt)}`);
  else parts.push(`every ${every} s`);
  parts.push('Ctrl-C to stop');
  return `${parts.join(' · ')}\n`;
}
