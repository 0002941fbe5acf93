// The period parameters of the reports, declared once: summary's and reconcile's flags
// (src/commands/), the options they fill (src/cli/period.ts) and serve's query strings
// (src/serve/schema.ts) are made from these. The flag's spec gives the CLI its name and value;
// the query string's name is the long name in snake case (`--day-starts` → `day_starts`).
// What the value means is checked where the period is read (query/time.ts, summary/keys.ts).

/** A period parameter: its flag as commander spells it, what it means, and the shape serve checks. */
export interface PeriodParam {
  readonly spec: string;
  readonly description: string;
  /** The value's shape, checked by serve's schema before the request runs. */
  readonly pattern?: string;
}

/** One business day, read in the zone of the range. */
export const DATE = {
  spec: '--date <day>',
  description: 'one business day (YYYY-MM-DD, today, yesterday)',
} as const;

/** summary's --date: the business day it reads, today unless given. */
export const TODAY = {
  spec: DATE.spec,
  description: `${DATE.description}; default today`,
} as const;

/** Orders from this time (their date_order). */
export const FROM = {
  spec: '--from <when>',
  description: 'orders from this time: YYYY-MM-DD, "YYYY-MM-DD HH:MM", ISO 8601, today, 7d',
} as const;

/** Orders up to this time. */
export const TO = {
  spec: '--to <when>',
  description: 'up to this time; a date-only value includes that whole business day',
} as const;

/** reconcile's --from: sessions closed from this time (their stop_at). */
export const CLOSED_FROM = { spec: FROM.spec, description: 'closing time from' } as const;

/** reconcile's --to: sessions closed up to this time. */
export const CLOSED_TO = {
  spec: TO.spec,
  description: 'closing time up to; a date-only value includes that whole day',
} as const;

/** Where the business day starts (shops open past midnight): on the hour, as summary/keys.ts reads it. */
export const DAY_STARTS = {
  spec: '--day-starts <HH:MM>',
  description: 'the business day starts at this hour (shops open past midnight)',
  pattern: '^\\d{1,2}:\\d{2}$',
} as const;

/** The query string's name of a parameter: its long flag name in snake case. */
export function queryName(p: PeriodParam): string {
  return (/--([a-z-]+)/.exec(p.spec)?.[1] ?? p.spec).replace(/-/g, '_');
}

/** Serve's query-string schema of the parameters, by their query names. */
export function queryParams(params: readonly PeriodParam[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const p of params)
    out[queryName(p)] = {
      type: 'string',
      ...(p.pattern ? { pattern: p.pattern } : { minLength: 1 }),
      description: p.description,
    };
  return out;
}
