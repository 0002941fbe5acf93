/** pos.config: the registers (16/17 label one with its open session's user). */
import { currencyOf } from '../money.js';
import type { Db, ModelDef } from '../store.js';
import { localDate, parseDatetime } from '../time.js';
import type { Rec } from '../types.js';
import { ALL, build, computed, fd, inverse, num, type Version } from './define.js';

export function posConfig({ v18, v19, loyalty, globalDiscount }: Version): ModelDef {
  const configDisplay = (rec: Rec, db: Db): string => {
    const name = String(rec.name);
    if (v18) return name;
    // Odoo 16/17: "<name> (<user of the last session>)" while that session is not closed.
    const sid = db.sessionIdx().configSessions.get(rec.id)?.at(-1);
    const s = sid !== undefined ? db.get('pos.session', sid) : undefined;
    if (!s || s.state === 'closed') return `${name} (not used)`;
    return `${name} (${db.displayName('res.users', s.user_id as number)})`;
  };

  return build({
    name: 'pos.config',
    description: 'Point of Sale Configuration',
    order: 'id',
    hasActive: true,
    displayName: configDisplay,
    acl: { manager: ALL, user: 'rw', clerk: '' },
    readGroups: v19
      ? ['Point of Sale/Administrator', 'Point of Sale/User', 'Role / Administrator']
      : ['Point of Sale/Administrator', 'Point of Sale/User'],
    fields: [
      fd('name', 'char', 'Point of Sale', { required: true }),
      fd('active', 'boolean', 'Active', { dflt: () => true }),
      computed(
        'current_session_id',
        'many2one',
        'Current Session',
        (rec, db) => db.sessionIdx().currentSession.get(rec.id) ?? false,
        {
          relation: 'pos.session',
        },
      ),
      computed('current_session_state', 'char', 'Current Session State', (rec, db) => {
        const sid = db.sessionIdx().currentSession.get(rec.id);
        return sid === undefined ? false : (db.get('pos.session', sid)?.state ?? false);
      }),
      computed('last_session_closing_date', 'date', 'Last Session Closing Date', (rec, db, env) => {
        const sid = db.sessionIdx().lastClosed.get(rec.id);
        const stop = sid === undefined ? undefined : db.get('pos.session', sid)?.stop_at;
        return typeof stop === 'string' ? localDate(parseDatetime(stop), env?.tz ?? false) : false;
      }),
      computed('last_session_closing_cash', 'float', 'Last Session Closing Cash', (rec, db) => {
        const sid = db.sessionIdx().lastClosed.get(rec.id);
        return sid === undefined ? 0 : num(db.get('pos.session', sid)?.cash_register_balance_end_real);
      }),
      fd('payment_method_ids', 'many2many', 'Payment Methods', { relation: 'pos.payment.method' }),
      // Tips are point_of_sale's own (the product, and whether the register asks for one).
      fd('iface_tipproduct', 'boolean', 'Product tips', { dflt: () => false }),
      fd('tip_product_id', 'many2one', 'Tip Product', { relation: 'product.product' }),
      ...(globalDiscount
        ? [fd('discount_product_id', 'many2one', 'Discount Product', { relation: 'product.product' })]
        : []),
      ...(loyalty
        ? [
            fd('gift_card_settings', 'selection', 'Gift Cards settings', {
              selection: [
                ['create_set', 'Generate PDF cards'],
                ['scan_use', 'Scan existing cards'],
              ],
              dflt: () => 'create_set',
            }),
          ]
        : []),
      inverse('session_ids', 'Sessions', 'pos.session', 'config_id', (rec, db) =>
        [...(db.sessionIdx().configSessions.get(rec.id) ?? [])].reverse(),
      ),
      fd('company_id', 'many2one', 'Company', { relation: 'res.company', required: true, dflt: () => 1 }),
      // A register's currency: computed (_compute_currency, the journal's or the company's), not
      // stored on 16-18, so Odoo cannot search it (the sandbox filters on it all the same);
      // stored on 19.
      v19
        ? fd('currency_id', 'many2one', 'Currency', {
            relation: 'res.currency',
            readonly: true,
            dflt: (rec, db) => currencyOf(db, num(rec.company_id) || 1),
          })
        : computed(
            'currency_id',
            'many2one',
            'Currency',
            (rec, db) => currencyOf(db, num(rec.company_id) || 1),
            {
              relation: 'res.currency',
              searchable: true,
              search: false,
            },
          ),
    ],
  });
}
