// Odoo 19 mode: its field set and behaviours, over JSON-2 and JSON-RPC.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
const KEY = 'v19-admin-key';

beforeAll(async () => {
  sandbox = await startTestSandbox({
    odooVersion: 19,
    adminKey: KEY,
    seed: 21,
    orders: 1500,
    now: new Date('2026-11-21T13:00:00Z'),
  });
});
afterAll(async () => {
  await sandbox?.close();
});

async function j2(
  model: string,
  method: string,
  body: unknown,
  key = KEY,
): Promise<{ status: number; body: unknown }> {
  const r = await fetch(`${sandbox.url}/json/2/${model}/${method}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `bearer ${key}`,
      'X-Odoo-Database': 'demo',
    },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
}
type R = Record<string, unknown> & { id: number };

describe('Odoo 19 mode', () => {
  it('reports 19.0 on every version route', async () => {
    expect(await (await fetch(`${sandbox.url}/json/version`)).json()).toEqual({
      version_info: [19, 0, 0, 'final', 0, ''],
      version: '19.0',
    });
    const rpc = rpcClient(sandbox.url);
    expect(((await rpc.call('common', 'version', [])).result as { server_serie: string }).server_serie).toBe(
      '19.0',
    );
  });

  it('refunds: is_refund stored and searchable, refunded_order_id computed', async () => {
    const r = await j2('pos.order', 'search_read', {
      domain: [['is_refund', '=', true]],
      fields: ['name', 'amount_total', 'refunded_order_id'],
    });
    const refunds = r.body as R[];
    expect(refunds.length).toBeGreaterThan(0);
    for (const o of refunds) {
      expect(o.amount_total as number).toBeLessThan(0);
      expect(Array.isArray(o.refunded_order_id)).toBe(true);
      expect(o.name).toBe(`${(o.refunded_order_id as [number, string])[1]} REFUND`);
    }
    const byLines = await j2('pos.order', 'search', {
      domain: [['lines.refunded_orderline_id', '!=', false]],
      order: 'id',
    });
    expect(byLines.body).toEqual(refunds.map((o) => o.id).sort((a, b) => a - b));
    const nonStored = await j2('pos.order', 'search_count', { domain: [['refunded_order_id', '!=', false]] });
    expect(nonStored.status).toBe(500);
    expect((nonStored.body as { message: string }).message).toBe(
      'Cannot convert pos.order.refunded_order_id to SQL because it is not stored',
    );
    const old = await j2('pos.order', 'search_read', {
      domain: [],
      fields: ['refunded_order_ids'],
      limit: 1,
    });
    expect(old.status).toBe(500);
  });

  it('has no invoiced state, plain register names, per-register session names', async () => {
    const states = (await j2('pos.order', 'read_group', { domain: [], fields: [], groupby: ['state'] }))
      .body as R[];
    expect(states.map((g) => g.state)).not.toContain('invoiced');
    const invoiced = await j2('pos.order', 'search_count', { domain: [['account_move', '!=', false]] });
    expect(invoiced.body as number).toBeGreaterThan(0);
    const configs = (await j2('pos.config', 'search_read', { domain: [], fields: ['name', 'display_name'] }))
      .body as R[];
    for (const c of configs) expect(c.display_name).toBe(c.name);
    const sessions = (
      await j2('pos.session', 'search_read', { domain: [], fields: ['name', 'config_id'], limit: 5 })
    ).body as R[];
    for (const s of sessions)
      expect(String(s.name).startsWith(`${(s.config_id as [number, string])[1]}/`)).toBe(true);
  });

  it('reads a date-only bound as midnight in the user zone (Europe/Brussels, or context tz)', async () => {
    const count = async (context: Record<string, unknown>) =>
      (await j2('pos.order', 'search_count', { domain: [['date_order', '>=', '2026-11-21']], context }))
        .body as number;
    const utc = await count({ tz: 'UTC' });
    const exact = (
      await j2('pos.order', 'search_count', { domain: [['date_order', '>=', '2026-11-21 00:00:00']] })
    ).body as number;
    expect(utc).toBe(exact);
    const kiritimati = await count({ tz: 'Pacific/Kiritimati' });
    const tenHoursEarlier = (
      await j2('pos.order', 'search_count', { domain: [['date_order', '>=', '2026-11-20 10:00:00']] })
    ).body as number;
    expect(kiritimati).toBe(tenHoursEarlier);
  });

  it('JSON-2 errors carry real HTTP statuses; the POS user and the user without POS rights have keys', async () => {
    const pos = sandbox.users.find((u) => u.login === 'pos')?.apiKey ?? '';
    const clerk = sandbox.users.find((u) => u.login === 'clerk')?.apiKey ?? '';
    expect((await j2('pos.order', 'search_count', { domain: [] }, pos)).body).toBe(1500);
    expect((await j2('pos.config', 'create', { vals_list: [{ name: 'x' }] }, pos)).status).toBe(403);
    expect((await j2('pos.order', 'search_count', { domain: [] }, clerk)).status).toBe(403);
    expect((await j2('res.users', 'context_get', {}, clerk)).body).toEqual({
      lang: 'en_US',
      tz: 'UTC',
      uid: 7,
    });
    expect((await j2('pos.order', 'search_count', { domain: [] }, sandbox.expiredKey)).status).toBe(401);
    expect((await j2('pos.order', 'write', { ids: [999999], vals: { general_note: 'x' } })).status).toBe(404);
    expect((await j2('pos.order', 'search_count', { domain: [], bogus: 1 })).status).toBe(422);
    const rpc = rpcClient(sandbox.url);
    const bad = await rpc.as(2, KEY).kw('pos.order', 'search_read', [[]], { fields: ['nope'] });
    expect(bad.error?.code).toBe(0);
    expect(Object.keys(bad.error?.data ?? {})).toEqual(['name', 'message', 'arguments', 'context', 'debug']);
  });

  it('cash: theoretical closing = opening + cash payments + moves', async () => {
    const sessions = (
      await j2('pos.session', 'search_read', {
        domain: [['state', '=', 'closed']],
        fields: [
          'cash_register_balance_start',
          'cash_register_balance_end',
          'cash_register_balance_end_real',
          'cash_register_difference',
        ],
      })
    ).body as R[];
    for (const s of sessions) {
      expect(
        Math.abs(
          (s.cash_register_balance_end_real as number) -
            (s.cash_register_balance_end as number) -
            (s.cash_register_difference as number),
        ),
      ).toBeLessThan(1e-6);
    }
  });
});

describe('Odoo 19 grouping', () => {
  it('formatted_read_group sums payments per session and method', async () => {
    const r = await j2('pos.payment', 'formatted_read_group', {
      domain: [],
      groupby: ['session_id', 'payment_method_id'],
      aggregates: ['amount:sum', '__count'],
    });
    expect(r.status).toBe(200);
    const groups = r.body as Record<string, unknown>[];
    expect(groups.length).toBeGreaterThan(1);
    const g = groups[0] as Record<string, unknown>;
    expect(Object.keys(g)).toEqual([
      'session_id',
      'payment_method_id',
      '__extra_domain',
      'amount:sum',
      '__count',
    ]);
    const total = groups.reduce((s, x) => s + (x.__count as number), 0);
    expect(total).toBe((await j2('pos.payment', 'search_count', { domain: [] })).body);
  });
});
