// Random domains against the sandbox, compared with a plain reference filter written here over a
// full search_read of the same fields (fast-check generates the domains).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type Row = Record<string, unknown> & { id: number };
type Leaf = [string, string, unknown];
type Dom = (string | Leaf)[];

let sandbox: SandboxHandle;
let rpc: ReturnType<typeof rpcClient>;
let rows: Row[];
let configNames: Map<number, string>;
const FIELDS = [
  'state',
  'amount_total',
  'config_id',
  'date_order',
  'name',
  'account_move',
  'amount_return',
  'write_date',
];

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 5, orders: 1200, days: 5, now: new Date('2026-11-21T15:00:00Z') });
  rpc = rpcClient(sandbox.url);
  rows = await rpc.ok<Row[]>('pos.order', 'search_read', [[]], { fields: FIELDS, order: 'id' });
  const configs = await rpc.ok<{ id: number; display_name: string }[]>('pos.config', 'search_read', [[]], {
    fields: ['display_name'],
  });
  configNames = new Map(configs.map((c) => [c.id, c.display_name]));
});
afterAll(async () => {
  await sandbox?.close();
});

// ---- reference semantics (Odoo 17), written independently of the sandbox code -----------------

const likeToRegex = (pattern: string, whole: boolean, ci: boolean): RegExp => {
  const body = [...pattern]
    .map((c) => (c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(whole ? `^${body}$` : body, ci ? 'i' : '');
};

function refLeaf(row: Row, [field, op, value]: Leaf): boolean {
  let v = row[field];
  const many2one = field === 'config_id' || field === 'account_move';
  if (many2one && typeof value === 'string') {
    const label = Array.isArray(v) ? String(configNames.get(v[0] as number) ?? v[1]) : undefined;
    const positive = op.replace(/^not /, '').replace('!=', '=');
    const match =
      label !== undefined &&
      (positive === '=' ? label === value : likeToRegex(value, false, positive === 'ilike').test(label));
    return op.startsWith('not') || op === '!=' ? !match : match;
  }
  if (many2one) v = Array.isArray(v) ? v[0] : false;
  const empty = v === false;
  if (field === 'date_order' && typeof value === 'string' && value.length === 10) {
    value = `${value} ${op === '>' || op === '<=' ? '23:59:59' : '00:00:00'}`;
  }
  switch (op) {
    case '=':
      return value === false ? empty : v === value;
    case '!=':
      return value === false ? !empty : v !== value;
    case 'in':
    case 'not in': {
      const list = value as unknown[];
      const hit = empty ? list.includes(false) : list.includes(v);
      return op === 'in' ? hit : !hit;
    }
    case '<':
      return !empty && (v as number) < (value as number);
    case '<=':
      return !empty && (v as number) <= (value as number);
    case '>':
      return !empty && (v as number) > (value as number);
    case '>=':
      return !empty && (v as number) >= (value as number);
    case 'like':
    case 'ilike':
    case '=like':
    case 'not ilike': {
      const re = likeToRegex(String(value), op === '=like', op.endsWith('ilike'));
      const hit = !empty && re.test(String(v));
      return op === 'not ilike' ? !hit : hit;
    }
    default:
      throw new Error(`no reference for ${op}`);
  }
}

function refEval(row: Row, domain: Dom): boolean {
  let i = 0;
  const next = (): boolean => {
    const t = domain[i++];
    if (t === '!') return !next();
    if (t === '&') {
      const a = next();
      const b = next();
      return a && b;
    }
    if (t === '|') {
      const a = next();
      const b = next();
      return a || b;
    }
    return refLeaf(row, t as Leaf);
  };
  let ok = true;
  while (i < domain.length) ok = next() && ok;
  return ok;
}

// ---- generators -----------------------------------------------------------------------------

const leaf: fc.Arbitrary<Leaf> = fc.oneof(
  fc.tuple(
    fc.constant('state'),
    fc.constantFrom('=', '!=', 'ilike', 'not ilike'),
    fc.constantFrom('paid', 'done', 'cancel', 'draft', 'invoiced', 'ai', 'bogus'),
  ),
  fc.tuple(
    fc.constant('state'),
    fc.constantFrom('in', 'not in'),
    fc.subarray(['paid', 'done', 'cancel', 'draft', 'invoiced']),
  ),
  fc.tuple(
    fc.constant('amount_total'),
    fc.constantFrom('=', '!=', '<', '<=', '>', '>='),
    fc.oneof(fc.constantFrom(0, 10, 50.5, -5), fc.integer({ min: -100, max: 600 })),
  ),
  fc.tuple(fc.constant('amount_return'), fc.constantFrom('=', '!=', '>'), fc.constantFrom(0, 1, 5)),
  fc.tuple(
    fc.constant('config_id'),
    fc.constantFrom('=', '!='),
    fc.constantFrom(1, 2, 3, false, 'Shop (not used)'),
  ),
  fc.tuple(
    fc.constant('config_id'),
    fc.constantFrom('ilike', 'not ilike'),
    fc.constantFrom('Sho', 'o', 'zzz'),
  ),
  fc.tuple(fc.constant('config_id'), fc.constantFrom('in', 'not in'), fc.subarray([1, 2, 3, 4, false])),
  // Ids in a list (the sandbox reads only between the least and the greatest).
  fc.tuple(
    fc.constant('id'),
    fc.constantFrom('in', 'not in'),
    fc.array(fc.oneof(fc.integer({ min: -2, max: 1300 }), fc.constant(false)), { maxLength: 6 }),
  ),
  fc.tuple(fc.constant('account_move'), fc.constantFrom('=', '!='), fc.constant(false)),
  fc.tuple(
    fc.constant('date_order'),
    fc.constantFrom('<', '<=', '>', '>=', '='),
    fc.constantFrom('2026-11-18', '2026-11-19', '2026-11-20 12:00:00', '2026-11-21', '2026-11-19 23:59:59'),
  ),
  fc.tuple(
    fc.constant('name'),
    fc.constantFrom('=', '!=', 'like', 'ilike', 'not ilike', '=like'),
    fc.constantFrom('/', 'REFUND', 'pos/0000', 'POS/%1_', '%0'),
  ),
);

const tree: fc.Arbitrary<Dom> = fc.letrec<{ t: Dom }>((tie) => ({
  t: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf.map((l) => [l] as Dom),
    tie('t').map((t) => ['!', ...t] as Dom),
    fc.tuple(fc.constantFrom('&', '|'), tie('t'), tie('t')).map(([op, a, b]) => [op, ...a, ...b] as Dom),
  ),
})).t;

const domain = fc.array(tree, { minLength: 0, maxLength: 3 }).map((ts) => ts.flat() as Dom);

describe('domains against a reference filter', () => {
  it('loaded the orders', () => {
    expect(rows.length).toBe(1200);
  });

  it('search gives the ids the reference filter gives', async () => {
    await fc.assert(
      fc.asyncProperty(domain, async (d) => {
        const got = await rpc.ok<number[]>('pos.order', 'search', [d], { order: 'id' });
        const want = rows.filter((r) => refEval(r, d)).map((r) => r.id);
        expect(got).toEqual(want);
        const count = await rpc.ok<number>('pos.order', 'search_count', [d]);
        expect(count).toBe(want.length);
      }),
      { numRuns: 250 },
    );
  });

  it('sorted searches with range bounds give what sorting the reference result gives', async () => {
    const orders: [string, boolean][][] = [
      [['date_order', false]],
      [['date_order', true]],
      // A keyset page on (date_order, id): date_order has whole seconds, so the reference sorts it
      // as the server does (write_date is stored with microseconds: see subsecond.test.ts).
      [
        ['date_order', false],
        ['id', false],
      ],
      [
        ['amount_total', true],
        ['id', false],
      ],
      [['name', true]],
    ];
    const stamps = [...new Set(rows.map((r) => r.date_order as string))].sort();
    const keyset = fc
      .tuple(fc.constantFrom(...stamps), fc.integer({ min: 0, max: 1300 }))
      .map(([w, n]) => ['|', ['date_order', '>', w], '&', ['date_order', '=', w], ['id', '>', n]] as Dom);
    const ranged = fc
      .tuple(
        fc.constantFrom(...stamps),
        fc.constantFrom(...stamps),
        fc.constantFrom('>', '>=', '='),
        fc.constantFrom('<', '<='),
      )
      .map(
        ([a, b, o1, o2]) =>
          [
            ['date_order', o1, a],
            ['date_order', o2, b],
          ] as Dom,
      );
    // Leaves on the range's own field that make no bound (a date alone, !=): still tested.
    const sameField = fc.tuple(
      fc.constant('date_order'),
      fc.constantFrom('<', '>=', '!=', '='),
      fc.constantFrom('2026-11-18', '2026-11-19', '2026-11-20', ...stamps.slice(0, 3)),
    ) as fc.Arbitrary<Leaf>;
    // A range with other leaves ANDed to it, in any order: the scan of the date index leaves
    // the range's own leaves untested; the others still decide.
    const rangedAnd = fc
      .tuple(ranged, fc.array(fc.oneof(leaf, sameField), { minLength: 1, maxLength: 3 }), fc.boolean())
      .map(([r, more, first]) => (first ? [...r, ...more] : [...more, ...r]) as Dom);
    const money = fc
      .tuple(fc.integer({ min: -50, max: 400 }), fc.constantFrom('>', '>=', '<', '<=', '='))
      .map(([v, o]) => ['|', ['amount_total', o, v], ['amount_total', '=', 0]] as Dom);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(keyset, ranged, rangedAnd, money, domain),
        fc.constantFrom(...orders),
        fc.integer({ min: 0, max: 30 }),
        fc.constantFrom(5, 40, 0),
        async (d, order, offset, limit) => {
          const spec = order.map(([f, desc]) => `${f}${desc ? ' desc' : ''}`).join(', ');
          const got = await rpc.ok<number[]>('pos.order', 'search', [d], { order: spec, offset, limit });
          const want = rows
            .filter((r) => refEval(r, d))
            .sort((a, b) => {
              for (const [f, desc] of order) {
                const x = a[f] as string | number;
                const y = b[f] as string | number;
                if (x === y) continue;
                return (x < y ? -1 : 1) * (desc ? -1 : 1);
              }
              return a.id - b.id;
            })
            .map((r) => r.id);
          expect(got).toEqual(want.slice(offset, limit ? offset + limit : undefined));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('id in a list: exactly the listed ids that exist, alone or with other leaves', async () => {
    const search = (d: unknown[]) => rpc.ok<number[]>('pos.order', 'search', [d], { order: 'id' });
    expect(await search([['id', 'in', [900, 5, 17, 99999]]])).toEqual([5, 17, 900]);
    expect(await search([['id', 'in', []]])).toEqual([]);
    expect(await search([['id', 'in', [1200]]])).toEqual([1200]);
    expect(
      await search([
        ['id', 'in', [3, 7]],
        ['id', '>', 3],
      ]),
    ).toEqual([7]);
    expect(await search([['id', 'in', [3, false]]])).toEqual([3]);
    expect(await rpc.ok<number>('pos.order', 'search_count', [[['id', 'in', [2, 4, 6]]]])).toBe(3);
  });

  it('pages by id ranges join up to the full result', async () => {
    const all = await rpc.ok<number[]>('pos.order', 'search', [[['state', '!=', 'cancel']]], { order: 'id' });
    const paged: number[] = [];
    let last = 0;
    for (;;) {
      const page = await rpc.ok<number[]>(
        'pos.order',
        'search',
        [
          [
            ['state', '!=', 'cancel'],
            ['id', '>', last],
          ],
        ],
        { order: 'id', limit: 97 },
      );
      if (page.length === 0) break;
      paged.push(...page);
      last = page[page.length - 1] as number;
    }
    expect(paged).toEqual(all);
  });

  it('offset and limit in id order, with and without id bounds, both directions', async () => {
    const all = rows.map((r) => r.id);
    for (const [offset, limit] of [
      [0, 10],
      [7, 50],
      [1195, 10],
      [1200, 5],
      [5000, 5],
    ] as const) {
      for (const dir of ['id', 'id desc']) {
        const base = dir === 'id' ? all : [...all].reverse();
        expect(await rpc.ok('pos.order', 'search', [[]], { order: dir, offset, limit })).toEqual(
          base.slice(offset, offset + limit),
        );
        const bounded = base.filter((id) => id > 100 && id <= 1100);
        const got = await rpc.ok(
          'pos.order',
          'search',
          [
            [
              ['id', '>', 100],
              ['id', '<=', 1100],
            ],
          ],
          { order: dir, offset, limit },
        );
        expect(got).toEqual(bounded.slice(offset, offset + limit));
      }
    }
  });

  it('orders by several fields, asc and desc, with offset and limit', async () => {
    const got = await rpc.ok<Row[]>('pos.order', 'search_read', [[]], {
      fields: ['state', 'amount_total'],
      order: 'state desc, amount_total, id desc',
      offset: 7,
      limit: 300,
    });
    const want = [...rows]
      .sort((a, b) => {
        if (a.state !== b.state) return (a.state as string) < (b.state as string) ? 1 : -1;
        if (a.amount_total !== b.amount_total) return (a.amount_total as number) - (b.amount_total as number);
        return b.id - a.id;
      })
      .slice(7, 307)
      .map((r) => r.id);
    expect(got.map((r) => r.id)).toEqual(want);
  });

  it('default order is date_order desc, name desc, id desc', async () => {
    const got = await rpc.ok<Row[]>('pos.order', 'search_read', [[]], { fields: ['date_order', 'name'] });
    const want = [...rows].sort((a, b) => {
      if (a.date_order !== b.date_order) return (a.date_order as string) < (b.date_order as string) ? 1 : -1;
      if (a.name !== b.name) return (a.name as string) < (b.name as string) ? 1 : -1;
      return b.id - a.id;
    });
    expect(got.map((r) => r.id)).toEqual(want.map((r) => r.id));
  });

  it('dotted paths and x2many: refunds by their lines, orders by register name', async () => {
    const refunds = await rpc.ok<Row[]>(
      'pos.order',
      'search_read',
      [[['lines.refunded_orderline_id', '!=', false]]],
      { fields: ['name'] },
    );
    expect(refunds.length).toBeGreaterThan(0);
    expect(refunds.every((r) => String(r.name).endsWith(' REFUND'))).toBe(true);
    const shop = await rpc.ok<number>('pos.order', 'search_count', [
      [['session_id.config_id.name', '=', 'Shop']],
    ]);
    expect(shop).toBe(rows.filter((r) => Array.isArray(r.config_id) && r.config_id[0] === 1).length);
    const withoutPayments = await rpc.ok<number>('pos.order', 'search_count', [
      [['payment_ids', '=', false]],
    ]);
    const cancelOrDraft = rows.filter((r) => r.state === 'cancel' || r.state === 'draft').length;
    expect(withoutPayments).toBe(cancelOrDraft);
  });

  it('ignores a non-stored leaf on 17 and hides archived records unless active_test is false', async () => {
    expect(await rpc.ok<number>('pos.order', 'search_count', [[['is_refunded', '=', true]]])).toBe(1200);
    const active = await rpc.ok<number>('pos.payment.method', 'search_count', [[]]);
    const all = await rpc.ok<number>('pos.payment.method', 'search_count', [[]], {
      context: { active_test: false },
    });
    expect(all).toBe(active + 1);
  });

  it('raises Odoo errors for bad fields, operators and orders', async () => {
    const bad = async (d: unknown, kw: Record<string, unknown> = {}) =>
      (await rpc.kw('pos.order', 'search_read', [d], { fields: ['name'], ...kw })).error?.data;
    expect((await bad([['nope', '=', 1]]))?.message).toBe(
      "Invalid field pos.order.nope in leaf ('nope', '=', 1)",
    );
    expect((await bad([['amount_total', '>>', 1]]))?.message).toBe("Invalid leaf ('amount_total', '>>', 1)");
    expect((await bad([], { order: 'name; drop table' }))?.name).toBe('odoo.exceptions.UserError');
    expect((await bad([], { order: 'nope desc' }))?.message).toBe(
      "Invalid field 'nope' on model 'pos.order'",
    );
  });
});

describe('edge leaves, as Odoo reads them (test/odoo/domain-edges.test.ts checks 17 against a real one)', () => {
  const count = (d: unknown[], model = 'pos.order') => rpc.ok<number>(model, 'search_count', [d]);
  const fails = async (d: unknown[], model = 'pos.order') =>
    (await rpc.kw(model, 'search_count', [d])).error?.data.message;

  it("`ilike ''` takes the empty rows, `= [x]` is `in`, an id as text is the id, `= 'x'` on a boolean is True", async () => {
    const all = rows.length;
    expect(await count([['note', 'ilike', '']])).toBe(all);
    const [a, b] = rows.map((r) => r.id);
    expect(await count([['id', '=', [a, b]]])).toBe(2);
    expect(await count([['id', '=', String(a)]])).toBe(1);
    expect(await count([['id', 'in', [String(a), String(b)]]])).toBe(2);
    expect(await count([['is_change', '=', 'x']], 'pos.payment')).toBe(
      await count([['is_change', '=', true]], 'pos.payment'),
    );
    const at = rows[Math.floor(all / 2)]?.date_order as string;
    expect(await count([['date_order', '=', `${at}+01:00`]])).toBe(await count([['date_order', '=', at]]));
    expect(await fails([['id', '=', 'abc']])).toBe('invalid input syntax for type integer: "abc"');
  });

  it('`in` a falsy value finds nothing alone, a single value is refused; child_of walks parent_id', async () => {
    expect(await count([['account_move', 'in', false]])).toBe(0);
    expect(
      await count([
        ['id', 'in', []],
        ['nope', '=', 1],
      ]),
    ).toBe(0);
    expect(await fails([['state', 'in', 'paid']])).toBe("Invalid domain term ('state', 'in', 'paid')");
    const cats = await rpc.ok<{ id: number; parent_id: [number, string] | false }[]>(
      'product.category',
      'search_read',
      [[]],
      { fields: ['parent_id'] },
    );
    expect(await count([['id', 'child_of', 1]], 'product.category')).toBe(cats.length);
    expect(await fails([['config_id', 'child_of', 1]])).toBe('parent_id');
    expect(await fails([['id', 'child_of', 999]], 'product.category')).toBe(
      'Record does not exist or has been deleted.\n(Record: product.category(999,), User: 2)',
    );
  });

  it('16 and 18 as 17; 19 reads a single value as a list (orm/domains.py)', async () => {
    for (const odooVersion of [16, 18, 19] as const) {
      const other = await startTestSandbox({ odooVersion, seed: 5, orders: 50, days: 2 });
      try {
        const r = rpcClient(other.url);
        const reply = await r.kw('pos.order', 'search_count', [[['state', 'in', 'paid']]]);
        if (odooVersion === 19)
          expect(reply.result).toBe(await r.ok('pos.order', 'search_count', [[['state', 'in', ['paid']]]]));
        else expect(reply.error?.data.message).toBe("Invalid domain term ('state', 'in', 'paid')");
        expect(await r.ok('pos.order', 'search_count', [[['id', '=', '1']]])).toBe(1);
      } finally {
        await other.close();
      }
    }
  });
});
