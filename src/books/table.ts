// The books as an accountant reads them: per company and currency, each session's lines
// (POS, books, difference), the lines that do not agree in colour, and a closing line that
// counts the sessions that agree and names the largest difference. Plain without colour.
import { Chalk } from 'chalk';
import { utcToZoneShort } from '../query/time.js';
import { fixedDecimals, signed } from '../records/normalize.js';
import { fitColumns, leftOutNote, type ReportColumn, reportTable, wrapText } from '../render/report-table.js';
import { visible } from '../render/visible.js';
import type { BookRow } from './rows.js';

export interface BooksTableOptions {
  columns: number;
  color: boolean;
  tz: string;
  digits: (currency: string | null) => number;
}

const COLUMNS: ReportColumn[] = [
  { key: 'session', label: 'session', right: false, priority: 0 },
  { key: 'register', label: 'register', right: false, priority: 5 },
  { key: 'closed', label: 'closed', right: false, priority: 4 },
  { key: 'entry', label: 'entry', right: false, priority: 3 },
  { key: 'line', label: 'line', right: false, priority: 0 },
  { key: 'pos', label: 'pos', right: true, priority: 1 },
  { key: 'books', label: 'books', right: true, priority: 1 },
  { key: 'difference', label: 'difference', right: true, priority: 0 },
];
const NOTE: ReportColumn = { key: 'note', label: 'note', right: false, priority: 6 };
/** The note's least width: an `entry` row says everything in it, so others go first. */
const NOTE_MIN = 24;

/** One company's (and currency's) rows as a table with its closing line. */
export function renderBooksTable(rows: BookRow[], o: BooksTableOptions): string {
  const chalk = new Chalk({ level: o.color ? 1 : 0 });
  const digits = o.digits(rows[0]?.currency ?? null);
  const money = (v: number | null): string => (v === null ? '' : fixedDecimals(v, digits));
  let last = -1;
  const lines = rows.map((r) => {
    const first = r.session_id !== last;
    last = r.session_id;
    const state = r.entry_state && r.entry_state !== 'posted' ? ` (${r.entry_state})` : '';
    return {
      row: r,
      cells: {
        // A session's name, register, time and entry once, on its first line.
        session: first ? r.session : '',
        register: first ? r.register : '',
        closed: first && r.closed ? utcToZoneShort(r.closed, o.tz) : '',
        entry: first ? `${r.entry ?? ''}${state}` : '',
        line: r.line,
        pos: money(r.pos),
        books: money(r.books),
        difference: r.difference === null ? '' : signed(r.difference, digits),
      } as Record<string, string>,
    };
  });
  const columns = COLUMNS.map((c) => ({ ...c }));
  const notes = rows.map((r) => visible(r.note ?? ''));
  const noted = notes.some((n) => n !== '');
  const kept = fitColumns(columns, lines, noted ? o.columns - NOTE_MIN - 3 : o.columns);
  if (noted) {
    // The note takes what the kept columns leave, wrapped, never cut: posdata's own sentence.
    const widthOf = (c: ReportColumn): number =>
      Math.max(c.label.length, ...lines.map((l) => [...(l.cells[c.key] ?? '')].length));
    const used = kept.reduce((a, c) => a + widthOf(c) + 3, 1);
    const width = Math.max(NOTE_MIN, o.columns - used - 3);
    lines.forEach((l, i) => {
      l.cells.note = wrapText(notes[i] ?? '', width);
    });
    columns.push(NOTE);
    kept.push(NOTE);
  }
  const table = reportTable(
    kept.map((c) => c.label),
    kept.map((c) => c.right),
    o.color,
  );
  for (const l of lines)
    table.push(
      kept.map((c) => {
        const text = l.cells[c.key] ?? '';
        return !l.row.agrees && (c.key === 'difference' || c.key === 'line') ? chalk.bold.red(text) : text;
      }),
    );
  const sessions = new Set(rows.map((r) => r.session_id));
  const off = new Set(rows.filter((r) => !r.agrees).map((r) => r.session_id));
  let close = `${sessions.size} session${sessions.size === 1 ? '' : 's'}`;
  if (sessions.size > 0)
    close +=
      off.size === 0 ? ', the books agree with the POS' : `, ${off.size} where the books differ from the POS`;
  const worst = rows
    .filter((r) => !r.agrees && r.difference !== null)
    .reduce<BookRow | undefined>(
      (a, b) => (!a || Math.abs(b.difference ?? 0) > Math.abs(a.difference ?? 0) ? b : a),
      undefined,
    );
  if (worst)
    close += ` (largest ${signed(worst.difference ?? 0, digits)} ${visible(worst.line)} in ${visible(worst.session)})`;
  if (rows.length === 0) return `${close}\n`;
  return `${table.toString()}\n${leftOutNote(columns, kept, o.columns)}${close}\n`;
}
