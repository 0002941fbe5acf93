// A ticket as a POS register sends it to pos.order.create_from_ui (Odoo 16-17): every key
// 17's _order_fields reads, the lines as [0, 0, vals] commands, one payment. The sandbox's
// tests and the real-Odoo comparison send the same shape.
export type Line = Record<string, unknown>;

export interface Ticket {
  /** The receipt name (`pos_reference`), e.g. "Order 00001-001-0001". */
  name: string;
  session: number;
  lines: Line[];
  /** What was handed over, by `method`. */
  paid: number;
  method: number;
  total: number;
  tax: number;
  /** Change given back. */
  change?: number;
  date?: string;
}

export function uiTicket(t: Ticket) {
  return {
    id: t.name,
    data: {
      name: t.name,
      pos_session_id: t.session,
      user_id: 2,
      sequence_number: 1,
      partner_id: false,
      date_order: t.date ?? '2026-11-25 10:00:00',
      fiscal_position_id: false,
      pricelist_id: false,
      to_invoice: false,
      amount_paid: t.paid,
      amount_total: t.total,
      amount_tax: t.tax,
      amount_return: t.change ?? 0,
      lines: t.lines.map((l) => [0, 0, l]),
      statement_ids: [
        [0, 0, { amount: t.paid, payment_method_id: t.method, name: t.date ?? '2026-11-25 10:00:00' }],
      ],
    },
  };
}
