// The reconciliation as a person reads it in the morning: one row per session grouped by
// register, a totals row per register and for the whole range, differences beyond the
// tolerance signed and in colour (red short, yellow over). Plain without colour.
import { Chalk } from 'chalk';
import { utcToZoneShort } from '../query/time.js';
import { fixedDecimals, roundAt, signed } from '../records/normalize.js';
import {
  drawTable,
  fitColumns,
  leftOutNote,
  methodColumns,
  type ReportColumn,
} from '../render/report-table.js';
import { visible } from '../render/visible.js';
import { beyond, CASH_FIGURES, cashValues, type Reconciliation, type SessionFigures } from './compute.js';

export interface ReconcileTableOptions {
  columns: number;
  color: boolean;
  tz: string;
  tolerance: number;
}

type Column = ReportColumn;

interface Line {
  cells: Record<string, string>;
  /** The difference, to colour it. */
  difference: number;
  total: boolean;
}

export function renderReconcileTable(rec: Reconciliation, o: ReconcileTableOptions): string {
  const chalk = new Chalk({ level: o.color ? 1 : 0 });
  const columns: Column[] = [...COLUMNS.map((c) => ({ ...c })), ...methodColumns(rec.methodKeys, 10)];
  const lines = reconcileLines(rec, o.tz);
  // Register, session and method names come from Odoo: fitColumns escapes their control characters.
  const kept = fitColumns(columns, lines, o.columns);
  const close = closingLine(rec, o.tolerance);
  if (rec.sessions.length === 0) return `${close}\n`;
  const table = drawTable(kept, lines, o.color, (text, c, l) => {
    if (c.key === 'difference' && beyond(l.difference, o.tolerance))
      return l.difference < 0 ? chalk.bold.red(text) : chalk.bold.yellow(text);
    return l.total ? chalk.bold(text) : text;
  });
  return `${table}\n${leftOutNote(columns, kept, o.columns)}${close}\n`;
}

const COLUMNS: readonly Column[] = [
  { key: 'register', label: 'register', right: false, priority: 0 },
  { key: 'session', label: 'session', right: false, priority: 1 },
  { key: 'opened', label: 'opened', right: false, priority: 20 },
  { key: 'closed', label: 'closed', right: false, priority: 2 },
  ...CASH_FIGURES.map(({ key, label, priority }) => ({ key, label, right: true, priority })),
];

/** The sessions by register (by name, then id), a total per register where there are several, and one for all. */
function reconcileLines(rec: Reconciliation, tz: string): Line[] {
  const groups = new Map<number, SessionFigures[]>();
  for (const s of rec.sessions) {
    const g = groups.get(s.configId) ?? [];
    g.push(s);
    groups.set(s.configId, g);
  }
  const ordered = [...groups.values()].sort(
    (a, b) => a[0].register.localeCompare(b[0].register) || a[0].configId - b[0].configId,
  );
  const money = (vals: Record<string, number>): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(vals))
      out[k] = k === 'difference' ? signed(v, rec.moneyDigits) : fixedDecimals(v, rec.moneyDigits);
    return out;
  };
  const total = (label: string, rows: SessionFigures[]): Line => {
    const sum: Record<string, number> = {};
    for (const r of rows) for (const [k, v] of Object.entries(amounts(r))) sum[k] = (sum[k] ?? 0) + v;
    for (const k of Object.keys(sum)) sum[k] = roundAt(sum[k] as number, rec.moneyDigits);
    return {
      cells: { register: label, session: `total (${rows.length})`, ...money(sum) },
      difference: sum.difference ?? 0,
      total: true,
    };
  };
  const time = timeOfRange(rec.sessions, tz);
  const lines: Line[] = [];
  for (const g of ordered) {
    for (const s of g) {
      lines.push({
        cells: {
          register: s.register,
          session: s.session,
          opened: time(s.openedUtc),
          closed: time(s.closedUtc),
          ...money(amounts(s)),
        },
        difference: s.difference,
        total: false,
      });
    }
    if (ordered.length > 1) lines.push(total(g[0].register, g));
  }
  if (rec.sessions.length > 1) lines.push(total(ordered.length > 1 ? 'All' : g0(ordered), rec.sessions));
  return lines;
}

/** A session's amounts by column key, its methods' among them. */
function amounts(s: SessionFigures): Record<string, number> {
  return { ...cashValues(s), ...s.byMethod };
}

/** Times as short as the range allows: a single day needs only the hour, a single year no year. */
function timeOfRange(sessions: SessionFigures[], tz: string): (v: string | null) => string {
  const shown = (v: string | null): string => (v ? utcToZoneShort(v, tz) : '');
  const stamps = sessions.flatMap((s) => [shown(s.openedUtc), shown(s.closedUtc)]).filter(Boolean);
  const sameDay = stamps.every((t) => t.slice(0, 10) === stamps[0]?.slice(0, 10));
  const sameYear = stamps.every((t) => t.slice(0, 4) === stamps[0]?.slice(0, 4));
  return (v) => {
    const t = shown(v);
    return sameDay ? t.slice(11) : sameYear ? t.slice(5) : t;
  };
}

/** The line under the table: how many sessions, and which differ beyond the tolerance. */
function closingLine(rec: Reconciliation, tolerance: number): string {
  const differing = rec.sessions.filter((s) => beyond(s.difference, tolerance));
  let close = `${rec.sessions.length} session${rec.sessions.length === 1 ? '' : 's'}`;
  if (differing.length === 0) {
    if (rec.sessions.length > 0) close += `, none differs by more than ${tolerance}`;
    return close;
  }
  const short = differing.filter((s) => s.difference < 0).length;
  const worst = differing.reduce((a, b) => (Math.abs(b.difference) > Math.abs(a.difference) ? b : a));
  return `${close}, ${differing.length} ${differing.length === 1 ? 'differs' : 'differ'} by more than ${tolerance} (${short} short, ${differing.length - short} over; largest ${signed(worst.difference, rec.moneyDigits)} in ${visible(worst.session)})`;
}

function g0(groups: SessionFigures[][]): string {
  return groups[0]?.[0]?.register ?? '';
}
