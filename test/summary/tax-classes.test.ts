// Odoo 16-18's report.pos.order has no tax: the summary tells the discounted products' tax
// rates apart by each product's ratio price_total / (price_sub_total − total_discount), and asks
// for the discounted rows once per class. A product with one small line has a ratio off by its
// rounding; it joins its rate's class instead of costing a request of its own.
import { describe, expect, it } from 'vitest';
import { taxClasses } from '../../src/summary/compute.js';
import type { Group } from '../../src/summary/grouping.js';

/** A product's discounted rows: `lines` of them, before discount `before`, the given discount and rate, each line's total rounded to the cent. */
function product(id: number, rate: number, lines: number, before: number, discount: number): Group {
  const after = before - discount;
  const total = Math.round(after * (1 + rate) * 100) / 100;
  return {
    values: { product_id: [id, `P${id}`] },
    aggs: {
      __count: lines,
      'price_sub_total:sum': before,
      'total_discount:sum': discount,
      'price_total:sum': total,
    },
  };
}

const sorted = (c: number[][]) =>
  c.map((ids) => [...ids].sort((a, b) => a - b)).sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));

describe('tax classes of discounted products', () => {
  it('three rates give three classes, a small line rounded off its rate included', () => {
    const groups = [
      product(1, 0.21, 40, 1200, 120),
      product(2, 0.21, 25, 800, 80),
      // 1.36 × 1.21 = 1.6456, rounded to 1.65: ratio 1.2132, more than an eighth of a percent
      // from 1.21 (rates told apart to a quarter of a percent made it a class of its own).
      product(3, 0.21, 1, 1.6, 0.24),
      product(4, 0.06, 30, 300, 30),
      // 1.6 × 1.06 = 1.696, rounded to 1.70: ratio 1.0625.
      product(5, 0.06, 1, 2, 0.4),
      product(6, 0.15, 12, 500, 25),
    ];
    expect(sorted(taxClasses(groups))).toEqual([[1, 2, 3], [4, 5], [6]]);
  });

  it('close rates with enough lines stay apart', () => {
    const groups = [product(1, 0.06, 50, 5000, 500), product(2, 0.065, 50, 5000, 500)];
    expect(sorted(taxClasses(groups))).toEqual([[1], [2]]);
  });

  it('rows of a 100 % discount have no ratio and no class', () => {
    expect(taxClasses([product(1, 0.21, 3, 30, 30)])).toEqual([]);
  });
});
