// --check-odoo: the summary's totals against Odoo's own "Sales Details" report
// (`report.point_of_sale.report_saledetails.get_sale_details`) for the same range, register
// and session, like with like: Odoo lists its payments per method AND session (17+: `id` is the
// method, `session` the session, `name` "<method> <session>"), so they are summed per method
// id across sessions (16 lists them per method name). Each difference beyond the documented
// rounding is one line on stderr, then one line says what was compared and what could not be,
// and why; standard output keeps the data.
import type { OdooClient } from '../core/client.js';
import { ConnectionError, PosdataError, ServerError } from '../core/errors.js';
import { joinSaid, own, type Said, say } from '../core/redact.js';
import { fixedDecimals } from '../records/normalize.js';
import { type Figures, totalOf } from './compute.js';
import type { SummaryParams, SummaryResult } from './query.js';

const MODEL = 'report.point_of_sale.report_saledetails';

interface Payment {
  id?: number;
  session?: number;
  name?: string;
  total?: number;
}

interface SaleDetails {
  nbr_orders?: number;
  payments?: Payment[];
  taxes?: { name?: string; tax_amount?: number }[];
  refund_taxes?: { name?: string; tax_amount?: number }[];
  currency?: { total_paid?: number; precision?: number };
}

export interface CheckResult {
  /** The lines for stderr (without the `posdata: check-odoo: ` prefix): Odoo's names in holes. */
  lines: Said[];
  /** Figures that differ beyond the rounding. */
  differ: number;
  compared: number;
}

/** A figure in units of the currency's last decimal (cents for EUR, yen for JPY). */
const units = (v: number, digits: number): number => Math.round(v * 10 ** digits);
const money = (v: number, digits: number): string => fixedDecimals(v, digits);

/** What Odoo's dates take for an open end: every order posdata could have counted. */
const EARLIEST = '1970-01-01 00:00:00';
const LATEST = '9999-12-31 23:59:59';

export async function checkOdoo(
  client: OdooClient,
  r: SummaryResult,
  p: SummaryParams,
): Promise<CheckResult> {
  const none = (line: Said): CheckResult => ({ lines: [line], differ: 0, compared: 0 });
  const session = p.sessionId !== undefined;
  if (session && (r.range.start !== null || r.range.end !== null)) {
    return none(
      say`not compared: Odoo's Sales Details of a session covers the whole session, not --date/--from/--to; drop the range to compare`,
    );
  }
  // Odoo reads its dates as naive UTC and its stop as inclusive; without a start it takes
  // today, without a stop the start's day, so an open end is made explicit.
  const kwargs = {
    date_start: session ? false : (r.range.start ?? EARLIEST),
    date_stop: session ? false : r.range.end ? oneSecondBefore(r.range.end) : LATEST,
    config_ids: p.configId !== undefined ? [p.configId] : false,
    session_ids: session ? [p.sessionId] : false,
  };
  let d: SaleDetails;
  try {
    d = (await client.executeKw(MODEL, 'get_sale_details', [], kwargs)) as SaleDetails;
  } catch (err) {
    // No answer in time (a costly call is sent once) is the run's failure: exit 6.
    if (err instanceof ConnectionError) throw err;
    if (err instanceof ServerError && /AccessError/i.test(`${err.odooName} ${err.message}`)) {
      // Odoo reads account.payment for the sessions it resolves: those of --session-id, or
      // with a register those wholly inside the range. A date range alone resolves none.
      const which = session
        ? say`session ${p.sessionId} adds its cash count`
        : say`register ${p.configId} adds the cash count of the sessions wholly inside the range`;
      return none(
        say`not compared: Odoo's Sales Details of ${which}, which reads account.payment, and this user may not (Odoo: AccessError; a POS user has no Invoicing rights); check as a user with Invoicing rights${own(session ? '' : ', or without --config-id')}`,
      );
    }
    if (err instanceof PosdataError)
      return none(say`not compared: Odoo's Sales Details failed (${oneLine(err.line())})`);
    throw err;
  }
  // Odoo rounds to its report's currency (the registers', which is the company's when they
  // share it), line by line for products and taxes, and says its decimals; the summary rounds
  // to the company's. The comparison is at the fewer of the two.
  const theirs = d.currency?.precision;
  return compare(d, r, typeof theirs === 'number' ? Math.min(r.summary.digits, theirs) : r.summary.digits);
}

/** Odoo's figures against the summary's totals, each where both sides mean the same. */
function compare(d: SaleDetails, r: SummaryResult, digits: number): CheckResult {
  const s = r.summary;
  const c = new Comparison(digits, totalOf(s.groups, s));
  const byLevel =
    s.level === 'payment' ? 'the rows are payments' : s.level === 'line' ? 'the rows are order lines' : '';
  compareOrders(c, d, r, byLevel);
  const payments = Array.isArray(d.payments) ? d.payments : undefined;
  const odooMethods = payments ? perMethod(payments, s.methodNames) : undefined;
  compareTotal(c, d, s, odooMethods);
  compareMethods(c, s, odooMethods);
  compareTax(c, d, byLevel);
  return c.result();
}

/** The figures compared, those that differ (a line each) and those left out (and why). */
class Comparison {
  readonly lines: Said[] = [];
  readonly compared: Said[] = [];
  readonly skipped: string[] = [];
  constructor(
    readonly digits: number,
    readonly ours: Figures,
  ) {}

  check(what: Said, odoo: number, mine: number, slack: number, why = ''): void {
    const { digits } = this;
    this.compared.push(what);
    if (Math.abs(units(odoo, digits) - units(mine, digits)) <= units(slack, digits)) return;
    this.lines.push(
      say`${what}: Odoo ${money(odoo, digits)}, posdata ${money(mine, digits)} (${money(mine - odoo, digits)})${own(why)}`,
    );
  }

  /** The differing lines, then the verdict and what was not compared. */
  result(): CheckResult {
    const { lines, compared, skipped } = this;
    const n = compared.length;
    const list = (xs: Said[]): Said => joinSaid(xs, ', ');
    const out = [...lines];
    if (n === 0)
      out.push(say`not compared: Odoo's Sales Details gave none of the figures posdata shows here`);
    else if (lines.length === 0)
      out.push(
        say`Odoo's Sales Details agrees on ${own(String(n))} figure${own(n === 1 ? '' : 's')}: ${list(compared)}`,
      );
    else
      out.push(
        say`${own(String(lines.length))} of ${own(String(n))} figures differ from Odoo's Sales Details (compared: ${list(compared)})`,
      );
    if (skipped.length > 0 && n > 0) out.push(say`not compared: ${own(skipped.join(', '))}`);
    return { lines: out, differ: lines.length, compared: n };
  }
}

/** The count of orders: only where the rows are orders (a line or payment row shares its order). */
function compareOrders(c: Comparison, d: SaleDetails, r: SummaryResult, byLevel: string): void {
  const s = r.summary;
  if (typeof d.nbr_orders !== 'number') c.skipped.push("orders (Odoo's report has no count)");
  else if (s.level !== 'order')
    c.skipped.push(
      `orders (${byLevel}: an order counts once per ${s.level === 'payment' ? 'method that paid it' : 'product'})`,
    );
  else {
    c.compared.push(own('orders'));
    if (d.nbr_orders !== c.ours.orders)
      c.lines.push(
        say`orders: Odoo ${d.nbr_orders}, posdata ${c.ours.orders}${own(r.major >= 18 ? ' (Odoo 18+ leaves out invoiced orders)' : '')}`,
      );
  }
}

/** The total: Odoo's paid total against orders, the sum of its payments against payments. */
function compareTotal(
  c: Comparison,
  d: SaleDetails,
  s: SummaryResult['summary'],
  odooMethods: Map<string, OdooMethod> | undefined,
): void {
  const paid = odooMethods ? [...odooMethods.values()].reduce((a, m) => a + m.total, 0) : undefined;
  if (s.level === 'order' && typeof d.currency?.total_paid === 'number')
    c.check(own('total'), d.currency.total_paid, c.ours.total, 0);
  else if (s.level === 'payment' && paid !== undefined)
    c.check(own('total'), paid, c.ours.total, 0, ' (payments)');
  else if (s.level === 'line')
    c.skipped.push("total (the rows are order lines, Odoo's total is the orders')");
  else c.skipped.push("total (Odoo's report has none)");
}

/** Each payment method Odoo lists, and any posdata saw that Odoo did not. */
function compareMethods(
  c: Comparison,
  s: SummaryResult['summary'],
  odooMethods: Map<string, OdooMethod> | undefined,
): void {
  if (!odooMethods) return void c.skipped.push("methods (Odoo's report lists no payments)");
  const mineOf = c.ours.methods;
  if (!mineOf)
    return void c.skipped.push(
      s.level === 'line'
        ? 'methods (a payment is not split by product, category or tax)'
        : 'methods (left empty, see the note above)',
    );
  const keyOf = new Map(s.methodIds.map((id, i) => [id, s.methodKeys[i] as string]));
  const seen = new Set<string>();
  const inOrder = [...odooMethods.values()].sort(
    (a, b) => (a.id ?? 0) - (b.id ?? 0) || String(a.name).localeCompare(String(b.name)),
  );
  for (const m of inOrder) {
    // 17+ by the method's id; 16 names the method only, and sums those of one name.
    const keys =
      m.id !== undefined
        ? [keyOf.get(m.id)].filter((k): k is string => k !== undefined)
        : s.methodIds.filter((id) => s.methodNames.get(id) === m.name).map((id) => keyOf.get(id) as string);
    for (const k of keys) seen.add(k);
    const mine = keys.reduce((a, k) => a + (mineOf[k] ?? 0), 0);
    c.check(say`method ${m.label}`, m.total, mine, 0);
  }
  // A method posdata saw and Odoo did not list.
  for (const [i, k] of s.methodKeys.entries())
    if (!seen.has(k) && units(mineOf[k] ?? 0, c.digits) !== 0)
      c.check(say`method ${s.methodNames.get(s.methodIds[i] as number) ?? k}`, 0, mineOf[k] ?? 0, 0);
}

/** The tax: Odoo's recomputed per line against the orders' own, half a unit per order apart at most. */
function compareTax(c: Comparison, d: SaleDetails, byLevel: string): void {
  const { ours, digits } = c;
  if (!Array.isArray(d.taxes)) return void c.skipped.push("tax (Odoo's report has none)");
  if (ours.tax === null) return void c.skipped.push(`tax (${byLevel}: they carry no tax)`);
  const sum = (l: SaleDetails['taxes']): number =>
    (l ?? []).reduce((a, t) => a + (typeof t.tax_amount === 'number' ? t.tax_amount : 0), 0);
  // Refund taxes are kept apart, negative on 17 and 19: added as refunds are.
  const odoo = sum(d.taxes) - Math.abs(sum(d.refund_taxes));
  // Odoo recomputes each line's tax and adds them up; an order rounds its own sum: half a
  // unit of the currency's last decimal (half a cent, half a yen) per order apart at most.
  c.check(
    own('tax'),
    odoo,
    ours.tax,
    0.5 * 10 ** -digits * ours.orders,
    " (Odoo recomputes each line's tax from its price; posdata adds the orders' own amount_tax, what was charged)",
  );
}

interface OdooMethod {
  id?: number;
  name?: string;
  label: string;
  total: number;
}

/**
 * Odoo's payments summed per method across sessions: by `id` where the entries have one (17+;
 * an entry without one is the cash count Odoo adds to a session with no cash payment, total 0),
 * else by name (16).
 */
function perMethod(payments: Payment[], names: Map<number, string>): Map<string, OdooMethod> {
  const byId = payments.some((p) => typeof p.id === 'number');
  const out = new Map<string, OdooMethod>();
  for (const p of payments) {
    const total = typeof p.total === 'number' ? p.total : 0;
    if (byId && typeof p.id !== 'number') continue;
    const key = byId ? `#${p.id}` : String(p.name ?? '?');
    const m =
      out.get(key) ??
      (byId
        ? { id: p.id, label: names.get(p.id as number) ?? `#${p.id} (${p.name ?? ''})`, total: 0 }
        : { name: String(p.name ?? '?'), label: String(p.name ?? '?'), total: 0 });
    m.total += total;
    out.set(key, m);
  }
  return out;
}

function oneSecondBefore(utc: string): string {
  const d = new Date(`${utc.replace(' ', 'T')}Z`);
  d.setUTCSeconds(d.getUTCSeconds() - 1);
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

function oneLine(s: string): string {
  const l = s.replace(/\s+/g, ' ').trim();
  return l.length > 120 ? `${l.slice(0, 117)}…` : l;
}
