// The frame of the report tables (reconcile, summary): columns that drop by priority on a
// narrow terminal, and cli-table3 drawn compact, without inner rules, head in bold.
import { Chalk } from 'chalk';
import Table from 'cli-table3';
import { NAME_CHARS, truncate, visible } from './visible.js';

export interface ReportColumn {
  key: string;
  label: string;
  right: boolean;
  /** Lower keeps the column longer on a narrow terminal. */
  priority: number;
}

/**
 * The most important columns that fit, in display order: a column drops with all less
 * important ones, and columns of one priority come and go together (opening, taken and moves
 * add up to expected). The cells and labels hold names from Odoo: their control characters
 * are escaped here, in place, and each is cut to NAME_CHARS as a list's cells are, before they
 * are measured (a name of 100,000 characters made a line of as many).
 */
export function fitColumns(
  columns: ReportColumn[],
  lines: { cells: Record<string, string> }[],
  width: number,
): ReportColumn[] {
  const shown = (s: string): string => truncate(visible(s), NAME_CHARS);
  for (const l of lines) for (const k of Object.keys(l.cells)) l.cells[k] = shown(l.cells[k] as string);
  for (const c of columns) c.label = shown(c.label);
  const widthOf = (c: ReportColumn): number =>
    Math.max(c.label.length, ...lines.map((l) => [...(l.cells[c.key] ?? '')].length));
  const keep = new Set<string>();
  let used = 1;
  const priorities = [...new Set(columns.map((c) => c.priority))].sort((a, b) => a - b);
  for (const p of priorities) {
    const tier = columns.filter((c) => c.priority === p);
    const w = tier.reduce((a, c) => a + widthOf(c) + 3, 0);
    if (used + w > width && keep.size > 0) break;
    for (const c of tier) keep.add(c.key);
    used += w;
  }
  return columns.filter((c) => keep.has(c.key));
}

/**
 * The note under a report table when columns were left out for width: which ones, by their
 * labels, and how to see them, wrapped to the width, one or more whole lines ending in a
 * newline; '' when every column is shown. It goes above the closing line, which stays the last.
 */
export function leftOutNote(columns: ReportColumn[], kept: ReportColumn[], width: number): string {
  const left = columns.filter((c) => !kept.includes(c)).map((c) => c.label || c.key);
  if (left.length === 0) return '';
  const n = left.length;
  return `${wrapText(`${n} column${n === 1 ? '' : 's'} left out for width: ${left.join(', ')} (widen the terminal, or --format csv has them all)`, width)}\n`;
}

/** `text` broken between words into lines of at most `width` characters (a longer word stays whole). */
export function wrapText(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && [...line].length + 1 + [...word].length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}

/** An empty report table with these headings (bold in colour) and alignments. */
export function reportTable(head: string[], right: boolean[], color: boolean): Table.Table {
  const chalk = new Chalk({ level: color ? 1 : 0 });
  return new Table({
    head: head.map((h) => (color ? chalk.bold(h) : h)),
    style: { head: [], border: [], compact: true },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    colAligns: right.map((r) => (r ? 'right' : 'left')),
    wordWrap: false,
  });
}

/** A column per payment method (`method:Cash` under "Cash"), in order from this priority down. */
export function methodColumns(keys: readonly string[], priority: number): ReportColumn[] {
  return keys.map((k, i) => ({
    key: k,
    label: k.slice('method:'.length),
    right: true,
    priority: priority + i,
  }));
}

/** The kept columns drawn as a report table, a row a line, each cell as `style` shows it. */
export function drawTable<L extends { cells: Record<string, string> }>(
  kept: ReportColumn[],
  lines: L[],
  color: boolean,
  style: (text: string, column: ReportColumn, line: L) => string,
): string {
  const table = reportTable(
    kept.map((c) => c.label),
    kept.map((c) => c.right),
    color,
  );
  for (const l of lines) table.push(kept.map((c) => style(l.cells[c.key] ?? '', c, l)));
  return table.toString();
}
