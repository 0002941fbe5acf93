// The table a person reads: fits the terminal, names rather than ids, money right-aligned
// with two decimals, times in the chosen zone, colour only on a terminal, and a closing
// line with the count and the total. Where some states do not count (sales: a cancelled or
// draft ticket is no sale, as for posdata summary), the total is of the counted rows and
// the line names the others with their amounts.
import { Chalk } from 'chalk';
import Table from 'cli-table3';
import type { FieldMap } from '../core/types.js';
import { utcToZoneShort } from '../query/time.js';
import { fixedDecimals, moneyPlaces, precisionOf, type Row, type Value } from '../records/normalize.js';
import type { Sink } from '../sink/sink.js';
import type { Renderer } from './formats.js';
import { wrapText } from './report-table.js';
import { NAME_CHARS, truncate, visible } from './visible.js';

export interface TableOptions {
  columns: number;
  color: boolean;
  tz: string;
  /** Preferred columns; the rest are dropped first when the terminal is narrow. */
  preferred: string[];
  sumField?: string;
  /** Decimals of money for the totals and payments; 2 if not given. */
  moneyDigits?: number;
  /** The states whose rows the total counts (by the `state` field); the others are named apart. */
  countedStates?: string[];
  noun: string;
  /** Display names by field and id, replacing Odoo's label (16/17 add the session user to a register's). */
  names?: Record<string, Map<number, string>>;
  /** Safety valve for huge outputs: rows beyond this are counted, not drawn. */
  maxRows?: number;
  /**
   * Where the run's companies span several currencies: each company's currency, by company
   * id. The rows then carry `company_id` (drawn or not), and the closing line gives one total
   * per currency, each named, never a sum of two.
   */
  currencies?: Map<number, { code: string; digits: number }>;
}

// Short headers for a person; json and csv keep Odoo's field names.
const LABELS: Record<string, string> = {
  amount_total: 'total',
  amount_paid: 'paid',
  amount_tax: 'tax',
  date_order: 'date',
  payment_date: 'date',
  config_id: 'register',
  session_id: 'session',
  pos_order_id: 'order',
  payment_method_id: 'method',
  payment_method_ids: 'methods',
  payment_ids: 'payments',
  current_session_id: 'session',
  current_session_state: 'session state',
  last_session_closing_date: 'last closed',
  last_session_closing_cash: 'last cash',
  cash_register_balance_end_real: 'counted cash',
  cash_register_balance_start: 'opening cash',
  total_payments_amount: 'payments',
  start_at: 'opened',
  stop_at: 'closed',
  full_product_name: 'product',
  product_id: 'product',
  price_unit: 'unit price',
  price_subtotal: 'subtotal',
  price_subtotal_incl: 'total',
  refunded_order_id: 'refunded order',
  list_price: 'price',
};

/** A column not drawn when the table has the one named here, which shows the same, named. */
const SHOWN_BETTER: Record<string, string> = { payment_ids: 'payments' };

const PLURAL = new Intl.PluralRules('en');

/** The noun for a count: the resource's name, made singular for one (1 line, 1 sale). */
function nounFor(plural: string, n: number): string {
  return PLURAL.select(n) === 'one' ? plural.replace(/s$/, '') : plural;
}

/** Odoo's state keys as the closing line says them. */
const STATE_WORDS: Record<string, string> = { cancel: 'cancelled', draft: 'draft' };

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
  /** The counted rows' amounts, by currency code ('' where the run has one currency). */
  private readonly sums = new Map<string, number>();
  /** Rows of the states the total does not count, by state: how many and their amounts. */
  private readonly others = new Map<string, { n: number; sums: Map<string, number> }>();
  /** Rows of a company not known (false, or one the run does not see): their currency is not known either. */
  private apart = 0;
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
    const counted =
      this.opts.countedStates && this.fields.includes('state') ? this.opts.countedStates : undefined;
    for (const r of rows) {
      this.count++;
      const s = this.opts.sumField ? r[this.opts.sumField] : undefined;
      const amount = typeof s === 'number' ? s : 0;
      const state = String(r.state);
      const cur = this.currencyOf(r);
      // Added to nothing: no total of a currency may hold an amount of an unknown one.
      if (cur === '?') this.apart++;
      else if (counted && !counted.includes(state)) {
        const o = this.others.get(state) ?? { n: 0, sums: new Map<string, number>() };
        o.n++;
        add(o.sums, cur, amount);
        this.others.set(state, o);
      } else add(this.sums, cur, amount);
      if (this.rows.length < max) this.rows.push(r);
    }
  }

  /** A row's currency code where the run has several ('?' for a company not known), else ''. */
  private currencyOf(r: Row): string {
    const cs = this.opts.currencies;
    if (!cs) return '';
    const v = r.company_id;
    const id = Array.isArray(v) ? v[0] : v;
    return typeof id === 'number' ? (cs.get(id)?.code ?? '?') : '?';
  }

  /** The decimals of a row's currency where the run has several; undefined otherwise. */
  private digitsOf(r: Row): number | undefined {
    const v = r.company_id;
    const id = Array.isArray(v) ? v[0] : v;
    return typeof id === 'number' ? this.opts.currencies?.get(id)?.digits : undefined;
  }

  /**
   * Amounts by currency as the closing line says them: one figure where the run has one
   * currency (as always), else each currency's own, at its decimals and named (`12.50 EUR,
   * 1450 JPY`), in the order the currencies came.
   */
  private money(sums: Map<string, number>): string {
    const cs = this.opts.currencies;
    if (!cs || sums.size === 0) return fixedDecimals(sums.get('') ?? 0, this.opts.moneyDigits ?? 2);
    const digits = new Map([...cs.values()].map((c) => [c.code, c.digits]));
    return [...sums]
      .map(
        ([code, v]) => `${fixedDecimals(v, digits.get(code) ?? this.opts.moneyDigits ?? 2)} ${visible(code)}`,
      )
      .join(', ');
  }

  /** The closing line: how many, what the total adds up, and the rows of no known company apart. */
  private closing(shown: string): string {
    const line = this.counted(shown);
    if (this.apart === 0 || !this.opts.sumField) return line;
    const n = this.apart;
    return `${line}; ${n} ${nounFor(this.opts.noun, n)} of no known company, not added (their currency is not known)`;
  }

  private counted(shown: string): string {
    const head = `${this.count} ${nounFor(this.opts.noun, this.count)}${shown}`;
    if (!this.opts.sumField || this.count === 0) return head;
    const total = `total ${this.money(this.sums)}`;
    if (this.opts.countedStates && !this.fields.includes('state')) return `${head}, ${total} of every state`;
    if (this.others.size === 0) return `${head}, ${total}`;
    let left = 0;
    const named = [...this.others].map(([state, o]) => {
      left += o.n;
      return `${o.n} ${STATE_WORDS[state] ?? state} (${this.money(o.sums)})`;
    });
    return `${head}: ${this.count - left - this.apart} counted, ${total}; ${named.join(', ')} not counted`;
  }

  /** A cell's text, its control characters escaped: names come from Odoo, not from us. */
  private cell(field: string, v: Value, row?: Row): { text: string; right: boolean } {
    const c = this.rawCell(field, v, row);
    return { text: visible(c.text), right: c.right };
  }

  private rawCell(field: string, v: Value, row?: Row): { text: string; right: boolean } {
    const def = this.defs[field];
    const type = def?.type;
    if (v === null || v === undefined) return { text: '', right: false };
    if (type === 'many2one' && Array.isArray(v)) {
      return { text: this.opts.names?.[field]?.get(v[0] as number) ?? String(v[1]), right: false };
    }
    if ((type === 'one2many' || type === 'many2many') && Array.isArray(v)) {
      const named = this.opts.names?.[field];
      return {
        text: named ? v.map((id) => named.get(id as number) ?? String(id)).join(', ') : v.join(','),
        right: false,
      };
    }
    if (field === 'payments' && Array.isArray(v)) {
      const ps = v as { payment_method_id: [number, string] | null; amount: number }[];
      return {
        text: ps
          .map(
            (p) =>
              `${p.payment_method_id?.[1] ?? '?'} ${fixedDecimals(p.amount, this.opts.moneyDigits ?? 2)}`,
          )
          .join(', '),
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
      // Over several currencies, an amount at its own currency's decimals (JPY none, KWD three).
      const own = row && moneyPlaces(field, def) !== null ? this.digitsOf(row) : undefined;
      const p = own ?? precisionOf(field, def);
      return { text: p === null ? String(v) : fixedDecimals(v, p), right: true };
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
    const { cols, left } = this.chooseColumns();
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
          const { text } = this.cell(c.field, r[c.field], r);
          return this.paint(c.field, truncate(text, c.width), r[c.field]);
        }),
      );
    }
    let out = this.count > 0 ? `${table.toString()}\n` : '';
    const shown =
      this.rows.length < this.count ? ` (first ${this.rows.length} shown; use --format csv for all)` : '';
    // Under the table, above the closing line (which stays the last, for a script's tail -1).
    if (left.length > 0 && this.count > 0) out += `${wrapText(leftOut(left), this.opts.columns)}\n`;
    out += `${this.closing(shown)}\n`;
    await this.sink.write(out);
  }

  /**
   * The columns that fit the width, in the order the fields were asked in, and the fields
   * left out for want of room. A column that shows what another one already shows (lines'
   * product and its full name) is not drawn twice, nor one that another shows better (the
   * ids of a sale's payments beside `--with-payments`' methods and amounts, both "payments").
   */
  private chooseColumns(): { cols: TableColumn[]; left: string[] } {
    const order = [
      ...this.opts.preferred.filter((f) => this.fields.includes(f)),
      ...this.fields.filter((f) => !this.opts.preferred.includes(f)),
    ];
    const texts = new Map<string, string[]>();
    const all = order.map((field) => {
      const label = visible(LABELS[field] ?? field.replace(/_id$/, '').replace(/_ids$/, 's'));
      let width = label.length;
      let right = false;
      const type = this.defs[field]?.type ?? '';
      const fixed = ['datetime', 'date', 'integer', 'float', 'monetary', 'boolean'].includes(type);
      const seen: string[] = [];
      for (const r of this.rows) {
        const c = this.cell(field, r[field], r);
        seen.push(c.text);
        width = Math.max(width, c.text.length);
        right = right || c.right;
      }
      texts.set(field, seen);
      return { field, label, width: Math.min(width, NAME_CHARS), right, fixed };
    });
    const same = (a: string, b: string) => {
      const x = texts.get(a) as string[];
      const y = texts.get(b) as string[];
      return x.every((t, i) => t === y[i]);
    };
    const cols = all.filter(
      (c, i) =>
        !all.slice(0, i).some((d) => d.label === c.label && this.rows.length > 0 && same(d.field, c.field)) &&
        !all.some((d) => d.field === SHOWN_BETTER[c.field]),
    );
    // Each column costs its width plus 3 (padding and border). Preferred columns come
    // first; wide text columns are narrowed (down to 12) before any column is dropped.
    const budget = this.opts.columns - 1;
    const cost = (cs: typeof cols) => cs.reduce((n, c) => n + c.width + 3, 0);
    const preferred = cols.filter(
      (c) => this.opts.preferred.includes(c.field) || this.opts.preferred.length === 0,
    );
    const rest = cols.filter((c) => !preferred.includes(c));
    const kept = [...preferred];
    const narrow = () => {
      while (cost(kept) > budget) {
        const wide = kept
          .filter((c) => !c.right && !c.fixed && c.width > 12)
          .sort((a, b) => b.width - a.width)[0];
        if (!wide) break;
        wide.width = Math.max(12, wide.width - (cost(kept) - budget));
      }
    };
    narrow();
    while (cost(kept) > budget && kept.length > 1) kept.pop();
    for (const c of rest) if (cost(kept) + c.width + 3 <= budget) kept.push(c);
    // Restore the order the fields were asked in.
    return {
      cols: this.fields.map((f) => kept.find((k) => k.field === f)).filter((c): c is TableColumn => !!c),
      left: cols.filter((c) => !kept.includes(c)).map((c) => c.field),
    };
  }
}

interface TableColumn {
  field: string;
  label: string;
  width: number;
  right: boolean;
  fixed: boolean;
}

function add(sums: Map<string, number>, key: string, amount: number): void {
  sums.set(key, (sums.get(key) ?? 0) + amount);
}

/** The note under a table that could not show every field: which, and how to see them. */
function leftOut(left: string[]): string {
  const n = left.length;
  return `${n} column${n === 1 ? '' : 's'} left out for width: ${left.join(', ')} (--format csv has every column; --fields chooses them)`;
}
