/**
 * The products and taxes of Sales Details: every line of the report's orders, sold or refunded,
 * by the template's first POS category, then (product, unit price, discount). 17/18 split refunds
 * by the line's sign and keep them negative; 19 splits by the order's is_refund and counts
 * refunded quantities as positive. Sums are plain float additions in Odoo's order.
 */
import type { Db } from '../store.js';
import type { Json, Rec } from '../types.js';
import { type Dict, num, value } from './query.js';

interface Row {
  product: number;
  priceUnit: number;
  discount: number;
  qty: number;
  total: number;
  base: number;
}

interface TaxEntry {
  name: string;
  tax_amount: number;
  base_amount: number;
}

/** One side of the report (sold or refunded): its rows by category and its taxes. */
class Side {
  readonly categories = new Map<string, Map<string, Row>>();
  readonly taxes = new Map<number, TaxEntry>();
  /** 19: Σ price_subtotal × (-1 for a refund order). */
  signedBase = 0;
}

import type { Round } from '../money.js';

/** compute_all of one percent tax on a line (round per line, at the currency): [base, tax]. */
export function computeAll(priceUnit: number, qty: number, rate: number, round: Round): [number, number] {
  const base = round(priceUnit * qty);
  return [base, round(base * rate)];
}

export interface ProductFigures {
  products: Json[];
  productsInfo: Dict;
  refundProducts: Json[];
  refundInfo: Dict;
  taxes: Json[];
  taxesInfo: Dict;
  refundTaxes: Json[];
  refundTaxesInfo: Dict;
}

export function productFigures(db: Db, orders: Rec[], round: Round): ProductFigures {
  const v19 = db.version === 19;
  const taxRate = new Map<number, { name: string; rate: number }>();
  for (const t of db.table('account.tax').rows)
    if (t) taxRate.set(t.id, { name: String(t.name), rate: num(t.amount) / 100 });
  const categoryOf = firstPosCategory(db);
  const sold = new Side();
  const refunded = new Side();
  const lineRows = db.table('pos.order.line').rows;
  for (const o of orders) {
    const refundOrder = o.is_refund === true;
    for (const lid of value(db, 'pos.order', 'lines', o) as number[]) {
      const l = lineRows[lid];
      if (!l) continue;
      const qty = num(l.qty);
      const side = (v19 ? refundOrder : qty < 0) ? refunded : sold;
      addLine(
        db,
        side,
        l,
        qty,
        categoryOf(l.product_id as number),
        taxRate,
        v19 ? refundOrder : undefined,
        round,
      );
    }
  }
  const [products, productsInfo] = listProducts(db, sold);
  const [refundProducts, refundInfo] = listProducts(db, refunded);
  return {
    products,
    productsInfo,
    refundProducts,
    refundInfo,
    taxes: [...sold.taxes.values()] as unknown as Json[],
    taxesInfo: taxesInfo(sold, v19),
    refundTaxes: [...refunded.taxes.values()] as unknown as Json[],
    refundTaxesInfo: taxesInfo(refunded, v19),
  };
}

/** The name of a product's first POS category (the comodel's order), else "Not Categorized". */
function firstPosCategory(db: Db): (productId: number) => string {
  const memo = new Map<number, string>();
  return (productId) => {
    let c = memo.get(productId);
    if (c === undefined) {
      const p = db.get('product.product', productId);
      const t = p ? db.get('product.template', p.product_tmpl_id as number) : undefined;
      const cats = Array.isArray(t?.pos_categ_ids) ? (t.pos_categ_ids as number[]) : [];
      const first = cats[0] !== undefined ? db.get('pos.category', cats[0]) : undefined;
      c = first ? String(first.name) : 'Not Categorized';
      memo.set(productId, c);
    }
    return c;
  };
}

/** _get_products_and_taxes_dict for one line. `refundOrder` is 19's (undefined on 17/18). */
function addLine(
  db: Db,
  side: Side,
  l: Rec,
  qty: number,
  category: string,
  taxRate: Map<number, { name: string; rate: number }>,
  refundOrder: boolean | undefined,
  round: Round,
): void {
  const v19 = refundOrder !== undefined;
  const pu = num(l.price_unit);
  const disc = num(l.discount);
  let rows = side.categories.get(category);
  if (!rows) {
    rows = new Map();
    side.categories.set(category, rows);
  }
  const key = `${l.product_id}|${pu}|${disc}`;
  let row = rows.get(key);
  if (!row) {
    row = { product: l.product_id as number, priceUnit: pu, discount: disc, qty: 0, total: 0, base: 0 };
    rows.set(key, row);
  }
  // 19 rounds the quantity to the UoM's precision and counts it unsigned.
  row.qty = v19 ? Math.round((row.qty + Math.abs(qty)) * 100) / 100 : row.qty + qty;
  row.total += round((pu * qty * (100 - disc)) / 100);
  row.base += num(l.price_subtotal);
  const lineTaxes = value(db, 'pos.order.line', 'tax_ids_after_fiscal_position', l) as number[];
  if (lineTaxes.length > 0) {
    const bases = new Map<number, number>();
    for (const tid of lineTaxes) {
      const t = taxRate.get(tid) ?? { name: String(tid), rate: 0 };
      const [base, amount] = computeAll(pu * (1 - disc / 100), qty, t.rate, round);
      let e = side.taxes.get(tid);
      if (!e) {
        e = { name: t.name, tax_amount: 0, base_amount: 0 };
        side.taxes.set(tid, e);
      }
      e.tax_amount += amount;
      bases.set(tid, base);
    }
    // 19 rounds each tax's base to the currency; 17/18 add it as compute_all gives it.
    for (const [tid, base] of bases)
      (side.taxes.get(tid) as TaxEntry).base_amount += v19 ? round(base) : base;
  } else {
    let e = side.taxes.get(0);
    if (!e) {
      e = { name: 'No Taxes', tax_amount: 0, base_amount: 0 };
      side.taxes.set(0, e);
    }
    e.base_amount += num(l.price_subtotal_incl);
  }
  if (v19) side.signedBase += num(l.price_subtotal) * (refundOrder ? -1 : 1);
}

/** _get_taxes_info: 17/18 sum the taxes' bases; 19 takes the signed base of the lines. */
function taxesInfo(side: Side, v19: boolean): Dict {
  let tax = 0;
  let base = 0;
  for (const e of side.taxes.values()) {
    tax += e.tax_amount;
    base += e.base_amount;
  }
  return { tax_amount: tax, base_amount: v19 ? side.signedBase : base };
}

/** The category list (sorted by name, products by name) and _get_total_and_qty_per_category. */
function listProducts(db: Db, side: Side): [Json[], Dict] {
  const v19 = db.version === 19;
  const categories = [...side.categories.entries()]
    .map(([name, rows]) => {
      const products = [...rows.values()].map((r) => productRow(db, r, v19));
      // Python's sorted() is stable: equal names keep their first-appearance order.
      products.sort((a, b) => cmp(String(a.product_name), String(b.product_name)));
      return { name, products };
    })
    .sort((a, b) => cmp(a.name, b.name));
  let allQty = 0;
  let allTotal = 0;
  const out: Json[] = categories.map((c) => {
    let qty = 0;
    let total = 0;
    for (const p of c.products) {
      qty += p.quantity as number;
      total += p.base_amount as number;
    }
    return { name: c.name, products: c.products, total, qty };
  });
  // Each (product, price, discount) row is in one category only: the "unique products" are all rows.
  for (const c of categories)
    for (const p of c.products) {
      allQty += p.quantity as number;
      allTotal += p.base_amount as number;
    }
  return [out, { total: allTotal, qty: allQty }];
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** One product row: 17/18 name and code apart; 19 the display name, barcode and combo label. */
function productRow(db: Db, r: Row, v19: boolean): Dict {
  const p = db.get('product.product', r.product);
  const t = p ? db.get('product.template', p.product_tmpl_id as number) : undefined;
  const head: Dict = v19
    ? { product_id: r.product, product_name: db.displayName('product.product', r.product), barcode: false }
    : {
        product_id: r.product,
        product_name: String(t?.name ?? ''),
        code: (t?.default_code as string) || false,
      };
  const row: Dict = {
    ...head,
    quantity: r.qty,
    price_unit: r.priceUnit,
    discount: r.discount,
    uom: 'Units',
    total_paid: r.total,
    base_amount: r.base,
  };
  if (v19) row.combo_products_label = '';
  return row;
}
