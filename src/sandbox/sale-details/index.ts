/**
 * `report.point_of_sale.report_saledetails.get_sale_details`: the data of Odoo's "Sales Details"
 * (X/Z) report, computed from the sandbox's records as Odoo 17's
 * addons/point_of_sale/models/report_sale_details.py does, with 18's and 19's differences (their
 * sources, and recordings of a real 17 and 19), reading as the calling user, hence the same
 * AccessErrors. The pieces: scope.ts (orders, resolved sessions), products.ts (products, taxes),
 * payments.ts (per method and session), counting.ts (cash and bank counts), sessions.ts
 * (discounts, invoices).
 */

import { companyCurrency, currencyOfCompany, multiCompany } from '../money.js';
import type { Db } from '../store.js';
import type { Env, Json } from '../types.js';
import { countSessions } from './counting.js';
import { nameBySession, paymentsPerMethod, paymentsPerMethodAndSession } from './payments.js';
import { productFigures } from './products.js';
import type { Dict } from './query.js';
import { resolveScope, type SaleDetailsArgs } from './scope.js';
import { discounts, invoices, sessionsPaid } from './sessions.js';

export type { SaleDetailsArgs } from './scope.js';

export function getSaleDetails(db: Db, env: Env, args: SaleDetailsArgs): Json {
  const scope = resolveScope(db, env, args);
  const { orders, sessions } = scope;
  let total = 0;
  for (const o of orders) total += typeof o.amount_total === 'number' ? o.amount_total : 0;
  // Odoo's user_currency: the registers' when they share one, else the company's (env.company:
  // the first of allowed_company_ids, else the user's). Every register keeps its company's books;
  // with several companies the sandbox adds their amounts as Odoo does at a rate of 1.
  const company = multiCompany(db) ? (env.companies?.[0] ?? 1) : 1;
  const currency = company === 1 ? companyCurrency(db) : currencyOfCompany(db, company);
  const figures = productFigures(db, orders, currency.round);
  const payments = paymentsPerMethodAndSession(db, env, orders);
  countSessions(db, env, sessions, payments, currency.round);

  const one = sessions.length === 1 ? sessions[0] : undefined;
  const discount = discounts(db, sessions, orders, currency.round);
  const invoiced = invoices(db, sessions);
  nameBySession(db, payments);
  const out: Dict = {
    opening_note: one ? ((one.opening_notes as Json) ?? false) : false,
    closing_note: one ? ((one.closing_notes as Json) ?? false) : false,
    state: one ? String(one.state) : 'multiple',
    currency: {
      symbol: currency.symbol,
      position: currency.after,
      total_paid: currency.round(total),
      precision: currency.decimals,
    },
    nbr_orders: orders.length,
    date_start: one ? ((one.start_at as Json) ?? false) : scope.dateStart,
    date_stop: one ? ((one.stop_at as Json) ?? false) : scope.dateStop,
    session_name: one ? String(one.name) : false,
    config_names: scope.configs.map((c) => String(c.name)),
    payments,
    company_name: String(db.get('res.company', company)?.name ?? ''),
    taxes: figures.taxes,
    taxes_info: figures.taxesInfo,
    products: figures.products,
    products_info: figures.productsInfo,
    refund_taxes: figures.refundTaxes,
    refund_taxes_info: figures.refundTaxesInfo,
    refund_info: figures.refundInfo,
    refund_products: figures.refundProducts,
    discount_number: discount.number,
    discount_amount: discount.amount,
    invoiceList: invoiced.list,
    invoiceTotal: invoiced.total,
  };
  if (db.version >= 18) out.total_paid = sessionsPaid(db, sessions);
  if (db.version === 19) {
    out.payments_per_method = paymentsPerMethod(db, payments);
    out.show_payment_per_method = !scope.bySession;
  }
  return out;
}
