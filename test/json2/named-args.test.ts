// The JSON-2 request bodies posdata sends, against the bodies recorded from a real Odoo 19
// (shared/research/odoo19-wire/, named per case). JSON-2 takes no positional arguments, so
// this naming is where a wrong body would come from.
import { describe, expect, it } from 'vitest';
import { namedArgs } from '../../src/core/json2.js';
import { majorVersion } from '../../src/core/types.js';

describe('namedArgs: execute_kw-style calls → JSON-2 bodies', () => {
  it('search_read: [domain] + fields/limit (json2_pos_order_search_read)', () => {
    const fields = ['id', 'name', 'date_order', 'amount_total', 'state', 'config_id', 'is_refund'];
    expect(namedArgs('pos.order', 'search_read', [[['state', '=', 'done']]], { fields, limit: 3 })).toEqual({
      domain: [['state', '=', 'done']],
      fields,
      limit: 3,
    });
  });

  it('search_read keeps offset, order and context as named arguments (json2_search_read_with_context_lang)', () => {
    expect(
      namedArgs('pos.payment.method', 'search_read', [[]], {
        fields: ['name'],
        offset: 10,
        order: 'id',
        context: { lang: 'en_US', active_test: false },
      }),
    ).toEqual({
      domain: [],
      fields: ['name'],
      offset: 10,
      order: 'id',
      context: { lang: 'en_US', active_test: false },
    });
  });

  it('search_count: [domain] (+ limit) (json2_pos_order_search_count_with_limit)', () => {
    expect(namedArgs('pos.order', 'search_count', [[['state', '=', 'done']]], { limit: 5 })).toEqual({
      domain: [['state', '=', 'done']],
      limit: 5,
    });
  });

  it('read: [ids] → ids, fields stays named (json2_pos_order_read_existing)', () => {
    expect(namedArgs('pos.order', 'read', [[30]], { fields: ['id', 'name'] })).toEqual({
      ids: [30],
      fields: ['id', 'name'],
    });
    expect(namedArgs('pos.order', 'read', [[30], ['name']], {})).toEqual({ ids: [30], fields: ['name'] });
  });

  it('fields_get: [] + attributes (json2_pos_order_fields_get)', () => {
    expect(namedArgs('pos.order', 'fields_get', [], { attributes: ['type', 'string'] })).toEqual({
      attributes: ['type', 'string'],
    });
  });

  it('context_get on res.users is a model method: no ids (json2_res_users_context_get; ids → 422)', () => {
    expect(namedArgs('res.users', 'context_get', [], {})).toEqual({});
  });

  it('never sends "args" (json2_error_positional_args: 422) and refuses a call it cannot name', () => {
    for (const body of [
      namedArgs('pos.order', 'search_read', [[]], {}),
      namedArgs('pos.order', 'read', [[1]], {}),
    ]) {
      expect(body).not.toHaveProperty('args');
    }
    expect(() => namedArgs('pos.order', 'action_pos_order_paid', [[1]], {})).toThrow(
      /no named-argument mapping/,
    );
    expect(() => namedArgs('pos.order', 'search_count', [[], 1, 2], {})).toThrow(/at most 2/);
    expect(() => namedArgs('pos.order', 'read', [], {})).toThrow(/needs record ids/);
  });
});

describe('majorVersion: which servers offer JSON-2 (19 and later)', () => {
  const v = (info: (string | number)[]) => ({
    server_version: '',
    server_serie: '',
    server_version_info: info,
  });
  it('reads version_info[0] as GET /json/version gives it (http_get_json_version)', () => {
    expect(majorVersion(v([19, 0, 0, 'final', 0, '']))).toBe(19);
    expect(majorVersion(v(['saas~18', 3, 0, 'final', 0, '']))).toBe(18);
    expect(majorVersion(v([20, 0, 0, 'alpha', 1, '']))).toBe(20);
    expect(Number.isNaN(majorVersion(v([])))).toBe(true);
  });
});
