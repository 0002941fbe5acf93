// The sandbox as the real Odoo 17 on the companies of order lines. Odoo 16-19 keep no
// multi-company record rule on pos.order.line (point_of_sale_security.xml rules orders,
// sessions, registers, payments and methods): a user of company 1 only reads company 2's lines
// too, and so does the administrator with allowed_company_ids [1]. A search through a relation
// still meets the comodel's rule: `order_id.date_order`, `order_id any` and a name compared
// with order_id search pos.order, which is ruled, so they find the call's companies' lines. The
// sandbox hid the other companies' lines, so no sandbox-based test could catch a client that
// read them whole (sync and the tap did until b1141b6). The two servers hold different data
// (real posmc, the sandbox with --companies 2), so each is checked against itself: what a user
// of company 1 finds equals what the administrator finds with the companies the rule implies.
// This file starts its own posmc server (read-only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RealOdooHandle, rpcOdoo, startRealOdoo } from '../helpers/odoo17.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type Which = 'real' | 'sandbox';
/** The administrator, and a user allowed in company 1 only. */
const rpcs = {} as Record<Which, { admin: Rpc; one: Rpc }>;
let odoo: RealOdooHandle;
let sandbox: SandboxHandle;

beforeAll(async () => {
  [odoo, sandbox] = await Promise.all([
    startRealOdoo('posmc'),
    startTestSandbox({ seed: 4, orders: 200, days: 4, companies: 2, now: new Date('2026-11-25T12:00:00Z') }),
  ]);
  rpcs.real = { admin: await rpcOdoo(odoo, 'admin'), one: await rpcOdoo(odoo, 'cashier') };
  rpcs.sandbox = {
    admin: new Rpc(sandbox.url, 'demo', 'admin', 'admin'),
    one: new Rpc(sandbox.url, 'demo', 'pos', 'pos'),
  };
}, 600_000);
afterAll(async () => {
  await sandbox?.close();
  await odoo?.stop();
}, 120_000);

const LINE = 'pos.order.line';
const ctx = (companies?: number[]) => (companies ? { context: { allowed_company_ids: companies } } : {});
const count = (rpc: Rpc, domain: unknown[], companies?: number[], model = LINE) =>
  rpc.kw<number>(model, 'search_count', [domain], ctx(companies));

describe.each(['real', 'sandbox'] as const)('on the %s server', (which: Which) => {
  /** Lines per company, as the administrator counts them with both companies. */
  const perCompany = async () => {
    const { admin } = rpcs[which];
    const [all, c1, c2] = await Promise.all([
      count(admin, [], [1, 2]),
      count(admin, [['company_id', '=', 1]], [1, 2]),
      count(admin, [['company_id', '=', 2]], [1, 2]),
    ]);
    expect(c1).toBeGreaterThan(0);
    expect(c2).toBeGreaterThan(0);
    expect(c1 + c2).toBe(all);
    return { all, c1, c2 };
  };

  it("a user of company 1 reads every company's lines: no record rule on pos.order.line", async () => {
    const { one } = rpcs[which];
    const { all, c2 } = await perCompany();
    expect(await count(one, [])).toBe(all);
    expect(await count(one, [['company_id', '=', 2]])).toBe(c2);
    // Its orders, payments and sessions are company 1's only.
    for (const model of ['pos.order', 'pos.payment', 'pos.session'])
      expect(await count(one, [['company_id', '=', 2]], undefined, model), model).toBe(0);
    const groups = await one.kw<{ company_id: [number, string]; __count: number }[]>(
      LINE,
      'read_group',
      [[], ['qty:sum'], ['company_id']],
      { lazy: false },
    );
    const seen = Object.fromEntries(groups.map((g) => [g.company_id[0], g.__count]));
    const { c1 } = await perCompany();
    expect(seen).toEqual({ 1: c1, 2: c2 });
  });

  it('the administrator with allowed_company_ids [1] reads them all too', async () => {
    const { all } = await perCompany();
    expect(await count(rpcs[which].admin, [], [1])).toBe(all);
    expect(await count(rpcs[which].admin, [], [2])).toBe(all);
  });

  it("a leaf through order_id meets pos.order's rule: the call's companies' lines", async () => {
    const { admin, one } = rpcs[which];
    const { c1, c2 } = await perCompany();
    const dated = [['order_id.date_order', '>=', '2000-01-01 00:00:00']];
    const any = [['order_id', 'any', [['id', '!=', 0]]]];
    for (const domain of [dated, any]) {
      expect(await count(one, domain), JSON.stringify(domain)).toBe(c1);
      expect(await count(admin, domain, [1]), JSON.stringify(domain)).toBe(c1);
      expect(await count(admin, domain, [2]), JSON.stringify(domain)).toBe(c2);
      expect(await count(admin, domain, [1, 2]), JSON.stringify(domain)).toBe(c1 + c2);
    }
    expect(await count(one, [['order_id.company_id', '=', 2]])).toBe(0);
  });

  it('an order of company 2 for a user of company 1: not found by name, its lines by id, the order refused', async () => {
    const { admin, one } = rpcs[which];
    const [order] = await admin.searchRead<{ id: number; name: string }>(
      'pos.order',
      [['company_id', '=', 2]],
      {
        fields: ['name'],
        order: 'id',
        limit: 1,
        ...ctx([1, 2]),
      },
    );
    const { id, name } = order as { id: number; name: string };
    const lines = await count(admin, [['order_id', '=', id]], [1, 2]);
    expect(lines).toBeGreaterThan(0);
    expect(await count(admin, [['order_id', '=', name]], [1, 2])).toBe(lines);
    expect(await count(one, [['order_id', '=', name]])).toBe(0);
    expect(await count(one, [['order_id', '=', id]])).toBe(lines);
    // Its lines read by id; the order itself is refused, the whole read (Odoo's record rule).
    const [line] = await one.kw<number[]>(LINE, 'search', [[['order_id', '=', id]]], { limit: 1 });
    const [read] = await one.kw<{ order_id: [number, string] }[]>(LINE, 'read', [[line], ['order_id']]);
    expect(read?.order_id).toEqual([id, name]);
    const refused = await one.kw('pos.order', 'read', [[id], ['name']]).then(
      () => 'no error',
      (e: Error) => e.message.replace(/Sorry, .* \(id=\d+\)/, 'Sorry, USER'),
    );
    expect(refused).toBe(
      "odoo.exceptions.AccessError: Uh-oh! Looks like you have stumbled upon some top-secret records.\n\nSorry, USER doesn't have 'read' access to:\n- Point of Sale Orders (pos.order)\n\nIf you really, really need access, perhaps you can win over your friendly administrator with a batch of freshly baked cookies.",
    );
  });
});
