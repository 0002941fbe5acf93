// The summary as rows: what json, ndjson and csv carry and what serve answers. With a
// session, the row of that session carries its cash figures (reconcile's) too.
import type { FieldMap } from '../core/types.js';
import { AMOUNT_KEYS, cashValues } from '../reconcile/compute.js';
import { inCurrency } from '../records/normalize.js';
import { type SummaryRow, toRow } from './compute.js';
import { FIGURE_KEYS, FIGURES, type FigureKind } from './figures.js';
import { KEY_COLUMNS } from './keys.js';
import type { SummaryResult } from './query.js';

/** The cash keys a session's row carries (reconcile's), after the method columns. */
export const CASH_KEYS = ['report', ...AMOUNT_KEYS] as const;

/** The rows as json, ndjson and csv carry them; with a session, its cash figures too. */
export function summaryRows(r: SummaryResult): SummaryRow[] {
  const rows = r.shown.map((g) => toRow(g, r.summary));
  const c = r.cash;
  // The cash section belongs to the session as a whole: on its row when the rows are the session's.
  if (c && rows.length === 1 && (r.summary.keys[0] === 'register' || r.summary.keys[0] === 'session')) {
    const row = rows[0] as SummaryRow;
    row.report = c.report;
    Object.assign(row, cashValues(c.figures));
    // An X report (the session still open) has nothing counted yet.
    if (c.report !== 'Z') {
      row.counted_cash = null;
      row.difference = null;
    }
  }
  return rows;
}

export function summaryFields(r: SummaryResult, rows: SummaryRow[]): { fields: string[]; defs: FieldMap } {
  const fields = [
    ...r.summary.keys.flatMap((k) => KEY_COLUMNS[k]),
    ...FIGURE_KEYS,
    ...r.summary.partKeys,
    ...r.summary.methodKeys,
    ...(rows[0] && 'report' in rows[0] ? CASH_KEYS : []),
  ];
  const defs: FieldMap = {};
  for (const f of fields) defs[f] = { type: columnType(f, r) };
  return { fields, defs: inCurrency(defs, r.summary.digits) };
}

const TYPE_OF_KIND: Record<FigureKind, string> = { count: 'integer', quantity: 'float', money: 'monetary' };
const FIGURE_TYPES = new Map<string, string>(FIGURES.map((c) => [c.key, TYPE_OF_KIND[c.kind]]));

/** A column's type: a figure's by its kind; shop parts, methods and cash figures are money; a key's id or hour a number. */
function columnType(f: string, r: SummaryResult): string {
  const figure = FIGURE_TYPES.get(f);
  if (figure) return figure;
  if (f === 'report') return 'char';
  if (
    f.startsWith('method:') ||
    r.summary.partKeys.includes(f) ||
    (CASH_KEYS as readonly string[]).includes(f)
  )
    return 'monetary';
  return f.endsWith('_id') || f === 'hour' ? 'integer' : 'char';
}
