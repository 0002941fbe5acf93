// posdata report on the sandbox: the figures in the HTML's JSON block equal `summary` and
// `reconcile` JSON for the same period, the loss-prevention figures equal sums made directly
// over RPC (refunds, discounts, cash differences per user), and with --leaks the report marks
// exactly the three cashiers who stand out, each for what it does, with the orders behind it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { reportData } from '../helpers/report.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const PERIOD = ['--from', '2026-10-01', '--to', '2026-10-31'];
const dir = mkdtempSync(join(tmpdir(), 'posdata-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Obj = Record<string, unknown>;
type Row = Record<string, unknown> & {
  id: number | null;
  name: string;
  refunds: number;
  discounts: number | null;
  cash_difference: number | null;
  marks: string[];
  behind: Record<string, { ticket?: string; session?: string }[]>;
};

/** A read_group call as --debug shows it: db, uid, the secret's mark, model, method, its arguments. */
type Call = [string, number, string, string, string, unknown[]];

const m2o = (v: unknown): number | null => (Array.isArray(v) ? (v[0] as number) : null);
const cents = (v: unknown): number => Math.round(Number(v) * 100);

async function writeReport(env: Record<string, string>, name: string, extra: string[] = []) {
  const file = join(dir, name);
  const r = await runCli(['report', ...PERIOD, '--tz', 'UTC', '--rate', '0', '-o', file, ...extra], { env });
  expect(r.code, r.stderr).toBe(0);
  const html = readFileSync(file, 'utf8');
  return { html, data: reportData(html), stderr: r.stderr };
}

describe('report on the sandbox with --leaks', { timeout: 240_000 }, () => {
  let sandbox: SandboxHandle;
  let env: Record<string, string>;
  let html: string;
  let data: Obj;
  let section: Obj;
  let cashiers: Row[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 3, orders: 6000, days: 60, leaks: true, now: NOW });
    env = await loginEnv(sandbox.url);
    ({ html, data } = await writeReport(env, 'leaks.html'));
    section = (data.currencies as Obj[])[0] as Obj;
    cashiers = (section.loss as { cashiers: Row[] }).cashiers;
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('holds one currency section, the period and the one before it of the same length', () => {
    expect((data.currencies as Obj[]).map((c) => c.currency)).toEqual(['EUR']);
    expect(data.period).toMatchObject({ from: '2026-10-01', to: '2026-10-31' });
    expect(data.previous).toMatchObject({
      range: { start: '2026-08-31 00:00:00', end: '2026-10-01 00:00:00' },
    });
    expect(html).toContain('<footer><p>posdata ');
  });

  it('reads what depends on the period alone once: the discounted products and their taxes', async () => {
    const { data: again, stderr } = await writeReport(env, 'debug.html', ['--debug']);
    const sent = stderr.split('\n').filter((l) => /→ (jsonrpc|json2) /.test(l));
    expect(again.requests).toBe(sent.length);
    // Eight summaries over two periods: the products' taxes (grouped by tax, whatever the
    // range) and whether any order had a fiscal position are asked once for the whole run.
    expect(sent.filter((l) => /product\.template\.read_group .*taxes_id/.test(l))).toHaveLength(1);
    expect(sent.filter((l) => /pos\.order\.read_group .*"fiscal_position_id"\]\]/.test(l))).toHaveLength(1);
    expect(sent.filter((l) => /product\.product\.search_read .*taxes_id/.test(l))).toHaveLength(0);
  });

  it('asks the discounted lines by product at the grain the tables fold from, and the totals with the orders', async () => {
    const { data: again, stderr } = await writeReport(env, 'grain.html', ['--debug']);
    const groupings = stderr
      .split('\n')
      .filter((l) => /→ jsonrpc \S+\.read_group /.test(l))
      .map((l) => JSON.parse(l.slice(l.indexOf('[', l.indexOf('→')))) as Call);
    const groupby = (a: Call) => a[5][2] as string[];
    const byProduct = groupings
      .filter((a) => a[3] === 'report.pos.order' && JSON.stringify(a[5][0]).includes('total_discount'))
      .map(groupby)
      .filter((g) => g.includes('product_id'));
    // Register, cashier and day fold from one by register, cashier and day; the hours ask
    // their own: register x cashier x hour x product is the largest of them all (10 MB of a
    // 200,000-order month's 18, bench/notes.md).
    expect(byProduct).toContainEqual(['config_id', 'user_id', 'date:day', 'product_id']);
    expect(byProduct).toContainEqual(['date:hour', 'date:day', 'product_id']);
    expect(byProduct.filter((g) => g.includes('date:hour') && g.includes('config_id'))).toEqual([]);
    // The range's totals (products and categories add up to them) are the first grouping's
    // orders folded, which carry more aggregates: no grouping of the orders by nothing.
    expect(groupings.filter((a) => a[3] === 'pos.order' && groupby(a).length === 0)).toEqual([]);
    // The tables show no payment methods: the orders are not grouped by session for them.
    expect(groupings.filter((a) => a[3] === 'pos.order' && groupby(a).includes('session_id'))).toEqual([]);
    // The discounted sales' lines come as arrays of their orders, discounts and totals, not as
    // records with their keys and their orders' names (3.6 of those 18 MB).
    expect(stderr.split('\n').filter((l) => /pos\.order\.line\.search_read/.test(l))).toEqual([]);
    expect(again.currencies).toEqual(data.currencies);
  });

  it("each grouping's figures equal summary's JSON for the same period", async () => {
    const figures = [
      'orders',
      'items',
      'gross',
      'discounts',
      'refund_count',
      'refunds',
      'net',
      'tax',
      'total',
    ];
    const pick = (rows: Obj[], keys: string[]) =>
      rows.map((r) => Object.fromEntries([...keys, ...figures].map((k) => [k, r[k]])));
    const groupings: [string, string, string[]][] = [
      ['register', 'register', ['config_id']],
      ['cashier', 'cashier', ['cashier_id']],
      ['day', 'day', ['day']],
      ['weekdayHour', 'weekday,hour', ['weekday', 'hour']],
      ['method', 'method', ['method_id']],
    ];
    const summary = section.summary as Record<string, Obj[]>;
    for (const [name, by, keys] of groupings) {
      const r = await runCli(
        ['summary', ...PERIOD, '--tz', 'UTC', '--rate', '0', '--by', by, '--format', 'json'],
        {
          env,
        },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(pick(summary[name] as Obj[], keys), name).toEqual(pick(JSON.parse(r.stdout) as Obj[], keys));
    }
    const top = await runCli(
      [
        'summary',
        ...PERIOD,
        '--tz',
        'UTC',
        '--rate',
        '0',
        '--by',
        'product',
        '--top',
        '10',
        '--format',
        'json',
      ],
      { env },
    );
    expect(pick(summary.product as Obj[], ['product_id'])).toEqual(
      pick(JSON.parse(top.stdout) as Obj[], ['product_id']),
    );
    // The glance is the registers' sum.
    const glance = section.glance as Obj;
    const regs = summary.register as Obj[];
    expect(glance.orders).toBe(regs.reduce((a, r) => a + (r.orders as number), 0));
    expect(cents(glance.total)).toBe(regs.reduce((a, r) => a + cents(r.total), 0));
  });

  it("every closing equals reconcile's JSON", async () => {
    const r = await runCli(['reconcile', ...PERIOD, '--tz', 'UTC', '--rate', '0', '--format', 'json'], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    const keys = ['session_id', 'register', 'expected_cash', 'counted_cash', 'difference'];
    const pick = (rows: Obj[]) => rows.map((x) => Object.fromEntries(keys.map((k) => [k, x[k]])));
    const theirs = JSON.parse(r.stdout) as Obj[];
    expect(theirs.length).toBeGreaterThan(50);
    expect(pick(section.reconcile as Obj[])).toEqual(pick(theirs));
  });

  it('the loss figures per cashier equal sums made over RPC', async () => {
    const rpc = rpcClient(sandbox.url);
    const range = [
      ['date_order', '>=', '2026-10-01 00:00:00'],
      ['date_order', '<', '2026-11-01 00:00:00'],
    ];
    const counted = [['state', 'in', ['paid', 'done', 'invoiced']], ...range];
    const refunds = await rpc.ok<Obj[]>(
      'pos.order',
      'search_read',
      [[...counted, ['amount_total', '<', 0]]],
      {
        fields: ['user_id', 'amount_total'],
      },
    );
    // Discounts are given on sales: a refund's lines carry them back.
    const orders = await rpc.ok<Obj[]>(
      'pos.order',
      'search_read',
      [[...counted, ['amount_total', '>=', 0]]],
      {
        fields: ['user_id'],
      },
    );
    const userOf = new Map(orders.map((o) => [o.id as number, m2o(o.user_id)]));
    const lines = await rpc.ok<Obj[]>(
      'pos.order.line',
      'search_read',
      [
        [
          ['order_id', 'in', [...userOf.keys()]],
          ['discount', '>', 0],
        ],
      ],
      { fields: ['order_id', 'discount', 'price_subtotal_incl'] },
    );
    const sessions = await rpc.ok<Obj[]>(
      'pos.session',
      'search_read',
      [
        [
          ['state', '=', 'closed'],
          ['stop_at', '>=', '2026-10-01 00:00:00'],
          ['stop_at', '<', '2026-11-01 00:00:00'],
        ],
      ],
      { fields: ['user_id', 'cash_register_difference'] },
    );
    const refundsBy = new Map<number | null, number>();
    for (const o of refunds)
      refundsBy.set(m2o(o.user_id), (refundsBy.get(m2o(o.user_id)) ?? 0) + cents(o.amount_total));
    const discountsBy = new Map<number | null, number>();
    for (const l of lines) {
      const d = l.discount as number;
      const given = d >= 100 ? 0 : ((l.price_subtotal_incl as number) * d) / (100 - d);
      const u = userOf.get(m2o(l.order_id) as number) ?? null;
      discountsBy.set(u, (discountsBy.get(u) ?? 0) + given * 100);
    }
    const cashBy = new Map<number | null, number>();
    for (const s of sessions)
      cashBy.set(m2o(s.user_id), (cashBy.get(m2o(s.user_id)) ?? 0) + cents(s.cash_register_difference));
    expect(cashiers.length).toBe(5);
    const exact = [...discountsBy.values()].reduce((a, b) => a + b, 0);
    // Discounts are rounded once per business day (docs/summary.md): the period's sum is the
    // exact one within half a cent for each of its 31 days.
    expect(Math.abs(cashiers.reduce((a, c) => a + cents(c.discounts), 0) - exact)).toBeLessThanOrEqual(
      31 / 2,
    );
    for (const c of cashiers) {
      expect(cents(c.refunds), c.name).toBe(refundsBy.get(c.id) ?? 0);
      // summary's discounts per group on Odoo 16-18 are report.pos.order's estimates scaled to the
      // lines' exact sum: a few cents from each group's own, the sum to the cent.
      expect(Math.abs(cents(c.discounts) - (discountsBy.get(c.id) ?? 0)), c.name).toBeLessThanOrEqual(5);
      if (cashBy.has(c.id)) expect(cents(c.cash_difference), c.name).toBe(cashBy.get(c.id));
      else expect(c.cash_difference, c.name).toBeNull();
    }
  });

  it('the cancelled orders, largest discounts and quick refunds per cashier equal what RPC reads order by order', async () => {
    const rpc = rpcClient(sandbox.url);
    const range = [
      ['date_order', '>=', '2026-10-01 00:00:00'],
      ['date_order', '<', '2026-11-01 00:00:00'],
    ];
    const counted = [['state', 'in', ['paid', 'done', 'invoiced']], ...range];
    const [cancelled, sales, refunds] = await Promise.all([
      rpc.ok<Obj[]>('pos.order', 'search_read', [[['state', '=', 'cancel'], ...range]], {
        fields: ['user_id', 'amount_total'],
      }),
      rpc.ok<Obj[]>('pos.order', 'search_read', [[...counted, ['amount_total', '>=', 0]]], {
        fields: ['user_id'],
      }),
      rpc.ok<Obj[]>('pos.order', 'search_read', [[...counted, ['amount_total', '<', 0]]], {
        fields: ['user_id', 'date_order'],
      }),
    ]);
    const add = (m: Map<number | null, number>, k: number | null, v: number) => m.set(k, (m.get(k) ?? 0) + v);
    const cancelledBy = new Map<number | null, number>();
    const cancelledAmountBy = new Map<number | null, number>();
    for (const o of cancelled) {
      add(cancelledBy, m2o(o.user_id), 1);
      add(cancelledAmountBy, m2o(o.user_id), cents(o.amount_total));
    }
    // Each discounted sale's discount; a cashier's largest.
    const userOf = new Map(sales.map((o) => [o.id as number, m2o(o.user_id)]));
    const lines = await rpc.ok<Obj[]>(
      'pos.order.line',
      'search_read',
      [
        [
          ['order_id', 'in', [...userOf.keys()]],
          ['discount', '>', 0],
        ],
      ],
      { fields: ['order_id', 'discount', 'price_subtotal_incl'] },
    );
    const perOrder = new Map<number, number>();
    for (const l of lines) {
      const d = l.discount as number;
      const given = d >= 100 ? 0 : ((l.price_subtotal_incl as number) * d) / (100 - d);
      perOrder.set(m2o(l.order_id) as number, (perOrder.get(m2o(l.order_id) as number) ?? 0) + given);
    }
    const largestBy = new Map<number | null, number>();
    for (const [o, d] of perOrder) {
      const u = userOf.get(o) ?? null;
      largestBy.set(u, Math.max(largestBy.get(u) ?? 0, cents(d)));
    }
    // A refund within 30 minutes of the sale whose lines it gives back.
    const refundLines = await rpc.ok<Obj[]>(
      'pos.order.line',
      'search_read',
      [
        [
          ['order_id', 'in', refunds.map((r) => r.id)],
          ['refunded_orderline_id', '!=', false],
        ],
      ],
      { fields: ['order_id', 'refunded_orderline_id'] },
    );
    const origins = await rpc.ok<Obj[]>(
      'pos.order.line',
      'read',
      [[...new Set(refundLines.map((l) => m2o(l.refunded_orderline_id) as number))]],
      { fields: ['order_id'] },
    );
    const saleOfLine = new Map(origins.map((l) => [l.id as number, m2o(l.order_id) as number]));
    const saleIds = [...new Set(saleOfLine.values())];
    const saleTime = new Map(
      (await rpc.ok<Obj[]>('pos.order', 'read', [saleIds], { fields: ['date_order'] })).map((o) => [
        o.id as number,
        Date.parse(`${String(o.date_order).replace(' ', 'T')}Z`),
      ]),
    );
    const quick = new Set<number>();
    const refundById = new Map(refunds.map((r) => [r.id as number, r]));
    for (const l of refundLines) {
      const r = refundById.get(m2o(l.order_id) as number) as Obj;
      const sale = saleOfLine.get(m2o(l.refunded_orderline_id) as number) as number;
      const minutes =
        (Date.parse(`${String(r.date_order).replace(' ', 'T')}Z`) - (saleTime.get(sale) ?? 0)) / 60000;
      if (minutes >= 0 && minutes <= 30) quick.add(r.id as number);
    }
    const quickBy = new Map<number | null, number>();
    for (const id of quick) add(quickBy, m2o(refundById.get(id)?.user_id), 1);
    expect(quick.size).toBeGreaterThan(0);
    expect(cancelled.length).toBeGreaterThan(0);
    for (const c of cashiers) {
      expect(c.cancelled, c.name).toBe(cancelledBy.get(c.id) ?? 0);
      expect(cents(c.cancelled_amount), c.name).toBe(cancelledAmountBy.get(c.id) ?? 0);
      expect(c.largest_discount === null ? 0 : cents(c.largest_discount), c.name).toBe(
        largestBy.get(c.id) ?? 0,
      );
      expect(c.quick_refunds, c.name).toBe(quickBy.get(c.id) ?? 0);
    }
  });

  it('marks exactly the four who stand out, each for what they do, with the orders behind it', () => {
    const marked = Object.fromEntries(
      cashiers.filter((c) => c.marks.length > 0).map((c) => [c.name, c.marks]),
    );
    expect(marked).toEqual({
      'Anita Oliver': ['refund_share'],
      'Beth Evans': ['discount_share'],
      'Marc Demo': ['cash_short'],
      // As often as the others, but the register's last sale, soon after it was paid.
      'Ronnie Hart': ['quick_share'],
    });
    const by = (n: string) => cashiers.find((c) => c.name === n) as Row;
    const tickets = (list: { ticket?: string }[]) => list.map((o) => o.ticket);
    // The orders behind a mark are in the page, by ticket, under that cashier.
    const anita = by('Anita Oliver');
    expect(anita.behind.refunds?.length).toBeGreaterThan(10);
    for (const t of tickets(anita.behind.refunds ?? [])) expect(t).toMatch(/REFUND$/);
    const block = (id: number | null) => {
      const at = html.indexOf(`<div class="behind" data-id="${id}">`);
      return html.slice(at, html.indexOf('</div>', at));
    };
    for (const t of tickets(anita.behind.refunds ?? [])) expect(block(anita.id)).toContain(`>${t}<`);
    const beth = by('Beth Evans');
    for (const t of tickets(beth.behind.discounts ?? [])) expect(block(beth.id)).toContain(`>${t}<`);
    const marc = by('Marc Demo');
    expect(marc.behind.closings?.length).toBeGreaterThan(5);
    for (const s of marc.behind.closings ?? []) expect(block(marc.id)).toContain(`>${s.session}<`);
    const ronnie = by('Ronnie Hart');
    expect(ronnie.behind.quick?.length).toBe(ronnie.quick_refunds);
    for (const t of tickets(ronnie.behind.quick ?? [])) expect(block(ronnie.id)).toContain(`>${t}<`);
    expect(block(ronnie.id)).toContain('Minutes after the sale');
    expect(html).toMatch(/data-marks="refund_share"><th>Anita Oliver</);
    expect(html).toContain('Odoo stores no reason');
  });
  it('summary --by cashier --loss gives the same figures and marks, in JSON and CSV', async () => {
    const base = ['summary', ...PERIOD, '--tz', 'UTC', '--rate', '0', '--by', 'cashier', '--loss'];
    const json = await runCli([...base, '--format', 'json'], { env });
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as Obj[];
    const keys = [
      'orders',
      'refunds',
      'refund_share',
      'cancelled',
      'discounts',
      'discount_share',
      'cash_difference',
      'cash_short',
    ];
    expect(rows.map((r) => [r.cashier_id, r.cashier, ...keys.map((k) => r[k]), r.marks])).toEqual(
      cashiers.map((c) => [c.id, c.name, ...keys.map((k) => c[k]), c.marks.join(' ')]),
    );
    const csv = await runCli([...base, '--format', 'csv'], { env });
    expect(csv.code, csv.stderr).toBe(0);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      'cashier_id,cashier,orders,sales,refund_count,refunds,refund_share,cancelled,cancelled_share,discounts,discount_share,largest_discount,closings,cash_difference,cash_short,quick_refunds,quick_share,marks',
    );
    expect(lines.filter((l) => l.endsWith(',refund_share'))).toHaveLength(1);
    const bad = await runCli(['summary', ...PERIOD, '--by', 'day', '--loss'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^posdata: --loss sets each cashier or register against the others/);
  });
});

describe('report on the default data', { timeout: 240_000 }, () => {
  it('marks no cashier where none stands out', async () => {
    const sandbox = await startTestSandbox({ seed: 3, orders: 6000, days: 60, now: NOW });
    try {
      const env = await loginEnv(sandbox.url);
      const { data } = await writeReport(env, 'plain.html');
      const loss = ((data.currencies as Obj[])[0] as Obj).loss as { cashiers: Row[] };
      expect(loss.cashiers.length).toBe(5);
      expect(loss.cashiers.filter((c) => c.marks.length > 0).map((c) => c.name)).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it('refuses a bad month and a missing period in one line, before connecting', async () => {
    const bad = await runCli(['report', '--month', '2026-13'], { env: {} });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^posdata: --month '2026-13' is not a month; use YYYY-MM/);
    const none = await runCli(['report'], { env: {} });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^posdata: report needs a period; give --month/);
  });
});
