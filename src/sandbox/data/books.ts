/**
 * The books of the closings, as Odoo 17's pos.session._create_account_move posts them (read on a
 * real 17: test/sandbox/wirebooks): per company a chart (income, tax, the POS receivable, the
 * customers' receivable, cash, bank, cash difference gain and loss) and journals (Point of Sale,
 * Customer Invoices, Bank, one cash journal per cash method); per closed session one posted entry
 * in the Point of Sale journal: "Sales with <tax>" / "Refund with <tax>" / "... untaxed" per tax,
 * a tax line per tax and sign, "<session> - <method>" per payment method (combined, reconciled
 * with its payments), "From invoice payments" crediting the POS receivable with the invoiced
 * orders' payments (reconciled with the invoices'), and where the lines miss the payments the
 * force close's "Difference at closing PoS session" on the POS receivable, reconciled with
 * nothing (posci's POS/00009). Those two labels are in the closing user's language (--faults
 * books-fr: French). Each cash journal line (account.bank.statement.line) gets its own entry:
 * the cash sales against the POS receivable, a counted difference against the journal's profit
 * or loss account.
 * No PRNG draws: a seed's orders are the same with or without the books.
 *
 * `drift` (--faults books) makes five of company 1's last closings differ from their sessions, one
 * way each: an entry reset to draft, an entry edited by hand (10 less of sales, on another
 * account), a session without an entry, an order invoiced after its session closed, and a
 * method's receivable posted under another journal's name.
 */
import { currencyOfCompany, sessionCompany } from '../money.js';
import type { Db } from '../store.js';
import type { Rec, Stored } from '../types.js';
import type { Gen } from './context.js';

type Chart = Record<
  'income' | 'tax' | 'posReceivable' | 'receivable' | 'cash' | 'bank' | 'gain' | 'loss' | 'transfer' | 'misc',
  number
>;
interface Books {
  chart: Chart;
  journals: { pos: number; invoices: number; bank: number; otherBank: number };
  /** Per cash method, its cash journal. */
  cashJournal: Map<number, number>;
  /** The last number per journal. */
  seq: Map<number, number>;
}

const ACCOUNTS: [keyof Chart, string, string, string][] = [
  ['income', '400000', 'Product Sales', 'income'],
  ['tax', '251000', 'Tax Received', 'liability_current'],
  ['posReceivable', '101300', 'Account Receivable (PoS)', 'asset_receivable'],
  ['receivable', '121000', 'Account Receivable', 'asset_receivable'],
  ['cash', '101501', 'Cash', 'asset_cash'],
  ['bank', '101401', 'Bank', 'asset_cash'],
  ['gain', '442000', 'Cash Difference Gain', 'income_other'],
  ['loss', '642000', 'Cash Difference Loss', 'expense'],
  ['transfer', '101701', 'Liquidity Transfer', 'asset_current'],
  ['misc', '499000', 'Miscellaneous Corrections', 'liability_current'],
];

export type Drift = 'draft' | 'edited' | 'missing' | 'late' | 'journal';
const DRIFTS: Drift[] = ['draft', 'edited', 'missing', 'late', 'journal'];

/** The two labels Odoo's closing translates (_()), in English and as the sandbox puts them in French. */
const LABELS = {
  en: { balancing: 'Difference at closing PoS session', invoicePayments: 'From invoice payments' },
  fr: {
    balancing: 'Différence à la clôture de la session PdV',
    invoicePayments: 'Des paiements de factures',
  },
};
type Labels = (typeof LABELS)['en'];

/** Every company's chart and journals, every closing's entry and every cash line's. */
export function bookClosings(g: Gen, drift: boolean, french = false): void {
  const labels = french ? LABELS.fr : LABELS.en;
  const { db } = g;
  const perCompany = new Map<number, Books>();
  const booksOf = (company: number): Books => {
    const b = perCompany.get(company) ?? chartOf(g, company);
    perCompany.set(company, b);
    return b;
  };
  for (const c of db.table('res.company').rows) if (c) booksOf(c.id);
  const sessions = db.table('pos.session').rows.filter((s): s is Rec => s?.state === 'closed');
  const drifts = drift ? driftPlan(db, sessions) : new Map<number, Drift>();
  const figures = sessionFigures(db, g.version >= 18);
  for (const s of sessions) {
    const b = booksOf(sessionCompany(db, s.id));
    const kind = drifts.get(s.id);
    if (kind !== 'missing') sessionEntry(g, b, s, figures.get(s.id) ?? emptyFigures(), kind, labels);
  }
  for (const l of db.table('account.bank.statement.line').rows)
    if (l) cashEntry(g, booksOf(sessionCompany(db, l.pos_session_id)), l);
  for (const o of db.table('pos.order').rows) {
    if (typeof o?.account_move !== 'number') continue;
    const inv = db.get('account.move', o.account_move);
    const s = db.get('pos.session', o.session_id as number);
    if (inv && s) {
      const company = sessionCompany(db, s.id);
      Object.assign(inv, {
        journal_id: booksOf(company).journals.invoices,
        company_id: company,
        ref: o.name,
      });
    }
  }
  for (const [id, kind] of drifts) if (kind === 'late') invoiceLate(g, booksOf(1), id);
}

function chartOf(g: Gen, company: number): Books {
  const { db } = g;
  const accounts = db.table('account.account');
  const chart = {} as Chart;
  for (const [key, code, name, type] of ACCOUNTS) {
    chart[key] = accounts.nextId;
    accounts.insert({ id: accounts.nextId, code, name, account_type: type, company_id: company, ...g.stamp });
  }
  const journals = db.table('account.journal');
  const journal = (name: string, code: string, type: string, own: Record<string, Stored> = {}): number => {
    const id = journals.nextId;
    journals.insert({ ...own, id, name, code, type, sequence: id, company_id: company, ...g.stamp });
    return id;
  };
  const cashDiff = { profit_account_id: chart.gain, loss_account_id: chart.loss };
  const b: Books = {
    chart,
    journals: {
      invoices: journal('Customer Invoices', 'INV', 'sale', { default_account_id: chart.income }),
      pos: journal('Point of Sale', 'POSS', 'general'),
      bank: journal('Bank', 'BNK1', 'bank', { default_account_id: chart.bank, ...cashDiff }),
      otherBank: journal('Bank 2', 'BNK2', 'bank', { default_account_id: chart.bank, ...cashDiff }),
    },
    cashJournal: new Map(),
    seq: new Map(),
  };
  let n = 0;
  for (const m of db.table('pos.payment.method').rows) {
    if (!m || (typeof m.company_id === 'number' ? m.company_id : 1) !== company) continue;
    if (m.is_cash_count === true) {
      const id = journal(String(m.name), `CSH${++n}`, 'cash', {
        default_account_id: chart.cash,
        ...cashDiff,
      });
      b.cashJournal.set(m.id, id);
      m.journal_id = id;
    } else m.journal_id = b.journals.bank;
  }
  return b;
}

/** What a closing posts, per session: the uninvoiced lines' bases and taxes, the payments. */
interface Figures {
  /** "Sales with 15%" → base; per tax and sign → tax. */
  sales: Map<string, number>;
  taxes: Map<string, { taxId: number; amount: number }>;
  /** Payments per method id, and those of the orders invoiced at the counter. */
  paid: Map<number, number>;
  invoicePayments: number;
}
const emptyFigures = (): Figures => ({
  sales: new Map(),
  taxes: new Map(),
  paid: new Map(),
  invoicePayments: 0,
});

/**
 * `byEngine`: Odoo 18 and 19 label a sales line "<Sales|Refund> <product> with <taxes>", the
 * product empty unless the register posts one line per product (two spaces, as Odoo writes it).
 */
function sessionFigures(db: Db, byEngine: boolean): Map<number, Figures> {
  const out = new Map<number, Figures>();
  const of = (sessionId: number): Figures => {
    const f = out.get(sessionId) ?? emptyFigures();
    out.set(sessionId, f);
    return f;
  };
  const taxName = (id: number): string => String(db.get('account.tax', id)?.name ?? id);
  const rounders = new Map<number, (x: number) => number>();
  const roundIn = (sessionId: number): ((x: number) => number) => {
    let r = rounders.get(sessionId);
    if (!r) {
      r = currencyOfCompany(db, sessionCompany(db, sessionId)).round;
      rounders.set(sessionId, r);
    }
    return r;
  };
  const posted = (o: Rec | undefined): o is Rec =>
    o !== undefined && o.state !== 'draft' && o.state !== 'cancel';
  for (const l of db.table('pos.order.line').rows) {
    const o = l ? db.get('pos.order', l.order_id as number) : undefined;
    if (!l || !posted(o) || typeof o.account_move === 'number') continue;
    const f = of(o.session_id as number);
    const taxes = Array.isArray(l.tax_ids) ? l.tax_ids : [];
    const sign = (l.qty as number) < 0 ? 'Refund' : 'Sales';
    const key =
      taxes.length > 0
        ? `${sign}${byEngine ? '  ' : ' '}with ${taxes.map(taxName).join(', ')}`
        : `${sign} untaxed`;
    const base = l.price_subtotal as number;
    f.sales.set(key, (f.sales.get(key) ?? 0) + base);
    const taxId = taxes[0];
    if (taxId === undefined) continue;
    const t = f.taxes.get(`${taxId}|${sign}`) ?? { taxId, amount: 0 };
    t.amount += roundIn(o.session_id as number)((l.price_subtotal_incl as number) - base);
    f.taxes.set(`${taxId}|${sign}`, t);
  }
  for (const p of db.table('pos.payment').rows) {
    const o = p ? db.get('pos.order', p.pos_order_id as number) : undefined;
    if (!p || !posted(o)) continue;
    const f = of(o.session_id as number);
    const m = p.payment_method_id as number;
    f.paid.set(m, (f.paid.get(m) ?? 0) + (p.amount as number));
    if (typeof o.account_move === 'number') f.invoicePayments += p.amount as number;
  }
  return out;
}

type Line = {
  name: string;
  account: number;
  balance: number;
  taxLine?: number;
  taxes?: number[];
  reconciled?: boolean;
};

function sessionEntry(g: Gen, b: Books, s: Rec, f: Figures, drift: Drift | undefined, labels: Labels): void {
  const { db } = g;
  const { round } = currencyOfCompany(db, sessionCompany(db, s.id));
  const c = b.chart;
  const lines: Line[] = [];
  // Each group as Odoo posts it: its lines' price_subtotal added, then rounded; each tax the
  // sum of its lines' taxes, each rounded (_accumulate_amounts, round per line). Where that
  // misses the payments by a cent, the balancing line below holds it, as Odoo's force close.
  for (const [name, v] of f.sales) lines.push({ name, account: c.income, balance: -round(v) });
  for (const t of f.taxes.values())
    lines.push({
      name: String(db.get('account.tax', t.taxId)?.name ?? ''),
      account: c.tax,
      balance: -round(t.amount),
      taxLine: t.taxId,
    });
  for (const [m, amount] of f.paid) {
    const method = String(db.get('pos.payment.method', m)?.name ?? m);
    const other = drift === 'journal' && b.cashJournal.get(m) === undefined;
    const name = `${String(s.name)} - ${other ? 'Bank 2' : method}`;
    lines.push({ name, account: c.posReceivable, balance: round(amount), reconciled: true });
  }
  if (f.invoicePayments !== 0)
    lines.push({
      name: labels.invoicePayments,
      account: c.posReceivable,
      balance: -round(f.invoicePayments),
      reconciled: true,
    });
  if (drift === 'edited') {
    const sale = lines.find((l) => l.account === c.income && l.balance < 0);
    if (sale) {
      sale.balance = round(sale.balance + 10);
      lines.push({ name: 'Correction', account: c.misc, balance: -10 });
    }
  }
  const off = round(lines.reduce((a, l) => a + l.balance, 0));
  // An entry that would not balance is what Odoo's force close balances, on the account its
  // wizard proposes: the company's POS receivable.
  if (off !== 0) lines.push({ name: labels.balancing, account: c.posReceivable, balance: -off });
  const at = String(s.write_date);
  const move = postEntry(
    g,
    b,
    b.journals.pos,
    'POSS',
    at,
    String(s.name),
    drift === 'draft' ? 'draft' : 'posted',
    lines,
  );
  s.move_id = move;
}

/** A cash journal line's own entry: the cash account against the POS receivable, a difference or a transfer. */
function cashEntry(g: Gen, b: Books, l: Rec): void {
  const s = g.db.get('pos.session', l.pos_session_id as number);
  const cashMethod = [...b.cashJournal.keys()].find((m) =>
    (g.db.get('pos.config', s?.config_id as number)?.payment_method_ids as number[] | undefined)?.includes(m),
  );
  const journal = (cashMethod !== undefined ? b.cashJournal.get(cashMethod) : undefined) ?? b.journals.bank;
  const amount = l.amount as number;
  const ref = String(l.payment_ref);
  const counterpart =
    ref === s?.name
      ? b.chart.posReceivable
      : ref.startsWith('Cash difference')
        ? amount > 0
          ? b.chart.gain
          : b.chart.loss
        : b.chart.transfer;
  const code = String(g.db.get('account.journal', journal)?.code ?? 'CSH');
  l.move_id = postEntry(g, b, journal, code, String(l._at), '', 'posted', [
    { name: ref, account: b.chart.cash, balance: amount },
    { name: ref, account: counterpart, balance: -amount, reconciled: counterpart === b.chart.posReceivable },
  ]);
  l.journal_id = journal;
}

function postEntry(
  g: Gen,
  b: Books,
  journal: number,
  code: string,
  at: string,
  ref: string,
  state: string,
  lines: Line[],
): number {
  const moves = g.db.table('account.move');
  const items = g.db.table('account.move.line');
  const id = moves.nextId;
  const date = at.slice(0, 10);
  const n = (b.seq.get(journal) ?? 0) + 1;
  b.seq.set(journal, n);
  // As Odoo 17 numbers them: the POS journal by month (POSS/2026/11/0003), the others by year.
  const name =
    code === 'POSS'
      ? `${code}/${date.slice(0, 4)}/${date.slice(5, 7)}/${String(n).padStart(4, '0')}`
      : `${code}/${date.slice(0, 4)}/${String(n).padStart(5, '0')}`;
  const company = g.db.get('account.journal', journal)?.company_id as number;
  const debit = lines.reduce((a, l) => a + Math.max(0, l.balance), 0);
  moves.insert({
    id,
    name,
    ref,
    date,
    move_type: 'entry',
    state,
    journal_id: journal,
    company_id: company,
    amount_total: debit,
    _at: at,
  });
  for (const l of lines)
    items.insert({
      id: items.nextId,
      move_id: id,
      move_name: name,
      name: l.name,
      date,
      account_id: l.account,
      journal_id: journal,
      company_id: company,
      tax_line_id: l.taxLine ?? false,
      tax_ids: l.taxes ?? [],
      balance: l.balance,
      reconciled: l.reconciled === true,
      parent_state: state,
    });
  return id;
}

/** Company 1's last five closings (newest first), one drift each. */
function driftPlan(db: Db, closed: Rec[]): Map<number, Drift> {
  const mine = closed
    .filter((s) => sessionCompany(db, s.id) === 1)
    .slice(-DRIFTS.length)
    .reverse();
  return new Map(mine.map((s, i) => [s.id, DRIFTS[i] as Drift]));
}

/** An order of the session invoiced a day after the closing (16-18 'invoiced', 19 'done'). */
function invoiceLate(g: Gen, b: Books, sessionId: number): void {
  const { db } = g;
  const s = db.get('pos.session', sessionId);
  const o = db
    .table('pos.order')
    .rows.find((r) => r?.session_id === sessionId && r.state === 'done' && (r.amount_total as number) > 0);
  if (!s || !o) return;
  const moves = db.table('account.move');
  const id = moves.nextId;
  const at = String(s.stop_at);
  const next = new Date(`${at.replace(' ', 'T')}Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  const stamp = `${next.toISOString().slice(0, 19).replace('T', ' ')}.250000`;
  moves.insert({
    id,
    name: `INV/${at.slice(0, 4)}/L${String(id).padStart(5, '0')}`,
    date: stamp.slice(0, 10),
    invoice_date: stamp.slice(0, 10),
    amount_total: o.amount_total,
    journal_id: b.journals.invoices,
    company_id: 1,
    ref: o.name,
    _at: stamp,
  });
  o.account_move = id;
  if (g.version !== 19) o.state = 'invoiced';
  o.write_date = stamp;
  reverseLate(g, b, s, o, stamp);
}

/**
 * The entry that takes a late-invoiced order out of its closing entry, as Odoo 17 posts it
 * (pos.order._create_misc_reversal_move): in the register's journal, its lines' sales and taxes
 * debited back against the POS receivable.
 */
function reverseLate(g: Gen, b: Books, s: Rec, o: Rec, at: string): void {
  const { db } = g;
  const { round } = currencyOfCompany(db, sessionCompany(db, s.id));
  const lines: Line[] = [];
  let total = 0;
  for (const l of db.table('pos.order.line').rows) {
    if (l?.order_id !== o.id) continue;
    const base = round(l.price_subtotal as number);
    const tax = round((l.price_subtotal_incl as number) - (l.price_subtotal as number));
    lines.push({ name: String(l.full_product_name ?? l.name ?? ''), account: b.chart.income, balance: base });
    const taxId = Array.isArray(l.tax_ids) ? (l.tax_ids[0] as number | undefined) : undefined;
    if (taxId !== undefined && tax !== 0)
      lines.push({
        name: String(db.get('account.tax', taxId)?.name ?? ''),
        account: b.chart.tax,
        balance: tax,
        taxLine: taxId,
      });
    total += base + tax;
  }
  lines.push({ name: '', account: b.chart.posReceivable, balance: -round(total) });
  const closing = String(db.get('account.move', s.move_id as number)?.name ?? '');
  const ref = `Reversal of POS closing entry ${closing} for order ${String(o.name)} from session ${String(s.name)}`;
  postEntry(g, b, b.journals.pos, 'POSS', at, ref, 'posted', lines);
}
