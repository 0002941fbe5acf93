// The tap and the exports over a real shop's modules (the sandbox as posshop: pos_hr,
// pos_restaurant, pos_loyalty, pos_discount): sales carry the employee at the register, the
// table, the guests and the tip, with their company and currency; lines carry the reward and
// the card it used, whose code (it spends a gift card's money) is never written in clear.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, loginEnv, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, SHOP_MODULES, startTestSandbox } from '../helpers/sandbox.js';
import { tapConfig, writeTapConfig } from './config.js';
import { checkOutput } from './singer.js';

type Obj = Record<string, unknown>;
let sb: SandboxHandle;
let dir: string;
let rpc: Rpc;
let codes: string[];

beforeAll(async () => {
  dir = freshConfigDir();
  sb = await startTestSandbox({ seed: 29, orders: 400, days: 8, adminKey: SUITE_SECRET, ...SHOP_MODULES });
  rpc = new Rpc(sb.url, 'demo', 'admin', SUITE_SECRET);
  codes = (await rpc.kw<{ code: string }[]>('loyalty.card', 'search_read', [[]], { fields: ['code'] })).map(
    (c) => c.code,
  );
}, 120_000);
afterAll(async () => {
  await sb?.close();
});

/** A Parquet file's rows. */
async function parquetRows(file: string): Promise<Obj[]> {
  const bytes = readFileSync(file);
  return (await parquetReadObjects({
    file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer,
  })) as Obj[];
}

/** No card's code appears whole in the text. */
function noCode(text: string): void {
  expect(codes.length).toBeGreaterThan(3);
  for (const code of codes) expect(text).not.toContain(code);
}

describe('a real shop through the tap and the exports', () => {
  it("the tap's sales carry employee, table, guests and tip; its lines the reward and a masked card", async () => {
    const cfg = writeTapConfig(dir, 'tap.json', tapConfig(sb));
    const r = await runCli(['tap', '--config', cfg], { env: { POSDATA_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    noCode(r.stdout);
    const out = checkOutput(r.stdout);
    const sales = out.records.get('sales') ?? [];
    const odoo = await rpc.kw<Obj[]>('pos.order', 'search_read', [[]], {
      fields: ['employee_id', 'table_id', 'customer_count', 'tip_amount', 'company_id', 'account_move'],
    });
    const invoiced = odoo.filter((o) => Array.isArray(o.account_move));
    expect(invoiced.length, 'the sandbox invoices some orders').toBeGreaterThan(0);
    const numbers = new Map(
      (
        await rpc.kw<Obj[]>('account.move', 'read', [
          invoiced.map((o) => (o.account_move as number[])[0]),
          ['name'],
        ])
      ).map((m) => [m.id, m.name]),
    );
    const byId = new Map(odoo.map((o) => [o.id, o]));
    expect(sales.length).toBe(odoo.length);
    const m2oId = (v: unknown) => (Array.isArray(v) ? v[0] : null);
    for (const s of sales) {
      const o = byId.get(s.id) as Obj;
      expect(s.employee_id).toBe(m2oId(o.employee_id));
      expect(s.table_id).toBe(m2oId(o.table_id));
      expect(s.customer_count).toBe(o.customer_count);
      expect(s.tip_amount).toBe(o.tip_amount);
      expect(s.company_id).toBe(m2oId(o.company_id));
      expect(s.currency).toBe('EUR');
      // The invoice's own number, not Odoo's label of it ("INV/2026/00005 (Shop/0008)").
      expect(s.invoice, `order ${s.id}`).toBe(numbers.get(m2oId(o.account_move)) ?? null);
    }
    expect((out.schemas.get('sales')?.properties as Obj | undefined)?.invoice).toEqual({
      type: ['null', 'string'],
    });
    expect(sales.some((s) => (s.tip_amount as number) > 0 && s.table_id !== null)).toBe(true);
    const lines = out.records.get('lines') ?? [];
    const carded = lines.filter((l) => l.coupon_id !== null);
    expect(carded.length).toBeGreaterThan(3);
    for (const l of carded) {
      expect(l.is_reward_line).toBe(true);
      expect(String(l.reward_name)).toMatch(/^(Gift Cards|Shop Points) - /);
      expect(String(l.coupon_name)).toMatch(/^(Gift Cards|Shop Points): \*+\d{4}$/);
    }
  });

  it('lines exported as CSV, JSON and Parquet write the card masked', async () => {
    const env = await loginEnv(sb.url);
    const fields = ['--fields', 'id,order_id,reward_id,coupon_id,price_subtotal_incl'];
    const base = ['lines', '--from', '2026-11-01', '--to', '2026-11-30', ...fields];
    for (const format of ['csv', 'json']) {
      const r = await runCli([...base, '--format', format], { env });
      expect(r.code, r.stderr).toBe(0);
      noCode(r.stdout);
      expect(r.stdout).toMatch(/Gift Cards: \*+\d{4}/);
    }
    const file = join(dir, 'lines.parquet');
    const p = await runCli([...base, '-o', file], { env });
    expect(p.code, p.stderr).toBe(0);
    const rows = await parquetRows(file);
    const names = rows.map((x) => x.coupon_name).filter((x) => x !== null && x !== undefined);
    expect(names.length).toBeGreaterThan(3);
    noCode(JSON.stringify(names));
  });

  it('sales exported as Parquet carry employee, table, guests, tip and invoice, with company and currency where the companies keep two', async () => {
    const shop = await startTestSandbox({
      seed: 29,
      orders: 300,
      days: 6,
      companies: 2,
      adminKey: SUITE_SECRET,
      ...SHOP_MODULES,
    });
    try {
      const env = await loginEnv(shop.url);
      const file = join(dir, 'sales.parquet');
      const fields = 'id,name,employee_id,table_id,customer_count,tip_amount,invoice,amount_total';
      const r = await runCli(
        ['sales', '--from', '2026-11-01', '--to', '2026-12-31', '--fields', fields, '-o', file],
        {
          env,
        },
      );
      expect(r.code, r.stderr).toBe(0);
      const rows = await parquetRows(file);
      const other = new Rpc(shop.url, 'demo', 'admin', SUITE_SECRET);
      const orders = await other.kw<Obj[]>('pos.order', 'search_read', [[]], {
        fields: ['employee_id', 'table_id', 'customer_count', 'tip_amount', 'company_id', 'account_move'],
      });
      const companies = await other.kw<Obj[]>('res.company', 'search_read', [[]], {
        fields: ['currency_id'],
      });
      const code = new Map(companies.map((c) => [c.id, (c.currency_id as [number, string])[1]]));
      expect(new Set(code.values()).size, 'two currencies').toBe(2);
      const moves = new Map(
        (await other.kw<Obj[]>('account.move', 'search_read', [[]], { fields: ['name'] })).map((m) => [
          m.id,
          m.name,
        ]),
      );
      const byId = new Map(orders.map((o) => [o.id, o]));
      expect(rows.length).toBeGreaterThan(100);
      const m2oId = (v: unknown) => (Array.isArray(v) ? v[0] : null);
      for (const row of rows) {
        const o = byId.get(Number(row.id)) as Obj;
        const what = `order ${row.id}`;
        expect(row.employee_id ?? null, what).toBe(m2oId(o.employee_id));
        expect(row.table_id ?? null, what).toBe(m2oId(o.table_id));
        expect(row.customer_count ?? null, what).toBe(o.customer_count ?? null);
        // Money, as amount_total: a DECIMAL of its currency's cents (both have two here), which
        // hyparquet reads back as cents times 0.01 (70 -> 0.7000000000000001): compared in cents.
        const cents = (n: unknown) => Math.round(Number(n) * 100);
        expect(cents(row.tip_amount), what).toBe(cents(o.tip_amount));
        expect(row.invoice ?? null, what).toBe(moves.get(m2oId(o.account_move)) ?? null);
        expect(row.company_id, what).toBe(m2oId(o.company_id));
        expect(row.currency, what).toBe(code.get(m2oId(o.company_id)));
      }
      expect(rows.some((x) => x.invoice)).toBe(true);
      expect(rows.some((x) => Number(x.tip_amount) > 0)).toBe(true);
      expect(new Set(rows.map((x) => x.currency)).size).toBe(2);
    } finally {
      await shop.close();
    }
  });

  // An offline evening's orders reach the server the next morning (the sandbox as a real Odoo:
  // create_date and write_date then, date_order the evening): a bookmark between the two sends
  // them, and their day is the evening's.
  it("an offline evening's orders: sent from a bookmark after their sale, counted on the evening", async () => {
    const synced = (
      await rpc.kw<Obj[]>('pos.order', 'search_read', [[]], {
        fields: ['date_order', 'create_date', 'write_date'],
      })
    ).filter((o) => String(o.create_date) > String(o.date_order));
    // The last offline evening's orders, and a bookmark after the last of them was sold.
    const lastDay = synced
      .reduce((a, o) => (String(o.date_order) > a ? String(o.date_order) : a), '')
      .slice(0, 10);
    const late = synced.filter((o) => String(o.date_order).startsWith(lastDay));
    expect(late.length).toBeGreaterThan(0);
    const evening = late.reduce((a, o) => (String(o.date_order) > a ? String(o.date_order) : a), '');
    for (const o of late) expect(evening < String(o.create_date)).toBe(true);
    const cfg = writeTapConfig(dir, 'late.json', tapConfig(sb, { streams: ['sales'] }));
    const state = join(dir, 'late-state.json');
    writeFileSync(
      state,
      JSON.stringify({
        bookmarks: { sales: { write_date: `${evening.replace(' ', 'T')}Z`, id: 0, sent: [] } },
      }),
    );
    const r = await runCli(['tap', '--config', cfg, '--state', state], { env: { POSDATA_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    const sent = new Set<unknown>((checkOutput(r.stdout).records.get('sales') ?? []).map((x) => x.id));
    for (const o of late) expect(sent.has(o.id), `order ${o.id}`).toBe(true);
    // The evening's day has them: the day is date_order's, not when the server got them.
    const env = await loginEnv(sb.url);
    const list = await runCli(
      ['sales', '--from', lastDay, '--to', lastDay, '--tz', 'UTC', '--format', 'json'],
      {
        env,
      },
    );
    expect(list.code, list.stderr).toBe(0);
    const ofDay = new Set((JSON.parse(list.stdout) as Obj[]).map((x) => x.id));
    for (const o of late) expect(ofDay.has(o.id), `order ${o.id}`).toBe(true);
  });
});

// 18 and 19's pos_hr store the order's employee on its payments (17's do not): the payments
// stream carries it there, and not on 17.
describe("the payments' employee", () => {
  it('is sent on Odoo 18, each its order’s, and not on 17', async () => {
    const other = await startTestSandbox({
      seed: 5,
      orders: 300,
      days: 6,
      odooVersion: 18,
      adminKey: SUITE_SECRET,
      ...SHOP_MODULES,
    });
    try {
      const run = async (url: string, name: string) => {
        const cfg = writeTapConfig(dir, name, tapConfig({ url }, { streams: ['payments'] }));
        const r = await runCli(['tap', '--config', cfg], { env: { POSDATA_CONFIG_DIR: dir } });
        expect(r.code, r.stderr).toBe(0);
        return checkOutput(r.stdout);
      };
      const on17 = await run(sb.url, 'p17.json');
      const props17 = (on17.schemas.get('payments')?.properties ?? {}) as Obj;
      expect(Object.keys(props17)).not.toContain('employee_id');
      const on18 = await run(other.url, 'p18.json');
      const payments = on18.records.get('payments') ?? [];
      const other18 = new Rpc(other.url, 'demo', 'admin', SUITE_SECRET);
      const orders = await other18.kw<Obj[]>('pos.order', 'search_read', [[]], { fields: ['employee_id'] });
      const employeeOf = new Map(
        orders.map((o) => [o.id, Array.isArray(o.employee_id) ? o.employee_id[0] : null]),
      );
      expect(payments.length).toBeGreaterThan(100);
      for (const p of payments) expect(p.employee_id, `payment ${p.id}`).toBe(employeeOf.get(p.pos_order_id));
      expect(payments.some((p) => p.employee_id !== null)).toBe(true);
    } finally {
      await other.close();
    }
  });
});
