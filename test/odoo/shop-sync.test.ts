// posdata sync of a real shop (the real Odoo 17's posshop: pos_hr, pos_restaurant, tips,
// pos_discount, loyalty, gift cards, invoices) into a real PostgreSQL. Its tables carry the
// shop's fields with their company and currency, and SQL over them gives summary's figures
// (which test/odoo/shop.test.ts holds equal to Odoo's Sales Details and closings). This file
// starts its own posshop server, and writes to it (an access right taken away, last).
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli } from '../helpers/cli.js';
import { type Late, sendLate, shapeOf } from '../helpers/late-order.js';
import { loginOdoo, mayWrite, type RealOdooHandle, rpcOdoo, startRealOdoo } from '../helpers/odoo17.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { type Rpc, Rpc as SandboxRpc } from '../helpers/rpc.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { tapConfig, writeTapConfig } from '../tap/config.js';
import { checkOutput } from '../tap/singer.js';
import { expectTables } from './tables.js';

type Row = Record<string, string | number | null>;
type Rec = Record<string, unknown> & { id: number };

const ZONE = 'Europe/Brussels';
const RANGE = ['--from', '2026-11-01', '--to', '2026-12-31', '--tz', ZONE];
const COUNTED = "state in ('paid', 'done', 'invoiced')";
const id = (v: unknown): number => (Array.isArray(v) ? (v[0] as number) : (v as number));
const cents = (v: unknown): number => Math.round(Number(v ?? 0) * 100);

let odoo: RealOdooHandle;
let pg: TestPostgres;
let rpc: Rpc;
const envs: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  [odoo, pg] = await Promise.all([startRealOdoo('posshop'), startPostgres()]);
  [envs.admin, envs.cashier, rpc] = await Promise.all([
    loginOdoo(odoo, 'admin'),
    loginOdoo(odoo, 'cashier'),
    rpcOdoo(odoo, 'admin'),
  ]);
}, 600_000);
afterAll(async () => {
  await Promise.all([odoo?.stop(), pg?.stop()]);
}, 120_000);

const sync = (who: string, args: string[] = []) =>
  runCli(['sync', '--to', pg.url({ password: '' }), '--schema', who, '--rate', '0', ...args], {
    env: { ...envs[who], PGPASSWORD: pg.password },
  });

const summary = async (by: string): Promise<Row[]> => {
  const r = await runCli(['summary', '--rate', '0', ...RANGE, '--by', by, '--format', 'json'], {
    env: envs.admin,
  });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Row[];
};

/** Each invoiced order's invoice number (account.move's own name), by order id. */
async function invoiceNumbers(): Promise<Map<number, string>> {
  const orders = await rpc.searchRead<Rec>('pos.order', [['account_move', '!=', false]], {
    fields: ['account_move'],
  });
  const moves = await rpc.searchRead<Rec>(
    'account.move',
    [['id', 'in', orders.map((o) => id(o.account_move))]],
    { fields: ['name'] },
  );
  const name = new Map(moves.map((m) => [m.id, m.name as string]));
  return new Map(orders.map((o) => [o.id, name.get(id(o.account_move)) as string]));
}

describe('posshop synced into PostgreSQL', () => {
  beforeAll(async () => {
    for (const who of ['admin', 'cashier']) {
      const r = await sync(who);
      expect(r.code, `${who}: ${r.stderr}`).toBe(0);
      await expectTables(pg, who, rpc, r.stderr);
    }
  }, 600_000);

  it("sales carry the employee, table, guests, tip and invoice number, with company and currency, as Odoo's", async () => {
    const odooOrders = await rpc.searchRead<Rec>('pos.order', [], {
      fields: ['employee_id', 'table_id', 'customer_count', 'tip_amount', 'company_id'],
    });
    const invoices = await invoiceNumbers();
    expect(invoices.size, 'posshop has 6 invoices').toBe(6);
    for (const who of ['admin', 'cashier']) {
      const rows = await pg.query<Row>(
        `select id, employee_id, employee_name, table_id, table_name, customer_count, tip_amount::text,
                invoice, company_id, company_name, currency from ${who}.sales`,
      );
      const byId = new Map(rows.map((x) => [Number(x.id), x]));
      expect(rows.length).toBe(odooOrders.length);
      for (const o of odooOrders) {
        const row = byId.get(o.id) as Row;
        const what = `${who}: order ${o.id}`;
        expect(row.employee_id, what).toBe(o.employee_id ? id(o.employee_id) : null);
        expect(row.employee_name, what).toBe(o.employee_id ? (o.employee_id as [number, string])[1] : null);
        expect(row.table_id, what).toBe(o.table_id ? id(o.table_id) : null);
        expect(row.customer_count, what).toBe(o.customer_count);
        expect(cents(row.tip_amount), what).toBe(cents(o.tip_amount));
        // A POS user reads the invoices of POS orders (Odoo 17's rule "Invoice POS User").
        expect(row.invoice, what).toBe(invoices.get(o.id) ?? null);
        expect(row.company_id, what).toBe(id(o.company_id));
        expect(row.currency, what).toBe('USD');
      }
      expect(rows.filter((x) => x.table_id !== null)).toHaveLength(155);
      expect(rows.filter((x) => cents(x.tip_amount) > 0)).toHaveLength(25);
      for (const n of invoices.values()) expect(n).toMatch(/^INV\/2026\/\d{5}$/);
    }
    // The floor is not copied onto sales (docs/sync.md: a table moves floors without the orders' write).
    const columns = await pg.query<{ column_name: string }>(
      "select column_name from information_schema.columns where table_schema = 'admin' and table_name = 'sales'",
    );
    expect(columns.map((c) => c.column_name)).not.toContain('floor_id');
  });

  it("lines carry the reward's programme and the card it used, its code never whole", async () => {
    const codes = (await rpc.searchRead<Rec>('loyalty.card', [], { fields: ['code'] })).map(
      (c) => c.code as string,
    );
    expect(codes.length).toBeGreaterThan(6);
    const rewards = await pg.query<Row>(
      'select reward_name, coupon_name, currency from admin.lines where is_reward_line',
    );
    expect(rewards).toHaveLength(71);
    for (const l of rewards) {
      expect(String(l.reward_name)).toMatch(/^(Gift Cards|Shop Points) - /);
      expect(l.currency).toBe('USD');
    }
    const carded = rewards.filter((l) => l.coupon_name !== null);
    expect(carded.length).toBeGreaterThan(10);
    for (const l of carded) expect(String(l.coupon_name)).toMatch(/^(Gift Cards|Shop Points): \*+\w{4}$/);
    for (const who of ['admin', 'cashier']) {
      const all = JSON.stringify(await pg.query(`select * from ${who}.lines`));
      for (const code of codes) expect(all, `${who}: a card's code`).not.toContain(code);
    }
  });

  it("SQL over the tables gives summary's figures per register, cashier, method, tips, rewards and cards", async () => {
    const byRegister = await summary('register');
    const sql = await pg.query<Row>(
      `select config_id, count(*)::int as orders, sum(amount_total)::text as total, sum(tip_amount)::text as tips
         from admin.sales where ${COUNTED} group by 1`,
    );
    expect(byRegister.length).toBe(2);
    for (const row of byRegister) {
      const s = sql.find((x) => x.config_id === row.config_id) as Row;
      const what = `register ${row.register}`;
      expect(s.orders, what).toBe(row.orders);
      expect(cents(s.total), what).toBe(cents(row.total));
      expect(cents(s.tips), what).toBe(cents(row.tips));
      // Per method: the counted orders' payments, change included.
      const methods = await pg.query<Row>(
        `select m.name, sum(p.amount)::text as total from admin.payments p
           join admin.sales o on o.id = p.pos_order_id join admin.payment_methods m on m.id = p.payment_method_id
          where o.${COUNTED} and o.config_id = $1 group by 1`,
        [row.config_id],
      );
      for (const [key, value] of Object.entries(row).filter(([k]) => k.startsWith('method:')))
        expect(cents(methods.find((m) => `method:${m.name}` === key)?.total), `${what}: ${key}`).toBe(
          cents(value),
        );
      // A reward's programme, and cards spent, as the lines say them (negative lines).
      const spent = await pg.query<Row>(
        `select split_part(l.reward_name, ' - ', 1) as programme, sum(l.price_subtotal_incl)::text as total
           from admin.lines l join admin.sales o on o.id = l.order_id
          where o.${COUNTED} and o.config_id = $1 and l.is_reward_line group by 1`,
        [row.config_id],
      );
      const of = (p: string) => -cents(spent.find((x) => x.programme === p)?.total);
      expect(of('Shop Points'), `${what}: rewards`).toBe(cents(row['reward:Shop Points']));
      expect(of('Gift Cards'), `${what}: cards redeemed`).toBe(cents(row.gift_cards_redeemed));
    }
    // The employee at the register: summary --by cashier names the employee, as sales does.
    const byCashier = await summary('cashier');
    const cashiers = await pg.query<Row>(
      `select employee_id, employee_name, count(*)::int as orders, sum(amount_total)::text as total,
              sum(tip_amount)::text as tips
         from admin.sales where ${COUNTED} and employee_id is not null group by 1, 2`,
    );
    expect(cashiers).toHaveLength(4);
    for (const c of cashiers) {
      const row = byCashier.find((x) => x.cashier_id === c.employee_id) as Row;
      expect(row?.cashier, String(c.employee_name)).toBe(c.employee_name);
      expect(c.orders, String(c.employee_name)).toBe(row.orders);
      expect(cents(c.total), String(c.employee_name)).toBe(cents(row.total));
      expect(cents(c.tips), String(c.employee_name)).toBe(cents(row.tips));
    }
  });
});

describe('posshop: orders that reach Odoo after their session closed (a register offline at closing)', () => {
  let late: Late;
  beforeAll(async () => {
    late = await sendLate(rpc);
  }, 240_000);

  it("go into a new rescue session of their register, as the sandbox's create_from_ui puts them", async () => {
    expect(late.rescue.name).toBe(
      `POS/${String(late.rescue.id).padStart(5, '0')} (RESCUE FOR ${late.closed.name})`,
    );
    // Odoo 17 leaves the register's open session alone (18 and 19 use it).
    const real = shapeOf(late);
    const each = {
      inRescue: true,
      register: true,
      soldBeforeClosing: true,
      state: 'paid',
      totalAsSent: true,
      payments: 2,
    };
    expect(real.orders).toEqual([each, each]);
    const sb = await startTestSandbox({ seed: 4, orders: 200 });
    try {
      const ours = shapeOf(await sendLate(new SandboxRpc(sb.url)));
      expect(ours).toEqual(real);
    } finally {
      await sb.close();
    }
  });

  it("count on the day they were sold, in their register, and the rescue session's closing is Odoo's", async () => {
    const day = DateTime.fromSQL(String(late.orders[0]?.date_order), { zone: 'UTC' })
      .setZone(ZONE)
      .toISODate() as string;
    const details = await rpc.kw<{ nbr_orders: number; currency: { total_paid: number } }>(
      'report.point_of_sale.report_saledetails',
      'get_sale_details',
      [],
      {
        date_start: DateTime.fromISO(day, { zone: ZONE }).toUTC().toFormat('yyyy-MM-dd HH:mm:ss'),
        date_stop: DateTime.fromISO(day, { zone: ZONE })
          .plus({ days: 1 })
          .minus({ seconds: 1 })
          .toUTC()
          .toFormat('yyyy-MM-dd HH:mm:ss'),
        config_ids: false,
        session_ids: false,
      },
    );
    const of = async (by: string) => {
      const r = await runCli(
        ['summary', '--rate', '0', '--date', day, '--tz', ZONE, '--by', by, '--format', 'json'],
        { env: envs.admin },
      );
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Row[];
    };
    const [all] = await of('day');
    expect(all?.orders).toBe(details.nbr_orders);
    expect(cents(all?.total)).toBe(cents(details.currency.total_paid));
    const register = (await of('register')).find((x) => x.config_id === id(late.closed.config_id));
    const sessions = await of('session');
    const rescueRow = sessions.find((x) => x.session_id === late.rescue.id);
    expect(rescueRow).toMatchObject({ session: late.rescue.name, orders: 2, total: 2 * late.total });
    expect(cents(register?.total)).toBe(
      sessions
        .filter((x) => x.session_id === late.rescue.id || x.session_id === late.closed.id)
        .reduce((a, x) => a + cents(x.total), 0),
    );
    // Closed from the back end, as a rescue session is (its front end cannot close it).
    await rpc.kw('pos.session', 'action_pos_session_closing_control', [[late.rescue.id]]);
    const [closed] = await rpc.kw<Rec[]>('pos.session', 'read', [[late.rescue.id]], {
      fields: [
        'state',
        'stop_at',
        'cash_register_balance_start',
        'cash_register_balance_end',
        'cash_register_balance_end_real',
        'cash_register_difference',
      ],
    });
    expect(closed?.state).toBe('closed');
    const closingDay = DateTime.fromSQL(String(closed?.stop_at), { zone: 'UTC' })
      .setZone(ZONE)
      .toISODate() as string;
    const r = await runCli(
      ['reconcile', '--rate', '0', '--date', closingDay, '--tz', ZONE, '--format', 'json'],
      { env: envs.admin },
    );
    expect(r.code, r.stderr).toBe(0);
    const row = (JSON.parse(r.stdout) as Row[]).find((x) => x.session_id === late.rescue.id);
    expect(row).toMatchObject({
      session: late.rescue.name,
      config_id: id(late.closed.config_id),
      opening_cash: closed?.cash_register_balance_start,
      expected_cash: closed?.cash_register_balance_end,
      counted_cash: closed?.cash_register_balance_end_real,
      difference: closed?.cash_register_difference,
      'method:Cash': 2 * late.total,
    });
    // Sync: the orders in the rescue session, on their day; the session says it is one.
    const s = await sync('admin', ['sessions', 'sales']);
    expect(s.code, s.stderr).toBe(0);
    const synced = await pg.query<Row>(
      `select id, session_id, config_id, to_char(date_order at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as date_order from admin.sales where id = any($1) order by id`,
      [late.orders.map((o) => o.id)],
    );
    expect(synced).toEqual(
      late.orders.map((o) => ({
        id: o.id,
        session_id: late.rescue.id,
        config_id: id(late.closed.config_id),
        date_order: o.date_order,
      })),
    );
    const [session] = await pg.query<Row>('select name, rescue, state from admin.sessions where id = $1', [
      late.rescue.id,
    ]);
    expect(session).toEqual({ name: late.rescue.name, rescue: true, state: 'closed' });
  });
});

describe('posshop: a user Odoo refuses account.move', () => {
  it('gets the orders with an empty invoice, said once, from sync, the tap and sales --fields invoice', async () => {
    if (!mayWrite(odoo)) return;
    // Point of Sale's own right to read account.move, taken from its users for this test.
    const [acl] = await rpc.searchRead<Rec>(
      'ir.model.access',
      [
        ['name', '=', 'account.move'],
        ['group_id.full_name', '=', 'Point of Sale / User'],
      ],
      { fields: ['perm_read'] },
    );
    expect(acl?.perm_read).toBe(true);
    await rpc.kw('ir.model.access', 'write', [[acl?.id], { perm_read: false }]);
    try {
      const r = await sync('cashier', ['sales', '--full']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /^posdata: sales: Odoo refuses this user account\.move \(AccessError\), so invoice stays empty/m,
      );
      expect(r.stderr.match(/refuses this user account\.move/g)).toHaveLength(1);
      const [n] = await pg.query<{ n: number; sales: number }>(
        'select count(invoice)::int as n, count(*)::int as sales from cashier.sales',
      );
      expect(n).toEqual({ n: 0, sales: await rpc.count('pos.order', []) });
      const list = await runCli(
        ['sales', '--state', 'invoiced', '--fields', 'id,name,invoice', '--format', 'json'],
        { env: envs.cashier },
      );
      expect(list.code, list.stderr).toBe(0);
      expect(
        list.stderr.match(
          /posdata: Odoo refuses this user account\.move \(AccessError\), so invoice is empty/g,
        ),
      ).toHaveLength(1);
      const rows = JSON.parse(list.stdout) as Row[];
      expect(rows).toHaveLength(6);
      for (const row of rows) expect(row.invoice).toBeNull();
      const config = writeTapConfig(
        freshConfigDir(),
        'tap.json',
        tapConfig(
          { url: odoo.url, db: odoo.db, user: odoo.cashier.login, password: odoo.cashier.password },
          { streams: ['sales'] },
        ),
      );
      const tap = await runCli(['tap', '--config', config], { env: envs.cashier });
      expect(tap.code, tap.stderr).toBe(0);
      expect(tap.stderr.match(/sales: Odoo refuses this user account\.move/g)).toHaveLength(1);
      const sent = checkOutput(tap.stdout).records.get('sales') ?? [];
      expect(sent).toHaveLength(await rpc.count('pos.order', []));
      for (const s of sent) expect(s.invoice).toBeNull();
    } finally {
      await rpc.kw('ir.model.access', 'write', [[acl?.id], { perm_read: true }]);
    }
  });
});
