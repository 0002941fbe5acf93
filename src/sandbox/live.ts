/**
 * `--live`: a shop that keeps selling. Every few seconds one of today's open sessions sells an
 * order through `create_from_ui` (ui.ts), as a register syncing a paid ticket does: 1 to 4 lines
 * of products on sale at their price and tax, paid in cash (often with change given back) or by
 * card, stamped by the server's clock, so write_date advances and a summary of today grows.
 * Draws from a PRNG of its own (the data's seed), so the data generated at start stay as they were.
 */

import { Prng } from './prng.js';
import { envFor, type ServerState } from './rpc.js';
import type { Rec } from './types.js';
import { createFromUi } from './ui.js';

export interface Live {
  /** Orders sold since the start. */
  sold(): number;
  stop(): void;
}

const cents = (x: number): number => Math.round((x + (x >= 0 ? 1e-9 : -1e-9)) * 100) / 100;

/** Sells one order in one of the open sessions; false where no session is open. */
export function sellOne(state: ServerState, rng: Prng, n: number): boolean {
  const { db } = state;
  const open = db.table('pos.session').rows.filter((s): s is Rec => s !== undefined && s.state === 'opened');
  if (open.length === 0) return false;
  const session = open[rng.int(0, open.length - 1)] as Rec;
  const products = db
    .table('product.product')
    .rows.filter((p): p is Rec => p !== undefined && p.active !== false);
  if (products.length === 0) return false;
  const lines: unknown[] = [];
  let total = 0;
  let tax = 0;
  const count = rng.int(1, 4);
  for (let i = 0; i < count; i++) {
    const p = products[rng.int(0, products.length - 1)] as Rec;
    const tmpl = db.get('product.template', p.product_tmpl_id as number);
    const price = Number(tmpl?.list_price ?? 0);
    const taxIds = (tmpl?.taxes_id as number[] | undefined) ?? [];
    const rate = taxIds.reduce((r, t) => r + Number(db.get('account.tax', t)?.amount ?? 0), 0) / 100;
    const qty = rng.float() < 0.8 ? 1 : 2;
    const excl = cents(qty * price);
    const incl = cents(qty * price * (1 + rate));
    total += incl;
    tax += incl - excl;
    lines.push([
      0,
      0,
      {
        product_id: p.id,
        qty,
        price_unit: price,
        discount: 0,
        price_subtotal: excl,
        price_subtotal_incl: incl,
        tax_ids: [[6, false, taxIds]],
        full_product_name: tmpl?.name ?? '',
      },
    ]);
  }
  total = cents(total);
  const methods = (db.get('pos.config', session.config_id as number)?.payment_method_ids as number[]) ?? [];
  const cash = methods.find((m) => db.get('pos.payment.method', m)?.is_cash_count === true);
  const card = methods.find((m) => db.get('pos.payment.method', m)?.is_cash_count !== true);
  const byCash = cash !== undefined && (card === undefined || rng.float() < 0.5);
  const tendered = byCash && rng.float() < 0.6 ? Math.ceil(total / 10) * 10 : total;
  const method = byCash ? cash : card;
  if (method === undefined) return false;
  const ref = `Order ${String(session.id).padStart(5, '0')}-live-${String(n).padStart(4, '0')}`;
  const admin = state.accounts.find((a) => a.uid === 2) ?? state.accounts[0];
  if (!admin) return false;
  createFromUi(
    db,
    envFor(state, admin, {}),
    [
      {
        id: ref,
        data: {
          name: ref,
          pos_session_id: session.id,
          user_id: session.user_id,
          sequence_number: n,
          partner_id: false,
          // The register's clock: the server's here.
          date_order: state.now(),
          fiscal_position_id: false,
          pricelist_id: false,
          amount_total: total,
          amount_tax: cents(tax),
          amount_paid: tendered,
          amount_return: cents(tendered - total),
          lines,
          statement_ids: [[0, 0, { amount: tendered, payment_method_id: method }]],
        },
      },
    ],
    false,
  );
  return true;
}

export function startLive(state: ServerState, everyMs: number, seed: number): Live {
  // Its own stream of numbers: the generated data do not change with --live.
  const rng = new Prng(seed ^ 0x11fe);
  let n = 0;
  const timer = setInterval(() => {
    if (sellOne(state, rng, n + 1)) n++;
  }, everyMs);
  timer.unref();
  return { sold: () => n, stop: () => clearInterval(timer) };
}
