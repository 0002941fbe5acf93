/**
 * `pos.order.create_from_ui(orders, draft=False)`: how a register sends its orders to the server
 * (Odoo 16-17; 18 renamed it `sync_from_ui`, with another reply, which the sandbox does not model
 * over RPC). As a real 17 answers (checked against one): each entry is `{id, data: {...}}` and
 * `data` must carry every key 17's `_order_fields` reads (a missing one is its `KeyError`); an
 * order whose receipt (`name`, the `pos_reference`) is already there is left as it is and left
 * out of the reply; the lines' subtotals are the register's, the order's totals their sum, its
 * `amount_paid` the sum of its payments; the change given back becomes a negative `is_change`
 * payment named `return` of the session's cash method; `date_order` is the register's. A paid
 * order is `paid` with the next `POS/nnnnnn` name; one not fully paid (or sent with `draft`)
 * stays a `/` draft, as 17 keeps it when `action_pos_order_paid` fails. One call is one
 * transaction: orders, lines and payments share one write_date. The reply is 17's:
 * `[{id, pos_reference, account_move}]` for the orders it created.
 */
import { checkAccess } from './access.js';
import { OdooError, userError } from './errors.js';
import type { Db, ModelDef } from './store.js';
import type { Env, Json, Rec } from './types.js';
import { create } from './write.js';

/** The last `POS/nnnnnn` number handed out, per database (found once by a scan). */
const sequences = new WeakMap<Db, number>();

function nextName(db: Db): string {
  let n = sequences.get(db);
  if (n === undefined) {
    n = 0;
    for (const r of db.table('pos.order').rows) {
      const m = r && typeof r.name === 'string' ? /^POS\/(\d+)$/.exec(r.name) : null;
      if (m) n = Math.max(n, Number(m[1]));
    }
  }
  sequences.set(db, ++n);
  return `POS/${String(n).padStart(6, '0')}`;
}

/** The vals of `[[0, 0, vals], ...]`. */
function created(list: unknown): Record<string, unknown>[] {
  if (!Array.isArray(list)) return [];
  return list
    .filter((c): c is [number, unknown, Record<string, unknown>] => Array.isArray(c) && c[0] === 0)
    .map((c) => c[2])
    .filter((v) => v !== null && typeof v === 'object');
}

const UI_KEYS = [
  'pos_session_id',
  'user_id',
  'lines',
  'name',
  'sequence_number',
  'partner_id',
  'date_order',
  'fiscal_position_id',
  'pricelist_id',
  'amount_paid',
  'amount_total',
  'amount_tax',
  'amount_return',
  'statement_ids',
];

const cents = (x: number): number => Math.round((x + (x >= 0 ? 1e-9 : -1e-9)) * 100) / 100;

export function createFromUi(db: Db, env: Env, ordersArg: unknown, draft: unknown): Json {
  const orderModel = db.models.get('pos.order');
  const lineModel = db.models.get('pos.order.line');
  const payModel = db.models.get('pos.payment');
  if (!orderModel || !lineModel || !payModel) throw userError('Point of Sale is not installed');
  checkAccess(orderModel, env, 'create');
  if (!Array.isArray(ordersArg)) throw new OdooError('builtins.TypeError', "'orders' must be a list");
  // One transaction: every record written by this call carries the same stamp.
  const stamp = env.txNow();
  const tx: Env = { ...env, txNow: () => stamp };
  const table = db.table('pos.order');
  const reply: Json[] = [];
  for (const entry of ordersArg) {
    const data = ((entry as { data?: unknown })?.data ?? {}) as Record<string, unknown>;
    // 17's _order_fields reads these with ui_order[key], in this order.
    for (const key of UI_KEYS) if (!(key in data)) throw new OdooError('builtins.KeyError', key);
    const reference = typeof data.name === 'string' ? data.name : false;
    const existing = reference
      ? table.rows.find((r) => r !== undefined && r.pos_reference === reference)
      : undefined;
    // Sent again (a register that did not hear the reply): not created twice, not answered.
    if (existing) continue;
    const { vals, settled } = orderVals(db, tx, data, draft === true);
    vals.lines = created(data.lines).map((l) => [
      0,
      0,
      Object.fromEntries(Object.entries(l).filter(([k]) => lineModel.fields.has(k))),
    ]);
    const id = create(
      db,
      tx,
      orderModel,
      Object.fromEntries(Object.entries(vals).filter(([k]) => orderModel.fields.has(k))),
    ) as number;
    const rec = table.get(id) as Rec;
    if (settled) {
      rec.state = 'paid';
      rec.name = nextName(db);
      db.changed('pos.order');
    }
    reply.push({ id, pos_reference: reference, account_move: false });
  }
  return reply;
}

/**
 * The session an order goes to: the one it names while that one is open. An order of a closed
 * session (closed or closing_control: a register that was offline when it closed) goes, as 16
 * and 17's `_get_valid_session` puts it, into its register's rescue session: one still open is
 * used again, else a new one is made, "POS/00017 (RESCUE FOR POS/00001)" (the sequence's name
 * and the one given), `rescue`, opened when the order came, its opening cash (cash control)
 * the counted cash of the register's newest other session (the open one's 0 where there is
 * one). Never the register's open session: 18 and 19 use that one, through sync_from_ui.
 */
function orderSession(db: Db, env: Env, data: Record<string, unknown>): Rec {
  const session = db.get('pos.session', Number(data.pos_session_id));
  if (!session) throw userError(`Session ${String(data.pos_session_id)} does not exist`);
  if (session.state !== 'closed' && session.state !== 'closing_control') return session;
  const sessions = db.table('pos.session');
  let rescue: Rec | undefined;
  let newest: Rec | undefined;
  for (let id = sessions.rows.length - 1; id > 0; id--) {
    const s = sessions.rows[id];
    if (!s || s.config_id !== session.config_id) continue;
    newest ??= s;
    if (s.rescue === true && s.state !== 'closed' && s.state !== 'closing_control') rescue = s;
  }
  if (rescue) return rescue;
  const model = db.models.get('pos.session') as ModelDef;
  const name = `POS/${String(sessions.nextId).padStart(5, '0')} (RESCUE FOR ${String(session.name)})`;
  const id = create(db, env, model, {
    name,
    config_id: session.config_id,
    user_id: env.uid,
    state: 'opened',
    rescue: true,
    start_at: env.now(),
    cash_register_balance_start: newest?.cash_register_balance_end_real ?? 0,
  }) as number;
  return db.get('pos.session', id) as Rec;
}

/**
 * The order's vals but its lines (its session, totals and payments, the change given back as
 * a cash payment), and whether it is paid in full.
 */
function orderVals(
  db: Db,
  env: Env,
  data: Record<string, unknown>,
  draft: boolean,
): { vals: Record<string, unknown>; settled: boolean } {
  const session = orderSession(db, env, data);
  const lines = created(data.lines);
  const pays = created(data.statement_ids);
  // As 17's _compute_batch_amount_all: the tax and the untaxed sum each rounded to the
  // currency, the total their (float) sum.
  let untaxed = 0;
  let taxSum = 0;
  for (const l of lines) {
    const excl = Number(l.price_subtotal) || 0;
    untaxed += excl;
    taxSum += (Number(l.price_subtotal_incl) || 0) - excl;
  }
  const tax = cents(taxSum);
  const total = tax + cents(untaxed);
  const paid = pays.reduce((s, p) => s + (Number(p.amount) || 0), 0);
  const change = cents(Number(data.amount_return) || 0);
  const settled = !draft && Math.abs(cents(paid - change) - cents(total)) < 0.005;
  const at = String(data.date_order).replace('T', ' ').slice(0, 19);
  const vals: Record<string, unknown> = {
    session_id: session.id,
    config_id: session.config_id,
    date_order: at,
    user_id: typeof data.user_id === 'number' ? data.user_id : env.uid,
    pos_reference: typeof data.name === 'string' ? data.name : false,
    amount_total: total,
    amount_tax: tax,
    amount_paid: cents(paid - change),
    amount_return: change,
    lines: [],
    payment_ids: orderPayments(db, session, pays, change, at, env.now()).map((p) => [0, 0, p]),
  };
  if (db.version === 19) vals.is_refund = total < 0;
  return { vals, settled };
}

/**
 * The payments as sent (dated as the register dated them, `at`), and the change given back as a
 * negative `return` of the session's cash method, dated `now`: 17's _process_payment_lines
 * stamps it fields.Datetime.now(), the morning a register that was offline synced.
 */
function orderPayments(
  db: Db,
  session: Rec,
  pays: Record<string, unknown>[],
  change: number,
  at: string,
  now: string,
): Record<string, unknown>[] {
  const methods = db.get('pos.config', session.config_id as number)?.payment_method_ids;
  const cash = (methods as number[] | undefined)?.find(
    (m) => db.get('pos.payment.method', m)?.is_cash_count === true,
  );
  const sessionId = session.id;
  const payments: Record<string, unknown>[] = pays.map((p) => ({
    amount: Number(p.amount) || 0,
    payment_method_id: p.payment_method_id,
    payment_date: at,
    session_id: sessionId,
  }));
  if (change > 0 && cash !== undefined)
    payments.push({
      name: 'return',
      amount: -change,
      payment_method_id: cash,
      payment_date: now,
      session_id: sessionId,
      is_change: true,
    });
  return payments;
}
