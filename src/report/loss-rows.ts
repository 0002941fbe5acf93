// The rows of the loss figures (loss.ts): one per cashier or register, what each figure lists
// behind it, and the row as `summary --loss` writes it in json, ndjson and csv, its columns'
// types declared once here.
import type { FieldMap } from '../core/types.js';

export interface OrderRef {
  id: number;
  ticket: string;
  /** Odoo's UTC `YYYY-MM-DD HH:MM:SS`. */
  time: string;
  amount: number;
  register: string;
  /** A discount: what it gave away; a quick refund: minutes after the sale. */
  detail?: number;
}

export interface ClosingRef {
  session_id: number;
  session: string;
  register: string;
  closed: string | null;
  difference: number;
}

export const METRICS = [
  'refund_share',
  'quick_share',
  'cancelled_share',
  'discount_share',
  'cash_short',
] as const;
export type Metric = (typeof METRICS)[number];

export interface LossRow {
  id: number | null;
  name: string;
  orders: number;
  /** What was sold (tax included), refunds left out: total − refunds. */
  sales: number;
  refund_count: number;
  refunds: number;
  refund_share: number | null;
  cancelled: number;
  cancelled_amount: number;
  cancelled_share: number | null;
  discounts: number | null;
  discount_share: number | null;
  largest_discount: number | null;
  closings: number;
  cash_difference: number | null;
  /** The average shortage per closing (a positive number is cash missing); null without closings. */
  cash_short: number | null;
  quick_refunds: number;
  /** Quick refunds against the orders: the classic pocketed refund, judged as the shares are. */
  quick_share: number | null;
  /** Per metric: the median of the others. */
  median: Record<Metric, number | null>;
  marks: Metric[];
  behind: {
    refunds: OrderRef[];
    cancelled: OrderRef[];
    discounts: OrderRef[];
    quick: OrderRef[];
    closings: ClosingRef[];
  };
}

export function emptyRow(id: number | null, name: string): LossRow {
  return {
    id,
    name,
    orders: 0,
    sales: 0,
    refund_count: 0,
    refunds: 0,
    refund_share: null,
    cancelled: 0,
    cancelled_amount: 0,
    cancelled_share: null,
    discounts: null,
    discount_share: null,
    largest_discount: null,
    closings: 0,
    cash_difference: null,
    cash_short: null,
    quick_refunds: 0,
    quick_share: null,
    median: {
      refund_share: null,
      quick_share: null,
      cancelled_share: null,
      discount_share: null,
      cash_short: null,
    },
    marks: [],
    behind: { refunds: [], cancelled: [], discounts: [], quick: [], closings: [] },
  };
}

/**
 * The columns of `summary --by cashier --loss` (or register), in order, with their types:
 * counts are integers, shares floats, the marks text, the rest money in the summary's currency.
 */
export const LOSS_COLUMNS = {
  orders: 'integer',
  sales: 'monetary',
  refund_count: 'integer',
  refunds: 'monetary',
  refund_share: 'float',
  cancelled: 'integer',
  cancelled_share: 'float',
  discounts: 'monetary',
  discount_share: 'float',
  largest_discount: 'monetary',
  closings: 'integer',
  cash_difference: 'monetary',
  cash_short: 'monetary',
  quick_refunds: 'integer',
  quick_share: 'float',
  marks: 'char',
} as const satisfies Partial<Record<keyof LossRow, string>>;

type Column = keyof typeof LOSS_COLUMNS;

/** The fields of a loss record, led by the key's id and name (cashier_id, cashier or config_id, register). */
export function lossFields(id: string, name: string): { fields: string[]; defs: FieldMap } {
  const defs: FieldMap = { [id]: { type: 'integer' }, [name]: { type: 'char' } };
  for (const [k, type] of Object.entries(LOSS_COLUMNS)) defs[k] = { type };
  return { fields: Object.keys(defs), defs };
}

/** A loss row as json, ndjson and csv carry it: the key's id and name, the figures, the marks. */
export function lossRecord(r: LossRow, id: string, name: string): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = { [id]: r.id, [name]: r.name };
  for (const k of Object.keys(LOSS_COLUMNS) as Column[])
    out[k] = k === 'marks' ? r.marks.join(' ') : (r[k] as number | null);
  return out;
}
