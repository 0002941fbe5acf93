/** report.pos.order: Odoo's reporting view over orders and their lines (a SQL view, rows worked out). */
import { companyCurrency, currencyOfCompany, multiCompany, orderCompany, type Round } from '../money.js';
import type { Db, FieldDef, ModelDef } from '../store.js';
import type { Rec, Stored } from '../types.js';
import { build, fd, POS_ORDER_STATES_17, type Version } from './define.js';

/**
 * Odoo's `report.pos.order` (Point of Sale › Reporting › Orders), a SQL view over order lines
 * joined to their order, product and session. Odoo 17: one row per order × product (`MIN(l.id)`
 * as id, sums over the product's lines of the order); 19: one row per line, with
 * `price_subtotal_excl`, the first POS category and the order's first payment method. As in its
 * SQL: every order state (the view does not filter), refund lines negative (their quantities
 * are), `price_total` = Σ price_subtotal_incl rounded to the currency, `price_sub_total` =
 * Σ qty × price_unit (before discount, before tax), `total_discount` = Σ qty × price_unit ×
 * discount / 100. The sandbox keeps no product costs, so `margin` is left out, and it has one
 * currency at rate 1. `product_qty` is an Integer field: read truncates it, read_group sums it raw.
 */
export function reportPosOrder({ v19, posHr }: Version): ModelDef {
  const m2o = (name: string, string: string, relation: string): FieldDef =>
    fd(name, 'many2one', string, { relation, readonly: true });
  // The view lists its states in its own order, cancelled last.
  const states = ['draft', 'paid', 'done', ...(v19 ? [] : ['invoiced']), 'cancel'].map(
    (k) => POS_ORDER_STATES_17.find((s) => s[0] === k) as [string, string],
  );
  const fields: FieldDef[] = [
    fd('date', 'datetime', 'Order Date', { readonly: true }),
    m2o('order_id', 'Order', 'pos.order'),
    m2o('partner_id', 'Customer', 'res.partner'),
    m2o('product_id', 'Product', 'product.product'),
    m2o('product_tmpl_id', 'Product Template', 'product.template'),
    fd('state', 'selection', 'Status', { selection: states, readonly: true }),
    m2o('user_id', 'User', 'res.users'),
    fd('price_total', 'float', 'Total Price', { readonly: true }),
    fd('price_sub_total', 'float', 'Subtotal w/o discount', { readonly: true }),
    ...(v19 ? [fd('price_subtotal_excl', 'float', 'Subtotal w/o Tax', { readonly: true })] : []),
    fd('total_discount', 'float', 'Total Discount', { readonly: true }),
    fd('average_price', 'float', 'Average Price', { readonly: true, aggregator: 'avg' }),
    m2o('company_id', 'Company', 'res.company'),
    fd('nbr_lines', 'integer', 'Sale Line Count', { readonly: true }),
    fd('product_qty', 'integer', 'Product Quantity', { readonly: true }),
    m2o('product_categ_id', 'Product Category', 'product.category'),
    ...(v19 ? [m2o('pos_categ_id', 'Point of Sale Category', 'pos.category')] : []),
    fd('invoiced', 'boolean', 'Invoiced', { readonly: true }),
    m2o('config_id', 'Point of Sale', 'pos.config'),
    m2o('session_id', 'Session', 'pos.session'),
    ...(v19 ? [m2o('payment_method_id', 'Payment Method', 'pos.payment.method')] : []),
    ...(posHr ? [m2o('employee_id', 'Employee', 'hr.employee')] : []),
  ];
  const model = build({
    name: 'report.pos.order',
    description: 'Point of Sale Orders Report',
    order: 'date desc',
    acl: { manager: 'r', user: 'r', clerk: '' },
    readGroups: ['Point of Sale/User'],
    displayName: (rec, db) =>
      typeof rec.order_id === 'number' ? db.displayName('pos.order', rec.order_id) : '',
    fields,
    view: {
      tables: [
        'pos.order',
        'pos.order.line',
        'pos.payment',
        'pos.session',
        'product.template',
        'product.product',
      ],
      rows: (db) => reportRows(db, v19, posHr),
    },
  });
  // The view has no create/write dates of its own.
  for (const f of ['create_uid', 'create_date', 'write_uid', 'write_date']) model.fields.delete(f);
  return model;
}

const fix6 = (v: number): number => Math.round(v * 1e6) / 1e6;

function reportRows(db: Db, v19: boolean, posHr: boolean): Rec[] {
  const roundOf = companyRounds(db);
  const multi = multiCompany(db);
  const orderOf = orderColumns(db, posHr);
  const firstMethod = v19 ? firstMethods(db) : undefined;
  const productOf = productCache(db);
  const lineRows = db.table('pos.order.line').rows;
  const out: Rec[] = [];
  // One pass over the orders and their lines (the view's join); on 17 a small map per order
  // folds the lines of one product into one row.
  const byProduct = new Map<number, Rec>();
  for (const o of db.table('pos.order').rows) {
    if (!o) continue;
    const lineIds = orderOf.lines(o);
    if (!Array.isArray(lineIds) || lineIds.length === 0) continue;
    const company = multi ? orderCompany(db, o.id) : 1;
    const head = orderOf.head(o, company);
    const round = roundOf(company);
    const employee = orderOf.employee(o);
    byProduct.clear();
    for (const lid of lineIds) {
      const l = lineRows[lid];
      if (!l || l.order_id !== o.id) continue;
      const pid = l.product_id as number;
      const qty = typeof l.qty === 'number' ? l.qty : 0;
      const price = typeof l.price_unit === 'number' ? l.price_unit : 0;
      const disc = typeof l.discount === 'number' ? l.discount : 0;
      const incl = round(typeof l.price_subtotal_incl === 'number' ? l.price_subtotal_incl : 0);
      const before = qty * price;
      const off = (before * disc) / 100;
      const seen = v19 ? undefined : byProduct.get(pid);
      if (seen) {
        foldLine(seen, lid, qty, before, incl, off);
        continue;
      }
      const p = productOf(pid);
      const r: Rec = {
        id: lid,
        nbr_lines: 1,
        ...head,
        product_id: pid,
        product_tmpl_id: p.tmpl,
        product_categ_id: p.categ,
        product_qty: qty,
        price_sub_total: fix6(before),
        price_total: incl,
        total_discount: fix6(off),
        average_price: qty === 0 ? false : price,
      };
      if (posHr) r.employee_id = employee;
      if (v19) {
        r.payment_method_id = firstMethod?.get(o.id) ?? false;
        r.price_subtotal_excl = typeof l.price_subtotal === 'number' ? l.price_subtotal : 0;
        r.pos_categ_id = p.posCateg;
      } else byProduct.set(pid, r);
      out.push(r);
    }
  }
  return out;
}

/** 16-18: another line of a product already in the order's row, added to it. */
function foldLine(seen: Rec, lid: number, qty: number, before: number, incl: number, off: number): void {
  seen.nbr_lines = (seen.nbr_lines as number) + 1;
  if (lid < seen.id) seen.id = lid;
  seen.product_qty = fix6((seen.product_qty as number) + qty);
  seen.price_sub_total = fix6((seen.price_sub_total as number) + before);
  seen.price_total = fix6((seen.price_total as number) + incl);
  seen.total_discount = fix6((seen.total_discount as number) + off);
  const q = seen.product_qty as number;
  seen.average_price = q === 0 ? false : fix6((seen.price_sub_total as number) / q);
}

/**
 * price_total: SUM(ROUND(price_subtotal_incl / rate, cu.decimal_places)), in the currency of
 * the order's company (one company: the company's currency).
 */
function companyRounds(db: Db): (company: number) => Round {
  const companyRound = companyCurrency(db).round;
  if (!multiCompany(db)) return () => companyRound;
  const rounds = new Map<number, Round>();
  return (company) => {
    let r = rounds.get(company);
    if (!r) {
      r = currencyOfCompany(db, company).round;
      rounds.set(company, r);
    }
    return r;
  };
}

/** The order's columns the view joins: its lines, the row's head, pos_hr's employee. */
function orderColumns(db: Db, posHr: boolean) {
  const om = db.models.get('pos.order') as ModelDef;
  const [fDate, fPartner, fState, fUser, fConfig, fSession, fMove, fEmployee] = [
    'date_order',
    'partner_id',
    'state',
    'user_id',
    'config_id',
    'session_id',
    'account_move',
    'employee_id',
  ].map((n) => om.fields.get(n));
  const fLines = om.fields.get('lines') as FieldDef;
  const val = (f: FieldDef | undefined, o: Rec): Stored => (f ? db.value(f, o) : false);
  return {
    lines: (o: Rec): Stored => val(fLines, o),
    employee: (o: Rec): Stored => (posHr ? val(fEmployee, o) : false),
    head: (o: Rec, company: number) => ({
      date: val(fDate, o),
      order_id: o.id,
      partner_id: val(fPartner, o),
      state: val(fState, o),
      user_id: val(fUser, o),
      company_id: company,
      config_id: val(fConfig, o),
      session_id: val(fSession, o),
      invoiced: typeof val(fMove, o) === 'number',
    }),
  };
}

/** 19: an order's first payment method (the view's payment_method_id). */
function firstMethods(db: Db): Map<number, number> {
  const firstMethod = new Map<number, number>();
  for (const p of db.table('pos.payment').rows) {
    if (!p) continue;
    const oid = p.pos_order_id as number;
    const seen = firstMethod.get(oid);
    if (seen === undefined) firstMethod.set(oid, p.payment_method_id as number);
  }
  return firstMethod;
}

/** A product's template and categories, read once per product. */
function productCache(db: Db): (pid: number) => { tmpl: Stored; categ: Stored; posCateg: Stored } {
  const products = new Map<number, { tmpl: Stored; categ: Stored; posCateg: Stored }>();
  return (pid) => {
    let p = products.get(pid);
    if (!p) {
      const pr = db.get('product.product', pid);
      const tmpl = pr?.product_tmpl_id ?? false;
      const t = typeof tmpl === 'number' ? db.get('product.template', tmpl) : undefined;
      p = {
        tmpl,
        categ: t?.categ_id ?? false,
        posCateg: Array.isArray(t?.pos_categ_ids) ? ((t.pos_categ_ids as number[])[0] ?? false) : false,
      };
      products.set(pid, p);
    }
    return p;
  };
}
