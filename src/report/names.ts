// The names a report shows (companies, registers, sessions, cashiers, products, categories,
// payment methods, tickets), cut as its figures are gathered: a register named with 100,000
// characters stood ~160 times in the page (33 MB, 634 MB of memory to write). Only names are
// cut, so posdata's own sentences (what Odoo does not record, the books' notes) stay whole,
// and the report's JSON, a chain's page and one server's page carry the same names.
import type { BookRow } from '../books/rows.js';
import { NAME_CHARS, truncate } from '../render/visible.js';
import { KEY_COLUMNS } from '../summary/keys.js';
import type { LossSection } from './loss.js';
import type { ClosingRef, LossRow, OrderRef } from './loss-rows.js';

/**
 * The most characters of a name in a report: twice a terminal's (NAME_CHARS), since a page's
 * cells wrap; a product's full name stays whole.
 */
export const PAGE_NAME_CHARS = 2 * NAME_CHARS;

export const cutName = (s: string): string => truncate(s, PAGE_NAME_CHARS);
const cutOrNull = (s: string | null): string | null => (s === null ? null : cutName(s));

/** The columns of summary's and reconcile's rows that hold a name: each key's name column, and the company. */
const NAME_COLUMNS = new Set([...Object.values(KEY_COLUMNS).flatMap((c) => c.slice(1)), 'company']);
const METHOD = 'method:';

/**
 * A row with its names cut, its method columns (`method:<name>`) named by the method's cut
 * name; two that the cut makes one stay apart by ` #2`, ` #3` (rows of one table share their
 * columns in one order, so each row gets the same).
 */
export function rowNames<R extends Record<string, unknown>>(row: R): R {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    let key = k;
    if (k.startsWith(METHOD)) {
      const name = k.slice(METHOD.length);
      key = METHOD + cutName(name);
      for (let n = 2; key in out && key !== k; n++)
        key = `${METHOD}${truncate(name, PAGE_NAME_CHARS - 4)} #${n}`;
    }
    out[key] = NAME_COLUMNS.has(k) && typeof v === 'string' ? cutName(v) : v;
  }
  return out as R;
}

const orderNames = (o: OrderRef): OrderRef => ({
  ...o,
  ticket: cutName(o.ticket),
  register: cutName(o.register),
});
const closingNames = (c: ClosingRef): ClosingRef => ({
  ...c,
  session: cutName(c.session),
  register: cutName(c.register),
});

function lossRowNames(r: LossRow): LossRow {
  const b = r.behind;
  return {
    ...r,
    name: cutName(r.name),
    behind: {
      refunds: b.refunds.map(orderNames),
      cancelled: b.cancelled.map(orderNames),
      discounts: b.discounts.map(orderNames),
      quick: b.quick.map(orderNames),
      closings: b.closings.map(closingNames),
    },
  };
}

/** The books' line of a payment method is posdata's label and the method's name: the name is cut. */
const PAYMENT = 'payment: ';

export function bookNames(r: BookRow): BookRow {
  return {
    ...r,
    company: cutOrNull(r.company),
    session: cutName(r.session),
    register: cutName(r.register),
    entry: cutOrNull(r.entry),
    journal: cutOrNull(r.journal),
    line: r.line.startsWith(PAYMENT) ? PAYMENT + cutName(r.line.slice(PAYMENT.length)) : r.line,
  };
}

/** The loss section with its rows' names cut; its sentences (what Odoo does not record) whole. */
export const lossNames = (l: LossSection): LossSection => ({
  ...l,
  cashiers: l.cashiers.map(lossRowNames),
  registers: l.registers.map(lossRowNames),
});
