/**
 * `report.point_of_sale.report_saledetails.get_sale_details`: the data of Odoo's "Sales Details"
 * (X/Z) report, computed from the sandbox's records the way Odoo 17's
 * addons/point_of_sale/models/report_sale_details.py does (19: the differences the research notes
 * list), with the same reads as the calling user, hence the same AccessErrors.
 */

import { fromLocal, toLocal } from './calendar.js';
import { getter } from './domain.js';
import type { FieldDef, ModelDef } from './models.js';
import { checkAccess, search } from './orm.js';
import type { Db } from './store.js';
import { fmtDatetime, parseDatetime } from './time.js';
import type { Env, Json, Rec } from './types.js';

const round2 = (x: number): number => Math.round((x + Math.sign(x) * 1e-9) * 100) / 100;
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

function model(db: Db, name: string): ModelDef {
  return db.models.get(name) as ModelDef;
}
function read(db: Db, env: Env, name: string, domain: unknown[], order: string | null = null): Rec[] {
  const m = model(db, name);
  checkAccess(m, env, 'read');
  return search(db, env, m, domain, 0, null, order);
}
const val = (db: Db, name: string, field: string, r: Rec): unknown =>
  getter(db, model(db, name).fields.get(field) as FieldDef)(r);

/** compute_all of one percent tax (price excluded, rounded per line): [base, tax]. */
function computeAll(priceUnit: number, qty: number, rate: number): [number, number] {
  const base = round2(priceUnit * qty);
  return [base, round2(base * rate)];
}

interface ProductRow {
  product: number;
  price_unit: number;
  discount: number;
  qty: number;
  total: number;
  base: number;
}

export function getSaleDetails(
  db: Db,
  env: Env,
  args: { date_start: unknown; date_stop: unknown; config_ids: unknown; session_ids: unknown },
): Json {
  const v19 = db.version === 19;
  // 18 keeps 17's product rows, refunds and cash, and takes 19's discounts and total_paid.
  const v18 = db.version >= 18;
  const ids = (v: unknown): number[] =>
    Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : typeof v === 'number' ? [v] : [];
  const sessionIds = ids(args.session_ids);
  const configIds = ids(args.config_ids);
  const states = v19 ? ['paid', 'done'] : ['paid', 'invoiced', 'done'];
  const domain: unknown[] = [['state', 'in', states]];
  let dateStart: string | undefined;
  let dateStop: string | undefined;
  if (sessionIds.length > 0) domain.push(['session_id', 'in', sessionIds]);
  else {
    // Naive UTC strings; the default is today 00:00 in the context's (or user's) zone, and the
    // stop defaults to start + 1 day - 1 s, inclusive.
    const tz = env.tz || 'UTC';
    let start: number;
    if (typeof args.date_start === 'string' && args.date_start)
      start = parseDatetime(fixTime(args.date_start));
    else {
      const todayLocal = Math.floor(toLocal(parseDatetime(env.now()), tz) / 86400) * 86400;
      start = fromLocal(todayLocal, tz);
    }
    let stop = start + 86399;
    if (typeof args.date_stop === 'string' && args.date_stop) {
      const s = parseDatetime(fixTime(args.date_stop));
      if (s >= start) stop = s;
    }
    dateStart = fmtDatetime(start);
    dateStop = fmtDatetime(stop);
    domain.push(['date_order', '>=', dateStart], ['date_order', '<=', dateStop]);
    if (configIds.length > 0) domain.push(['config_id', 'in', configIds]);
  }
  const orders = read(db, env, 'pos.order', domain, 'id desc');
  const taxRate = new Map<number, { name: string; rate: number }>();
  for (const t of db.table('account.tax').rows)
    if (t) taxRate.set(t.id, { name: String(t.name), rate: num(t.amount) / 100 });

  let total = 0;
  const sold = new Map<string, Map<string, ProductRow>>();
  const refunded = new Map<string, Map<string, ProductRow>>();
  const taxes = new Map<number, { name: string; tax_amount: number; base_amount: number }>();
  const refundTaxes = new Map<number, { name: string; tax_amount: number; base_amount: number }>();
  const lineModel = 'pos.order.line';
  const lineRows = db.table(lineModel).rows;
  checkAccess(model(db, lineModel), env, 'read');
  const firstPosCategory = new Map<number, string>();
  const categoryOf = (productId: number): string => {
    let c = firstPosCategory.get(productId);
    if (c === undefined) {
      const p = db.get('product.product', productId);
      const t = p ? db.get('product.template', p.product_tmpl_id as number) : undefined;
      const cats = Array.isArray(t?.pos_categ_ids) ? (t.pos_categ_ids as number[]) : [];
      const first = cats[0] !== undefined ? db.get('pos.category', cats[0]) : undefined;
      c = first ? String(first.name) : 'Not Categorized';
      firstPosCategory.set(productId, c);
    }
    return c;
  };
  for (const o of orders) {
    total += num(o.amount_total);
    const refundOrder = v19 && o.is_refund === true;
    for (const lid of val(db, 'pos.order', 'lines', o) as number[]) {
      const l = lineRows[lid];
      if (!l) continue;
      const qty = num(l.qty);
      // 17 splits refunds by line quantity, 19 by the order's is_refund (and counts abs(qty)).
      const refund = v19 ? refundOrder : qty < 0;
      const products = refund ? refunded : sold;
      const tx = refund ? refundTaxes : taxes;
      const pu = num(l.price_unit);
      const disc = num(l.discount);
      const cat = categoryOf(l.product_id as number);
      const byCat = products.get(cat) ?? new Map<string, ProductRow>();
      products.set(cat, byCat);
      const key = `${l.product_id}|${pu}|${disc}`;
      const row = byCat.get(key) ?? {
        product: l.product_id as number,
        price_unit: pu,
        discount: disc,
        qty: 0,
        total: 0,
        base: 0,
      };
      byCat.set(key, row);
      row.qty += v19 ? Math.abs(qty) : qty;
      row.total += round2((pu * qty * (100 - disc)) / 100);
      row.base += num(l.price_subtotal);
      const lineTaxes = val(db, lineModel, 'tax_ids_after_fiscal_position', l) as number[];
      if (lineTaxes.length > 0) {
        for (const tid of lineTaxes) {
          const t = taxRate.get(tid) ?? { name: String(tid), rate: 0 };
          const [base, amount] = computeAll(pu * (1 - disc / 100), qty, t.rate);
          const e = tx.get(tid) ?? { name: t.name, tax_amount: 0, base_amount: 0 };
          tx.set(tid, e);
          e.tax_amount += amount;
          e.base_amount += base;
        }
      } else {
        const e = tx.get(0) ?? { name: 'No Taxes', tax_amount: 0, base_amount: 0 };
        tx.set(0, e);
        e.base_amount += num(l.price_subtotal_incl);
      }
    }
  }
  const taxInfo = (m: Map<number, { tax_amount: number; base_amount: number }>) => {
    let t = 0;
    let b = 0;
    for (const e of m.values()) {
      t += e.tax_amount;
      b += e.base_amount;
    }
    return { tax_amount: t, base_amount: b };
  };

  // Payments of the orders per (method, session), as the raw SQL gives them (no ACL on pos.payment).
  const orderIds = new Set(orders.map((o) => o.id));
  const perMethod = new Map<string, { [k: string]: Json }>();
  const methods = db.table('pos.payment.method');
  for (const p of db.table('pos.payment').rows) {
    if (!p || !orderIds.has(p.pos_order_id as number)) continue;
    const session = val(db, 'pos.payment', 'session_id', p) as number;
    const mid = p.payment_method_id as number;
    const k = `${session}|${mid}`;
    let e = perMethod.get(k);
    if (!e) {
      const m = methods.get(mid);
      const cash = m?.is_cash_count === true;
      e = { id: mid, session, name: String(m?.name ?? ''), cash, total: 0, journal_id: journalOf(mid, cash) };
      perMethod.set(k, e);
    }
    e.total = round2((e.total as number) + num(p.amount));
  }
  const payments = [...perMethod.values()].sort(
    (a, b) => (a.session as number) - (b.session as number) || (a.id as number) - (b.id as number),
  );

  let configs: Rec[] = [];
  let sessions: Rec[] = [];
  if (configIds.length > 0) {
    configs = read(db, env, 'pos.config', [['id', 'in', configIds]]);
    sessions =
      sessionIds.length > 0
        ? read(db, env, 'pos.session', [['id', 'in', sessionIds]])
        : read(db, env, 'pos.session', [
            ['config_id', 'in', configs.map((c) => c.id)],
            ['start_at', '>=', dateStart ?? ''],
            ['stop_at', '<=', dateStop ?? ''],
          ]);
  } else {
    sessions = read(db, env, 'pos.session', [['id', 'in', sessionIds]]);
    for (const s of sessions) {
      const c = db.get('pos.config', s.config_id as number);
      if (c) configs.push(c);
    }
  }
  for (const p of payments) p.count = false;
  const moves = db.table('account.bank.statement.line').rows;
  for (const s of sessions) {
    const counted = num(s.cash_register_balance_end_real);
    let isCash = false;
    let accountPayments: Rec[] | undefined;
    for (const p of payments) {
      // Odoo searches account.payment as the caller for every (session, payment) pair: a POS user
      // without accounting rights gets an AccessError here. The answer is the session's: read once.
      accountPayments ??= read(db, env, 'account.payment', [['pos_session_id', '=', s.id]]);
      if (p.session !== s.id) continue;
      if (!p.cash) {
        const mine = accountPayments.filter((a) => a.pos_payment_method_id === p.id);
        if (mine.length === 0) continue;
        p.final_count = p.total as number;
        p.money_counted = mine.reduce((x, a) => x + num(a.amount), 0);
        p.money_difference = (p.money_counted as number) - (p.final_count as number);
        const diff = p.money_difference as number;
        p.cash_moves =
          diff > 0
            ? [{ name: 'Difference observed during the counting (Profit)', amount: diff }]
            : diff < 0
              ? [{ name: 'Difference observed during the counting (Loss)', amount: diff }]
              : [];
        p.count = true;
        continue;
      }
      isCash = true;
      // 17: the previous closed session's counted cash; 19: this session's opening balance.
      const opening = v19 ? num(s.cash_register_balance_start) : previousClosedCount(db, s);
      p.final_count = (p.total as number) + opening + num(s.cash_real_transaction);
      p.money_counted = counted;
      p.money_difference = counted - (p.final_count as number);
      const list: Json[] = [];
      if (num(s.cash_register_balance_start) > 0)
        list.push({ name: 'Cash Opening', amount: num(s.cash_register_balance_start) });
      let ins = 0;
      let outs = 0;
      for (const mv of moves) {
        if (!mv || mv.pos_session_id !== s.id) continue;
        const amount = num(mv.amount);
        const name = amount > 0 ? `Cash in ${++ins}` : `Cash out ${++outs}`;
        list.push({ name: mv.payment_ref ? String(mv.payment_ref) : name, amount });
      }
      p.cash_moves = list;
      p.count = true;
    }
    if (!isCash)
      payments.unshift({
        name: `Cash ${s.name}`,
        total: 0,
        final_count: num(s.cash_register_balance_start),
        money_counted: num(s.cash_register_balance_end_real),
        money_difference: num(s.cash_register_balance_end_real) - num(s.cash_register_balance_start),
        cash_moves: [],
        count: true,
        session: s.id,
      });
  }

  const productList = (m: Map<string, Map<string, ProductRow>>) => {
    let allQty = 0;
    let allTotal = 0;
    const cats = [...m.entries()]
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([name, rows]) => {
        const products = [...rows.values()]
          .map((r) => {
            const p = db.get('product.product', r.product);
            const t = p ? db.get('product.template', p.product_tmpl_id as number) : undefined;
            const o: { [k: string]: Json } = {
              product_id: r.product,
              product_name: String(t?.name ?? ''),
              code: (t?.default_code as string) || false,
            };
            if (v19) o.barcode = false;
            Object.assign(o, {
              quantity: r.qty,
              price_unit: r.price_unit,
              discount: r.discount,
              uom: 'Units',
              total_paid: r.total,
              base_amount: r.base,
            });
            if (v19) o.combo_products_label = false;
            return o;
          })
          .sort((a, b) =>
            String(a.product_name) < String(b.product_name)
              ? -1
              : String(a.product_name) > String(b.product_name)
                ? 1
                : 0,
          );
        let qty = 0;
        let tot = 0;
        for (const p of products) {
          qty += p.quantity as number;
          tot += p.base_amount as number;
        }
        allQty += qty;
        allTotal += tot;
        return { name, products, total: tot, qty };
      });
    return { cats, info: { total: allTotal, qty: allQty } };
  };
  const prod = productList(sold);
  const ref = productList(refunded);

  let state = 'multiple';
  let sessionName: Json = false;
  let outStart: Json = dateStart ?? false;
  let outStop: Json = dateStop ?? false;
  const one = sessions.length === 1 ? (sessions[0] as Rec) : undefined;
  if (one) {
    state = String(one.state);
    outStart = (one.start_at as Json) || false;
    outStop = (one.stop_at as Json) || false;
    sessionName = String(one.name);
  }

  let discountNumber = 0;
  let discountAmount = 0;
  const invoiceList: Json[] = [];
  let invoiceTotal = 0;
  const sessionOrders = (s: Rec): Rec[] => {
    const out: Rec[] = [];
    for (const oid of db.figures().sessionOrders.get(s.id) ?? []) {
      const o = db.get('pos.order', oid);
      if (o) out.push(o);
    }
    return out;
  };
  const lineOf = (o: Rec): Rec[] =>
    (val(db, 'pos.order', 'lines', o) as number[])
      .map((id) => lineRows[id])
      .filter((l): l is Rec => l !== undefined);
  const discountOf = (l: Rec): number => {
    const rate = (l.tax_ids as number[]).reduce((x, id) => x + (taxRate.get(id)?.rate ?? 0), 0);
    const [base, tax] = computeAll(num(l.price_unit), num(l.qty), rate);
    return base + tax - num(l.price_subtotal_incl);
  };
  for (const s of sessions) {
    const so = sessionOrders(s);
    if (!v18) {
      // 16/17: per included session: its orders with a discounted line, and
      // pos.session.get_total_discount (closed orders' discounted lines, price before discount
      // with taxes by compute_all, minus the line's total).
      discountNumber += so.filter((o) => lineOf(o).some((l) => num(l.discount) > 0)).length;
      for (const o of so) {
        if (o.state === 'draft' || o.state === 'cancel') continue;
        for (const l of lineOf(o)) if (num(l.discount) > 0) discountAmount += discountOf(l);
      }
    }
    const invoices: Json[] = [];
    for (const o of so) {
      if (typeof o.account_move !== 'number') continue;
      const mv = db.get('account.move', o.account_move);
      invoices.push({
        total: num(mv?.amount_total),
        name: String(mv?.name ?? ''),
        order_ref: val(db, 'pos.order', 'pos_reference', o) as Json,
      });
      invoiceTotal += num(o.amount_paid);
    }
    invoiceList.push({ name: String(s.name), invoices });
  }
  if (v18)
    // 18+ take the discounts from the report's own orders, so a date range without sessions has them.
    for (const o of orders) {
      const discounted = lineOf(o).filter((l) => num(l.discount) > 0);
      if (discounted.length > 0) discountNumber++;
      for (const l of discounted) discountAmount += discountOf(l);
    }

  const out: { [k: string]: Json } = {
    opening_note: false,
    closing_note: false,
    state,
    currency: { symbol: '€', position: true, total_paid: round2(total), precision: 2 },
    nbr_orders: orders.length,
    date_start: outStart,
    date_stop: outStop,
    session_name: sessionName,
    config_names: configs.map((c) => String(c.name)),
    payments,
    company_name: String(db.get('res.company', 1)?.name ?? ''),
    taxes: [...taxes.values()],
    taxes_info: taxInfo(taxes),
    products: prod.cats,
    products_info: prod.info,
    refund_taxes: [...refundTaxes.values()],
    refund_taxes_info: taxInfo(refundTaxes),
    refund_info: ref.info,
    refund_products: ref.cats,
    discount_number: discountNumber,
    discount_amount: discountAmount,
    invoiceList,
    invoiceTotal,
  };
  if (v18)
    out.total_paid = sessions.reduce((x, s) => x + (db.figures().session.get(s.id)?.totalPayments ?? 0), 0);
  if (v19) {
    // A Python dict_values that json_default turns into its str(): posdata must rebuild it from `payments`.
    out.payments_per_method = `dict_values([${payments.map((p) => pyDict(p)).join(', ')}])`;
    out.show_payment_per_method = false;
  }
  return out;
}

/** `2026-11-24` alone is midnight; Odoo's from_string accepts both forms. */
function fixTime(s: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s} 00:00:00` : s.slice(0, 19);
}

/** The sandbox has no journals: a stable id per method stands in (cash: one journal per register). */
function journalOf(method: number, cash: boolean): number {
  return cash ? 10 + method : 9;
}

function previousClosedCount(db: Db, s: Rec): number {
  for (let id = s.id - 1; id > 0; id--) {
    const p = db.get('pos.session', id);
    if (p && p.config_id === s.config_id && p.state === 'closed')
      return num(p.cash_register_balance_end_real);
  }
  return 0;
}

function pyDict(o: { [k: string]: Json }): string {
  const repr = (v: Json): string => {
    if (v === null) return 'None';
    if (v === true) return 'True';
    if (v === false) return 'False';
    if (typeof v === 'number') return String(v);
    if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    if (Array.isArray(v)) return `[${v.map(repr).join(', ')}]`;
    return `{${Object.entries(v)
      .map(([k, x]) => `'${k}': ${repr(x)}`)
      .join(', ')}}`;
  };
  return repr(o);
}
