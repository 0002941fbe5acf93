// The summary's figures: a handful of grouping calls over pos.order, pos.order.line and
// pos.payment, folded into one row per group of --by keys. No terminal knowledge here.
//
// Definitions (README, summary): counted orders are those in state paid, done or invoiced;
// a refund is a counted order with a negative total. All amounts are tax included except
// `net`. `gross` = what the sales lines would have cost without their discounts; `discounts`
// = Σ over discounted sales lines of price_subtotal_incl × d / (100 − d); so
// gross − discounts + refunds = total, and net + tax = total.
import { DateTime } from 'luxon';
import { COUNTED_STATES } from '../catalog/resources.js';
import type { OdooClient } from '../core/client.js';
import { UsageError } from '../core/errors.js';
import { own, type Said, say } from '../core/redact.js';
import type { Domain } from '../core/types.js';
import { roundAt } from '../records/normalize.js';
import { type Group, type GroupingApi, orDomains, prefixDomain } from './grouping.js';
import { businessDay, type Key, type Level, levelOf, WEEKDAYS } from './keys.js';

export { COUNTED_STATES };

/** The figures of every row, in the contract's order; `method:<name>` keys follow. */
export const FIGURE_KEYS = [
  'orders',
  'items',
  'gross',
  'discounts',
  'refund_count',
  'refunds',
  'net',
  'tax',
  'total',
  'average_ticket',
] as const;

export const MONEY_KEYS = ['gross', 'discounts', 'refunds', 'net', 'tax', 'total', 'average_ticket'];

/** The output columns of each key: an id and a name for relations, a value otherwise. */
export const KEY_COLUMNS: Record<Key, string[]> = {
  day: ['day'],
  hour: ['hour'],
  weekday: ['weekday'],
  register: ['config_id', 'register'],
  session: ['session_id', 'session'],
  cashier: ['cashier_id', 'cashier'],
  product: ['product_id', 'product'],
  category: ['category_id', 'category'],
  method: ['method_id', 'method'],
  tax: ['tax_id', 'tax_name'],
};

export type Cell = string | number | null;

export interface KeyValue {
  /** The key's columns (KEY_COLUMNS) and their values. */
  cells: Record<string, Cell>;
  /** What tells groups apart: the id of a relation, else the value. */
  ident: Cell;
  /** Sorts the rows of one key. */
  sort: string | number;
}

export interface Figures {
  orders: number;
  items: number | null;
  gross: number | null;
  discounts: number | null;
  refundCount: number;
  refunds: number;
  net: number | null;
  tax: number | null;
  total: number;
  /** Amount per `method:<name>`; null where payments are not split this way (products, taxes). */
  methods: Record<string, number> | null;
}

export interface SummaryGroup {
  keys: KeyValue[];
  figures: Figures;
}

export interface Summary {
  keys: Key[];
  level: Level;
  groups: SummaryGroup[];
  /** The `method:<name>` columns, in the order of the methods' ids. */
  methodKeys: string[];
  /** The payment method id of each of `methodKeys`. */
  methodIds: number[];
  /** Each method's name, by id. */
  methodNames: Map<number, string>;
  /** What could not be computed, for a notice on stderr. */
  /** Notes for stderr, Odoo's values in holes. */
  notes: Said[];
}

export interface SummaryQuery {
  keys: Key[];
  zone: string;
  /** Minutes after midnight at which the business day starts. */
  dayStarts: number;
  /** The counted orders of the range, as a pos.order domain. */
  orderDomain: Domain;
  /** The order's cashier field: `employee_id` where pos_hr is installed, else `user_id`. */
  cashierField: string;
  /** Whether pos.order stores `config_id` (16 relates it to the session without storing it). */
  configStored: boolean;
}

/** The pos.order domain of the summary: counted states, the range, a register, a session. */
export function ordersDomain(range: Domain, configId?: number, sessionId?: number): Domain {
  const d: Domain = [['state', 'in', COUNTED_STATES], ...range];
  if (configId !== undefined) d.push(['config_id', '=', configId]);
  if (sessionId !== undefined) d.push(['session_id', '=', sessionId]);
  return d;
}

const SALES: Domain = [['amount_total', '>=', 0]];
const REFUNDS: Domain = [['amount_total', '<', 0]];

/** The groupby spec of an order key on pos.order. */
function orderSpec(k: Key, q: SummaryQuery): string {
  switch (k) {
    case 'day':
      // With a day that starts at 03:00, hours are folded into days here (DST-correct: the
      // server buckets the hours in the zone).
      return q.dayStarts === 0 ? 'date_order:day' : 'date_order:hour';
    case 'hour':
    case 'weekday':
      return 'date_order:hour';
    case 'register':
      return 'config_id';
    case 'session':
      return 'session_id';
    case 'cashier':
      return q.cashierField;
    default:
      throw new Error(`not an order key: ${k}`);
  }
}

const LINE_SPEC: Partial<Record<Key, string>> = {
  product: 'product_id',
  category: 'product_id',
  tax: 'tax_ids',
};

/** Turns a group's value for `key` into the key's cells. */
function keyValue(k: Key, v: unknown, q: SummaryQuery, names: Map<number, [number, string]>): KeyValue {
  if (k === 'day' || k === 'hour' || k === 'weekday') {
    if (typeof v !== 'string') return { cells: { [k]: null }, ident: null, sort: '' };
    const local = DateTime.fromFormat(v.slice(0, 19), 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' }).setZone(q.zone);
    // Hours in the order of the business day: with --day-starts 03:00, 01:00 comes last.
    if (k === 'hour')
      return {
        cells: { hour: local.hour },
        ident: local.hour,
        sort: (local.hour * 60 - q.dayStarts + 1440) % 1440,
      };
    const business = businessDay(local, q.dayStarts);
    if (k === 'day') {
      const day = business.toISODate() ?? '';
      return { cells: { day }, ident: day, sort: day };
    }
    const weekday = WEEKDAYS[business.weekday - 1] ?? '';
    return { cells: { weekday }, ident: weekday, sort: business.weekday };
  }
  const [idCol, nameCol] = KEY_COLUMNS[k] as [string, string];
  let id: number | null = null;
  let name: string | null = null;
  if (Array.isArray(v) && typeof v[0] === 'number') {
    id = v[0];
    name = typeof v[1] === 'string' ? v[1] : String(v[0]);
  } else if (typeof v === 'number') id = v;
  // Odoo 16-18 group lines by product; the product's category is looked up here. (On 19 the
  // server groups by product_id.categ_id itself and the value is the category.)
  if (k === 'category' && id !== null && names.size > 0) {
    const c = names.get(id);
    id = c ? c[0] : null;
    name = c ? c[1] : null;
  }
  return { cells: { [idCol]: id, [nameCol]: name }, ident: id, sort: name ?? '\uffff' };
}

interface Acc {
  keys: KeyValue[];
  orders: number;
  items: number | null;
  salesIncl: number | null;
  discounts: number | null;
  refundCount: number;
  refunds: number;
  net: number | null;
  tax: number | null;
  total: number;
  methods: Map<number, number> | null;
  /** read_group's own domains of the groups folded into this one (Odoo 16-18 fallback). */
  domains: Domain[];
}

class Folder {
  readonly accs = new Map<string, Acc>();
  constructor(
    private readonly q: SummaryQuery,
    private readonly specs: string[],
    private readonly names: Map<number, [number, string]>,
  ) {}

  /** The accumulator of a group, by its values for the key specs (in --by order). */
  at(g: Group, specs: string[] = this.specs): Acc {
    const keys = this.q.keys.map((k, i) => keyValue(k, g.values[specs[i] as string], this.q, this.names));
    const id = JSON.stringify(keys.map((k) => k.ident));
    let a = this.accs.get(id);
    if (!a) {
      a = {
        keys,
        orders: 0,
        items: null,
        salesIncl: null,
        discounts: null,
        refundCount: 0,
        refunds: 0,
        net: null,
        tax: null,
        total: 0,
        methods: null,
        domains: [],
      };
      this.accs.set(id, a);
    }
    return a;
  }
}

const add = (a: number | null, b: number): number => (a ?? 0) + b;
const m2oId = (v: unknown): number | undefined =>
  Array.isArray(v) && typeof v[0] === 'number' ? v[0] : typeof v === 'number' ? v : undefined;

/** An order groupby on report.pos.order: its date is `date`; register, session and cashier keep their names. */
const reportSpec = (spec: string): string => spec.replace(/^date_order(?=:|$)/, 'date');

/** An order groupby on pos.payment (Odoo 16-18): its own payment_date, its session (a register through it). */
const paymentSpec = (spec: string): string =>
  spec.startsWith('date_order') ? spec.replace(/^date_order/, 'payment_date') : 'session_id';

/** The order fields report.pos.order carries under the same name; others through `order_id`. */
const REPORT_FIELDS = new Set(['state', 'config_id', 'session_id', 'user_id', 'employee_id', 'partner_id']);

/** A pos.order domain on report.pos.order (whose rows carry their order's state, date, register...). */
function toReportDomain(domain: Domain): Domain {
  return domain.map((t) => {
    if (!Array.isArray(t)) return t;
    const f = String(t[0]);
    if (f === 'date_order') return ['date', t[1], t[2]];
    return [REPORT_FIELDS.has(f) ? f : `order_id.${f}`, t[1], t[2]];
  });
}

/**
 * The discount of report.pos.order rows, tax included as the summary counts it. The view's
 * `total_discount` is Σ qty × price_unit × d / 100 (before tax); scaled by the rows' own ratio
 * price_total / (price_sub_total − total_discount), which is 1 + the tax rate when the rows
 * share one rate, it is Σ price_subtotal_incl × d / (100 − d) to the rounding of each line's
 * amount. Rows of a 100 % discount have no amount to scale and count 0, as in the definition.
 */
function reportDiscount(g: Group): number {
  const total = g.aggs['price_total:sum'] ?? 0;
  const before = g.aggs['price_sub_total:sum'] ?? 0;
  const discount = g.aggs['total_discount:sum'] ?? 0;
  const after = before - discount;
  return Math.abs(after) < 1e-9 ? 0 : (discount * total) / after;
}

/** A product's discounted sales lines: Σ price_subtotal_incl, Σ price_subtotal, how many. */
export interface DiscountedProduct {
  id: number;
  incl: number;
  excl: number;
  lines: number;
}

/**
 * The discounted products in classes of one tax rate (report.pos.order has no tax): a product's
 * ratio Σ price_subtotal_incl / Σ price_subtotal over its discounted lines is 1 + its rate, to
 * the rounding of its lines (half a cent on each amount). The most exact ratios found the
 * classes; a product whose ratio lies within its own rounding of a class joins it, so a product
 * with few small lines does not make a class (and a request) of its own. Whatever joins a class
 * of another rate moves the discount by less than its lines' rounding.
 */
export function taxClasses(products: DiscountedProduct[]): number[][] {
  const seen: { id: number; ratio: number; slack: number }[] = [];
  for (const p of products) {
    if (Math.abs(p.excl) < 1e-9) continue;
    seen.push({
      id: p.id,
      ratio: p.incl / p.excl,
      slack: Math.max((0.01 * (p.lines + 1)) / Math.abs(p.excl), 1 / 800),
    });
  }
  seen.sort((a, b) => a.slack - b.slack);
  const classes: { ratio: number; ids: number[] }[] = [];
  for (const p of seen) {
    let best: { ratio: number; ids: number[] } | undefined;
    for (const c of classes)
      if (
        Math.abs(c.ratio - p.ratio) <= p.slack &&
        (!best || Math.abs(c.ratio - p.ratio) < Math.abs(best.ratio - p.ratio))
      )
        best = c;
    if (best) best.ids.push(p.id);
    else classes.push({ ratio: p.ratio, ids: [p.id] });
  }
  return classes.map((c) => c.ids);
}

/** Groups of more than this many make the per-group fallback of Odoo 16-18 too costly. */
export const FALLBACK_GROUPS = 6;

export async function computeSummary(
  client: OdooClient,
  api: GroupingApi,
  q: SummaryQuery,
): Promise<Summary> {
  const level = levelOf(q.keys);
  const notes: Said[] = [];
  const methodNames = new Map<number, string>();
  const categories = new Map<number, [number, string]>();
  const method = (v: unknown): number | undefined => {
    if (Array.isArray(v) && typeof v[0] === 'number') {
      methodNames.set(v[0], typeof v[1] === 'string' ? v[1] : `#${v[0]}`);
      return v[0];
    }
    return undefined;
  };
  const sum = (
    a: Map<number, number> | null,
    id: number | undefined,
    amount: number,
  ): Map<number, number> => {
    const m = a ?? new Map<number, number>();
    if (id !== undefined) m.set(id, (m.get(id) ?? 0) + amount);
    return m;
  };

  const orderKeys = q.keys.filter((k) => k !== 'method' && LINE_SPEC[k] === undefined);
  if (!api.paths && level !== 'order' && orderKeys.some((k) => !(level === 'payment' && k === 'session'))) {
    throw new UsageError(
      say`--by ${own(q.keys.join(','))}: Odoo before 19 cannot group ${level === 'line' ? own('order lines') : own('payments')} by their order's ${own(orderKeys.join(', '))}`,
      say`group by ${level === 'line' ? own('product, category or tax') : own('method')} alone, or by ${own(orderKeys.join(', '))} alone`,
    );
  }

  let folder: Folder;
  /**
   * The range's discount and Σ price_subtotal_incl of its sales lines from the lines themselves,
   * where the groups' own are report.pos.order's (16-18: the view rounds each row's amount and
   * estimates its discount).
   */
  let exactDiscount: number | undefined;
  let exactSales: number | undefined;
  if (level === 'order') {
    const specs = q.keys.map((k) => orderSpec(k, q));
    folder = new Folder(q, specs, categories);
    // Odoo 16-18 groups payments by session: the orders say which register each session is on.
    const sessionsToo = !api.paths && q.keys.includes('register') && !specs.includes('session_id');
    // Odoo 16 cannot group orders by config_id (related to the session, not stored): they are
    // grouped by session, and each session's register read (one request more).
    const viaSession = !q.configStored && specs.includes('config_id');
    const bySession = [...new Set(specs.map((s) => (s === 'config_id' ? 'session_id' : s)))];
    const configOf = new Map<number, unknown>();
    const [all, refunds] = await Promise.all([
      api.group(
        'pos.order',
        q.orderDomain,
        viaSession ? bySession : sessionsToo ? [...specs, 'session_id'] : specs,
        ['__count', 'amount_total:sum', 'amount_tax:sum'],
      ),
      api.group('pos.order', [...q.orderDomain, ...REFUNDS], viaSession ? bySession : specs, [
        '__count',
        'amount_total:sum',
      ]),
    ]);
    if (viaSession) {
      const ids = new Set(all.map((g) => m2oId(g.values.session_id)).filter((x) => x !== undefined));
      for (const s of await client.read('pos.session', [...ids], ['config_id']))
        configOf.set(s.id, s.config_id);
      for (const g of [...all, ...refunds])
        g.values.config_id = configOf.get(m2oId(g.values.session_id) ?? 0) ?? false;
    }
    for (const g of all) {
      const sid = m2oId(g.values.session_id);
      if (sid !== undefined && !viaSession) configOf.set(sid, g.values.config_id);
      const a = folder.at(g);
      a.orders += g.aggs.__count ?? 0;
      a.total += g.aggs['amount_total:sum'] ?? 0;
      a.tax = add(a.tax, g.aggs['amount_tax:sum'] ?? 0);
      a.net = add(a.net, (g.aggs['amount_total:sum'] ?? 0) - (g.aggs['amount_tax:sum'] ?? 0));
      if (g.domain) a.domains.push(g.domain);
    }
    for (const g of refunds) {
      const a = folder.at(g);
      a.refundCount += g.aggs.__count ?? 0;
      a.refunds += g.aggs['amount_total:sum'] ?? 0;
    }
    if (api.paths) {
      const lineSpecs = specs.map((s) => `order_id.${s}`);
      const paySpecs = specs.map((s) => `pos_order_id.${s}`);
      const [lines, payments] = await Promise.all([
        api.group(
          'pos.order.line',
          prefixDomain([...q.orderDomain, ...SALES], 'order_id.'),
          [...lineSpecs, 'discount'],
          ['qty:sum', 'price_subtotal_incl:sum'],
        ),
        api.group(
          'pos.payment',
          prefixDomain(q.orderDomain, 'pos_order_id.'),
          [...paySpecs, 'payment_method_id'],
          ['amount:sum'],
        ),
      ]);
      for (const g of lines) foldLine(folder.at(g, lineSpecs), g);
      // A group of refunds only has no sales line: it sold nothing.
      for (const a of folder.accs.values()) zeroLines(a);
      for (const g of payments) {
        const a = folder.at(g, paySpecs);
        a.methods = sum(a.methods, method(g.values.payment_method_id), g.aggs['amount:sum'] ?? 0);
      }
    } else {
      // Odoo 16-18 groups lines and payments by their own fields only. The line figures come
      // from report.pos.order, Odoo's SQL view of the lines with their order's date, register,
      // session and cashier (the lines, the discounted rows per product, then those rows once
      // per tax rate); the payments by their own payment_date (an order's POS payments carry
      // its time) and session.
      const reportSpecs = specs.map(reportSpec);
      const reportDomain = toReportDomain([...q.orderDomain, ...SALES]);
      const work: Promise<void>[] = [
        (async () => {
          const discountedDomain: Domain = [...reportDomain, ['total_discount', '>', 0]];
          const money = ['price_total:sum', 'price_sub_total:sum', 'total_discount:sum'];
          // The sales lines themselves, by product and rate: the range's exact amount and
          // discount, and each discounted product's tax rate for the classes below.
          const [lines, salesLines] = await Promise.all([
            api.group('report.pos.order', reportDomain, reportSpecs, ['product_qty:sum', 'price_total:sum']),
            api.group(
              'pos.order.line',
              prefixDomain([...q.orderDomain, ...SALES], 'order_id.'),
              ['product_id', 'discount'],
              ['price_subtotal_incl:sum', 'price_subtotal:sum'],
            ),
          ]);
          const perProduct = new Map<number, DiscountedProduct>();
          exactDiscount = 0;
          exactSales = 0;
          for (const g of salesLines) {
            const incl = g.aggs['price_subtotal_incl:sum'] ?? 0;
            exactSales += incl;
            const d = discountOf(g.values.discount, incl);
            exactDiscount += d;
            const id = m2oId(g.values.product_id);
            if (id === undefined || d === 0) continue;
            const p = perProduct.get(id) ?? { id, incl: 0, excl: 0, lines: 0 };
            p.incl += incl;
            p.excl += g.aggs['price_subtotal:sum'] ?? 0;
            p.lines += g.aggs.__count ?? 1;
            perProduct.set(id, p);
          }
          for (const g of lines) {
            const a = folder.at(g, reportSpecs);
            a.items = add(a.items, g.aggs['product_qty:sum'] ?? 0);
            a.salesIncl = add(a.salesIncl, g.aggs['price_total:sum'] ?? 0);
          }
          // The discounted rows once per tax rate, told apart by each product's ratio.
          const parts = await Promise.all(
            taxClasses([...perProduct.values()]).map((ids) =>
              api.group(
                'report.pos.order',
                [...discountedDomain, ['product_id', 'in', ids]],
                reportSpecs,
                money,
              ),
            ),
          );
          for (const g of parts.flat()) {
            const a = folder.at(g, reportSpecs);
            a.discounts = add(a.discounts, reportDiscount(g));
          }
          for (const a of folder.accs.values()) zeroLines(a);
        })(),
      ];
      const cashier = q.keys.includes('cashier');
      if (!cashier) {
        work.push(
          (async () => {
            const paySpecs = specs.map(paymentSpec);
            const groupby = [...new Set(paySpecs), 'payment_method_id'];
            const payments = await api.group(
              'pos.payment',
              prefixDomain(q.orderDomain, 'pos_order_id.'),
              groupby,
              ['amount:sum'],
            );
            for (const g of payments) {
              const values: Record<string, unknown> = {};
              specs.forEach((spec, i) => {
                const ps = paySpecs[i] as string;
                values[spec] =
                  spec === 'config_id' ? configOf.get(m2oId(g.values.session_id) ?? 0) : g.values[ps];
              });
              const a = folder.at({ values, aggs: g.aggs });
              a.methods = sum(a.methods, method(g.values.payment_method_id), g.aggs['amount:sum'] ?? 0);
            }
          })(),
        );
      } else {
        // A payment does not know its order's cashier: one request per cashier group, for a few.
        const accs = [...folder.accs.values()];
        if (accs.length > FALLBACK_GROUPS) {
          notes.push(
            say`the payment methods are left empty: Odoo before 19 cannot group payments by their order's cashier, and ${accs.length} groups would cost ${accs.length} more requests; group by cashier alone, use a shorter range, or Odoo 19`,
          );
        } else {
          work.push(
            ...accs.map(async (a) => {
              const payments = await api.group(
                'pos.payment',
                prefixDomain(orDomains(a.domains), 'pos_order_id.'),
                ['payment_method_id'],
                ['amount:sum'],
              );
              a.methods = new Map();
              for (const g of payments)
                a.methods = sum(a.methods, method(g.values.payment_method_id), g.aggs['amount:sum'] ?? 0);
            }),
          );
        }
      }
      await Promise.all(work);
    }
  } else if (level === 'line') {
    // On 19 a category is grouped through the product, so an order with two products of one
    // category counts once; before 19 `orders` per category sums each product's orders.
    const specs = q.keys.map((k) =>
      k === 'category' && api.paths ? 'product_id.categ_id' : (LINE_SPEC[k] ?? `order_id.${orderSpec(k, q)}`),
    );
    const lineDomain = (extra: Domain): Domain => prefixDomain([...q.orderDomain, ...extra], 'order_id.');
    const [sales, discounted, refunds] = await Promise.all([
      api.group('pos.order.line', lineDomain(SALES), specs, [
        'qty:sum',
        'price_subtotal:sum',
        'price_subtotal_incl:sum',
        'order_id:count_distinct',
      ]),
      api.group(
        'pos.order.line',
        [...lineDomain(SALES), ['discount', '>', 0]],
        [...specs, 'discount'],
        ['price_subtotal_incl:sum'],
      ),
      api.group('pos.order.line', lineDomain(REFUNDS), specs, [
        'price_subtotal:sum',
        'price_subtotal_incl:sum',
        'order_id:count_distinct',
      ]),
    ]);
    if (q.keys.includes('category') && !api.paths) {
      // A product's category is read once for the products seen (one request).
      const ids = new Set<number>();
      for (const g of [...sales, ...refunds]) {
        const v = g.values.product_id;
        if (Array.isArray(v) && typeof v[0] === 'number') ids.add(v[0]);
      }
      const products = await client.read('product.product', [...ids], ['categ_id']);
      for (const p of products) {
        const c = p.categ_id;
        if (Array.isArray(c) && typeof c[0] === 'number') categories.set(p.id, [c[0], String(c[1])]);
      }
    }
    folder = new Folder(q, specs, categories);
    for (const g of sales) {
      const a = folder.at(g);
      const incl = g.aggs['price_subtotal_incl:sum'] ?? 0;
      const excl = g.aggs['price_subtotal:sum'] ?? 0;
      a.orders += g.aggs['order_id:count_distinct'] ?? 0;
      a.items = add(a.items, g.aggs['qty:sum'] ?? 0);
      a.salesIncl = add(a.salesIncl, incl);
      a.discounts ??= 0;
      a.total += incl;
      a.net = add(a.net, excl);
      a.tax = add(a.tax, incl - excl);
    }
    for (const g of discounted) {
      const a = folder.at(g);
      a.discounts = add(a.discounts, discountOf(g.values.discount, g.aggs['price_subtotal_incl:sum'] ?? 0));
    }
    for (const g of refunds) {
      const a = folder.at(g);
      const incl = g.aggs['price_subtotal_incl:sum'] ?? 0;
      const excl = g.aggs['price_subtotal:sum'] ?? 0;
      const n = g.aggs['order_id:count_distinct'] ?? 0;
      a.orders += n;
      a.refundCount += n;
      a.refunds += incl;
      a.total += incl;
      a.net = add(a.net, excl);
      a.tax = add(a.tax, incl - excl);
      zeroLines(a);
    }
  } else {
    const specs = q.keys.map((k) =>
      k === 'method'
        ? 'payment_method_id'
        : k === 'session' && !api.paths
          ? 'session_id'
          : `pos_order_id.${orderSpec(k, q)}`,
    );
    folder = new Folder(q, specs, categories);
    const payDomain = (extra: Domain): Domain => prefixDomain([...q.orderDomain, ...extra], 'pos_order_id.');
    const withMethod = specs.includes('payment_method_id') ? specs : [...specs, 'payment_method_id'];
    const [all, refunds] = await Promise.all([
      api.group('pos.payment', payDomain([]), withMethod, ['amount:sum', 'pos_order_id:count_distinct']),
      api.group('pos.payment', payDomain(REFUNDS), withMethod, ['amount:sum', 'pos_order_id:count_distinct']),
    ]);
    for (const g of all) {
      const a = folder.at(g);
      const amount = g.aggs['amount:sum'] ?? 0;
      a.orders += g.aggs['pos_order_id:count_distinct'] ?? 0;
      a.total += amount;
      a.methods = sum(a.methods, method(g.values.payment_method_id), amount);
    }
    for (const g of refunds) {
      const a = folder.at(g);
      a.refundCount += g.aggs['pos_order_id:count_distinct'] ?? 0;
      a.refunds += g.aggs['amount:sum'] ?? 0;
    }
  }

  const ri = q.keys.indexOf('register');
  if (ri >= 0) {
    // A register by its name, as reconcile and the tables show it: on 16/17 the relation's
    // label carries the session's user (`Shop (Mitchell Admin)`).
    const accs = [...folder.accs.values()];
    const ids = [...new Set(accs.map((a) => a.keys[ri]?.cells.config_id))].filter(
      (x): x is number => typeof x === 'number',
    );
    const configs = await client.read('pos.config', ids, ['name']);
    const names = new Map(configs.map((c) => [c.id, c.name]));
    for (const a of accs) {
      const kv = a.keys[ri] as KeyValue;
      const n = names.get(kv.cells.config_id as number);
      if (typeof n === 'string') {
        kv.cells.register = n;
        kv.sort = n;
      }
    }
  }
  const methodIds = [...methodNames.keys()].sort((a, b) => a - b);
  const keyOf = methodKeys(methodIds, methodNames);
  const accs = [...folder.accs.values()];
  const discounts = inCents(
    accs.map((a) => a.discounts),
    exactDiscount,
  );
  const gross = inCents(
    accs.map((a) => (a.salesIncl === null || a.discounts === null ? null : a.salesIncl + a.discounts)),
    exactSales === undefined || exactDiscount === undefined ? undefined : exactSales + exactDiscount,
  );
  const refunds = inCents(accs.map((a) => a.refunds));
  const net = inCents(accs.map((a) => a.net));
  const tax = inCents(accs.map((a) => a.tax));
  const total = inCents(accs.map((a) => a.total));
  const hasMethods = accs.map(
    (a) => a.methods !== null || (level !== 'line' && methodIds.length > 0 && a.salesIncl !== null),
  );
  const perMethod = methodIds.map((id) =>
    inCents(accs.map((a, i) => (hasMethods[i] ? (a.methods?.get(id) ?? 0) : null))),
  );
  const groups: SummaryGroup[] = accs.map((a, i) => {
    let methods: Record<string, number> | null = null;
    if (hasMethods[i]) {
      methods = {};
      for (const [j, id] of methodIds.entries()) methods[keyOf.get(id) as string] = perMethod[j]?.[i] ?? 0;
    }
    return {
      keys: a.keys,
      figures: {
        orders: a.orders,
        items: a.items === null ? null : roundAt(a.items, null),
        gross: gross[i] ?? null,
        discounts: discounts[i] ?? null,
        refundCount: a.refundCount,
        refunds: refunds[i] ?? 0,
        net: net[i] ?? null,
        tax: tax[i] ?? null,
        total: total[i] ?? 0,
        methods,
      },
    };
  });
  groups.sort(compareGroups);
  return {
    keys: q.keys,
    level,
    groups,
    methodKeys: methodIds.map((id) => keyOf.get(id) as string),
    methodIds,
    methodNames,
    notes,
  };
}

/**
 * One figure of every group in cents, adding up to the range's figure rounded once, whatever the
 * grouping: amounts with fractions of a cent (discounts, a line's amount) rounded group by group
 * would make a day's total a cent apart between `--by register` and `--by hour`. Largest
 * remainder: each group gets its amount's whole cents, and the cents left go to the largest
 * fractions, so a group is within a cent of its own amount. With `exact` (the lines' own sum,
 * where the groups' amounts are report.pos.order's estimates, 16-18) the estimates are scaled to
 * it first. Groups without the figure (null) stay null.
 */
function inCents(values: (number | null)[], exact?: number): (number | null)[] {
  const at = values.flatMap((v, i) => (v === null ? [] : [i]));
  const present = at.map((i) => values[i] ?? 0);
  const sum = present.reduce((a, b) => a + b, 0);
  const total = exact ?? sum;
  const scaled =
    exact !== undefined && Math.abs(sum) > 1e-9 ? present.map((v) => (v * exact) / sum) : present;
  const rounded = apportion(scaled, total);
  const out: (number | null)[] = values.map(() => null);
  for (const [j, i] of at.entries()) out[i] = rounded[j] ?? 0;
  return out;
}

/** Amounts rounded to cents so that they add up to `total` rounded once (largest remainder). */
export function apportion(values: number[], total: number): number[] {
  const cents = values.map((v) => v * 100);
  // 1e-6 of a cent: what floating point adds to a sum of cents is not a fraction of one.
  const floors = cents.map((c) => Math.floor(c + 1e-6));
  let left = Math.round(total * 100) - floors.reduce((a, b) => a + b, 0);
  const fraction = cents.map((c, i) => c - (floors[i] as number));
  const order = fraction
    .map((_, i) => i)
    .sort((a, b) => (fraction[b] as number) - (fraction[a] as number) || a - b);
  // Float noise may leave a cent too many: taken from the smallest fractions.
  if (left < 0) order.reverse();
  for (let k = 0; left !== 0 && order.length > 0; k = (k + 1) % order.length) {
    const i = order[k] as number;
    const step = left > 0 ? 1 : -1;
    floors[i] = (floors[i] as number) + step;
    left -= step;
  }
  return floors.map((c) => c / 100);
}

/** The line figures of a group that had no sales line: nothing sold. */
function zeroLines(a: Acc): void {
  a.items ??= 0;
  a.salesIncl ??= 0;
  a.discounts ??= 0;
}

/** Lines grouped by discount rate: the quantity, the amount, and the discount it carried. */
function foldLine(a: Acc, g: Group): void {
  const incl = g.aggs['price_subtotal_incl:sum'] ?? 0;
  a.items = add(a.items, g.aggs['qty:sum'] ?? 0);
  a.salesIncl = add(a.salesIncl, incl);
  a.discounts = add(a.discounts, discountOf(g.values.discount, incl));
}

/**
 * What lines discounted by d% gave away, tax included: their amount before the discount less
 * their amount. A 100% discount leaves nothing to scale: Odoo stores no undiscounted amount.
 */
function discountOf(rate: unknown, incl: number): number {
  const d = typeof rate === 'number' ? rate : 0;
  return d > 0 && d < 100 ? (incl * d) / (100 - d) : 0;
}

const r2 = (v: number): number => roundAt(v, 2);

function compareGroups(a: SummaryGroup, b: SummaryGroup): number {
  for (let i = 0; i < a.keys.length; i++) {
    const x = a.keys[i]?.sort ?? '';
    const y = b.keys[i]?.sort ?? '';
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x).localeCompare(String(y));
  }
  return 0;
}

/** `method:<name>`; two methods with one name (two companies) keep apart by id. */
function methodKeys(ids: number[], names: Map<number, string>): Map<number, string> {
  const count = new Map<string, number>();
  for (const id of ids) count.set(names.get(id) ?? '', (count.get(names.get(id) ?? '') ?? 0) + 1);
  return new Map(
    ids.map((id) => {
      const n = names.get(id) ?? `#${id}`;
      return [id, (count.get(n) ?? 0) > 1 ? `method:${n} #${id}` : `method:${n}`];
    }),
  );
}

/** The N groups with the largest total, in that order. */
export function topGroups(groups: SummaryGroup[], n: number | undefined): SummaryGroup[] {
  if (n === undefined) return groups;
  return [...groups].sort((a, b) => b.figures.total - a.figures.total).slice(0, n);
}

export type SummaryRow = Record<string, Cell>;

/** A group as json, ndjson and csv carry it. */
export function toRow(g: SummaryGroup, s: Pick<Summary, 'methodKeys' | 'level'>): SummaryRow {
  const row: SummaryRow = {};
  for (const k of g.keys) Object.assign(row, k.cells);
  const f = g.figures;
  row.orders = f.orders;
  row.items = f.items;
  row.gross = f.gross;
  row.discounts = f.discounts;
  row.refund_count = f.refundCount;
  row.refunds = f.refunds;
  row.net = f.net;
  row.tax = f.tax;
  row.total = f.total;
  row.average_ticket = f.orders > 0 ? r2(f.total / f.orders) : null;
  for (const k of s.methodKeys) row[k] = f.methods ? (f.methods[k] ?? 0) : null;
  return row;
}

/** The totals of several groups (the table's last row, --check-odoo). */
export function totalOf(groups: SummaryGroup[], methodKeys: string[]): Figures {
  const nsum = (pick: (f: Figures) => number | null): number | null =>
    groups.some((g) => pick(g.figures) === null)
      ? null
      : r2(groups.reduce((a, g) => a + (pick(g.figures) ?? 0), 0));
  const methods: Record<string, number> | null = groups.some((g) => g.figures.methods === null) ? null : {};
  if (methods)
    for (const k of methodKeys)
      methods[k] = r2(groups.reduce((a, g) => a + (g.figures.methods?.[k] ?? 0), 0));
  return {
    orders: groups.reduce((a, g) => a + g.figures.orders, 0),
    items: groups.some((g) => g.figures.items === null)
      ? null
      : roundAt(
          groups.reduce((a, g) => a + (g.figures.items ?? 0), 0),
          null,
        ),
    gross: nsum((f) => f.gross),
    discounts: nsum((f) => f.discounts),
    refundCount: groups.reduce((a, g) => a + g.figures.refundCount, 0),
    refunds: r2(groups.reduce((a, g) => a + g.figures.refunds, 0)),
    net: nsum((f) => f.net),
    tax: nsum((f) => f.tax),
    total: r2(groups.reduce((a, g) => a + g.figures.total, 0)),
    methods,
  };
}
