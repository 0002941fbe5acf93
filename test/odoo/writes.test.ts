// The write side, on a real Odoo 17 of this file's own (startRealOdoo; the other files never
// see these writes): new orders and a refund made by Odoo's own pos.order create_from_ui
// and refund flow over RPC, a draft cancelled and the session closed with its cash counted
// (post_closing_cash_details, close_session_from_ui). Then an incremental export
// (--checkpoint) and an incremental sync pick up exactly the records whose write_date moved,
// as direct RPC sees them: each once, none missed; a run after that finds nothing new.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loginOdoo, mayWrite, type RealOdooHandle, rpcOdoo, startRealOdoo } from '../helpers/odoo17.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import type { Rpc } from '../helpers/rpc.js';
import { expectJson, type Obj, odooTime, Reference, type Spec, spec } from './reference.js';
import { expectTables, TABLES } from './tables.js';

type M2o = [number, string];

/** Odoo's write_date of every record of `model` (archived too where it has `active`). */
async function stamps(rpc: Rpc, model: string): Promise<Map<number, string>> {
  const fields = await rpc.kw<Obj>(model, 'fields_get', [], { attributes: ['type'] });
  const recs = await rpc.searchRead(model, [], {
    fields: ['write_date'],
    context: { active_test: !('active' in fields) },
  });
  return new Map(recs.map((r) => [r.id as number, r.write_date as string]));
}

/** Ids that are new or whose write_date moved between two snapshots. */
function moved(before: Map<number, string>, after: Map<number, string>): number[] {
  return [...after]
    .filter(([id, wd]) => before.get(id) !== wd)
    .map(([id]) => id)
    .sort((a, b) => a - b);
}

/**
 * Sales made the way the POS front end sends them: pos.order create_from_ui with the order
 * dict of ../shared/odoo17/make-data.py, taxes computed by Odoo (account.tax compute_all).
 */
class Shop {
  private constructor(
    readonly rpc: Rpc,
    readonly session: number,
    readonly cash: number,
    readonly card: number,
    readonly products: Obj[],
  ) {}

  /** A register with an open session (one is opened if none is), its cash and card methods. */
  static async open(rpc: Rpc): Promise<Shop> {
    const configs = await rpc.searchRead('pos.config', [], {
      fields: ['current_session_id', 'current_session_state', 'payment_method_ids'],
      order: 'id',
    });
    const config = configs.find((c) => c.current_session_state === 'opened') ?? (configs[0] as Obj);
    let session = (config.current_session_id as M2o | false) || undefined;
    if (!session || config.current_session_state !== 'opened') {
      const id = session?.[0] ?? (await rpc.kw<number>('pos.session', 'create', [{ config_id: config.id }]));
      const [s] = await rpc.kw<Obj[]>('pos.session', 'read', [
        [id],
        ['state', 'cash_register_balance_start'],
      ]);
      if (s?.state === 'opening_control')
        await rpc.kw('pos.session', 'set_cashbox_pos', [[id], s.cash_register_balance_start, '']);
      session = [id, ''];
    }
    const methods = await rpc.kw<Obj[]>('pos.payment.method', 'read', [
      config.payment_method_ids,
      ['is_cash_count', 'type'],
    ]);
    const cash = methods.find((m) => m.is_cash_count);
    const card = methods.find((m) => !m.is_cash_count && m.type === 'bank') ?? cash;
    const products = (
      await rpc.searchRead('product.product', [['available_in_pos', '=', true]], {
        fields: ['lst_price', 'taxes_id', 'display_name'],
        order: 'id',
      })
    ).filter((p) => (p.lst_price as number) > 0);
    expect(
      cash && card && products.length >= 2,
      'a cash method, a card method and two products',
    ).toBeTruthy();
    return new Shop(rpc, session[0], cash?.id as number, card?.id as number, products.slice(0, 3));
  }

  /**
   * One paid order: lines [product index, qty, discount %], payments [method, share]; sold
   * `soldAt` (Odoo's UTC text), by default now: an earlier time is an offline register's sale
   * synced late (the front end sends the time it was rung up).
   */
  async order(
    ref: string,
    lines: [number, number, number][],
    pays: [number, number][],
    soldAt?: string,
  ): Promise<Obj> {
    const r2 = (x: number) => Math.round(x * 100) / 100;
    const ol: [0, 0, Obj][] = [];
    for (const [i, qty, discount] of lines) {
      const p = this.products[i % this.products.length] as Obj;
      const unit = (p.lst_price as number) * (1 - discount / 100);
      const t = await this.rpc.kw<Obj>('account.tax', 'compute_all', [p.taxes_id, unit, false, qty]);
      ol.push([
        0,
        0,
        {
          product_id: p.id,
          price_unit: p.lst_price,
          qty,
          discount,
          price_subtotal: t.total_excluded,
          price_subtotal_incl: t.total_included,
          tax_ids: [[6, 0, p.taxes_id]],
          full_product_name: p.display_name,
          pack_lot_ids: [],
        },
      ]);
    }
    const sum = (k: string) => r2(ol.reduce((a, l) => a + (l[2][k] as number), 0));
    const total = sum('price_subtotal_incl');
    const now = soldAt ?? new Date().toISOString().slice(0, 19).replace('T', ' ');
    let left = total;
    const statements = pays.map(([method, share], k) => {
      const amount = k === pays.length - 1 ? left : r2(total * share);
      left = r2(left - amount);
      return [0, 0, { amount, name: now, payment_method_id: method }];
    });
    const data = {
      amount_paid: total,
      amount_return: 0,
      amount_tax: r2(total - sum('price_subtotal')),
      amount_total: total,
      date_order: now,
      creation_date: now,
      fiscal_position_id: false,
      pricelist_id: false,
      lines: ol,
      name: `Order ${ref}`,
      partner_id: false,
      pos_session_id: this.session,
      sequence_number: 1,
      statement_ids: statements,
      uid: ref,
      user_id: this.rpc.uid,
      to_invoice: false,
    };
    const [res] = await this.rpc.kw<Obj[]>('pos.order', 'create_from_ui', [
      [{ id: ref, data, to_invoice: false }],
    ]);
    return res as Obj;
  }

  /** The back office's refund of a whole order, paid back in cash through the payment wizard. */
  async refund(order: number): Promise<number> {
    const action = await this.rpc.kw<Obj>('pos.order', 'refund', [[order]]);
    const id = action.res_id as number;
    const [r] = await this.rpc.kw<Obj[]>('pos.order', 'read', [[id], ['amount_total']]);
    const context = { active_id: id, active_ids: [id] };
    const wizard = await this.rpc.kw<number>(
      'pos.make.payment',
      'create',
      [{ payment_method_id: this.cash, amount: r?.amount_total }],
      { context },
    );
    await this.rpc.kw('pos.make.payment', 'check', [[wizard]], { context });
    return id;
  }

  /** Cancels the session's drafts, counts the cash `off` from Odoo's expected, and closes it. */
  async close(off: number): Promise<void> {
    const drafts = await this.rpc.kw<number[]>('pos.order', 'search', [
      [
        ['session_id', '=', this.session],
        ['state', '=', 'draft'],
      ],
    ]);
    if (drafts.length > 0) await this.rpc.kw('pos.order', 'action_pos_order_cancel', [drafts]);
    const [s] = await this.rpc.kw<Obj[]>('pos.session', 'read', [
      [this.session],
      ['cash_register_balance_end'],
    ]);
    const counted = Math.round(((s?.cash_register_balance_end as number) + off) * 100) / 100;
    const steps = [
      await this.rpc.kw<Obj>('pos.session', 'post_closing_cash_details', [[this.session], counted]),
      await this.rpc.kw<Obj>('pos.session', 'update_closing_control_state_session', [[this.session], '']),
      await this.rpc.kw<Obj>('pos.session', 'close_session_from_ui', [[this.session]]),
    ];
    for (const step of steps)
      if (step) expect(step, 'Odoo closed the session').toMatchObject({ successful: true });
  }
}

/** The incremental exports checked: the checkpointed resources and who runs them. */
const EXPORTS: [string, 'admin' | 'cashier'][] = [
  ['sales', 'admin'],
  ['sales', 'cashier'],
  ['refunds', 'admin'],
  ['closures', 'admin'],
  ['payments', 'admin'],
];

describe('writes on a real Odoo 17 of its own, then incremental export and sync', () => {
  let odoo: RealOdooHandle;
  let pg: TestPostgres;
  let dir: string;
  const envs: Record<string, Record<string, string>> = {};
  let rpc: Rpc;
  let ref: Reference;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'posdata-odoo-writes-'));
    [odoo, pg] = await Promise.all([startRealOdoo(), startPostgres()]);
    if (!mayWrite(odoo)) return;
    [envs.admin, envs.cashier, rpc] = await Promise.all([
      loginOdoo(odoo, 'admin'),
      loginOdoo(odoo, 'cashier'),
      rpcOdoo(odoo, 'admin'),
    ]);
    ref = await Reference.open(rpc);
  });
  afterAll(async () => {
    await Promise.all([odoo?.stop(), pg?.stop()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  let run = 0;
  /** Every checkpointed export and a sync, at once; the exports' records by name. */
  async function incremental(): Promise<{ exports: Map<string, Obj[]>; sync: string }> {
    run++;
    const exports = EXPORTS.map(async ([name, who]) => {
      const out = join(dir, `${name}-${who}-${run}.json`);
      const r = await runCli(
        [name, '--rate', '0', '--checkpoint', join(dir, `${name}-${who}.ckpt`), '-o', out],
        { env: envs[who] },
      );
      expect(r.stderr, `${name} as ${who}, run ${run}`).toBe('');
      expect(r.code, `${name} as ${who}, run ${run}`).toBe(0);
      return [`${name}/${who}`, JSON.parse(readFileSync(out, 'utf8')) as Obj[]] as const;
    });
    const sync = runCli(['sync', '--to', pg.url({ password: '' }), '--rate', '0'], {
      env: { ...envs.admin, PGPASSWORD: pg.password },
    });
    const [s, ...e] = await Promise.all([sync, ...exports]);
    expect(s.code, s.stderr).toBe(0);
    return { exports: new Map(e), sync: s.stderr };
  }

  it('new orders, a refund and a closing: the next export and sync carry exactly what changed', async (ctx) => {
    if (!mayWrite(odoo)) ctx.skip();
    // Records written within --overlap (300 s) before a run's window may come again in the
    // next run; the window ends when the run starts, by the server's clock (never later
    // than this machine's).
    const overlapFrom = odooTime(DateTime.utc().minus({ seconds: 301 }));
    const lateSale = odooTime(DateTime.utc().minus({ days: 2 }));
    // The first runs take everything.
    const first = await incremental();
    for (const [name, who] of EXPORTS) {
      expectJson(
        first.exports.get(`${name}/${who}`) as Obj[],
        await ref.rows(spec(name)),
        `first ${name} as ${who}`,
      );
    }
    await expectTables(pg, 'posdata', rpc, first.sync);
    const models = [...new Set(TABLES.map(([, m]) => m))];
    const before = new Map(await Promise.all(models.map(async (m) => [m, await stamps(rpc, m)] as const)));

    // Odoo's own flows: three sales (cash, card, split), a refund, drafts cancelled, closing.
    const shop = await Shop.open(rpc);
    const tag = String(Date.now() % 100000).padStart(5, '0');
    const sold = [
      await shop.order(
        `${tag}-901-0001`,
        [
          [0, 2, 0],
          [1, 1, 10],
        ],
        [[shop.cash, 1]],
      ),
      await shop.order(`${tag}-901-0002`, [[1, 3, 0]], [[shop.card, 1]]),
      // Sold two days ago on a register that was offline, synced now: its date_order lies before
      // the first runs' windows, its write_date after them.
      await shop.order(`${tag}-901-0004`, [[2, 1, 0]], [[shop.card, 1]], lateSale),
      await shop.order(
        `${tag}-901-0003`,
        [
          [0, 1, 15],
          [2, 1, 0],
        ],
        [
          [shop.cash, 0.4],
          [shop.card, 0.6],
        ],
      ),
    ];
    const refund = await shop.refund(sold[0]?.id as number);
    await shop.close(1.5);

    const after = new Map(await Promise.all(models.map(async (m) => [m, await stamps(rpc, m)] as const)));
    const changed = new Map<string, number[]>(
      models.map((m) => [
        m,
        moved(before.get(m) as Map<number, string>, after.get(m) as Map<number, string>),
      ]),
    );
    const orders = changed.get('pos.order') as number[];
    for (const o of [...sold.map((s) => s.id as number), refund]) expect(orders).toContain(o);
    const [offline] = await rpc.kw<Obj[]>('pos.order', 'read', [[sold[2]?.id], ['date_order', 'write_date']]);
    expect(offline?.date_order).toBe(lateSale);
    expect(String(offline?.write_date) >= overlapFrom).toBe(true);
    expect(changed.get('pos.session')).toContain(shop.session);

    const second = await incremental();
    for (const [name, who] of EXPORTS) {
      const s = spec(name) as Spec;
      const got = second.exports.get(`${name}/${who}`) as Obj[];
      const ids = got.map((r) => r.id as number);
      // Each record once; every changed record of the resource; nothing else but what was
      // written within the overlap before the first run.
      const want = (
        await rpc.kw<number[]>(s.model, 'search', [
          await ref.domain(s, [['id', 'in', changed.get(s.model) as number[]]]),
        ])
      ).sort((a, b) => a - b);
      const overlap = await rpc.kw<number[]>(s.model, 'search', [
        await ref.domain(s, [['write_date', '>=', overlapFrom]]),
      ]);
      expect(new Set(ids).size, `${name} as ${who}: each record once`).toBe(ids.length);
      for (const id of want) expect(ids, `${name} as ${who}: changed ${id}`).toContain(id);
      for (const id of ids)
        expect([...want, ...overlap], `${name} as ${who}: ${id} did not change`).toContain(id);
      expect(want.length, `${name}: something of it changed`).toBeGreaterThan(0);
      expectJson(got, await ref.rows(s, [['id', 'in', ids]]), `second ${name} as ${who}`);
    }
    // The sync upserts exactly the records whose write_date moved: new ones and changed ones.
    for (const [table, model] of TABLES) {
      const n = (changed.get(model) as number[]).length;
      expect(second.sync, `${table}: ${n} changed`).toMatch(
        new RegExp(`^${table}: ${n.toLocaleString('en-US')} upserted, 0 pruned`, 'm'),
      );
    }
    await expectTables(pg, 'posdata', rpc, second.sync);

    // Nothing changed since: the sync upserts nothing; an export gives at most the overlap
    // again (what was written within --overlap before its window), never anything else.
    const third = await incremental();
    for (const [table] of TABLES)
      expect(third.sync).toMatch(new RegExp(`^${table}: 0 upserted, 0 pruned`, 'm'));
    for (const [name, who] of EXPORTS) {
      const s = spec(name) as Spec;
      const recent = await rpc.kw<number[]>(s.model, 'search', [
        await ref.domain(s, [['write_date', '>=', overlapFrom]]),
      ]);
      for (const r of third.exports.get(`${name}/${who}`) as Obj[])
        expect(recent, `${name} as ${who}: third run`).toContain(r.id);
    }

    // The new closing reconciles to the difference Odoo posted.
    const rec = await runCli(['reconcile', '--rate', '0', '--format', 'json'], { env: envs.admin });
    expect(rec.code, rec.stderr).toBe(0);
    const row = (JSON.parse(rec.stdout) as Obj[]).find((r) => r.session_id === shop.session) as Obj;
    const [session] = await rpc.kw<Obj[]>('pos.session', 'read', [
      [shop.session],
      ['state', 'cash_register_difference'],
    ]);
    expect(session?.state).toBe('closed');
    expect(Math.round((row.difference as number) * 100)).toBe(
      Math.round((session?.cash_register_difference as number) * 100),
    );
    expect(Math.round((row.difference as number) * 100)).toBe(150);
  });
});
