// The summary as a person reads it in the morning: names, money right-aligned at the currency's
// decimals, a totals row, and for --by hour or day a bar per row (on a terminal only, so
// the shape of the day shows at a glance). With a session, the cash section of reconcile.
import { Chalk } from 'chalk';
import { fixedDecimals, signed } from '../records/normalize.js';
import {
  drawTable,
  fitColumns,
  leftOutNote,
  methodColumns,
  type ReportColumn,
  reportTable,
} from '../render/report-table.js';
import { NAME_CHARS, truncate, visible } from '../render/visible.js';
import { type Figures, type SummaryGroup, totalOf } from './compute.js';
import { FIGURES } from './figures.js';
import type { Cell } from './folder.js';
import { KEY_COLUMNS } from './keys.js';
import type { CashSection, SummaryResult } from './query.js';

export interface SummaryTableOptions {
  columns: number;
  color: boolean;
  /** Draw bars (a terminal, not a file or a pipe). */
  bars: boolean;
}

type Column = ReportColumn;

const BAR_WIDTH = 20;
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

export function bar(value: number, max: number, width = BAR_WIDTH): string {
  if (max <= 0 || value <= 0) return '';
  const eighths = Math.round((value / max) * width * 8);
  return '█'.repeat(Math.floor(eighths / 8)) + (EIGHTHS[eighths % 8] ?? '');
}

/** Money at the currency's decimals (two for EUR, three for KWD, none for JPY). */
const moneyIn =
  (digits: number) =>
  (v: number | null): string =>
    v === null ? '' : fixedDecimals(v, digits);

function cellsOf(
  f: Figures,
  { methodKeys, partKeys, digits }: { methodKeys: string[]; partKeys: string[]; digits: number },
  money: (v: number | null) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of FIGURES) {
    const v = c.value(f, digits);
    out[c.key] = v === null ? '' : c.kind === 'money' ? money(v) : String(v);
  }
  for (const k of partKeys) out[k] = f.parts ? money(f.parts[k] ?? 0) : '';
  for (const k of methodKeys) out[k] = f.methods ? money(f.methods[k] ?? 0) : '';
  return out;
}

/** A shop part's column heading: `reward:Shop Points` is `Shop Points`, the others in words. */
const partLabel = (k: string): string =>
  k.startsWith('reward:') ? k.slice('reward:'.length) : k.replaceAll('_', ' ');

export function renderSummaryTable(r: SummaryResult, o: SummaryTableOptions): string {
  const chalk = new Chalk({ level: o.color ? 1 : 0 });
  const { summary } = r;
  const money = moneyIn(summary.digits);
  const k = [...summary.keys].sort().join(',');
  if (k === 'hour,weekday' && r.shown.length === summary.groups.length) return heatMap(r, o, chalk);
  const keyCols: Column[] = summary.keys.map((k, i) => {
    const cols = KEY_COLUMNS[k];
    return { key: cols[cols.length - 1] as string, label: k, right: k === 'hour', priority: i === 0 ? 0 : 1 };
  });
  const withBars =
    o.bars && summary.keys.length === 1 && (summary.keys[0] === 'hour' || summary.keys[0] === 'day');
  const columns: Column[] = [
    ...keyCols,
    ...FIGURES.map(({ key, label, priority }) => ({ key, label, right: true, priority })),
    ...summary.partKeys.map((k) => ({ key: k, label: partLabel(k), right: true, priority: 5 })),
    ...methodColumns(summary.methodKeys, 8),
    ...(withBars ? [{ key: 'bar', label: '', right: false, priority: 1 }] : []),
  ];
  const max = Math.max(0, ...r.shown.map((g) => g.figures.total));
  const keyText = (v: Cell): string => (v === null ? '(none)' : String(v));
  const lines: { cells: Record<string, string>; total: boolean }[] = r.shown.map((g: SummaryGroup) => {
    const cells = cellsOf(g.figures, summary, money);
    for (const [i, k] of summary.keys.entries()) {
      const cols = KEY_COLUMNS[k];
      const name = cols[cols.length - 1] as string;
      const v = g.keys[i]?.cells[name] ?? null;
      cells[name] = k === 'hour' && typeof v === 'number' ? `${String(v).padStart(2, '0')}:00` : keyText(v);
    }
    if (withBars) cells.bar = bar(g.figures.total, max);
    return { cells, total: false };
  });
  if (r.shown.length > 1) {
    const t = totalOf(r.shown, summary);
    const cells = cellsOf(t, summary, money);
    // Rows of lines or payments share their orders (one per product, or per method that paid
    // it): their counts do not add up to the orders', so the totals row leaves them out.
    if (summary.level !== 'order') for (const c of FIGURES) if ('ofOrders' in c) cells[c.key] = '';
    if (keyCols[0])
      cells[keyCols[0].key] = r.shown.length < summary.groups.length ? `top ${r.shown.length}` : 'total';
    lines.push({ cells, total: true });
  }

  const kept = fitColumns(columns, lines, o.columns);
  let out = '';
  if (lines.length > 0) {
    const table = drawTable(kept, lines, o.color, (text, c, l) => {
      if (c.key === 'bar') return o.color ? chalk.cyan(text) : text;
      if (l.total) return chalk.bold(text);
      return text.startsWith('-') && c.right ? chalk.red(text) : text;
    });
    out += `${table}\n`;
  }
  const n = summary.groups.length;
  let close = `${n} group${n === 1 ? '' : 's'}`;
  if (r.shown.length < n) close += `, top ${r.shown.length} by total shown`;
  if (lines.length > 0) out += leftOutNote(columns, kept, o.columns);
  out += `${close}\n`;
  if (r.cash) out += cashSection(r.cash, chalk, r.summary.digits);
  return out;
}

const SHADES = [' ', '░', '▒', '▓', '█'];

/**
 * --by hour,weekday: hours down, weekdays across, the total in each cell and, on a terminal,
 * a shade from light to dark by its share of the busiest hour: the week's shape at a glance.
 */
function heatMap(r: SummaryResult, o: SummaryTableOptions, chalk: InstanceType<typeof Chalk>): string {
  const money = moneyIn(r.summary.digits);
  const hi = r.summary.keys.indexOf('hour');
  const wi = r.summary.keys.indexOf('weekday');
  const cells = new Map<string, number>();
  const hours = new Set<number>();
  const days = new Map<number, string>();
  for (const g of r.shown) {
    const h = g.keys[hi]?.cells.hour;
    const w = g.keys[wi];
    if (typeof h !== 'number' || !w || typeof w.cells.weekday !== 'string') continue;
    hours.add(h);
    days.set(w.sort as number, w.cells.weekday);
    cells.set(`${h} ${w.cells.weekday}`, g.figures.total);
  }
  const order = [...days.keys()].sort((a, b) => a - b).map((d) => days.get(d) as string);
  const max = Math.max(0, ...cells.values());
  const head = ['hour', ...order.map((d) => d.slice(0, 3)), 'total'];
  const table = reportTable(
    head,
    head.map(() => true),
    o.color,
  );
  const shade = (v: number): string =>
    o.bars && max > 0 && v > 0 ? `${SHADES[Math.min(4, Math.ceil((v / max) * 4))] ?? ''} ` : '';
  const dayTotals = new Map<string, number>();
  for (const h of [...hours].sort((a, b) => a - b)) {
    let rowTotal = 0;
    const row = order.map((d) => {
      const v = cells.get(`${h} ${d}`);
      if (v === undefined) return '';
      rowTotal += v;
      dayTotals.set(d, (dayTotals.get(d) ?? 0) + v);
      return `${shade(v)}${money(v)}`;
    });
    table.push([`${String(h).padStart(2, '0')}:00`, ...row, money(rowTotal)]);
  }
  const all = [...dayTotals.values()].reduce((a, b) => a + b, 0);
  table.push(
    ['total', ...order.map((d) => money(dayTotals.get(d) ?? 0)), money(all)].map((t) => chalk.bold(t)),
  );
  const n = r.summary.groups.length;
  return `${table.toString()}\ntotal by hour and weekday, ${n} group${n === 1 ? '' : 's'}; --format csv gives every figure\n${r.cash ? cashSection(r.cash, chalk, r.summary.digits) : ''}`;
}

/** An open session's state as the X report's title says it. */
const OPEN_STATES: Record<string, string> = {
  opened: 'still open',
  opening_control: 'opening, its cash not yet counted',
  closing_control: 'closing, its cash being counted',
};

function cashSection(c: CashSection, chalk: InstanceType<typeof Chalk>, digits: number): string {
  const money = moneyIn(digits);
  const f = c.figures;
  const title = `${c.report} report: ${truncate(f.session, NAME_CHARS)} (${truncate(f.register, NAME_CHARS)}), ${c.report === 'X' ? (OPEN_STATES[c.state] ?? `open (${c.state})`) : 'closed'}`;
  const rows: [string, string][] = [
    ['opening cash', money(f.openingCash)],
    ['cash taken', money(f.cashTaken)],
    ['cash moves', money(f.cashMoves)],
    ['expected cash', money(f.expectedCash)],
  ];
  if (c.report === 'Z') {
    rows.push(['counted cash', money(f.countedCash)]);
    rows.push(['difference', signed(f.difference, digits)]);
  }
  const w = Math.max(...rows.map(([, v]) => v.length));
  return `\n${chalk.bold(visible(title))}\n${rows.map(([k, v]) => `  ${k.padEnd(14)}${v.padStart(w)}`).join('\n')}\n`;
}
