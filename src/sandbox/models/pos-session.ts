/** pos.session: opening and closing, the cash figures (16/17 and 18/19 compute them differently). */
import type { Db, ModelDef } from '../store.js';
import type { Rec, Stored } from '../types.js';
import {
  ALL,
  build,
  computed,
  fd,
  ids,
  inverse,
  num,
  related,
  relatedCurrency,
  SESSION_STATES,
  type Version,
} from './define.js';
import { orderEmployee } from './pos-order.js';

export function posSession({ v18, v19, posHr }: Version): ModelDef {
  return build({
    name: 'pos.session',
    description: 'Point of Sale Session',
    order: 'id desc',
    acl: { manager: ALL, user: 'rwc', clerk: '' },
    readGroups: ['Point of Sale/User'],
    created: (rec) => rec.start_at,
    written: (rec) => rec.stop_at || rec.start_at,
    fields: [
      fd('name', 'char', 'Session ID', { required: !v19, readonly: true }),
      fd('config_id', 'many2one', 'Point of Sale', {
        relation: 'pos.config',
        required: true,
        readonly: true,
      }),
      fd('user_id', 'many2one', 'Opened By', { relation: 'res.users', required: true, readonly: true }),
      fd('start_at', 'datetime', 'Opening Date', { readonly: true }),
      fd('stop_at', 'datetime', 'Closing Date', { readonly: true }),
      fd('state', 'selection', 'Status', { selection: SESSION_STATES, required: true, readonly: true }),
      fd('rescue', 'boolean', 'Recovery Session', { readonly: true }),
      fd('cash_register_balance_start', 'monetary', 'Starting Balance', { readonly: true }),
      fd('cash_register_balance_end_real', 'monetary', 'Ending Balance', { readonly: true }),
      computed('cash_register_balance_end', 'monetary', 'Theoretical Closing Balance', (rec, db) =>
        theoretical(rec, db, v18),
      ),
      computed(
        'cash_register_difference',
        'monetary',
        'Before Closing Difference',
        (rec, db) => num(rec.cash_register_balance_end_real) - theoretical(rec, db, v18),
      ),
      // The closing's journal entry (pos.session._create_account_move; data/books.ts).
      fd('move_id', 'many2one', 'Journal Entry', { relation: 'account.move', readonly: true }),
      fd('cash_real_transaction', 'monetary', 'Transaction', { readonly: true }),
      // 16/17 only: 18 computes the theoretical balance from the opening one and drops the field.
      ...(v18
        ? []
        : [
            computed('cash_register_total_entry_encoding', 'monetary', 'Total Cash Transaction', (rec, db) =>
              totalCash(rec, db),
            ),
          ]),
      computed(
        'total_payments_amount',
        'float',
        'Total Payments Amount',
        (rec, db) => db.figures().session.get(rec.id)?.totalPayments ?? 0,
      ),
      computed(
        'order_count',
        'integer',
        'Order Count',
        (rec, db) => db.figures().session.get(rec.id)?.orderCount ?? 0,
      ),
      inverse(
        'order_ids',
        'Orders',
        'pos.order',
        'session_id',
        (rec, db) => db.figures().sessionOrders.get(rec.id) ?? [],
      ),
      inverse(
        'statement_line_ids',
        'Cash Lines',
        'account.bank.statement.line',
        'pos_session_id',
        (rec, db) => db.figures().sessionMoves.get(rec.id) ?? [],
      ),
      computed(
        'payment_method_ids',
        'many2many',
        'Payment Methods',
        (rec, db) => ids(db.get('pos.config', rec.config_id as number)?.payment_method_ids),
        {
          searchable: true,
          relation: 'pos.payment.method',
          related: 'config_id.payment_method_ids',
        },
      ),
      related('company_id', 'Company', 'res.company', 'config_id.company_id'),
      relatedCurrency('config_id.currency_id', v19),
      // 18 and 19's pos_hr track the employee using the register on the session (16/17 keep it
      // on orders only): who counted the cash at the closing.
      ...(posHr && v18
        ? [
            fd('employee_id', 'many2one', 'Cashier', {
              relation: 'hr.employee',
              dflt: registerEmployee,
            }),
          ]
        : []),
    ],
  });
}

/**
 * The employee last logged in at the session's register: the one who rang its last order; at
 * one closing in three the one who rang its first came back to count the cash.
 */
function registerEmployee(rec: Rec, db: Db): Stored {
  const orders = db.figures().sessionOrders.get(rec.id) ?? [];
  if (orders.length === 0) return false;
  // A loop, not Math.max(...): a busy session holds more ids than a call takes arguments.
  let first = Number.POSITIVE_INFINITY;
  let lastId = 0;
  for (const id of orders) {
    if (id < first) first = id;
    if (id > lastId) lastId = id;
  }
  const last = orderEmployee(db, lastId);
  if (rec.state !== 'closed' || rec.id % 3 !== 0) return last;
  return orderEmployee(db, first) || last;
}

/** Cash through the session: cash payments (change included) plus cash put in or taken out. */
function totalCash(rec: Rec, db: Db): number {
  if (!hasCashMethod(rec, db)) return 0;
  const f = db.figures().session.get(rec.id);
  const cash = f?.cashPayments ?? 0;
  // 16/17 _compute_cash_balance: a closed session uses its stored cash_real_transaction.
  return rec.state === 'closed' ? num(rec.cash_real_transaction) + cash : (f?.moves ?? 0) + cash;
}

/**
 * Theoretical closing cash. 16/17: the previous session's counted cash plus this session's cash
 * transactions (not this session's opening balance). 18/19: opening balance plus cash transactions.
 */
function theoretical(rec: Rec, db: Db, v18: boolean): number {
  if (!hasCashMethod(rec, db)) return 0;
  if (v18) {
    // 18/19 _compute_cash_balance: a closed session's cash lines as counted at its closing
    // (cash_real_transaction: the closing's own lines are not in it), an open one's lines so far.
    const f = db.figures().session.get(rec.id);
    const moves = rec.state === 'closed' ? num(rec.cash_real_transaction) : (f?.moves ?? 0);
    return num(rec.cash_register_balance_start) + (f?.cashPayments ?? 0) + moves;
  }
  const prev = db.sessionIdx().prevSession.get(rec.id);
  const prevReal = prev === undefined ? 0 : num(db.get('pos.session', prev)?.cash_register_balance_end_real);
  return prevReal + totalCash(rec, db);
}

function hasCashMethod(rec: Rec, db: Db): boolean {
  const cfg = db.get('pos.config', rec.config_id as number);
  return ids(cfg?.payment_method_ids).some((m) => db.get('pos.payment.method', m)?.is_cash_count === true);
}
