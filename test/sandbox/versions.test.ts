// The sandbox as Odoo 16 and 18 (from the fact sheet and the sources it cites), beside 17 and 19:
// what each version has and refuses, most of all grouping by a field that is not stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { startSandboxCommand } from './command.js';

type R = Record<string, unknown>;
const NOW = new Date('2026-11-21T16:00:00Z');
const boxes = new Map<number, SandboxHandle>();

beforeAll(async () => {
  const started = await Promise.all(
    ([16, 17, 18, 19] as const).map((v) =>
      startTestSandbox({ seed: 5, orders: 400, days: 4, now: NOW, odooVersion: v }),
    ),
  );
  for (const sb of started) boxes.set(sb.odooVersion as number, sb);
});
afterAll(async () => {
  await Promise.all([...boxes.values()].map((sb) => sb.close()));
});

const rpc = (v: number) => rpcClient((boxes.get(v) as SandboxHandle).url);
async function error(v: number, model: string, method: string, args: unknown[], kwargs: R = {}) {
  const r = await rpc(v).kw(model, method, args, kwargs);
  expect(r.result).toBeUndefined();
  return { code: r.error?.code, name: r.error?.data.name, message: r.error?.data.message };
}

describe('common.version', () => {
  it.each([
    [16, '16.0'],
    [17, '17.0-20240709'],
    [18, '18.0'],
    [19, '19.0'],
  ])('%i says %s', async (v, text) => {
    const r = await rpc(v).call('common', 'version', []);
    expect(r.result).toMatchObject({
      server_version: text,
      server_version_info: [v, 0, 0, 'final', 0, ''],
      server_serie: `${v}.0`,
    });
  });
});

describe('grouping by a field that is not stored', () => {
  it('16: pos.order config_id is related to the session, not stored: read_group refuses it with a UserError', async () => {
    const got = await error(16, 'pos.order', 'read_group', [[], ['amount_total'], ['config_id']], {
      lazy: false,
    });
    expect(got).toEqual({
      code: 200,
      name: 'odoo.exceptions.UserError',
      message:
        "Field pos.order.config_id is not a stored field, only stored fields (regular or many2many) are valid for the 'groupby' parameter",
    });
    const fields = await rpc(16).ok<Record<string, R>>('pos.order', 'fields_get', [['config_id']], {
      attributes: ['type', 'store', 'relation'],
    });
    expect(fields.config_id).toEqual({ relation: 'pos.config', store: false, type: 'many2one' });
  });

  it('16: config_id is still read and searched through the session, and grouping by session works', async () => {
    const c = rpc(16);
    const orders = await c.ok<R[]>('pos.order', 'search_read', [[], ['config_id', 'session_id']]);
    const sessions = await c.ok<R[]>('pos.session', 'search_read', [[], ['config_id']]);
    const configOf = new Map(sessions.map((s) => [s.id, (s.config_id as [number, string])[0]]));
    for (const o of orders)
      expect((o.config_id as [number, string])[0]).toBe(configOf.get((o.session_id as [number])[0]));
    const inShop = orders.filter((o) => (o.config_id as [number])[0] === 1).length;
    expect(inShop).toBeGreaterThan(0);
    expect(await c.ok('pos.order', 'search_count', [[['config_id', '=', 1]]])).toBe(inShop);
    const groups = await c.ok<R[]>('pos.order', 'read_group', [[], ['amount_total'], ['session_id']], {
      lazy: false,
    });
    expect(groups.reduce((n, g) => n + (g.__count as number), 0)).toBe(orders.length);
    expect(await error(16, 'pos.order', 'read_group', [[], ['refund_orders_count:sum'], ['state']])).toEqual({
      code: 200,
      name: 'odoo.exceptions.UserError',
      message: "Cannot aggregate field 'refund_orders_count'.",
    });
  });

  it('17: ValueError "Cannot convert field ... to SQL" (as a real 17 answers), for a computed field and a related one', async () => {
    expect(await error(17, 'pos.order', 'read_group', [[], ['amount_total'], ['is_refunded']])).toEqual({
      code: 200,
      name: 'builtins.ValueError',
      message: 'Cannot convert field pos.order.is_refunded to SQL',
    });
    expect(
      await error(17, 'pos.order', 'read_group', [[], ['amount_total'], ['refunded_order_ids']]),
    ).toMatchObject({ message: 'Cannot convert field pos.order.refunded_order_ids to SQL' });
    expect(
      await error(17, 'pos.order', 'read_group', [[], ['refund_orders_count:sum'], ['state']]),
    ).toMatchObject({ message: 'Cannot convert field pos.order.refund_orders_count to SQL' });
    // config_id is stored from 17 on.
    const groups = await rpc(17).ok<R[]>('pos.order', 'read_group', [[], ['amount_total'], ['config_id']]);
    expect(groups.length).toBeGreaterThan(1);
  });

  it('18 and 19: ValueError "Cannot convert ... to SQL because it is not stored"', async () => {
    for (const v of [18, 19])
      expect(
        await error(v, 'pos.order', 'read_group', [[], ['amount_total'], ['refunded_order_id']]),
      ).toEqual({
        code: v === 19 ? 0 : 200,
        name: 'builtins.ValueError',
        message: 'Cannot convert pos.order.refunded_order_id to SQL because it is not stored',
      });
  });
});

describe('16 and 18 as the fact sheet gives them', () => {
  const fieldNames = async (v: number, model: string) =>
    Object.keys(await rpc(v).ok<R>(model, 'fields_get', [], { attributes: ['type'] }));

  it('refund fields: 16 as 17 (refunded_order_ids, is_refunded), 18 refunded_order_id, 19 adds is_refund', async () => {
    const has = async (v: number) => {
      const names = await fieldNames(v, 'pos.order');
      return ['refunded_order_ids', 'is_refunded', 'refunded_orders_count', 'refunded_order_id', 'is_refund']
        .filter((f) => names.includes(f))
        .join(',');
    };
    expect(await has(16)).toBe('refunded_order_ids,is_refunded,refunded_orders_count');
    expect(await has(17)).toBe('refunded_order_ids,is_refunded,refunded_orders_count');
    expect(await has(18)).toBe('refunded_order_id');
    expect(await has(19)).toBe('refunded_order_id,is_refund');
    const refunds = await rpc(18).ok<R[]>('pos.order', 'search_read', [
      [['lines.refunded_orderline_id', '!=', false]],
      ['refunded_order_id', 'amount_total', 'name'],
    ]);
    expect(refunds.length).toBeGreaterThan(0);
    for (const r of refunds) {
      expect(r.refunded_order_id).toEqual([expect.any(Number), expect.any(String)]);
      expect(`${(r.refunded_order_id as [number, string])[1]} REFUND`).toBe(r.name);
    }
    // 16-18 drop a leaf on a non-stored field that cannot be searched; 19 refuses it.
    const all = await rpc(18).ok('pos.order', 'search_count', [[]]);
    expect(await rpc(18).ok('pos.order', 'search_count', [[['refunded_order_id', '!=', false]]])).toBe(all);
  });

  it('state: invoiced up to 18, gone on 19; amounts Float up to 18', async () => {
    for (const v of [16, 18, 19]) {
      const f = await rpc(v).ok<Record<string, R>>('pos.order', 'fields_get', [['state', 'amount_total']], {
        attributes: ['selection', 'type'],
      });
      const states = ((f.state as R).selection as [string, string][]).map((s) => s[0]);
      expect(states.includes('invoiced')).toBe(v < 19);
      expect(f.amount_total?.type).toBe(v < 19 ? 'float' : 'monetary');
    }
    const invoiced = await rpc(18).ok('pos.order', 'search_count', [[['state', '=', 'invoiced']]]);
    expect(invoiced).toBeGreaterThan(0);
  });

  it('register labels: "(not used)" or the session user on 16/17, the plain name on 18/19', async () => {
    for (const v of [16, 17, 18, 19]) {
      const orders = await rpc(v).ok<R[]>('pos.order', 'search_read', [[], ['config_id']], { limit: 400 });
      const labels = new Set(orders.map((o) => (o.config_id as [number, string])[1]));
      const configs = await rpc(v).ok<R[]>('pos.config', 'search_read', [[], ['name']]);
      const names = new Set(configs.map((c) => c.name));
      for (const l of labels) {
        if (v >= 18) expect(names.has(l)).toBe(true);
        else expect(l).toMatch(/^\S+ \((not used|.+)\)$/);
      }
    }
  });

  it('orders of payment methods (16 by id) and products (16/17 priority, 18/19 is_favorite); the aggregator key', async () => {
    const methods = await rpc(16).ok<R[]>('pos.payment.method', 'search_read', [[], ['id']]);
    expect(methods.map((m) => m.id)).toEqual([...methods.map((m) => m.id as number)].sort((a, b) => a - b));
    expect(await fieldNames(16, 'product.template')).toContain('priority');
    expect(await fieldNames(18, 'product.template')).toContain('is_favorite');
    expect(await fieldNames(18, 'product.template')).not.toContain('priority');
    const fav = await rpc(18).ok<R[]>('product.template', 'search_read', [[], ['is_favorite']]);
    const firstPlain = fav.findIndex((p) => p.is_favorite !== true);
    expect(fav.slice(firstPlain).some((p) => p.is_favorite === true)).toBe(false);
    const agg = async (v: number) =>
      Object.keys(
        (
          await rpc(v).ok<Record<string, R>>('pos.order', 'fields_get', [['amount_total']], {
            attributes: ['aggregator', 'group_operator'],
          })
        ).amount_total as R,
      );
    expect(await agg(16)).toEqual(['group_operator']);
    expect(await agg(18)).toEqual(['aggregator']);
  });

  it('theoretical cash: 16 from the previous closing plus cash moves, 18 from the opening balance', async () => {
    for (const v of [16, 18]) {
      const sessions = await rpc(v).ok<R[]>(
        'pos.session',
        'search_read',
        [
          [],
          [
            'config_id',
            'cash_register_balance_start',
            'cash_register_balance_end',
            'cash_register_balance_end_real',
            'state',
          ],
        ],
        { order: 'id' },
      );
      const names = await fieldNames(v, 'pos.session');
      expect(names.includes('cash_register_total_entry_encoding')).toBe(v < 18);
      const s = sessions.find((x) => (x.cash_register_balance_start as number) > 0) as R;
      expect(s).toBeDefined();
      const payments = await rpc(v).ok<R[]>('pos.payment', 'search_read', [
        [
          ['session_id', '=', s.id],
          ['payment_method_id.is_cash_count', '=', true],
        ],
        ['amount'],
      ]);
      const moves = await rpc(v).ok<R[]>('account.bank.statement.line', 'search_read', [
        [['pos_session_id', '=', s.id]],
        ['amount'],
      ]);
      // A closed session counts the cash lines from before its closing (cash_real_transaction).
      const moved =
        s.state === 'closed'
          ? (await rpc(v).ok<R[]>('pos.session', 'read', [[s.id], ['cash_real_transaction']]))[0]
              ?.cash_real_transaction
          : moves.reduce((x, p) => x + (p.amount as number), 0);
      const cash = payments.reduce((x, p) => x + (p.amount as number), 0) + (moved as number);
      // 16: the counted cash of the register's session before, not this session's opening balance.
      const before = sessions.filter(
        (x) =>
          (x.id as number) < (s.id as number) &&
          (x.config_id as [number])[0] === (s.config_id as [number])[0],
      );
      const opening =
        v === 18
          ? (s.cash_register_balance_start as number)
          : ((before.at(-1)?.cash_register_balance_end_real as number | undefined) ?? 0);
      expect(s.cash_register_balance_end).toBeCloseTo(opening + cash, 6);
    }
  });

  it('JSON-2 and /json/version only on 19; JSON-RPC error code 200 up to 18, 0 on 19', async () => {
    for (const v of [16, 18]) {
      const sb = boxes.get(v) as SandboxHandle;
      expect((await fetch(`${sb.url}/json/version`)).status).toBe(404);
      expect((await error(v, 'no.such.model', 'search', [[]])).code).toBe(200);
    }
  });
});

describe('posdata sandbox --odoo-version', () => {
  it.each(['16', '18'])('%s starts and says so', async (v) => {
    const sb = await startSandboxCommand(['--odoo-version', v, '--orders', '30']);
    try {
      expect(sb.banner).toContain(`Odoo ${v}.0 on http://`);
      const r = await rpcClient(sb.url).call('common', 'version', []);
      expect((r.result as R).server_serie).toBe(`${v}.0`);
    } finally {
      sb.stop();
    }
  });
});

describe('web_search_read', () => {
  const spec = { currency_id: { fields: { decimal_places: {} } } };
  it.each([17, 18, 19])('%i reads a specification, relations nested', async (v) => {
    const got = await rpc(v).ok<{ length: number; records: R[] }>('res.company', 'web_search_read', [[]], {
      specification: spec,
    });
    expect(got).toEqual({ length: 1, records: [{ id: 1, currency_id: { id: 1, decimal_places: 2 } }] });
  });
  it('16 reads a list of fields, as its search_read does (17 made it a specification)', async () => {
    const got = await rpc(16).ok<{ length: number; records: R[] }>('res.company', 'web_search_read', [[]], {
      fields: ['currency_id'],
    });
    expect(got).toEqual({ length: 1, records: [{ id: 1, currency_id: [1, 'EUR'] }] });
    expect(await error(16, 'res.company', 'web_search_read', [[]], { specification: spec })).toMatchObject({
      name: 'builtins.TypeError',
      message: "BaseModel.web_search_read() got an unexpected keyword argument 'specification'",
    });
  });
});
