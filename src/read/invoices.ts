// An invoiced order's invoice number: account.move's own name (INV/2026/00005), where Odoo's
// label of pos.order's account_move adds the order's name (`INV/2026/00005 (Shop/0008)` on a
// real 17). One search_read of a page's invoices, none for a page without: Odoo's record
// rules filter it rather than refuse it (17's point_of_sale lets a POS user read the moves
// of POS orders, "Invoice POS User"), and a user Odoo refuses account.move altogether (an
// AccessError) gets no number, not an error: the orders are what was asked for.
import type { OdooClient } from '../core/client.js';
import { ServerError } from '../core/errors.js';
import type { OdooRecord } from '../core/types.js';

/** The column, and the field of pos.order it is read through. */
export const INVOICE = 'invoice';
export const INVOICE_FROM = 'account_move';

const idOf = (v: unknown): number | undefined =>
  Array.isArray(v) && typeof v[0] === 'number' ? v[0] : typeof v === 'number' ? v : undefined;

const refused = (err: unknown): boolean =>
  err instanceof ServerError && /AccessError/i.test(`${err.odooName} ${err.message}`);

/** Fills `invoice` on each page's orders; once refused, every later page's is null without asking. */
export class InvoiceNumbers {
  private refused = false;

  /** `said` is told once, at the refusal. */
  constructor(
    private readonly client: OdooClient,
    private readonly said?: () => void,
  ) {}

  async fill(records: OdooRecord[]): Promise<void> {
    const ids = new Set<number>();
    for (const r of records) {
      const id = idOf(r[INVOICE_FROM]);
      if (id !== undefined) ids.add(id);
    }
    const names = new Map<number, string>();
    if (ids.size > 0 && !this.refused) {
      try {
        const moves = await this.client.searchRead('account.move', [['id', 'in', [...ids]]], {
          fields: ['name'],
        });
        for (const m of moves) names.set(m.id, String(m.name));
      } catch (err) {
        if (!refused(err)) throw err;
        this.refused = true;
        this.said?.();
      }
    }
    for (const r of records) {
      const id = idOf(r[INVOICE_FROM]);
      r[INVOICE] = (id !== undefined && names.get(id)) || false;
    }
  }
}
