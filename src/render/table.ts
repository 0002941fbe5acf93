// The table a person reads: fits the terminal, names rather than ids, money right-aligned
// with two decimals, times in the chosen zone, colour only on a terminal, and a closing
// line with the count and the total.
import { Chalk } from 'chalk';
import Table from 'cli-table3';
import type { FieldMap } from '../core/types.js';
import { utcToZoneShort } from '../query/time.js';
import type { Renderer } from './formats.js';
import { precisionOf, type Row, type Value } from './normalize.js';
import type { Sink } from './sink.js';

export interface TableOptions {
  columns: number;
  color: boolean;
  tz: string;
  /** Preferred columns; the rest are dropped first when the terminal is narrow. */
  preferred: string[];
  sumField?: string;
  noun: string;
  /** Safety valve for huge outputs: rows beyond this are counted, not drawn. */
  maxRows?: number;
}

const STATE_COLOURS: Record<string, 'green' | 'cyan' | 'blue' | 'red' | 'yellow' | 'gray'> = {
  paid: 'green',
  done: 'cyan',
  invoiced: 'blue',
  cancel: 'red',
  draft: 'yellow',
  opened: 'green',
  opening_control: 'yellow',
  closing_control: 'yellow',
  closed: 'gray',
};

export class TableRenderer implements Renderer {
  private rows: Row[] = [];
  private count = 0;
  private sum = 0;
  private readonly chalk: InstanceType<typeof Chalk>;

  constructor(
    private readonly sink: Sink,
    private readonly fields: string[],
    private readonly defs: FieldMap,
    private readonly opts: TableOptions,
  ) {
    this.chalk = new Chalk({ level: opts.color ? 1 : 0 });
  }

  async begin(): Promise<void> {}

  async page(rows: Row[]): Promise<void> {
    const max = this.opts.maxRows ?? 10_000;
    for (const r of rows) {
      this.count++;
      const s = this.opts.sumField ? r[this.opts.sumField] : undefined;
      if (typeof s === 'number') this.sum += s;
      if (this.rows.length < max) this.rows.push(r);
    }
  }

  private cell(field: string, v: Value): { text: string; right: boolean } {
    const def = this.defs[field];
    const type = def?.type;
    if (v === null || v === undefined) return { text: '', right: false };
    if (type === 'many2one' && Array.isArray(v)) return { text: String(v[1]), right: false };
    if ((type === 'one2many' || type === 'many2many') && Array.isArray(v))
      return { text: v.join(','), right: false };
    if (field === 'payments' && Array.isArray(v)) {
      const ps = v as { payment_method_id: [number, string] | null; amount: number }[];
      return {
        text: ps.map((p) => `${p.payment_method_id?.[1] ?? '?'} ${p.amount.toFixed(2)}`).join(', '),
        right: false,
      };
    }
    if (type === 'datetime' && typeof v === 'string') {
      return {
        text: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(v) ? utcToZoneShort(v, this.opts.tz) : v,
        right: false,
      };
    }
    if ((type === 'float' || type === 'monetary') && typeof v === 'number') {
      const p = precisionOf(field, def);
      return { text: p === null ? String(v) : v.toFixed(p), right: true };
    }
    if (typeof v === 'number') return { text: String(v), right: true };
    if (typeof v === 'boolean') return { text: v ? 'yes' : 'no', right: false };
    return { text: String(v), right: false };
  }

  private paint(field: string, text: string, v: Value): string {
    if (!this.opts.color) return text;
    if ((field === 'state' || field.endsWith('_state')) && typeof v === 'string' && STATE_COLOURS[v]) {
      return this.chalk[STATE_COLOURS[v]](text);
    }
    if (typeof v === 'number' && v < 0) return this.chalk.red(text);
    return text;
  }

  async end(): Promise<void> {
    const cols = this.chooseColumns();
    const table = new Table({
      head: cols.map((c) => (this.opts.color ? this.chalk.bold(c.label) : c.label)),
      style: { head: [], border: [], compact: true },
      chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
      colAligns: cols.map((c) => (c.right ? 'right' : 'left')),
      colWidths: cols.map((c) => c.width + 2),
      wordWrap: false,
    });
    for (const r of this.rows) {
      table.push(
        cols.map((c) => {
          const { text } = this.cell(c.field, r[c.field]);
          return this.paint(c.field, truncate(text, c.width), r[c.field]);
        }),
      );
    }
    let out = this.count > 0 ? `${table.toString()}\n` : '';
    const shown =
      this.rows.length < this.count ? ` (first ${this.rows.length} shown; use --format csv for all)` : '';
    let close = `${this.count} ${this.opts.noun}${shown}`;
    if (this.opts.sumField && this.count > 0) close += `, total ${this.sum.toFixed(2)}`;
    out += `${close}\n`;
    await this.sink.write(out);
  }

  private chooseColumns(): { field: string; label: string; width: number; right: boolean }[] {
    const order = [
      ...this.opts.preferred.filter((f) => this.fields.includes(f)),
      ...this.fields.filter((f) => !this.opts.preferred.includes(f)),
    ];
    const cols = order.map((field) => {
      const label = field.replace(/_id$/, '').replace(/_ids$/, 's');
      let width = label.length;
      let right = false;
      for (const r of this.rows) {
        const c = this.cell(field, r[field]);
        width = Math.max(width, c.text.length);
        right = right || c.right;
      }
      return { field, label, width: Math.min(width, 40), right };
    });
    // Each column costs its width plus 3 (padding and border); keep what fits, in order.
    const kept: typeof cols = [];
    let used = 1;
    for (const c of cols) {
      if (used + c.width + 3 > this.opts.columns && kept.length > 0) continue;
      kept.push(c);
      used += c.width + 3;
    }
    // Restore the order the fields were asked in.
    return this.fields
      .map((f) => kept.find((k) => k.field === f))
      .filter((c): c is (typeof cols)[number] => !!c);
  }
}

function truncate(s: string, width: number): string {
  return s.length <= width ? s : `${s.slice(0, Math.max(1, width - 1))}…`;
}
