// web_search_read (17+), the web client's list read that posdata uses for the currency's
// decimals in one request: the sandbox answers it as the real Odoo 17 does. The same calls
// go to both, as the administrator and as a POS user; what is compared is the shape (keys in
// their order, the kind of every value, relations nested as asked) and the `length` rule
// (the domain's count once a page comes back full, else what came back past the offset).
// The values themselves differ: the two hold different data.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ALL_TIME, debugCalls, runCli } from '../helpers/cli.js';
import { loginOdoo, rpcOdoo } from '../helpers/odoo17.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const odoo = inject('odoo');

/** The shape of a JSON value: objects by their keys in order, lists by their items' shapes. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return [...new Set(v.map((x) => JSON.stringify(shape(x))))].map((s) => JSON.parse(s));
  if (v !== null && typeof v === 'object') return Object.entries(v).map(([k, x]) => [k, shape(x)]);
  return v === null ? 'null' : typeof v;
}

const CURRENCY = { currency_id: { fields: { decimal_places: {} } } };
const ORDERS = {
  name: {},
  amount_total: {},
  config_id: {},
  session_id: { fields: { name: {} } },
  payment_ids: {},
  lines: { fields: { qty: {} } },
};

type Reply = { length: number; records: Record<string, unknown>[] };

describe.each([
  ['admin', 'admin'],
  ['cashier', 'pos'],
] as const)('as %s (the sandbox: %s)', (who, sandboxLogin) => {
  let sandbox: SandboxHandle;
  let real: Rpc;
  let ours: Rpc;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 4, orders: 400, days: 5 });
    real = await rpcOdoo(odoo, who);
    ours = new Rpc(sandbox.url, 'demo', sandboxLogin, sandboxLogin);
    await ours.auth();
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  const both = (model: string, domain: unknown[], kwargs: Record<string, unknown>): Promise<[Reply, Reply]> =>
    Promise.all([
      real.kw<Reply>(model, 'web_search_read', [domain], kwargs),
      ours.kw<Reply>(model, 'web_search_read', [domain], kwargs),
    ]);

  it("res.company with its currency's decimal_places nested: one request, the same shape", async () => {
    const [r, s] = await both('res.company', [], { specification: CURRENCY });
    expect(s.records.length).toBeGreaterThan(0);
    expect(shape(s)).toEqual(shape(r));
    for (const c of [...r.records, ...s.records]) expect(Object.keys(c)).toEqual(['id', 'currency_id']);
    const currency = s.records[0]?.currency_id as { decimal_places: number };
    expect(currency.decimal_places).toBe(2);
  });

  it('orders: plain fields, a bare many2one, one nested, ids, lines nested; length is the count', async () => {
    const [r, s] = await both('pos.order', [], { specification: ORDERS, limit: 2, order: 'id' });
    expect(shape(s)).toEqual(shape(r));
    expect(r.length).toBe(await real.count('pos.order', []));
    expect(s.length).toBe(await ours.count('pos.order', []));
  });

  it('count_limit caps the length; a page that is not full counts what came back past the offset', async () => {
    const [r, s] = await both('pos.order', [], { specification: { name: {} }, limit: 2, count_limit: 5 });
    expect([r.length, s.length]).toEqual([5, 5]);
    const [rc, sc] = await Promise.all([real.count('pos.order', []), ours.count('pos.order', [])]);
    const [r2, s2] = await Promise.all([
      real.kw<Reply>('pos.order', 'web_search_read', [[]], {
        specification: { name: {} },
        limit: 2,
        offset: rc - 1,
      }),
      ours.kw<Reply>('pos.order', 'web_search_read', [[]], {
        specification: { name: {} },
        limit: 2,
        offset: sc - 1,
      }),
    ]);
    expect([r2.records.length, s2.records.length]).toEqual([1, 1]);
    expect([r2.length, s2.length]).toEqual([rc, sc]);
  });

  it('nothing found, an empty specification, an unknown field: the same answers', async () => {
    const [r, s] = await both('pos.order', [['id', '<', 0]], { specification: { name: {} } });
    expect(s).toEqual(r);
    expect(s).toEqual({ length: 0, records: [] });
    const [re, se] = await both('pos.order', [], { specification: {}, limit: 2 });
    expect(shape(se)).toEqual(shape(re));
    const errors = await Promise.all(
      [real, ours].map((c) =>
        c.kw('pos.order', 'web_search_read', [[]], { specification: { nope: {} }, limit: 1 }).then(
          () => 'no error',
          (e: Error) => e.message,
        ),
      ),
    );
    expect(errors[1]).toBe(errors[0]);
    expect(errors[0]).toBe("builtins.ValueError: Invalid field 'nope' on model 'pos.order'");
  });
});

describe('posdata summary on the real Odoo 17', () => {
  it.each(['admin', 'cashier'] as const)(
    "as %s: the currency's decimals in one web_search_read, the figures at them",
    async (who) => {
      const env = await loginOdoo(odoo, who);
      const r = await runCli(['summary', ...ALL_TIME, '--format', 'json', '--debug'], { env });
      expect(r.code, r.stderr).toBe(0);
      const currency = debugCalls(r.stderr).filter((c) => /^res\.(company|currency)\./.test(c));
      expect(currency).toEqual(['res.company.web_search_read']);
      const rows = JSON.parse(r.stdout) as { total: number }[];
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(String(row.total)).toMatch(/^-?\d+(\.\d{1,2})?$/);
    },
  );
});
