// fields_get as posdata asks it (FIELD_ATTRIBUTES, what client.fieldsGet sends): the sandbox
// answers `digits`, `related` and `searchable` as the real Odoo 17 does, field by field, for
// every field both servers have on the models posdata reads. posdata rounds a float at its
// `digits` (records/normalize.ts precisionOf) and types a column by them (columnsOf), so the
// precision and column it draws from each server's answer must agree too: a line's qty at
// two decimals (Product Unit of Measure), a product's price at two (Product Price), amounts
// (`digits: 0`, full precision) at the currency's decimals.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FIELD_ATTRIBUTES } from '../../src/core/client.js';
import type { FieldDef, FieldMap } from '../../src/core/types.js';
import { columnsOf } from '../../src/records/columns.js';
import { precisionOf } from '../../src/records/normalize.js';
import { rpcOdoo } from '../helpers/odoo17.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const odoo = inject('odoo');

/** The models posdata reads (its resources, names, currency, reconcile and summary checks). */
const MODELS = [
  'pos.config',
  'pos.session',
  'pos.order',
  'pos.order.line',
  'pos.payment',
  'pos.payment.method',
  'product.template',
  'product.product',
  'res.currency',
  'res.company',
  'res.users',
  'res.partner',
  'report.pos.order',
  'account.move',
  'account.payment',
  'account.bank.statement.line',
  'account.tax',
];

const ATTRS = ['digits', 'related', 'searchable'] as const;
const shown = (d: FieldDef, k: (typeof ATTRS)[number]): unknown => (k in d ? d[k] : '(absent)');

describe('fields_get digits, related and searchable: the sandbox as the real Odoo 17', () => {
  let sandbox: SandboxHandle;
  let real: Rpc;
  let ours: Rpc;
  const got = new Map<string, [FieldMap, FieldMap]>();
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 5, orders: 50, days: 2, currency: 'USD' });
    real = await rpcOdoo(odoo, 'admin');
    ours = new Rpc(sandbox.url, 'demo', 'admin', 'admin');
    await ours.auth();
    for (const m of MODELS) {
      const [r, s] = await Promise.all(
        [real, ours].map((rpc) => rpc.kw<FieldMap>(m, 'fields_get', [], { attributes: FIELD_ATTRIBUTES })),
      );
      got.set(m, [r as FieldMap, s as FieldMap]);
    }
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it.each(MODELS)('%s: every field both have says the same digits, related and searchable', (m) => {
    const [r, s] = got.get(m) as [FieldMap, FieldMap];
    const both = Object.keys(s).filter((f) => f in r);
    expect(both.length).toBeGreaterThan(3);
    const differ: string[] = [];
    for (const f of both)
      for (const k of ATTRS) {
        const [a, b] = [shown(r[f] as FieldDef, k), shown(s[f] as FieldDef, k)];
        if (JSON.stringify(a) !== JSON.stringify(b))
          differ.push(`${f}.${k}: Odoo ${JSON.stringify(a)}, sandbox ${JSON.stringify(b)}`);
      }
    expect(differ).toEqual([]);
  });

  it('the fields whose precision posdata depends on, as Odoo 17 defines them', () => {
    const field = (m: string, f: string) => (got.get(m) as [FieldMap, FieldMap])[1][f] as FieldDef;
    expect(field('pos.order.line', 'qty').digits).toEqual([16, 2]);
    expect(field('product.template', 'list_price').digits).toEqual([16, 2]);
    expect(field('product.product', 'lst_price').digits).toEqual([16, 2]);
    expect(field('res.currency', 'rounding').digits).toEqual([12, 6]);
    for (const f of ['amount_total', 'amount_paid', 'amount_tax', 'amount_return'])
      expect(field('pos.order', f).digits).toBe(0);
    for (const f of ['price_unit', 'discount', 'price_subtotal', 'price_subtotal_incl'])
      expect(field('pos.order.line', f).digits).toBe(0);
    expect(field('pos.order', 'config_id').related).toBe('session_id.config_id');
    // display_name has no search method on 17; a related field searches through its path.
    expect(field('pos.order', 'display_name').searchable).toBe(false);
    expect(field('pos.payment', 'partner_id').searchable).toBe(true);
    expect(field('product.product', 'lst_price').searchable).toBe(false);
  });

  it.each(MODELS)('%s: posdata rounds and types each float of both alike (precisionOf, columnsOf)', (m) => {
    const [r, s] = got.get(m) as [FieldMap, FieldMap];
    const floats = Object.keys(s).filter(
      (f) => f in r && (s[f]?.type === 'float' || s[f]?.type === 'monetary') && s[f]?.type === r[f]?.type,
    );
    const seen = (map: FieldMap, f: string) => {
      const d = map[f] as FieldDef;
      const [c] = columnsOf(f, d);
      return [precisionOf(f, d), c?.kind, c?.scale];
    };
    const differ = floats
      .filter((f) => JSON.stringify(seen(r, f)) !== JSON.stringify(seen(s, f)))
      .map((f) => `${f}: Odoo ${JSON.stringify(seen(r, f))}, sandbox ${JSON.stringify(seen(s, f))}`);
    expect(differ).toEqual([]);
  });
});
