// pos.order.create_from_ui (how a register sends its orders, 16-17) and --live (the sandbox
// selling through it in today's open session), checked over JSON-RPC as a client sees them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { uiTicket } from '../helpers/pos-ticket.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type Row = Record<string, unknown>;

describe('create_from_ui', () => {
  let sb: SandboxHandle;
  let rpc: ReturnType<typeof rpcClient>;
  let session: Row;

  beforeAll(async () => {
    sb = await startTestSandbox({ seed: 4, orders: 200 });
    rpc = rpcClient(sb.url);
    [session] = await rpc.ok<Row[]>('pos.session', 'search_read', [[['state', '=', 'opened']]], {
      fields: ['id', 'config_id', 'payment_method_ids'],
    });
  });
  afterAll(() => sb?.close());

  const ticket = (name: string, paid: number, change = 0) =>
    uiTicket({
      name,
      session: session.id as number,
      paid,
      change,
      method: (session.payment_method_ids as number[])[0] as number,
      total: 15.28,
      tax: 2.28,
      lines: [
        { product_id: 1, qty: 2, price_unit: 5, discount: 0, price_subtotal: 10, price_subtotal_incl: 12.1 },
        { product_id: 2, qty: 1, price_unit: 3, discount: 0, price_subtotal: 3, price_subtotal_incl: 3.18 },
      ],
    });

  it('writes a paid order, its lines and payments in one transaction, named by the sequence', async () => {
    const before = await rpc.ok<number>('pos.order', 'search_count', [[]]);
    const [made] = await rpc.ok<Row[]>('pos.order', 'create_from_ui', [
      [ticket('Order 09999-001-0001', 15.28)],
    ]);
    expect(made).toMatchObject({ pos_reference: 'Order 09999-001-0001', account_move: false });
    const [order] = await rpc.ok<Row[]>('pos.order', 'read', [[made.id]], {
      fields: [
        'name',
        'state',
        'session_id',
        'config_id',
        'amount_total',
        'amount_tax',
        'amount_paid',
        'lines',
        'payment_ids',
        'write_date',
        'date_order',
      ],
    });
    expect(order.state).toBe('paid');
    expect(order.date_order).toBe('2026-11-25 10:00:00');
    expect(order.name).toMatch(/^POS\/\d{6}$/);
    expect((order.session_id as unknown[])[0]).toBe(session.id);
    expect(order.config_id).toEqual(session.config_id);
    expect(order.amount_total).toBeCloseTo(15.28, 2);
    expect(order.amount_tax).toBeCloseTo(2.28, 2);
    expect(order.amount_paid).toBeCloseTo(15.28, 2);
    expect(order.lines).toHaveLength(2);
    expect(order.payment_ids).toHaveLength(1);
    const lines = await rpc.ok<Row[]>('pos.order.line', 'read', [order.lines], {
      fields: ['write_date', 'order_id'],
    });
    const pays = await rpc.ok<Row[]>('pos.payment', 'read', [order.payment_ids], {
      fields: ['write_date', 'amount'],
    });
    for (const r of [...lines, ...pays]) expect(r.write_date).toBe(order.write_date);
    expect(await rpc.ok<number>('pos.order', 'search_count', [[]])).toBe(before + 1);
  });

  it('a ticket sent again is not created twice; change given back is a negative cash payment', async () => {
    const again = await rpc.ok<Row[]>('pos.order', 'create_from_ui', [
      [ticket('Order 09999-001-0001', 15.28)],
    ]);
    // As a real 17 answers: the order already there is left out of the reply.
    expect(again).toEqual([]);
    expect(
      await rpc.ok<number>('pos.order', 'search_count', [[['pos_reference', '=', 'Order 09999-001-0001']]]),
    ).toBe(1);
    const [made] = await rpc.ok<Row[]>('pos.order', 'create_from_ui', [
      [ticket('Order 09999-001-0002', 20, 4.72)],
    ]);
    const pays = await rpc.ok<Row[]>('pos.payment', 'search_read', [[['pos_order_id', '=', made.id]]], {
      fields: ['amount', 'is_change'],
      order: 'amount desc',
    });
    expect(pays.map((p) => [p.amount, p.is_change])).toEqual([
      [20, false],
      [-4.72, true],
    ]);
  });

  it('keeps an order that is not fully paid as a draft, refuses a ticket without its keys, and is not there on 19', async () => {
    // A real 17 logs the failed payment check and keeps the order as a '/' draft.
    const [made] = await rpc.ok<Row[]>('pos.order', 'create_from_ui', [[ticket('Order 09999-001-0003', 10)]]);
    const [order] = await rpc.ok<Row[]>('pos.order', 'read', [[made.id]], {
      fields: ['name', 'state', 'amount_paid'],
    });
    expect(order).toMatchObject({ name: '/', state: 'draft', amount_paid: 10 });
    const bare = await rpc.kw('pos.order', 'create_from_ui', [
      [{ id: 'x', data: { name: 'x', pos_session_id: session.id } }],
    ]);
    expect(bare.error?.data).toMatchObject({ name: 'builtins.KeyError', message: 'user_id' });
    const v19 = await startTestSandbox({ seed: 4, orders: 20, odooVersion: 19 });
    try {
      const r19 = await rpcClient(v19.url).kw('pos.order', 'create_from_ui', [[]]);
      expect(r19.error?.data.message).toBe("The method 'pos.order.create_from_ui' does not exist");
    } finally {
      await v19.close();
    }
  });
});

describe('--live', () => {
  let sb: SandboxHandle;
  afterAll(() => sb?.close());

  it("keeps adding paid orders to today's open session, write_date advancing", async () => {
    sb = await startTestSandbox({ seed: 6, orders: 100, live: 0.05 });
    const rpc = rpcClient(sb.url);
    const open = await rpc.ok<number[]>('pos.session', 'search', [[['state', '=', 'opened']]]);
    const live = [['pos_reference', 'like', '-live-']];
    const seen: Row[][] = [];
    // Each look waits for more orders than the last one saw (no timing asserted).
    for (let want = 1; seen.length < 2; ) {
      const rows = await rpc.ok<Row[]>('pos.order', 'search_read', [live], {
        fields: ['session_id', 'state', 'write_date', 'amount_total', 'amount_paid'],
        order: 'id',
      });
      if (rows.length >= want) {
        seen.push(rows);
        want = rows.length + 1;
      } else await new Promise((r) => setTimeout(r, 50));
    }
    const [first, later] = seen as [Row[], Row[]];
    expect(later.length).toBeGreaterThan(first.length);
    for (const o of later) {
      expect(open).toContain((o.session_id as unknown[])[0]);
      expect(o.state).toBe('paid');
      expect(o.amount_paid).toBeCloseTo(o.amount_total as number, 2);
    }
    expect(String(later.at(-1)?.write_date) >= String(first.at(-1)?.write_date)).toBe(true);
    expect(sb.live?.sold()).toBeGreaterThanOrEqual(later.length);
  });
});

it('--live takes a number of seconds: anything else is a usage error, one line', async () => {
  for (const bad of ['x', '0', '-1']) {
    const r = await runCli(['sandbox', '--port', '0', `--live=${bad}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `posdata: --live '${bad}' is not a number of seconds; give --live alone (an order every 5 s) or a number such as --live 2\n`,
    );
  }
});
