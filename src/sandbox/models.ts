/**
 * Field sets per Odoo version, as the fact sheet and the recordings give them: names, types, labels,
 * stored or computed, default `_order`, access rules. Stored fields are held on the rows; computed,
 * non-stored ones are worked out on read (and, as on the real server, cannot be searched). One
 * module per model (or family) under models/; catalog.ts adds what a real server has beyond them.
 */
import { describedFields, inertFields } from './catalog.js';
import {
  accountAccount,
  accountJournal,
  accountMove,
  accountMoveLine,
  accountPayment,
  bankStatementLine,
  saleDetailsReport,
} from './models/accounting.js';
import type { Version } from './models/define.js';
import { posConfig } from './models/pos-config.js';
import { posOrder } from './models/pos-order.js';
import { posOrderLine } from './models/pos-order-line.js';
import { posPayment, posPaymentMethod } from './models/pos-payment.js';
import { posSession } from './models/pos-session.js';
import { productProduct, productTemplate } from './models/products.js';
import { referenceModels, resUsers } from './models/reference.js';
import { reportPosOrder } from './models/report-pos-order.js';
import { shopFeatureModels } from './models/shop-features.js';
import type { ModelDef } from './store.js';
import type { OdooVersion } from './types.js';

export { CASHIER_UIDS, cashierOf } from './models/pos-order.js';

/** Options of the generated database: which optional modules are installed. */
export interface ModelOptions {
  /** pos_hr: orders carry the employee who rang them up (`employee_id`, `cashier`). */
  posHr?: boolean;
  /** pos_restaurant: floors, tables, guests and tips on orders, a take-away fiscal position. */
  restaurant?: boolean;
  /** pos_loyalty: programmes, rewards and cards; reward lines on orders. */
  loyalty?: boolean;
  /** pos_discount: the registers' discount product. */
  globalDiscount?: boolean;
}

export function buildModels(version: OdooVersion, opts: ModelOptions = {}): Map<string, ModelDef> {
  const v: Version = {
    version,
    v18: version >= 18,
    v19: version === 19,
    posHr: opts.posHr === true,
    restaurant: opts.restaurant === true,
    loyalty: opts.loyalty === true,
    globalDiscount: opts.globalDiscount === true,
  };
  const defs: ModelDef[] = [
    posConfig(v),
    posSession(v),
    posOrder(v),
    posOrderLine(v),
    posPayment(v),
    posPaymentMethod(v),
    productTemplate(v),
    productProduct(v),
    resUsers(v),
    ...referenceModels(v),
    accountMove(v),
    accountMoveLine(v),
    accountAccount(v),
    accountJournal(v),
    accountPayment(v),
    saleDetailsReport(v),
    bankStatementLine(v),
    reportPosOrder(v),
    ...shopFeatureModels(v),
  ];

  // display_name has no search method on 16/17 (fields_get: not searchable; the sandbox still
  // filters on it, for name_search); 18 gave it _search_display_name.
  for (const d of defs) {
    const f = d.fields.get('display_name');
    if (f) f.search = version >= 18;
  }

  // What a real server has beyond what the sandbox models: present, empty.
  for (const d of defs) {
    const described = describedFields(d.name, version);
    for (const [name, type, string, stored, rel] of inertFields(d.name, version)) {
      if (d.fields.has(name)) continue;
      d.fields.set(name, {
        name,
        type,
        string,
        store: stored === 1,
        readonly: true,
        ...(typeof rel === 'string' ? { relation: rel } : rel ? { selection: rel } : {}),
        ...described[name],
      });
    }
  }

  return new Map(defs.map((d) => [d.name, d]));
}
