// Typed columns from the server's fields_get: the sandbox's own answers (17 and 19) for the
// fields posdata exports, and the conversions of the values a normalised row carries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldMap } from '../../src/core/types.js';
import { type Column, columnRow, columnsFor, columnsOf, parseTimestamp } from '../../src/records/columns.js';
import { Normalizer } from '../../src/records/normalize.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let s17: SandboxHandle;
let s19: SandboxHandle;
beforeAll(async () => {
  s17 = await startTestSandbox({ seed: 3, orders: 30, days: 2 });
  s19 = await startTestSandbox({ seed: 3, orders: 30, days: 2, odooVersion: 19 });
});
afterAll(async () => {
  await s17?.close();
  await s19?.close();
});

const fieldsGet = (s: SandboxHandle, model: string) =>
  rpcClient(s.url).ok<FieldMap>(model, 'fields_get', [], {
    attributes: ['type', 'relation', 'digits', 'store'],
  });

const shape = (cols: Column[]) => cols.map((c) => [c.name, c.kind, c.scale ?? null, c.nullable]);

describe('columns from fields_get', () => {
  for (const version of [17, 19] as const) {
    it(`sales on ${version}: ids, amounts as decimals of 2, a UTC timestamp, many2one pairs, id lists`, async () => {
      const defs = await fieldsGet(version === 17 ? s17 : s19, 'pos.order');
      const fields = [
        'id',
        'name',
        'date_order',
        'amount_total',
        'amount_tax',
        'state',
        'config_id',
        'payment_ids',
      ];
      expect(shape(columnsFor(fields, defs))).toEqual([
        ['id', 'integer', null, false],
        ['name', 'text', null, true],
        ['date_order', 'timestamp', null, true],
        ['amount_total', 'decimal', 2, true],
        ['amount_tax', 'decimal', 2, true],
        ['state', 'text', null, true],
        ['config_id', 'integer', null, true],
        ['config_name', 'text', null, true],
        ['payment_ids', 'integer[]', null, true],
      ]);
    });
  }

  it("lines: the quantity at its Product Unit of Measure digits, prices at the currency's, the discount a float", async () => {
    const defs = await fieldsGet(s17, 'pos.order.line');
    const cols = columnsFor(['qty', 'price_unit', 'discount', 'price_subtotal_incl', 'order_id'], defs);
    expect(shape(cols)).toEqual([
      ['qty', 'decimal', 2, true],
      ['price_unit', 'decimal', 2, true],
      ['discount', 'float', null, true],
      ['price_subtotal_incl', 'decimal', 2, true],
      ['order_id', 'integer', null, true],
      ['order_name', 'text', null, true],
    ]);
  });

  it('configs: a date, a boolean-free register, and the many2one of the current session', async () => {
    const defs = await fieldsGet(s17, 'pos.config');
    const cols = columnsFor(['last_session_closing_date', 'current_session_id', 'payment_method_ids'], defs);
    expect(shape(cols)).toEqual([
      ['last_session_closing_date', 'date', null, true],
      ['current_session_id', 'integer', null, true],
      ['current_session_name', 'text', null, true],
      ['payment_method_ids', 'integer[]', null, true],
    ]);
  });

  it('digits given by the server win over the amount rule', () => {
    expect(shape(columnsOf('qty', { type: 'float', digits: [16, 3] }))).toEqual([
      ['qty', 'decimal', 3, true],
    ]);
  });

  it('other types: boolean, html and selection as text, json, unknown as text', () => {
    const defs: FieldMap = {
      is_invoiced: { type: 'boolean' },
      note: { type: 'html' },
      payments: { type: 'json' },
      res_id: { type: 'many2one_reference' },
    };
    expect(shape(columnsFor(['is_invoiced', 'note', 'payments', 'res_id', 'mystery'], defs))).toEqual([
      ['is_invoiced', 'boolean', null, true],
      ['note', 'text', null, true],
      ['payments', 'json', null, true],
      ['res_id', 'integer', null, true],
      ['mystery', 'text', null, true],
    ]);
  });

  it('two columns with one name are refused with a usage error', () => {
    const defs: FieldMap = { config_id: { type: 'many2one' }, config_name: { type: 'char' } };
    expect(() => columnsFor(['config_id', 'config_name'], defs)).toThrow(
      /two columns would be named config_name/,
    );
  });
});

describe('column values from normalised rows', () => {
  const defs: FieldMap = {
    id: { type: 'integer' },
    date_order: { type: 'datetime' },
    day: { type: 'date' },
    amount_total: { type: 'float' },
    is_invoiced: { type: 'boolean' },
    config_id: { type: 'many2one', relation: 'pos.config' },
    payment_ids: { type: 'one2many' },
    note: { type: 'text' },
  };
  const fields = Object.keys(defs);
  const cols = columnsFor(fields, defs);

  it('Odoo false becomes null (boolean false stays), amounts lose their noise, pairs split', () => {
    const row = new Normalizer(fields, defs).row({
      id: 7,
      date_order: '2026-11-21 18:02:22',
      day: '2026-11-21',
      amount_total: -14.540000000000001,
      is_invoiced: false,
      config_id: [1, 'Shop'],
      payment_ids: [4, 5],
      note: false,
    });
    expect(columnRow(cols, row)).toEqual({
      id: 7,
      date_order: new Date(Date.UTC(2026, 10, 21, 18, 2, 22)),
      day: '2026-11-21',
      amount_total: -14.54,
      is_invoiced: false,
      config_id: 1,
      config_name: 'Shop',
      payment_ids: [4, 5],
      note: null,
    });
    const empty = new Normalizer(fields, defs).row({
      id: 8,
      date_order: false,
      day: false,
      amount_total: false,
      is_invoiced: false,
      config_id: false,
      payment_ids: [],
      note: 'x',
    });
    expect(columnRow(cols, empty)).toMatchObject({
      date_order: null,
      day: null,
      amount_total: null,
      config_id: null,
      config_name: null,
      payment_ids: [],
    });
  });

  it('a datetime shown in a zone (--tz) is the same instant', () => {
    const utc = new Normalizer(fields, defs).row({ id: 1, date_order: '2026-03-29 01:30:00' });
    const zoned = new Normalizer(fields, defs, { tz: 'Europe/Brussels' }).row({
      id: 1,
      date_order: '2026-03-29 01:30:00',
    });
    expect(zoned.date_order).not.toEqual(utc.date_order);
    const a = columnRow(cols, utc).date_order as Date;
    const b = columnRow(cols, zoned).date_order as Date;
    expect(b.toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(a.getTime()).toBe(b.getTime());
    expect(parseTimestamp('2026-11-21T19:02:22+01:00').toISOString()).toBe('2026-11-21T18:02:22.000Z');
  });

  it('a value of the wrong type is a bad reply (exit 6), not a silent null', () => {
    const byName = (n: string) => cols.find((c) => c.name === n) as Column;
    expect(() => byName('id').value('seven')).toThrow(expect.objectContaining({ exitCode: 6 }));
    expect(() => byName('date_order').value('yesterday')).toThrow(/not a datetime/);
    expect(() => byName('payment_ids').value([1, 'x'])).toThrow(/not a list of ids/);
    expect(() => byName('day').value('21/11/2026')).toThrow(/not a date/);
  });
});
