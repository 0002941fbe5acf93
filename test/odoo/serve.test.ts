// posdata serve in front of the real Odoo 17: the specification's paths, called with an
// administrator's token and a POS user's, answer what direct RPC gives those users (the
// contract's JSON shape, test/odoo/reference.ts); Odoo's refusals and unknown orders come
// back as problem documents.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loginOdoo, rpcOdoo } from '../helpers/odoo17.js';
import type { Rpc } from '../helpers/rpc.js';
import { get, login, type Served, startServe } from '../serve/serve-process.js';
import { expectJson, LINES, type Obj, odooTime, Reference, SPECS, type Spec, utc } from './reference.js';

const odoo = inject('odoo');

/** The spec's path of each list resource (section 4, and the README's additions). */
const PATHS: Record<string, string> = {
  configs: '/api/v1/pos/configs',
  sales: '/api/v1/sales',
  refunds: '/api/v1/refunds',
  cancellations: '/api/v1/cancellations',
  closures: '/api/v1/sessions/closures',
  payments: '/api/v1/payments',
  products: '/api/v1/products',
};

let served: Served;
beforeAll(async () => {
  // The service takes Odoo's URL and database from a profile; users log in through it.
  const env = await loginOdoo(odoo, 'admin');
  served = await startServe(['--rate', '0', '--client-rate', '0'], env);
});
afterAll(async () => {
  await served?.stop();
});

describe.each(['admin', 'cashier'] as const)('as %s', (who) => {
  let token: string;
  let rpc: Rpc;
  let ref: Reference;
  beforeAll(async () => {
    [token, rpc] = await Promise.all([
      login(served.base, odoo[who].login, odoo[who].password),
      rpcOdoo(odoo, who),
    ]);
    ref = await Reference.open(rpc);
  });

  async function records(path: string): Promise<Obj[]> {
    const r = await get(served.base, path, token);
    expect(r.status, `${path}: ${r.text.slice(0, 300)}`).toBe(200);
    return JSON.parse(r.text) as Obj[];
  }

  it('each list path answers search_read with the fixed filter', async () => {
    await Promise.all(
      SPECS.map(async (s) => {
        const path = PATHS[s.name] as string;
        expectJson(await records(path), await ref.rows(s), `${who} GET ${path}`);
      }),
    );
  });

  it('config_id, session_id, from/to with tz equal their domains; lines of an order', async () => {
    const sales = SPECS.find((s) => s.name === 'sales') as Spec;
    const closures = SPECS.find((s) => s.name === 'closures') as Spec;
    const [order] = (await rpc.searchRead('pos.order.line', [['refunded_orderline_id', '!=', false]], {
      fields: ['order_id'],
      limit: 1,
    })) as [Obj];
    const orderId = (order.order_id as [number])[0];
    const [o] = (await rpc.kw<Obj[]>('pos.order', 'read', [
      [orderId],
      ['config_id', 'session_id', 'date_order'],
    ])) as [Obj];
    const config = (o.config_id as [number])[0];
    const session = (o.session_id as [number])[0];
    const zone = 'Europe/Lisbon';
    // The day before the refunded order's to the day after (in that zone): it holds the order.
    const from = utc(o.date_order as string)
      .setZone(zone)
      .minus({ days: 1 })
      .startOf('day');
    const to = from.plus({ days: 2 });
    const q = `from=${from.toISODate()}&to=${to.toISODate()}&tz=${zone}`;
    const checks: [string, Spec, unknown[], { tz?: string }?][] = [
      [`/api/v1/sales?config_id=${config}`, sales, [['config_id', '=', config]]],
      [`/api/v1/sales?session_id=${session}`, sales, [['session_id', '=', session]]],
      [`/api/v1/sessions/closures?config_id=${config}`, closures, [['config_id', '=', config]]],
      [
        `/api/v1/sales?${q}`,
        sales,
        [
          ['date_order', '>=', odooTime(from)],
          ['date_order', '<', odooTime(to.plus({ days: 1 }))],
        ],
        { tz: zone },
      ],
      [`/api/v1/sales/${orderId}/lines`, LINES, [['order_id', '=', orderId]]],
    ];
    await Promise.all(
      checks.map(async ([path, s, domain, opts]) => {
        const expected = await ref.rows(s, domain, opts);
        expect(expected.length, `${path} keeps something`).toBeGreaterThan(0);
        expectJson(await records(path), expected, `${who} GET ${path}`);
      }),
    );
    const [last] = await rpc.searchRead('pos.order', [], { fields: ['id'], order: 'id desc', limit: 1 });
    const missing = await get(served.base, `/api/v1/sales/${(last?.id as number) + 1000}/lines`, token);
    expect(missing.status).toBe(404);
    expect(missing.type).toMatch(/^application\/problem\+json/);
  });

  it("reconcile: each closed session's difference and counted cash are Odoo's", async () => {
    const rows = await records('/api/v1/reconcile');
    const sessions = await rpc.searchRead('pos.session', [['state', '=', 'closed']], {
      fields: ['cash_register_difference', 'cash_register_balance_end_real'],
      order: 'id',
    });
    expect(rows.map((r) => r.session_id).sort((a, b) => (a as number) - (b as number))).toEqual(
      sessions.map((s) => s.id),
    );
    const cents = (v: unknown) => Math.round((v as number) * 100);
    for (const s of sessions) {
      const row = rows.find((r) => r.session_id === s.id) as Obj;
      expect(cents(row.difference), `session ${s.id}`).toBe(cents(s.cash_register_difference));
      expect(cents(row.counted_cash), `session ${s.id}`).toBe(cents(s.cash_register_balance_end_real));
    }
  });
});

describe('books', () => {
  it("answers the administrator the rows of posdata books, and refuses the POS user the journal (403) but not --pos-only's", async () => {
    const admin = await login(served.base, odoo.admin.login, odoo.admin.password);
    const r = await get(served.base, '/api/v1/books?from=2026-11-01&to=2026-11-30&tz=UTC', admin);
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const env = await loginOdoo(odoo, 'admin');
    const cli = await runCli(
      ['books', '--format', 'json', '--from', '2026-11-01', '--to', '2026-11-30', '--tz', 'UTC'],
      { env },
    );
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(r.text)).toEqual(JSON.parse(cli.stdout));
    const cashier = await login(served.base, odoo.cashier.login, odoo.cashier.password);
    const refused = await get(served.base, '/api/v1/books', cashier);
    expect(refused.status).toBe(403);
    expect(refused.text).toMatch(/accounting rights/);
    const pos = await get(served.base, '/api/v1/books?pos_only=true', cashier);
    expect(pos.status, pos.text.slice(0, 300)).toBe(200);
    expect((JSON.parse(pos.text) as Obj[]).every((x) => x.books === null)).toBe(true);
  });
});

describe('what Odoo refuses the POS user', () => {
  it("is a 403 problem document naming Odoo's refusal, as direct RPC is refused", async () => {
    const rpc = await rpcOdoo(odoo, 'cashier');
    const refused = await rpc.searchRead('pos.session', [], { fields: ['bank_payment_ids'], limit: 1 }).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(refused, 'Odoo refuses the POS user the session payments').toMatch(/AccessError/);
    const token = await login(served.base, odoo.cashier.login, odoo.cashier.password);
    const r = await get(served.base, '/api/v1/sessions/closures?fields=id,bank_payment_ids', token);
    expect(r.status).toBe(403);
    expect(r.type).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(r.text).detail).toMatch(/Odoo refused access/);
  });
});
