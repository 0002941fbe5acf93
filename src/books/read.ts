// The books: what a range of closed sessions and their journal entries hold, read in a fixed
// handful of calls however many sessions there are (a read_group of the entries' lines, of the
// payments, of the orders), never a read per session. What Odoo posts at closing
// (pos.session._create_account_move, 16-19) is in docs/books.md.
import type { OdooClient } from '../core/client.js';
import { ServerError } from '../core/errors.js';
import { say } from '../core/redact.js';
import { type Domain, majorVersion } from '../core/types.js';
import { listsInStep } from '../read/groups.js';
import { readPaged, readWhole } from '../read/whole.js';
import { groupingApi, orDomains, prefixDomain } from '../summary/grouping.js';

export interface SessionHead {
  id: number;
  name: string;
  configId: number;
  register: string;
  companyId: number | null;
  company: string | null;
  currencyId: number | null;
  currency: string | null;
  closedUtc: string | null;
  moveId: number | null;
  /** Odoo's counted cash minus expected (cash_register_difference). */
  cashDifference: number;
}

/** One group of an entry's lines: by entry, account, tax, label and whether reconciled. */
export interface EntryGroup {
  moveId: number;
  accountId: number | null;
  taxLine: boolean;
  name: string;
  /** Matched in full with other lines (a method's with its payments, the invoices' with theirs). */
  reconciled: boolean;
  balance: number;
}

export interface InvoicedOrder {
  id: number;
  name: string;
  sessionId: number;
  total: number;
  tax: number;
  invoiceId: number;
}

export interface Invoice {
  id: number;
  name: string;
  state: string;
  total: number;
  paymentState: string | null;
  createdUtc: string | null;
}

export interface Method {
  id: number;
  name: string;
  /** No journal: a customer account (pay later), posted on the customer, not the session. */
  payLater: boolean;
}

export interface BooksInputs {
  sessions: SessionHead[];
  /** Untaxed and tax of the lines of the orders without an invoice, per session. */
  uninvoiced: Map<number, { untaxed: number; tax: number }>;
  /**
   * What the orders without an invoice were paid beyond their total (amount_paid - amount_total),
   * per session: a register's cash rounding, which the closing posts as its "Rounding line".
   */
  rounding: Map<number, number>;
  /** Untaxed and tax of the invoiced orders' lines, per invoice. */
  invoicedLines: Map<number, { untaxed: number; tax: number }>;
  invoiced: InvoicedOrder[];
  /** Payments per session and method (all the session's orders). */
  payments: { sessionId: number; methodId: number; amount: number }[];
  /** Payments of the invoiced orders per order and method. */
  invoicedPayments: { orderId: number; methodId: number; amount: number }[];
  methods: Map<number, Method>;
  /** Undefined with --pos-only: the journal was not read. */
  journal?: JournalSide;
}

export interface JournalSide {
  entries: Map<number, { name: string; state: string; journal: string; createdUtc: string | null }>;
  lines: EntryGroup[];
  accountTypes: Map<number, string>;
  invoices: Map<number, Invoice>;
  /** The counted cash difference Odoo booked at closing, per session. */
  cashBooked: Map<number, number>;
  /** Invoiced orders whose invoice was made after their session's entry. */
  late: Set<number>;
  /** The entries reversing a late order's part of its closing entry, per order. */
  reversals: Map<number, Reversal[]>;
}

/** An entry of the POS journal taking a late-invoiced order out of its closing entry. */
export interface Reversal {
  name: string;
  state: string;
  /** Its debits to income and tax: the order's sales and taxes taken back. */
  amount: number;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const m2o = (v: unknown): number | null =>
  Array.isArray(v) && typeof v[0] === 'number' ? v[0] : typeof v === 'number' ? v : null;
const label = (v: unknown): string | null => (Array.isArray(v) && typeof v[1] === 'string' ? v[1] : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The closed sessions of `domain` and everything the books compare for them. */
export async function fetchBooks(client: OdooClient, domain: Domain, posOnly: boolean): Promise<BooksInputs> {
  const sessions = await readSessions(client, domain);
  if (sessions.length === 0)
    return {
      sessions,
      uninvoiced: new Map(),
      rounding: new Map(),
      invoicedLines: new Map(),
      invoiced: [],
      payments: [],
      invoicedPayments: [],
      methods: new Map(),
    };
  const version = await client.version();
  const api = groupingApi(client, majorVersion(version) || 17, 'UTC');
  const [journal, pos] = await Promise.all([
    posOnly ? Promise.resolve(undefined) : readJournal(client, api, sessions),
    readPosSide(client, api, sessions),
  ]);
  if (journal && pos.invoiced.length > 0) {
    await readInvoices(client, pos.invoiced, journal);
    await readReversals(client, api, sessions, pos.invoiced, journal);
  }
  return { sessions, ...pos, journal };
}

async function readSessions(client: OdooClient, domain: Domain): Promise<SessionHead[]> {
  // books takes no --page-size: read on under a cap.
  const raw = await readPaged(client, {
    model: 'pos.session',
    domain,
    fields: [
      'name',
      'config_id',
      'company_id',
      'currency_id',
      'stop_at',
      'move_id',
      'cash_register_difference',
    ],
  });
  return raw.map((s) => ({
    id: s.id,
    name: String(s.name ?? ''),
    configId: m2o(s.config_id) ?? 0,
    register: label(s.config_id) ?? '',
    companyId: m2o(s.company_id),
    company: label(s.company_id),
    currencyId: m2o(s.currency_id),
    currency: label(s.currency_id),
    closedUtc: str(s.stop_at),
    moveId: m2o(s.move_id),
    cashDifference: num(s.cash_register_difference),
  }));
}

type PosInputs = Omit<BooksInputs, 'sessions' | 'journal'>;
type Api = ReturnType<typeof groupingApi>;
type Amounts = { untaxed: number; tax: number };

/** The POS side: the orders without an invoice per session, the invoiced ones, the payments. */
async function readPosSide(client: OdooClient, api: Api, sessions: SessionHead[]): Promise<PosInputs> {
  const ids = sessions.map((s) => s.id);
  // The orders a closing posts: neither draft nor cancelled (pos.session._get_closed_orders).
  const closed: Domain = [
    ['session_id', 'in', ids],
    ['state', 'not in', ['draft', 'cancel']],
  ];
  const [orderGroups, invoicedRaw, paymentGroups, methodsRaw] = await Promise.all([
    // Odoo 16-18 cannot group lines by their order's session: the sessions' orders, listed.
    api.group(
      'pos.order',
      [...closed, ['account_move', '=', false]],
      ['session_id'],
      [...(api.paths ? [] : [ORDER_IDS]), 'amount_paid:sum', 'amount_total:sum'],
    ),
    // Whole behind a server that caps search_read (its count beside it), in Odoo's order.
    readWhole(client, 'pos.order', [...closed, ['account_move', '!=', false]], {
      fields: ['name', 'session_id', 'amount_total', 'amount_tax', 'account_move'],
      ownOrder: true,
    }),
    api.group(
      'pos.payment',
      [['session_id', 'in', ids]],
      ['session_id', 'payment_method_id'],
      ['amount:sum'],
    ),
    client.searchRead('pos.payment.method', [], {
      fields: ['name', 'journal_id'],
      context: { active_test: false },
    }),
  ]);
  const invoiced: InvoicedOrder[] = invoicedRaw.map((o) => ({
    id: o.id,
    name: String(o.name ?? ''),
    sessionId: m2o(o.session_id) ?? 0,
    total: num(o.amount_total),
    tax: num(o.amount_tax),
    invoiceId: m2o(o.account_move) ?? 0,
  }));
  const sessionOf = new Map<number, number>();
  const rounding = new Map<number, number>();
  for (const g of orderGroups) {
    const session = m2o(g.values.session_id) ?? 0;
    for (const id of g.lists?.[ORDER_IDS] ?? []) if (typeof id === 'number') sessionOf.set(id, session);
    rounding.set(session, num(g.aggs['amount_paid:sum']) - num(g.aggs['amount_total:sum']));
  }
  const totals = await lineTotals(api, closed, sessionOf, invoiced);
  return {
    uninvoiced: totals.bySession,
    rounding,
    invoicedLines: totals.byInvoice,
    invoiced,
    payments: paymentGroups.map((g) => ({
      sessionId: m2o(g.values.session_id) ?? 0,
      methodId: m2o(g.values.payment_method_id) ?? 0,
      amount: num(g.aggs['amount:sum']),
    })),
    invoicedPayments: invoiced.length === 0 ? [] : await paymentsOf(api, ids),
    methods: new Map(
      methodsRaw.map((m) => [
        m.id,
        { id: m.id, name: String(m.name ?? ''), payLater: m2o(m.journal_id) === null },
      ]),
    ),
  };
}

const ORDER_IDS = 'id:array_agg';

/**
 * Untaxed and tax of the closed orders' lines, as the closing posts them: each line's
 * price_subtotal and its tax (pos.session._prepare_line), not the orders' amount_tax, which
 * the register sends and can be a cent off its lines. Per session for the orders without an
 * invoice, per invoice for the others. Odoo 19 groups the lines by their order's session;
 * 16-18 cannot (no path in a groupby, and no field of the line leads to the session), so their
 * lines come as three arrays of one group per company, the order, untaxed and taxed figure of
 * each line in the same order, each order's session known from `sessionOf`. A group per order
 * instead sends the whole domain back with every order (77 MB for a month of 200,000 orders).
 * report.pos.order is no way round: 16/17's view has the taxed total of the lines but not the
 * untaxed one (only the margin, less the lines' costs), and 18's rounds each line's untaxed
 * figure, where 16/17's closing adds them up first.
 */
async function lineTotals(
  api: Api,
  closed: Domain,
  sessionOf: Map<number, number>,
  invoiced: InvoicedOrder[],
): Promise<{ bySession: Map<number, Amounts>; byInvoice: Map<number, Amounts> }> {
  const bySession = new LineSums();
  const byInvoice = new LineSums();
  const domain = prefixDomain(closed, 'order_id.');
  if (api.paths) {
    const sums = ['price_subtotal:sum', 'price_subtotal_incl:sum'];
    const groups = await api.group(
      'pos.order.line',
      domain,
      ['order_id.session_id', 'order_id.account_move'],
      sums,
    );
    for (const g of groups) {
      const invoice = m2o(g.values['order_id.account_move']);
      const [untaxed, taxed] = sums.map((a) => num(g.aggs[a]));
      if (invoice === null) bySession.add(m2o(g.values['order_id.session_id']) ?? 0, untaxed, taxed);
      else byInvoice.add(invoice, untaxed, taxed);
    }
    return { bySession: bySession.amounts(), byInvoice: byInvoice.amounts() };
  }
  const invoiceOf = new Map(invoiced.map((o) => [o.id, o.invoiceId]));
  for (const g of await api.group('pos.order.line', domain, ['company_id'], LINE_ARRAYS)) {
    const [orders = [], untaxed = [], taxed = []] = listsInStep(
      g,
      LINE_ARRAYS,
      say`the lines' orders, untaxed and taxed totals`,
    );
    for (const [i, o] of orders.entries()) {
      const order = typeof o === 'number' ? o : 0;
      const invoice = invoiceOf.get(order);
      const session = invoice === undefined ? sessionOf.get(order) : undefined;
      if (invoice !== undefined) byInvoice.add(invoice, num(untaxed[i]), num(taxed[i]));
      else if (session !== undefined) bySession.add(session, num(untaxed[i]), num(taxed[i]));
    }
  }
  return { bySession: bySession.amounts(), byInvoice: byInvoice.amounts() };
}

const LINE_ARRAYS = ['order_id:array_agg', 'price_subtotal:array_agg', 'price_subtotal_incl:array_agg'];

/**
 * Untaxed and taxed figures added up per key with Neumaier's compensation: a session's
 * thousands of lines add up as the server's own SUM would, not a rounding error per line
 * nearer the half cent that Odoo's rounding of the total decides on.
 */
class LineSums {
  private readonly sums = new Map<number, [Sum, Sum]>();
  add(key: number, untaxed: number, taxed: number): void {
    let s = this.sums.get(key);
    if (!s) {
      s = [new Sum(), new Sum()];
      this.sums.set(key, s);
    }
    s[0].add(untaxed);
    s[1].add(taxed);
  }
  amounts(): Map<number, Amounts> {
    const out = new Map<number, Amounts>();
    for (const [key, [untaxed, taxed]] of this.sums)
      out.set(key, { untaxed: untaxed.value, tax: taxed.value - untaxed.value });
    return out;
  }
}

class Sum {
  private s = 0;
  private c = 0;
  add(x: number): void {
    const t = this.s + x;
    this.c += Math.abs(this.s) >= Math.abs(x) ? this.s - t + x : x - t + this.s;
    this.s = t;
  }
  get value(): number {
    return this.s + this.c;
  }
}

/**
 * The invoiced orders' payments per order and method, found through the sessions (a month of a
 * busy shop invoices thousands of orders: a domain listing their ids is a request of its own size).
 */
async function paymentsOf(api: Api, sessionIds: number[]): Promise<BooksInputs['invoicedPayments']> {
  const groups = await api.group(
    'pos.payment',
    [
      ['session_id', 'in', sessionIds],
      ['pos_order_id.account_move', '!=', false],
    ],
    ['pos_order_id', 'payment_method_id'],
    ['amount:sum'],
  );
  return groups.map((g) => ({
    orderId: m2o(g.values.pos_order_id) ?? 0,
    methodId: m2o(g.values.payment_method_id) ?? 0,
    amount: num(g.aggs['amount:sum']),
  }));
}

/**
 * The sessions' entries and their lines grouped by entry, account, tax, label and whether
 * reconciled (one read_group), the accounts' types, and the counted cash difference booked in
 * the cash journal at closing. A user without accounting rights is refused the lines: one line says
 * which right, and that --pos-only reads the POS side alone.
 */
async function readJournal(
  client: OdooClient,
  api: ReturnType<typeof groupingApi>,
  sessions: SessionHead[],
): Promise<JournalSide> {
  const moveIds = sessions.flatMap((s) => (s.moveId === null ? [] : [s.moveId]));
  let groups: Awaited<ReturnType<typeof api.group>>;
  try {
    groups = await api.group(
      'account.move.line',
      [['move_id', 'in', moveIds]],
      ['move_id', 'account_id', 'tax_line_id', 'name', 'reconciled'],
      ['balance:sum'],
    );
  } catch (err) {
    if (err instanceof ServerError && err.odooName === 'odoo.exceptions.AccessError')
      throw new ServerError(
        err.odooName,
        say`reading the sessions' journal entries needs Odoo's accounting rights: ${err.said}`,
        say`ask an Odoo administrator for the group Invoicing / Billing or Show Accounting Features - Readonly, or run with --pos-only for the POS side alone`,
      );
    throw err;
  }
  const lines: EntryGroup[] = groups.map((g) => ({
    moveId: m2o(g.values.move_id) ?? 0,
    accountId: m2o(g.values.account_id),
    taxLine: m2o(g.values.tax_line_id) !== null,
    name: str(g.values.name) ?? '',
    reconciled: g.values.reconciled === true,
    balance: num(g.aggs['balance:sum']),
  }));
  const accountIds = [...new Set(lines.flatMap((l) => (l.accountId === null ? [] : [l.accountId])))];
  const [moves, accounts, cashBooked] = await Promise.all([
    client.read('account.move', moveIds, ['name', 'state', 'journal_id', 'create_date']),
    client.read('account.account', accountIds, ['account_type']),
    cashDifferences(client, api, sessions),
  ]);
  return {
    entries: new Map(
      moves.map((m) => [
        m.id,
        {
          name: String(m.name ?? ''),
          state: String(m.state ?? ''),
          journal: label(m.journal_id) ?? '',
          createdUtc: str(m.create_date),
        },
      ]),
    ),
    lines,
    accountTypes: new Map(accounts.map((a) => [a.id, String(a.account_type ?? '')])),
    invoices: new Map(),
    cashBooked,
    late: new Set(),
    reversals: new Map(),
  };
}

/**
 * The counted cash difference Odoo booked when each session closed: its cash statement lines
 * whose counterpart is the cash journal's profit or loss account (_post_statement_difference).
 * A difference counted at opening goes to the suspense account and is not the closing's.
 */
async function cashDifferences(
  client: OdooClient,
  api: ReturnType<typeof groupingApi>,
  sessions: SessionHead[],
): Promise<Map<number, number>> {
  // Whole behind a server that caps search_read: its count is asked beside it.
  const st = await readWhole(
    client,
    'account.bank.statement.line',
    [['pos_session_id', 'in', sessions.map((s) => s.id)]],
    { fields: ['pos_session_id', 'move_id', 'journal_id'] },
  );
  const out = new Map<number, number>();
  if (st.length === 0) return out;
  const journalIds = [
    ...new Set(st.flatMap((l) => (m2o(l.journal_id) === null ? [] : [m2o(l.journal_id) as number]))),
  ];
  const journals = await client.read('account.journal', journalIds, ['profit_account_id', 'loss_account_id']);
  const accounts = journals
    .flatMap((j) => [m2o(j.profit_account_id), m2o(j.loss_account_id)])
    .filter((a) => a !== null);
  if (accounts.length === 0) return out;
  const sessionOf = new Map(st.map((l) => [m2o(l.move_id) ?? 0, m2o(l.pos_session_id) ?? 0]));
  const groups = await api.group(
    'account.move.line',
    [
      ['move_id', 'in', [...sessionOf.keys()]],
      ['account_id', 'in', accounts],
    ],
    ['move_id'],
    ['balance:sum'],
  );
  for (const g of groups) {
    const s = sessionOf.get(m2o(g.values.move_id) ?? 0);
    // The counterpart is credited with a profit: the difference is minus its balance.
    if (s !== undefined) out.set(s, (out.get(s) ?? 0) - num(g.aggs['balance:sum']));
  }
  return out;
}

/** The invoiced orders' invoices: number, state, signed total, payment state, when made. */
async function readInvoices(
  client: OdooClient,
  orders: InvoicedOrder[],
  journal: JournalSide,
): Promise<void> {
  const ids = [...new Set(orders.map((o) => o.invoiceId))];
  const rows = await client.read('account.move', ids, [
    'name',
    'state',
    'amount_total_signed',
    'payment_state',
    'create_date',
  ]);
  for (const r of rows)
    journal.invoices.set(r.id, {
      id: r.id,
      name: String(r.name ?? ''),
      state: String(r.state ?? ''),
      total: num(r.amount_total_signed),
      paymentState: str(r.payment_state),
      createdUtc: str(r.create_date),
    });
}

/**
 * The orders invoiced after their session's entry was made, and the entries that take them out
 * of it: Odoo 17 and later post one per order in the register's journal
 * (pos.order._create_misc_reversal_move), referenced "Reversal of POS closing entry <entry> for
 * order <order> from session <session>": found by the entry's and the order's names, which
 * stay the same in every language. One search and one read_group, only when an order is late.
 */
async function readReversals(
  client: OdooClient,
  api: Api,
  sessions: SessionHead[],
  orders: InvoicedOrder[],
  journal: JournalSide,
): Promise<void> {
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const entryOf = (o: InvoicedOrder) => {
    const s = byId.get(o.sessionId);
    return s?.moveId == null ? undefined : journal.entries.get(s.moveId);
  };
  for (const o of orders) {
    const made = journal.invoices.get(o.invoiceId)?.createdUtc;
    // The entry's own creation: a session's stop_at can be set back (closed later than it says).
    const closed = entryOf(o)?.createdUtc ?? byId.get(o.sessionId)?.closedUtc;
    if (made && closed && made > closed) journal.late.add(o.id);
  }
  const late = orders.filter((o) => journal.late.has(o.id) && entryOf(o) !== undefined);
  if (late.length === 0) return;
  const moves = await client.searchRead(
    'account.move',
    [
      ['move_type', '=', 'entry'],
      ...orDomains(
        late.map((o) => [
          ['ref', 'ilike', entryOf(o)?.name ?? ''],
          ['ref', 'ilike', o.name],
        ]),
      ),
    ],
    { fields: ['name', 'state', 'ref'] },
  );
  if (moves.length === 0) return;
  const groups = await api.group(
    'account.move.line',
    [['move_id', 'in', moves.map((m) => m.id)]],
    ['move_id', 'account_id', 'tax_line_id'],
    ['balance:sum'],
  );
  const unknown = groups.flatMap((g) => {
    const a = m2o(g.values.account_id);
    return a === null || journal.accountTypes.has(a) ? [] : [a];
  });
  // The closing entries' accounts are known already: a reversal uses the same ones.
  if (unknown.length > 0)
    for (const a of await client.read('account.account', [...new Set(unknown)], ['account_type']))
      journal.accountTypes.set(a.id, String(a.account_type ?? ''));
  const taken = new Map<number, number>();
  for (const g of groups) {
    const account = m2o(g.values.account_id);
    const income = account !== null && INCOME_TYPES.has(journal.accountTypes.get(account) ?? '');
    if (income || m2o(g.values.tax_line_id) !== null) {
      const move = m2o(g.values.move_id) ?? 0;
      taken.set(move, (taken.get(move) ?? 0) + num(g.aggs['balance:sum']));
    }
  }
  for (const m of moves) {
    const ref = String(m.ref ?? '');
    // The order whose name the reference holds whole (Shop/1000 is not Shop/10000's).
    const o = late.find(
      (x) =>
        ref.includes(entryOf(x)?.name ?? '\u0000') &&
        new RegExp(`${escapeRe(x.name)}(?![\\p{L}\\p{N}])`, 'u').test(ref),
    );
    if (!o) continue;
    const list = journal.reversals.get(o.id) ?? [];
    list.push({ name: String(m.name ?? ''), state: String(m.state ?? ''), amount: taken.get(m.id) ?? 0 });
    journal.reversals.set(o.id, list);
  }
}

/** The account types of income (Odoo 16-19). */
export const INCOME_TYPES = new Set(['income', 'income_other']);

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
