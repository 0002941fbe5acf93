// Odoo 16-18's report.pos.order has no tax: the summary tells the discounted products' tax
// rates apart by each product's ratio Σ price_subtotal_incl / Σ price_subtotal over its
// discounted lines, and asks for the discounted rows once per class. A product with one small
// line has a ratio off by its rounding; it joins its rate's class instead of costing a request
// of its own.
import { describe, expect, it } from 'vitest';
import { type DiscountedProduct, taxClasses } from '../../src/summary/before-19.js';
import { apportion } from '../../src/summary/compute.js';

/** A product's discounted lines: `lines` of them, before discount `before`, the given discount and rate, each amount rounded to the cent. */
function product(
  id: number,
  rate: number,
  lines: number,
  before: number,
  discount: number,
): DiscountedProduct {
  const excl = Math.round((before - discount) * 100) / 100;
  return { id, lines, excl, incl: Math.round(excl * (1 + rate) * 100) / 100 };
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

  it('lines of a 100 % discount have no ratio and no class', () => {
    expect(taxClasses([product(1, 0.21, 3, 30, 30)])).toEqual([]);
  });
});

describe('apportion: group amounts in cents that add up to the total rounded once', () => {
  it('two halves of a cent each: one group gets the cent, the total stays that of the lines', () => {
    // Rounded alone: 268.19 + 268.20 = 536.39, where the lines give 536.3959 → 536.40.
    const parts = [268.194, 268.2019];
    const r = apportion(parts, 536.3959);
    expect(Math.round(r.reduce((a, b) => a + b, 0) * 100)).toBe(53640);
    for (const [i, v] of r.entries()) expect(Math.abs(v - (parts[i] as number))).toBeLessThan(0.01);
  });

  it('many groups: the sum is the total rounded once, each group within a cent of its amount', () => {
    const parts = Array.from({ length: 24 }, (_, i) => ((i * 7919) % 1000) / 997 + i * 3.3337);
    const total = parts.reduce((a, b) => a + b, 0);
    const r = apportion(parts, total);
    expect(Math.round(r.reduce((a, b) => a + b, 0) * 100)).toBe(Math.round(total * 100));
    for (const [i, v] of r.entries()) expect(Math.abs(v - (parts[i] as number))).toBeLessThan(0.01);
  });
});
