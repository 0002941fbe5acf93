// Odoo 17 point_of_sale access rules, credentials (passwords and API keys), and create/write
// through the API keeping indexes and history consistent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let rpc: ReturnType<typeof rpcClient>;
const POS_MODELS = [
  'pos.order',
  'pos.order.line',
  'pos.session',
  'pos.payment',
  'pos.config',
  'pos.payment.method',
];

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 8, orders: 800, adminKey: 'test-admin-key' });
  rpc = rpcClient(sandbox.url);
});
afterAll(async () => {
  await sandbox?.close();
});

describe('credentials', () => {
  it('authenticates the three users, refuses wrong passwords and unknown databases', async () => {
    for (const u of sandbox.users)
      expect((await rpc.call('common', 'authenticate', ['demo', u.login, u.password, {}])).result).toBe(
        u.uid,
      );
    expect((await rpc.call('common', 'authenticate', ['demo', 'admin', 'nope', {}])).result).toBe(false);
    expect((await rpc.call('common', 'authenticate', ['demo', 'nobody', 'x', {}])).result).toBe(false);
    expect((await rpc.call('common', 'authenticate', ['nodb', 'admin', 'admin', {}])).error?.data.name).toBe(
      'psycopg2.OperationalError',
    );
    expect((await rpc.call('common', 'authenticate', ['demo', 'admin', 'admin'])).error?.data.name).toBe(
      'builtins.TypeError',
    );
  });

  it('accepts the API key in place of the password; refuses an expired key', async () => {
    expect((await rpc.call('common', 'authenticate', ['demo', 'admin', 'test-admin-key', {}])).result).toBe(
      2,
    );
    expect(await rpc.as(2, 'test-admin-key').ok('pos.order', 'search_count', [[]])).toBe(800);
    const expired = await rpc.as(2, sandbox.expiredKey ?? '').kw('pos.order', 'search_count', [[]]);
    expect(expired.error?.data.name).toBe('odoo.exceptions.AccessDenied');
    const pos = sandbox.users.find((u) => u.login === 'pos');
    expect(await rpc.as(pos?.uid ?? 0, pos?.apiKey ?? '').ok('pos.order', 'search_count', [[]])).toBe(800);
  });

  it('wrong password -> AccessDenied, unknown uid -> MissingError', async () => {
    expect((await rpc.as(2, 'nope').kw('pos.order', 'search_count', [[]])).error?.data.message).toBe(
      'Access Denied',
    );
    const missing = await rpc.as(999, 'admin').kw('pos.order', 'search_count', [[]]);
    expect(missing.error?.data.name).toBe('odoo.exceptions.MissingError');
    expect(missing.error?.data.message).toBe(
      'Record does not exist or has been deleted.\n(Record: res.users(999,), User: 999)',
    );
  });
});

describe('access rules', () => {
  it('a POS user reads every POS model, cash fields included, but may not create a register', async () => {
    const pos = rpc.as(6, 'pos');
    for (const m of POS_MODELS)
      expect(
        (await pos.kw(m, 'search_read', [[]], { fields: ['display_name'], limit: 2 })).error,
      ).toBeUndefined();
    const s = await pos.ok<Record<string, unknown>[]>('pos.session', 'search_read', [[]], {
      fields: ['cash_register_balance_end_real', 'cash_register_difference'],
      limit: 1,
    });
    expect(s).toHaveLength(1);
    const denied = await pos.kw('pos.config', 'create', [{ name: 'Nope' }]);
    expect(denied.error?.data.name).toBe('odoo.exceptions.AccessError');
    expect(denied.error?.data.message).toContain(
      "You are not allowed to create 'Point of Sale Configuration' (pos.config) records.",
    );
    expect(await pos.ok('pos.config', 'write', [[1], { name: 'Shop' }])).toBe(true);
  });

  it('a user without POS rights is refused on POS models but reads products and its own context', async () => {
    const clerk = rpc.as(7, 'clerk');
    for (const m of POS_MODELS) {
      const r = await clerk.kw(m, 'search_read', [[]], { fields: ['display_name'], limit: 1 });
      expect(r.error?.data.name).toBe('odoo.exceptions.AccessError');
      expect(r.error?.data.message).toMatch(
        /^You are not allowed to access '.+' \(pos\.[a-z.]+\) records\.\n\nThis operation is allowed for the following groups:\n\t- /,
      );
    }
    const order = await clerk.kw('pos.order', 'search_read', [[]], { fields: ['name'] });
    expect(order.error?.data.message).toBe(
      "You are not allowed to access 'Point of Sale Orders' (pos.order) records.\n\nThis operation is allowed for the following groups:\n\t- Inventory/User\n\t- Point of Sale/User\n\nContact your administrator to request access if necessary.",
    );
    expect(
      (await clerk.ok<unknown[]>('product.template', 'search_read', [[]], { fields: ['name'], limit: 3 }))
        .length,
    ).toBe(3);
    expect(await clerk.ok('res.users', 'context_get', [])).toEqual({ lang: 'en_US', tz: 'UTC', uid: 7 });
    expect(await rpc.ok('res.users', 'context_get', [])).toEqual({
      lang: 'en_US',
      tz: 'Europe/Brussels',
      uid: 2,
    });
  });

  it('private and unknown methods, unknown models', async () => {
    expect((await rpc.kw('pos.order', '_compute_prices', [[1]])).error?.data.message).toBe(
      'Private methods (such as _compute_prices) cannot be called remotely.',
    );
    expect((await rpc.kw('pos.order', 'nope', [[]])).error?.data.name).toBe('builtins.AttributeError');
    expect((await rpc.kw('no.model', 'search', [[]])).error?.data.message).toBe(
      "Object no.model doesn't exist",
    );
  });
});

describe('create and write', () => {
  it('write bumps write_date to now and an incremental search sees it', async () => {
    const before = await rpc.ok<{ id: number; write_date: string }[]>('pos.order', 'search_read', [[]], {
      fields: ['write_date'],
      order: 'write_date desc',
      limit: 1,
    });
    const high = before[0]?.write_date ?? '';
    const [target] = await rpc.ok<{ id: number }[]>('pos.order', 'search_read', [[['state', '=', 'done']]], {
      fields: ['id'],
      order: 'id',
      limit: 1,
    });
    const id = target?.id ?? 0;
    const t0 = new Date().toISOString().replace('T', ' ').slice(0, 19);
    expect(await rpc.ok('pos.order', 'write', [[id], { state: 'invoiced' }])).toBe(true);
    const changed = await rpc.ok<{ id: number; state: string; write_date: string }[]>(
      'pos.order',
      'search_read',
      [[['write_date', '>', high]]],
      { fields: ['state', 'write_date'] },
    );
    // write_date is stored with microseconds and read in whole seconds: `> high` also gives back
    // the orders last written within the second `high` itself, as on Odoo.
    const mine = changed.find((o) => o.id === id);
    expect(mine?.state).toBe('invoiced');
    expect((mine?.write_date ?? '') >= t0).toBe(true);
    for (const o of changed) if (o.id !== id) expect(o.write_date).toBe(high);
    expect(
      await rpc.ok<number>('pos.order', 'search_count', [
        [
          ['state', '=', 'invoiced'],
          ['id', '=', id],
        ],
      ]),
    ).toBe(1);
    const missing = await rpc.kw('pos.order', 'write', [[99999999], { state: 'done' }]);
    expect(missing.error?.data.name).toBe('odoo.exceptions.MissingError');
  });

  it('create: a late order with an old date is found by write_date, counted in its session, ordered by date', async () => {
    const [o] = await rpc.ok<{ session_id: [number, string]; config_id: [number, string] }[]>(
      'pos.order',
      'search_read',
      [[['state', '=', 'done']]],
      { fields: ['session_id', 'config_id'], limit: 1 },
    );
    const sid = o?.session_id[0] ?? 0;
    const [s0] = await rpc.ok<{ order_count: number }[]>('pos.session', 'read', [[sid]], {
      fields: ['order_count'],
    });
    const total0 = await rpc.ok<number>('pos.order', 'search_count', [[]]);
    const id = await rpc.ok<number>('pos.order', 'create', [
      {
        name: 'POS/LATE-1',
        date_order: '2020-01-01 09:00:00',
        session_id: sid,
        amount_total: 12.5,
        amount_paid: 12.5,
        state: 'paid',
      },
    ]);
    expect(id).toBe(801);
    expect(await rpc.ok<number>('pos.order', 'search_count', [[]])).toBe(total0 + 1);
    const [created] = await rpc.ok<Record<string, unknown>[]>('pos.order', 'read', [[id]], {
      fields: ['name', 'config_id', 'create_date', 'write_date', 'lines', 'payment_ids'],
    });
    expect(created?.config_id).toEqual(o?.config_id);
    expect(created?.lines).toEqual([]);
    expect(created?.create_date).toBe(created?.write_date);
    const [s1] = await rpc.ok<{ order_count: number }[]>('pos.session', 'read', [[sid]], {
      fields: ['order_count'],
    });
    expect(s1?.order_count).toBe((s0?.order_count ?? 0) + 1);
    const oldest = await rpc.ok<{ id: number }[]>('pos.order', 'search_read', [[]], {
      fields: ['id'],
      order: 'date_order asc',
      limit: 1,
    });
    expect(oldest[0]?.id).toBe(id);
    const lineId = await rpc.ok<number>('pos.order.line', 'create', [
      { order_id: id, product_id: 11, qty: 1, price_unit: 12.5 },
    ]);
    const [withLine] = await rpc.ok<{ lines: number[] }[]>('pos.order', 'read', [[id]], {
      fields: ['lines'],
    });
    expect(withLine?.lines).toEqual([lineId]);
    // A refund line created through the API shows in the (cached) subquery on lines at once.
    const refunds0 = await rpc.ok<number>('pos.order', 'search_count', [
      [['lines.refunded_orderline_id', '!=', false]],
    ]);
    await rpc.ok('pos.order.line', 'create', [
      { order_id: id, product_id: 11, qty: -1, price_unit: 12.5, refunded_orderline_id: 1 },
    ]);
    expect(
      await rpc.ok<number>('pos.order', 'search_count', [[['lines.refunded_orderline_id', '!=', false]]]),
    ).toBe(refunds0 + 1);
    expect(await rpc.ok('pos.order', 'unlink', [[id]]).catch((e: Error) => e.message)).toContain('UserError');
  });
});
