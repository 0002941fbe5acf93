// The books as rows: for each closed session, what the POS says beside what its journal entry
// says, line by line (sales, taxes, each payment method, the invoices, the counted cash
// difference), and the difference (books - POS). No terminal and no server knowledge here.
import type { FieldMap } from '../core/types.js';
import { utcToZoneIso } from '../query/time.js';
import { roundAt } from '../records/normalize.js';
import {
  type BooksInputs,
  type EntryGroup,
  INCOME_TYPES,
  type JournalSide,
  type SessionHead,
} from './read.js';

export interface BookRow {
  company_id: number | null;
  company: string | null;
  currency: string | null;
  session_id: number;
  session: string;
  config_id: number;
  register: string;
  closed: string | null;
  entry: string | null;
  /** posted, draft, cancel, or missing (no entry where the session had something to post). */
  entry_state: string | null;
  journal: string | null;
  line: string;
  pos: number | null;
  books: number | null;
  difference: number | null;
  /** The line agrees: within the tolerance, the entry posted, the invoices posted and paid. */
  agrees: boolean;
  note: string | null;
}

export const BOOK_KEYS = [
  'company_id',
  'company',
  'currency',
  'session_id',
  'session',
  'config_id',
  'register',
  'closed',
  'entry',
  'entry_state',
  'journal',
  'line',
  'pos',
  'books',
  'difference',
  'agrees',
  'note',
] as const satisfies readonly (keyof BookRow)[];

export const BOOK_DEFS: FieldMap = {
  company_id: { type: 'integer' },
  session_id: { type: 'integer' },
  config_id: { type: 'integer' },
  closed: { type: 'datetime' },
  pos: { type: 'float' },
  books: { type: 'float' },
  difference: { type: 'float' },
  agrees: { type: 'boolean' },
};

// The label Odoo 16-19 gives the line that balances an entry closed by force, in English: the
// closing user's language translates it (_('Difference at closing PoS session')).
const BALANCING = 'Difference at closing PoS session';
// The label of the cash rounding's line, which no version translates ('Rounding line').
const ROUNDING = 'Rounding line';

/** What the session's entry says, sorted into the lines the POS is compared with. */
interface Booked {
  sales: number;
  taxes: number;
  methods: Map<string, number>;
  invoicePayments: number;
  /** The cash rounding's line: a profit credited, a loss debited (as the POS's paid - total). */
  rounding: number;
  balancing: number;
  /** What is in none of those (a line added by hand): named apart, never hidden. */
  other: number;
}

/**
 * The entry's lines sorted as Odoo posts them (pos.session._create_account_move, 16-19). Odoo's
 * balancing line is told by its label in English, and in any language by what it is: a line on
 * a receivable account (the company's POS receivable, which the force-close wizard proposes)
 * that is no method's and that nothing is reconciled with. The closing reconciles each method's
 * receivable with its payments and the invoices' payments' line ("From invoice payments", also
 * translated) with the invoices' own (_reconcile_account_move_lines).
 */
function sortLines(s: SessionHead, lines: EntryGroup[], j: JournalSide, methodNames: Set<string>): Booked {
  const b: Booked = {
    sales: 0,
    taxes: 0,
    methods: new Map(),
    invoicePayments: 0,
    rounding: 0,
    balancing: 0,
    other: 0,
  };
  const prefix = `${s.name} - `;
  for (const l of lines) {
    const type = l.accountId === null ? '' : (j.accountTypes.get(l.accountId) ?? '');
    const method = l.name.startsWith(prefix) ? l.name.slice(prefix.length) : undefined;
    const receivable = type === 'asset_receivable';
    if (l.taxLine) b.taxes -= l.balance;
    // The receivable of each payment method: "<session> - <method>" (combined or split alike).
    else if (method !== undefined && methodNames.has(method))
      b.methods.set(method, (b.methods.get(method) ?? 0) + l.balance);
    else if (l.name === BALANCING || (receivable && !l.reconciled)) b.balancing += l.balance;
    // Before the sales: the rounding's profit account is often an income account.
    else if (l.name === ROUNDING) b.rounding -= l.balance;
    else if (INCOME_TYPES.has(type)) b.sales -= l.balance;
    // The invoiced orders' payments, moved from the POS receivable to the invoices' (credits).
    else if (receivable && l.balance < 0) b.invoicePayments -= l.balance;
    else b.other += l.balance;
  }
  return b;
}

/** The POS side of a session: as its closing saw it (an order invoiced later was not invoiced then). */
interface PosSide {
  sales: number;
  taxes: number;
  methods: Map<string, number>;
  invoicePayments: number;
  /** Paid beyond the total by the orders without an invoice: the cash rounding. */
  rounding: number;
  /** Orders with an invoice made before the closing. */
  invoicedAtClosing: Set<number>;
}

function posSide(s: SessionHead, x: BooksInputs): PosSide {
  const un = x.uninvoiced.get(s.id) ?? { untaxed: 0, tax: 0 };
  const p: PosSide = {
    sales: un.untaxed,
    taxes: un.tax,
    methods: new Map(),
    invoicePayments: 0,
    rounding: x.rounding.get(s.id) ?? 0,
    invoicedAtClosing: new Set(),
  };
  const lateInvoices = new Set<number>();
  for (const o of x.invoiced) {
    if (o.sessionId !== s.id) continue;
    if (x.journal?.late.has(o.id)) lateInvoices.add(o.invoiceId);
    else p.invoicedAtClosing.add(o.id);
  }
  // An order invoiced after the closing was posted with the session's sales, as its lines say.
  for (const id of lateInvoices) {
    const a = x.invoicedLines.get(id) ?? { untaxed: 0, tax: 0 };
    p.sales += a.untaxed;
    p.taxes += a.tax;
  }
  for (const g of x.payments) {
    if (g.sessionId !== s.id) continue;
    const m = x.methods.get(g.methodId);
    const name = m?.name ?? `#${g.methodId}`;
    p.methods.set(name, (p.methods.get(name) ?? 0) + g.amount);
  }
  for (const g of x.invoicedPayments) {
    if (!p.invoicedAtClosing.has(g.orderId)) continue;
    const m = x.methods.get(g.methodId);
    const name = m?.name ?? `#${g.methodId}`;
    // A customer account on an invoice is the invoice's receivable: not in the session's entry.
    if (m?.payLater) p.methods.set(name, (p.methods.get(name) ?? 0) - g.amount);
    else p.invoicePayments += g.amount;
  }
  return p;
}

/**
 * What an entry posted from the POS's own figures would lack to balance: its sales, taxes,
 * invoice payments and cash rounding (credits) less its payments (debits), each rounded as its
 * row is. Odoo's balancing line holds that much when the lines and the payments disagree (a
 * line of 2.4055).
 */
function unbalanced(p: PosSide, r: (v: number) => number): number {
  let sum = r(p.sales) + r(p.taxes) + r(p.invoicePayments) + r(p.rounding);
  for (const v of p.methods.values()) sum -= r(v);
  return r(sum);
}

/**
 * `v` rounded as Odoo's float_round rounds what it posts: half away from zero, the binary noise
 * of a sum around a half counted as the half. Lines of 4.335 summed by the server come back as
 * 51500.814999999995; the entry Odoo posted from the same lines says 51500.82.
 */
function halfUp(v: number, digits: number): number {
  const f = 10 ** digits;
  const a = Math.abs(v * f);
  const up = a - Math.floor(a) >= 0.5 - a * 1e-12 ? Math.ceil(a) : Math.floor(a);
  return roundAt((Math.sign(v) * up) / f, digits);
}

export interface RowOptions {
  digits: (currencyId: number | null) => number;
  /** --tz: times with that zone's offset; else Odoo's UTC. */
  tz?: string;
  /** Differences up to this agree. */
  tolerance: number;
}

/** Every closed session's lines, in the order of the sessions. */
export function bookRows(x: BooksInputs, o: RowOptions): BookRow[] {
  const methodNames = new Set([...x.methods.values()].map((m) => m.name));
  const byMove = new Map<number, EntryGroup[]>();
  for (const l of x.journal?.lines ?? []) byMove.set(l.moveId, [...(byMove.get(l.moveId) ?? []), l]);
  return x.sessions.flatMap((s) => sessionRows(s, x, o, byMove.get(s.moveId ?? -1) ?? [], methodNames));
}

function sessionRows(
  s: SessionHead,
  x: BooksInputs,
  o: RowOptions,
  lines: EntryGroup[],
  methodNames: Set<string>,
): BookRow[] {
  const digits = o.digits(s.currencyId);
  const r = (v: number): number => halfUp(v, digits);
  const j = x.journal;
  const entry = j && s.moveId !== null ? j.entries.get(s.moveId) : undefined;
  const pos = posSide(s, x);
  const booked = j ? sortLines(s, lines, j, methodNames) : undefined;
  const head = {
    company_id: s.companyId,
    company: s.company,
    currency: s.currency,
    session_id: s.id,
    session: s.name,
    config_id: s.configId,
    register: s.register,
    closed: s.closedUtc === null ? null : o.tz ? utcToZoneIso(s.closedUtc, o.tz) : s.closedUtc,
    entry: entry?.name ?? null,
    entry_state: j ? (entry?.state ?? 'missing') : null,
    journal: entry?.journal ?? null,
  };
  const rows: BookRow[] = [];
  const add: Add = (line, p, b, note = null, fault = false) => {
    const pv = p === null ? null : r(p);
    const bv = b === undefined ? null : r(b);
    const difference = pv === null || bv === null ? null : r(bv - pv);
    const agrees = !fault && (difference === null || Math.abs(difference) - o.tolerance <= 1e-9);
    rows.push({ ...head, line, pos: pv, books: bv, difference, agrees, note });
  };
  add('sales', pos.sales, booked?.sales, 'untaxed, orders without an invoice at closing');
  add('taxes', pos.taxes, booked?.taxes);
  const methods = [...new Set([...pos.methods.keys(), ...(booked?.methods.keys() ?? [])])];
  for (const m of methods)
    add(`payment: ${m}`, pos.methods.get(m) ?? 0, booked ? (booked.methods.get(m) ?? 0) : undefined);
  if (pos.invoicePayments !== 0 || (booked && booked.invoicePayments !== 0))
    add(
      'invoice payments',
      pos.invoicePayments,
      booked?.invoicePayments,
      'payments of invoiced orders, moved to the invoices',
    );
  if (r(pos.rounding) !== 0 || (booked && r(booked.rounding) !== 0))
    add(
      'cash rounding',
      pos.rounding,
      booked?.rounding,
      "paid - total of the orders without an invoice: the register's cash rounding",
    );
  invoiceRows(s, x, add);
  reversalRow(s, x, add);
  // Rounded first: a computed difference of zero can come back as float noise (1e-12).
  if (r(s.cashDifference) !== 0 || (j && r(j.cashBooked.get(s.id) ?? 0) !== 0))
    add(
      'cash difference',
      s.cashDifference,
      j ? (j.cashBooked.get(s.id) ?? 0) : undefined,
      'counted - expected cash',
    );
  if (booked && r(booked.balancing) !== 0)
    add(
      'closing balance',
      unbalanced(pos, r),
      booked.balancing,
      "Odoo's line balancing an entry closed by force; POS: its sales and taxes less its payments",
    );
  if (booked && r(booked.other) !== 0)
    add('other lines', null, booked.other, 'lines of the entry posdata cannot place');
  if (j && entry?.state !== 'posted' && rows.some((x) => (x.pos ?? 0) !== 0))
    add(
      'entry',
      null,
      undefined,
      entry ? `the entry is ${entry.state}, not posted` : 'no journal entry for this session',
      true,
    );
  return rows;
}

type Add = (
  line: string,
  p: number | null,
  b: number | undefined,
  note?: string | null,
  fault?: boolean,
) => void;

/** The invoiced orders against their own invoices: total, posted, paid, made before closing. */
function invoiceRows(s: SessionHead, x: BooksInputs, add: Add): void {
  const orders = x.invoiced.filter((o) => o.sessionId === s.id);
  if (orders.length === 0) return;
  const j = x.journal;
  const total = orders.reduce((a, o) => a + o.total, 0);
  if (!j) {
    add('invoices', total, undefined);
    return;
  }
  let posted = 0;
  let fault = false;
  const notes: string[] = [];
  for (const o of orders) {
    const inv = j.invoices.get(o.invoiceId);
    if (inv?.state === 'posted') posted += inv.total;
    const name = inv?.name ?? `#${o.invoiceId}`;
    const said = !inv
      ? `${o.name}: invoice ${name} unreadable`
      : inv.state !== 'posted'
        ? `${o.name}: ${name} is ${inv.state}`
        : inv.paymentState && !['paid', 'in_payment', 'reversed'].includes(inv.paymentState)
          ? `${o.name}: ${name} is ${inv.paymentState.replace(/_/g, ' ')}`
          : undefined;
    if (said) {
      notes.push(said);
      fault = true;
    }
    if (j.late.has(o.id)) notes.push(`${o.name} invoiced after closing (${name})`);
  }
  add('invoices', total, posted, notes.length > 0 ? notes.join('; ') : null, fault);
}

/**
 * The orders invoiced after the closing against the entries that take them out of it: their
 * sales and taxes (as the closing posted them) beside the reversals' debits to income and tax.
 */
function reversalRow(s: SessionHead, x: BooksInputs, add: Add): void {
  const j = x.journal;
  const late = j ? x.invoiced.filter((o) => o.sessionId === s.id && j.late.has(o.id)) : [];
  if (!j || late.length === 0) return;
  const invoices = new Set(late.map((o) => o.invoiceId));
  const pos = [...invoices].reduce((a, id) => {
    const l = x.invoicedLines.get(id);
    return a + (l ? l.untaxed + l.tax : 0);
  }, 0);
  let books = 0;
  let fault = false;
  const notes = late.map((o) => {
    const rs = j.reversals.get(o.id) ?? [];
    if (rs.length === 0) return `${o.name}: no entry reverses it`;
    for (const r of rs) if (r.state === 'posted') books += r.amount;
    const off = rs.filter((r) => r.state !== 'posted');
    fault ||= off.length > 0;
    return `${o.name} reversed in ${rs.map((r) => (r.state === 'posted' ? r.name : `${r.name} (${r.state})`)).join(', ')}`;
  });
  add('late invoice reversal', pos, books, notes.join('; '), fault);
}
