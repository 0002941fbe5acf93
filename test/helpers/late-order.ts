// Orders a register sold before its session closed and sent after (it was offline at the
// closing), through pos.order.create_from_ui: what a real Odoo 17 and the sandbox make of them
// (test/odoo/shop-sync.test.ts sends the same to both; test/sandbox/rescue-session.test.ts
// checks the sandbox's alone).
import { DateTime } from 'luxon';
import { uiTicket } from './pos-ticket.js';
import type { Rpc } from './rpc.js';

type Rec = Record<string, unknown> & { id: number };
const id = (v: unknown): number => (Array.isArray(v) ? (v[0] as number) : (v as number));
const utcMs = (v: unknown): number => Date.parse(`${String(v).replace(' ', 'T').slice(0, 19)}Z`);

/** What a side (the real posshop, the sandbox) does with orders sent for a closed session. */
export interface Late {
  closed: Rec;
  open: Rec;
  rescue: Rec;
  orders: Rec[];
  /** The register's newest session other than the rescue one (its opening cash is that one's count). */
  newest: Rec;
  replies: unknown[];
  /** Each ticket's total, tax included. */
  total: number;
}

const SESSION_FIELDS = [
  'name',
  'config_id',
  'state',
  'rescue',
  'start_at',
  'stop_at',
  'cash_register_balance_start',
  'cash_register_balance_end_real',
];

/** Two tickets a register sold before its session closed and sent after, an hour apart. */
export async function sendLate(side: Rpc): Promise<Late> {
  const [open] = await side.searchRead<Rec>('pos.session', [['state', '=', 'opened']], {
    fields: [...SESSION_FIELDS, 'payment_method_ids'],
    limit: 1,
  });
  const config = id(open?.config_id);
  const [closed] = await side.searchRead<Rec>(
    'pos.session',
    [
      ['config_id', '=', config],
      ['state', '=', 'closed'],
      ['rescue', '=', false],
    ],
    { fields: SESSION_FIELDS, order: 'id desc', limit: 1 },
  );
  const methods = await side.kw<Rec[]>('pos.payment.method', 'read', [open?.payment_method_ids], {
    fields: ['is_cash_count'],
  });
  const cash = methods.find((m) => m.is_cash_count)?.id as number;
  const [variant] = await side.searchRead<Rec>('product.product', [], {
    fields: ['product_tmpl_id'],
    limit: 1,
  });
  const [template] = await side.kw<Rec[]>('product.template', 'read', [[id(variant?.product_tmpl_id)]], {
    fields: ['taxes_id'],
  });
  // The line at the product's own tax (the closing's entry must balance, or Odoo asks to force it).
  const [tax] = await side.kw<Rec[]>(
    'account.tax',
    'read',
    [[(template?.taxes_id as number[] | undefined)?.[0]]],
    {
      fields: ['amount'],
    },
  );
  const total = Math.round(1000 + 10 * Number(tax?.amount)) / 100;
  const at = (hoursBefore: number) =>
    DateTime.fromSQL(String(closed?.stop_at), { zone: 'UTC' })
      .minus({ hours: hoursBefore })
      .toFormat('yyyy-MM-dd HH:mm:ss');
  const replies: unknown[] = [];
  for (const [n, hours] of [
    [1, 2],
    [2, 1],
  ] as const) {
    const ticket = uiTicket({
      name: `Order 88888-001-000${n}`,
      session: closed?.id as number,
      paid: 20,
      change: Math.round((20 - total) * 100) / 100,
      method: cash,
      total,
      tax: Math.round((total - 10) * 100) / 100,
      date: at(hours),
      lines: [
        {
          product_id: variant?.id,
          qty: 1,
          price_unit: 10,
          discount: 0,
          price_subtotal: 10,
          price_subtotal_incl: total,
          tax_ids: [[6, false, template?.taxes_id]],
          full_product_name: 'x',
          pack_lot_ids: [],
        },
      ],
    });
    replies.push(...(await side.kw<unknown[]>('pos.order', 'create_from_ui', [[ticket]])));
  }
  const orders = await side.searchRead<Rec>('pos.order', [['pos_reference', 'like', 'Order 88888-001-%']], {
    fields: ['session_id', 'config_id', 'date_order', 'state', 'amount_total', 'write_date', 'payment_ids'],
    order: 'id',
  });
  const [rescue] = await side.kw<Rec[]>('pos.session', 'read', [[id(orders[0]?.session_id)]], {
    fields: SESSION_FIELDS,
  });
  const [newest] = await side.searchRead<Rec>(
    'pos.session',
    [
      ['config_id', '=', config],
      ['id', '!=', rescue?.id],
    ],
    { fields: SESSION_FIELDS, order: 'id desc', limit: 1 },
  );
  return {
    closed: closed as Rec,
    open: open as Rec,
    rescue: rescue as Rec,
    orders,
    newest: newest as Rec,
    replies,
    total,
  };
}

/** What is the same on every Odoo 17: the ids and the clock's times left out. */
export function shapeOf(late: Late): Record<string, unknown> {
  const { closed, open, rescue, orders, newest } = late;
  return {
    replies: late.replies.map((r) => Object.keys(r as Rec).sort()),
    rescueName: String(rescue.name)
      .replace(/^POS\/\d{5} /, 'POS/nnnnn ')
      .replace(String(closed.name), '<closed>'),
    rescue: {
      state: rescue.state,
      rescue: rescue.rescue,
      stop_at: rescue.stop_at,
      sameRegister: id(rescue.config_id) === id(closed.config_id),
      newId: rescue.id !== open.id && rescue.id !== closed.id,
      // Opened when the first order came: within its transaction (Odoo's write_date is the
      // transaction's start, start_at fields.Datetime.now() later in it), before the second
      // order's; an order of events, where a 2 s tolerance on the two clocks could fail on a
      // loaded machine.
      openedWhenSent:
        utcMs(rescue.start_at) >= utcMs(orders[0]?.write_date) &&
        utcMs(rescue.start_at) <= utcMs(orders[1]?.write_date),
      openingIsNewestCount: rescue.cash_register_balance_start === newest.cash_register_balance_end_real,
    },
    orders: orders.map((o) => ({
      inRescue: id(o.session_id) === rescue.id,
      register: id(o.config_id) === id(closed.config_id),
      soldBeforeClosing: String(o.date_order) < String(closed.stop_at),
      state: o.state,
      totalAsSent: o.amount_total === late.total,
      payments: (o.payment_ids as number[]).length,
    })),
  };
}
