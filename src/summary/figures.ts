// The summary's figures as columns, each declared once: its key (the contract's column), the
// value a group's figures give it, its kind (how json, csv and serve's schema type it, and
// whether money's decimals apply) and its place in the table. The rows (toRow), the table,
// --watch's line, serve's schema and the month's glance read them from here: a new figure is
// an entry here and its sum in compute.ts.
import { roundAt } from '../records/normalize.js';
import type { Totals } from './folder.js';

export interface Figures extends Totals {
  gross: number | null;
  /** Amount per `method:<name>`; null where payments are not split this way (products, taxes). */
  methods: Record<string, number> | null;
  /** Amount per shop part (`tips`, `reward:<programme>`... shop.ts), by an order key (by method: tips); else null. */
  parts: Record<string, number> | null;
}

/** A count of orders, a quantity of items, or money at the currency's decimals. */
export type FigureKind = 'count' | 'quantity' | 'money';

interface FigureColumn {
  key: string;
  kind: FigureKind;
  /** May be null (json null, an empty cell): where a grouping cannot give it. */
  nullable: boolean;
  /** It counts orders: a totals row over lines or payments, whose rows share orders, leaves it out. */
  ofOrders?: boolean;
  /** The table's heading and how soon the column gives way on a narrow terminal (0 last). */
  label: string;
  priority: number;
  value(f: Figures, digits: number): number | null;
}

/** The figures of every row, in the contract's order; `method:<name>` keys follow. */
export const FIGURES = [
  {
    key: 'orders',
    kind: 'count',
    nullable: false,
    ofOrders: true,
    label: 'orders',
    priority: 0,
    value: (f) => f.orders,
  },
  { key: 'items', kind: 'quantity', nullable: true, label: 'items', priority: 1, value: (f) => f.items },
  { key: 'gross', kind: 'money', nullable: true, label: 'gross', priority: 4, value: (f) => f.gross },
  {
    key: 'discounts',
    kind: 'money',
    nullable: true,
    label: 'discounts',
    priority: 4,
    value: (f) => f.discounts,
  },
  {
    key: 'refund_count',
    kind: 'count',
    nullable: false,
    ofOrders: true,
    label: 'refunds#',
    priority: 6,
    value: (f) => f.refundCount,
  },
  { key: 'refunds', kind: 'money', nullable: false, label: 'refunds', priority: 3, value: (f) => f.refunds },
  { key: 'net', kind: 'money', nullable: true, label: 'net', priority: 2, value: (f) => f.net },
  { key: 'tax', kind: 'money', nullable: true, label: 'tax', priority: 2, value: (f) => f.tax },
  { key: 'total', kind: 'money', nullable: false, label: 'total', priority: 0, value: (f) => f.total },
  {
    key: 'average_ticket',
    kind: 'money',
    nullable: true,
    ofOrders: true,
    label: 'avg ticket',
    priority: 7,
    value: (f, digits) => (f.orders > 0 ? roundAt(f.total / f.orders, digits) : null),
  },
] as const satisfies readonly FigureColumn[];

type Figure = (typeof FIGURES)[number];
export type FigureKey = Figure['key'];

export const FIGURE_KEYS: readonly FigureKey[] = FIGURES.map((c) => c.key);

/** The figures that are money. */
export const MONEY_KEYS: readonly string[] = FIGURES.filter((c) => c.kind === 'money').map((c) => c.key);

/** A row's figures by key, null only where a figure may be. */
export type FigureValues = { [C in Figure as C['key']]: C['nullable'] extends true ? number | null : number };

/** The figures of one group (or a total) by key, as a row carries them. */
export function figureValues(f: Figures, digits: number): FigureValues {
  const out: Record<string, number | null> = {};
  for (const c of FIGURES) out[c.key] = c.value(f, digits);
  return out as FigureValues;
}
