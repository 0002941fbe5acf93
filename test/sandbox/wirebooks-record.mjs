// Records the reads posdata books makes (src/books/read.ts) from the bundled real Odoo 17's
// `posci` (shared/odoo17: `start DIR` prints its URL), one file per request under wirebooks/,
// for wirebooks.test.ts to replay against the sandbox: node test/sandbox/wirebooks-record.mjs URL
import { join } from 'node:path';
import { recordRequests } from './record.mjs';

const url = process.argv[2];
if (!url) throw new Error('usage: node test/sandbox/wirebooks-record.mjs http://127.0.0.1:PORT');
const dir = join(import.meta.dirname, 'wirebooks');
// The closings of the POS journal: the same domain finds the sandbox's.
const POSS = [['move_id.journal_id.code', '=', 'POSS']];
const REQUESTS = {
  pos_session_closed: [
    'pos.session',
    'search_read',
    [[['state', '=', 'closed']]],
    {
      fields: [
        'name',
        'config_id',
        'company_id',
        'currency_id',
        'stop_at',
        'move_id',
        'cash_register_difference',
      ],
      limit: 3,
      order: 'id',
    },
  ],
  // 16-18: every line's order, untaxed and taxed figure, three arrays in one group per company
  // (a numeric column's values come as text); two sessions keep the file small.
  pos_order_line_arrays: [
    'pos.order.line',
    'read_group',
    [
      [
        ['order_id.session_id', 'in', [3, 4]],
        ['order_id.state', 'not in', ['draft', 'cancel']],
      ],
      ['order_id:array_agg', 'price_subtotal:array_agg', 'price_subtotal_incl:array_agg'],
      ['company_id'],
    ],
    { lazy: false },
  ],
  account_move_line_read_group: [
    'account.move.line',
    'read_group',
    [POSS, ['balance:sum'], ['move_id', 'account_id', 'tax_line_id', 'name', 'reconciled']],
    { lazy: false, limit: 12 },
  ],
  account_move_line_search_read: [
    'account.move.line',
    'search_read',
    [POSS],
    {
      fields: [
        'move_id',
        'name',
        'account_id',
        'tax_line_id',
        'tax_ids',
        'balance',
        'debit',
        'credit',
        'journal_id',
        'parent_state',
      ],
      limit: 8,
    },
  ],
  account_move_entry: [
    'account.move',
    'search_read',
    [[['journal_id.code', '=', 'POSS']]],
    {
      fields: ['name', 'state', 'journal_id', 'move_type', 'ref', 'amount_total_signed', 'payment_state'],
      limit: 3,
    },
  ],
  account_account_types: [
    'account.account',
    'search_read',
    [[['account_type', 'in', ['income', 'asset_receivable', 'liability_current', 'income_other']]]],
    { fields: ['code', 'name', 'account_type'], limit: 5 },
  ],
  account_bank_statement_line_session: [
    'account.bank.statement.line',
    'search_read',
    [[['pos_session_id', '!=', false]]],
    { fields: ['pos_session_id', 'move_id', 'journal_id', 'amount', 'payment_ref'], limit: 4 },
  ],
  account_journal_cash: [
    'account.journal',
    'search_read',
    [[['type', '=', 'cash']]],
    { fields: ['name', 'type', 'profit_account_id', 'loss_account_id'] },
  ],
  pos_payment_method_journal: [
    'pos.payment.method',
    'search_read',
    [[['journal_id', '!=', false]]],
    { fields: ['name', 'journal_id'], context: { active_test: false } },
  ],
  read_group_cash_difference: [
    'account.move.line',
    'read_group',
    [
      [
        ['journal_id.type', '=', 'cash'],
        ['account_id.account_type', 'in', ['income_other', 'expense']],
      ],
      ['balance:sum'],
      ['move_id'],
    ],
    { lazy: false },
  ],
};
await recordRequests(url, 'posci', dir, REQUESTS);
