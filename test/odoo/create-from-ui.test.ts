// pos.order.create_from_ui on a real Odoo 17 of this file's own (it writes) beside the
// sandbox's (the path its --live sells through): the same tickets, the same answers. A paid
// order is created paid with lines and payments in one transaction and the change as a
// negative cash payment named `return`; a ticket sent again is left out of the reply; one not
// fully paid stays a '/' draft; a ticket without its keys is a KeyError.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RealOdooHandle, rpcOdoo, startRealOdoo } from '../helpers/odoo17.js';
import { uiTicket } from '../helpers/pos-ticket.js';
import type { Rpc } from '../helpers/rpc.js';
import { Rpc as RpcClass } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type Row = Record<string, unknown>;
const utc = (v: unknown): number => Date.parse(`${String(v).replace(' ', 'T')}Z`);

interface Side {
  rpc: Rpc;
  session: number;
  cash: number;
  product: Row;
}

async function side(rpc: Rpc): Promise<Side> {
  const [s] = await rpc.searchRead('pos.session', [['state', '=', 'opened']], {
    fields: ['payment_method_ids'],
    limit: 1,
  });
  const methods = await rpc.kw<Row[]>('pos.payment.method', 'read', [s?.payment_method_ids], {
    fields: ['is_cash_count'],
  });
  const [variant] = await rpc.searchRead('product.product', [], {
    fields: ['product_tmpl_id'],
    limit: 1,
  });
  const [template] = await rpc.kw<Row[]>(
    'product.template',
    'read',
    [[((variant as Row).product_tmpl_id as unknown[])[0]]],
    {
      fields: ['taxes_id'],
    },
  );
  const product = { id: variant?.id, taxes_id: template?.taxes_id };
  return {
    rpc,
    session: s?.id as number,
    cash: methods.find((m) => m.is_cash_count)?.id as number,
    product: product as Row,
  };
}

function ticket(s: Side, name: string, paid: number, change: number) {
  return uiTicket({
    name,
    session: s.session,
    paid,
    change,
    method: s.cash,
    total: 12.1,
    tax: 2.1,
    lines: [
      {
        product_id: s.product.id,
        qty: 1,
        price_unit: 10,
        discount: 0,
        price_subtotal: 10,
        price_subtotal_incl: 12.1,
        tax_ids: [[6, false, s.product.taxes_id]],
        full_product_name: 'x',
        pack_lot_ids: [],
      },
    ],
  });
}

/** What a side answers to the same tickets, without the ids and names that differ. */
async function answers(s: Side): Promise<Row> {
  const made = await s.rpc.kw<Row[]>('pos.order', 'create_from_ui', [
    [ticket(s, 'Order 99999-001-0001', 20, 7.9)],
  ]);
  const again = await s.rpc.kw<Row[]>('pos.order', 'create_from_ui', [
    [ticket(s, 'Order 99999-001-0001', 20, 7.9)],
  ]);
  const unpaid = await s.rpc.kw<Row[]>('pos.order', 'create_from_ui', [
    [ticket(s, 'Order 99999-001-0002', 5, 0)],
  ]);
  const bare = await s.rpc
    .kw('pos.order', 'create_from_ui', [[{ id: 'x', data: { name: 'x', pos_session_id: s.session } }]])
    .then(
      () => 'no error',
      (e: Error) => e.message,
    );
  const [paid] = await s.rpc.kw<Row[]>('pos.order', 'read', [[made[0]?.id]], {
    fields: [
      'state',
      'date_order',
      'amount_total',
      'amount_tax',
      'amount_paid',
      'amount_return',
      'write_date',
      'payment_ids',
      'lines',
    ],
  });
  const pays = await s.rpc.kw<Row[]>('pos.payment', 'read', [paid?.payment_ids], {
    fields: ['amount', 'is_change', 'name', 'write_date', 'payment_method_id', 'payment_date'],
  });
  const lines = await s.rpc.kw<Row[]>('pos.order.line', 'read', [paid?.lines], { fields: ['write_date'] });
  const [draft] = await s.rpc.kw<Row[]>('pos.order', 'read', [[unpaid[0]?.id]], {
    fields: ['name', 'state', 'amount_paid'],
  });
  return {
    reply: made.map((m) => Object.keys(m)),
    replied: made[0]?.pos_reference,
    again,
    unpaidReplied: unpaid.map((u) => u.pos_reference),
    bare,
    paid: { ...paid, write_date: undefined, payment_ids: undefined, lines: undefined },
    oneTransaction: [...pays, ...lines].every((r) => r.write_date === paid?.write_date),
    // The ticket was sold days before it reached the server (an offline register): its payment
    // keeps the register's time, the change is dated when the server got it.
    paymentDated: pays.map((p) =>
      p.is_change
        ? Math.abs(utc(p.payment_date) - utc(paid?.write_date)) <= 2000
        : p.payment_date === paid?.date_order,
    ),
    soldBeforeSync: String(paid?.date_order) < String(paid?.write_date).slice(0, 10),
    payments: pays.map((p) => [
      p.amount,
      p.is_change,
      p.name,
      (p.payment_method_id as unknown[])[0] === s.cash,
    ]),
    draft,
  };
}

describe('create_from_ui: the sandbox answers as a real Odoo 17', () => {
  let odoo: RealOdooHandle;
  let sandbox: SandboxHandle;

  beforeAll(async () => {
    [odoo, sandbox] = await Promise.all([startRealOdoo(), startTestSandbox({ seed: 4, orders: 200 })]);
  });
  afterAll(async () => {
    await Promise.all([odoo?.stop(), sandbox?.close()]);
  });

  it('the same tickets get the same answers', async () => {
    const real = await answers(await side(await rpcOdoo(odoo)));
    const ours = await answers(await side(new RpcClass(sandbox.url)));
    expect(real.paid).toMatchObject({ state: 'paid', amount_paid: 12.1, amount_return: 7.9 });
    expect(ours).toEqual({
      ...real,
      paid: { ...(real.paid as Row), id: (ours.paid as Row).id },
      draft: { ...(real.draft as Row), id: (ours.draft as Row).id },
    });
  });
});
