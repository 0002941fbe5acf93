// Domain leaves at the edges of Odoo's rules, the sandbox as the real Odoo 17 reads them:
// `like ''`, `=` a list, an id as text, `in` a boolean or a single value, a datetime with a
// zone offset, a boolean compared with a string, child_of and parent_of. The two servers hold
// different data, so each is checked against itself: an edge domain must find what a plain
// domain that means the same finds on that server (`ilike ''` everything, `= [x]` what `in
// [x]` finds, child_of the subtree got by walking parent_id there...). Where the real server
// raises, the sandbox must raise the same.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rpcOdoo } from '../helpers/odoo17.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const odoo = inject('odoo');

type Which = 'real' | 'sandbox';
const rpcs = {} as Record<Which, Rpc>;
let sandbox: SandboxHandle;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 4, orders: 400, days: 5 });
  rpcs.real = await rpcOdoo(odoo, 'admin');
  rpcs.sandbox = new Rpc(sandbox.url, 'demo', 'admin', 'admin');
  await rpcs.sandbox.auth();
});
afterAll(async () => {
  await sandbox?.close();
});

const search = (rpc: Rpc, model: string, domain: unknown[]): Promise<number[]> =>
  rpc.kw<number[]>(model, 'search', [domain], { order: 'id' });

/** The error as `name: message`, or 'no error'. PostgreSQL's message quotes Odoo's SQL after its first line. */
async function failure(rpc: Rpc, model: string, domain: unknown[]): Promise<string> {
  try {
    await rpc.count(model, domain);
    return 'no error';
  } catch (err) {
    const message = (err as Error).message;
    return message.startsWith('psycopg2.') ? (message.split('\n')[0] as string) : message;
  }
}

describe.each(['real', 'sandbox'] as const)(
  'on the %s server, each edge finds what its plain twin finds',
  (which: Which) => {
    const rpc = (): Rpc => rpcs[which];

    it("`like ''` and `ilike ''` take every row, the empty ones too", async () => {
      const all = await rpc().count('pos.order', []);
      expect(all).toBeGreaterThan(0);
      const empty = await rpc().count('pos.order', [['note', '=', false]]);
      expect(empty).toBeGreaterThan(0);
      for (const op of ['like', 'ilike']) {
        expect(await rpc().count('pos.order', [['note', op, '']])).toBe(all);
        expect(await rpc().count('pos.order', [['note', op, false]])).toBe(all);
      }
      // The negative ones take only the empty rows; `=ilike ''` none of them.
      expect(await rpc().count('pos.order', [['note', 'not ilike', '']])).toBe(empty);
      expect(await rpc().count('pos.order', [['note', '=ilike', '']])).toBe(
        await rpc().count('pos.order', [['note', '=', '']]),
      );
    });

    it('`= [x]` is `in [x]`, `!= [x]` is `not in [x]`', async () => {
      const [line] = await rpc().searchRead<{ refunded_orderline_id: [number, string] }>(
        'pos.order.line',
        [['refunded_orderline_id', '!=', false]],
        { fields: ['refunded_orderline_id'], limit: 1, order: 'id' },
      );
      expect(line).toBeDefined();
      const x = (line as { refunded_orderline_id: [number, string] }).refunded_orderline_id[0];
      const found = await search(rpc(), 'pos.order.line', [['refunded_orderline_id', '=', [x]]]);
      expect(found.length).toBeGreaterThan(0);
      expect(found).toEqual(await search(rpc(), 'pos.order.line', [['refunded_orderline_id', 'in', [x]]]));
      expect(await rpc().count('pos.order.line', [['refunded_orderline_id', '!=', [x]]])).toBe(
        await rpc().count('pos.order.line', [['refunded_orderline_id', 'not in', [x]]]),
      );
    });

    it('an id given as text is that id', async () => {
      const [a, b] = await rpc().kw<number[]>('pos.order', 'search', [[]], { order: 'id', limit: 2 });
      expect(await search(rpc(), 'pos.order', [['id', '=', String(a)]])).toEqual([a]);
      expect(await search(rpc(), 'pos.order', [['id', '=', ` ${a}`]])).toEqual([a]);
      expect(await search(rpc(), 'pos.order', [['id', 'in', [String(a), String(b)]]])).toEqual([a, b]);
      expect(await rpc().count('pos.order', [['id', '!=', String(a)]])).toBe(
        await rpc().count('pos.order', [['id', '!=', a]]),
      );
    });

    it('`in False` finds nothing alone (is_false), and is `= False` inside an OR', async () => {
      expect(await rpc().count('pos.order.line', [['refunded_orderline_id', 'in', false]])).toBe(0);
      expect(await rpc().count('pos.order.line', [['refunded_orderline_id', '=', false]])).toBeGreaterThan(0);
      const [first] = await rpc().kw<number[]>('pos.order.line', 'search', [[]], { order: 'id', limit: 1 });
      expect(
        await search(rpc(), 'pos.order.line', [
          '|',
          ['refunded_orderline_id', 'in', false],
          ['id', '=', first],
        ]),
      ).toEqual(
        await search(rpc(), 'pos.order.line', [
          '|',
          ['refunded_orderline_id', '=', false],
          ['id', '=', first],
        ]),
      );
      expect(await rpc().count('pos.order.line', [['refunded_orderline_id', 'not in', false]])).toBe(
        await rpc().count('pos.order.line', [['refunded_orderline_id', '!=', false]]),
      );
      // is_false answers before any leaf is read: an unknown field after it raises nothing.
      expect(
        await rpc().count('pos.order', [
          ['id', 'in', []],
          ['nope', '=', 1],
        ]),
      ).toBe(0);
    });

    it('a datetime with a zone offset, a T or no seconds is read as PostgreSQL reads it: the offset dropped', async () => {
      const all = await rpc().count('pos.order', []);
      const [mid] = await rpc().searchRead<{ date_order: string }>('pos.order', [], {
        fields: ['date_order'],
        order: 'date_order, id',
        offset: Math.floor(all / 2),
        limit: 1,
      });
      const at = (mid as { date_order: string }).date_order;
      const plain = {
        '>=': await rpc().count('pos.order', [['date_order', '>=', at]]),
        '=': await rpc().count('pos.order', [['date_order', '=', at]]),
      };
      expect(plain['=']).toBeGreaterThan(0);
      for (const form of [`${at}+01:00`, `${at}-05:00`, `${at}Z`, at.replace(' ', 'T')]) {
        expect(await rpc().count('pos.order', [['date_order', '>=', form]]), form).toBe(plain['>=']);
        expect(await rpc().count('pos.order', [['date_order', '=', form]]), form).toBe(plain['=']);
      }
      if (at.endsWith(':00')) {
        const short = at.slice(0, 16);
        expect(await rpc().count('pos.order', [['date_order', '>=', short]])).toBe(plain['>=']);
      }
    });

    it("a boolean compared with a string is compared with bool() of it: `= 'x'` is `= True`", async () => {
      for (const op of ['=', '!=']) {
        const truth = await rpc().count('pos.payment', [['is_change', op, true]]);
        expect(await rpc().count('pos.payment', [['is_change', op, 'x']]), op).toBe(truth);
        expect(await rpc().count('pos.payment', [['is_change', op, 1]]), op).toBe(truth);
        expect(await rpc().count('pos.payment', [['is_change', op, '']]), op).toBe(
          await rpc().count('pos.payment', [['is_change', op, false]]),
        );
      }
      expect(await rpc().count('pos.payment', [['is_change', 'in', [1]]])).toBe(
        await rpc().count('pos.payment', [['is_change', 'in', [true]]]),
      );
    });

    it('child_of and parent_of follow parent_id, as walking it on the server finds', async () => {
      const cats = await rpc().searchRead<{
        id: number;
        parent_id: [number, string] | false;
        name: string;
        complete_name: string;
      }>('product.category', [], { fields: ['parent_id', 'name', 'complete_name'], order: 'id' });
      const parentOf = new Map(cats.map((c) => [c.id, c.parent_id ? c.parent_id[0] : undefined]));
      const below = (root: number): number[] => {
        const found = new Set([root]);
        for (let grew = true; grew; ) {
          grew = false;
          for (const c of cats) {
            const p = parentOf.get(c.id);
            if (p !== undefined && found.has(p) && !found.has(c.id)) {
              found.add(c.id);
              grew = true;
            }
          }
        }
        return [...found].sort((x, y) => x - y);
      };
      const above = (leaf: number): number[] => {
        const found: number[] = [];
        for (let id: number | undefined = leaf; id !== undefined; id = parentOf.get(id)) found.push(id);
        return found.sort((x, y) => x - y);
      };
      const root = cats.find((c) => !c.parent_id) as { id: number };
      const subtree = below(root.id);
      expect(subtree.length).toBeGreaterThan(2);
      expect(await search(rpc(), 'product.category', [['id', 'child_of', root.id]])).toEqual(subtree);
      expect(await search(rpc(), 'product.category', [['parent_id', 'child_of', root.id]])).toEqual(subtree);
      // The deepest category: parent_of finds it and every category above it.
      const deepest = cats.reduce((a, c) => (above(c.id).length > above(a.id).length ? c : a));
      expect(above(deepest.id).length).toBeGreaterThan(2);
      expect(await search(rpc(), 'product.category', [['id', 'parent_of', deepest.id]])).toEqual(
        above(deepest.id),
      );
      // A name goes through name_search (ilike on the complete name): every category whose
      // complete name has it, and what is below them.
      const second = cats.find((c) => c.parent_id && c.parent_id[0] === root.id && below(c.id).length > 1);
      expect(second).toBeDefined();
      const name = (second as { name: string }).name;
      const named = cats.filter((c) => c.complete_name.toLowerCase().includes(name.toLowerCase()));
      expect(await search(rpc(), 'product.category', [['id', 'child_of', name]])).toEqual(
        [...new Set(named.flatMap((c) => below(c.id)))].sort((x, y) => x - y),
      );
      // Through a many2one to the tree: the products of the subtree's categories.
      expect(await rpc().count('product.product', [['categ_id', 'child_of', root.id]])).toBe(
        await rpc().count('product.product', [['categ_id', 'in', subtree]]),
      );
      expect(await rpc().count('product.product', [['categ_id', 'parent_of', deepest.id]])).toBe(
        await rpc().count('product.product', [['categ_id', 'in', above(deepest.id)]]),
      );
      expect(await rpc().count('pos.order', [['config_id', 'child_of', []]])).toBe(0);
    });
  },
);

const ERRORS: [string, unknown[]][] = [
  ['pos.order.line', [['refunded_orderline_id', 'in', 25]]],
  ['pos.order', [['state', 'in', 'paid']]],
  ['pos.order', [['state', 'not in', 'paid']]],
  ['pos.order', ['|', ['state', 'in', null], ['id', '=', 1]]],
  ['pos.order', [['date_order', 'in', '2026-11-14']]],
  ['pos.order', [['id', '=', 'abc']]],
  ['pos.order', [['id', 'in', ['abc']]]],
  ['pos.order', [['amount_total', '=', 'abc']]],
  ['pos.order', [['config_id', 'child_of', 1]]],
  ['pos.order', [['config_id', 'parent_of', 1]]],
  ['pos.order', [['id', 'child_of', 1]]],
  ['pos.order', [['lines', 'child_of', 1]]],
  ['pos.order', [['name', 'child_of', 1]]],
  ['product.category', [['id', 'child_of', 999999]]],
  ['product.category', [['id', 'parent_of', [1, 999999]]]],
];

describe('where the real Odoo 17 raises, the sandbox raises the same', () => {
  it.each(ERRORS)('%s %j', async (model, domain) => {
    const [real, ours] = await Promise.all([
      failure(rpcs.real, model, domain),
      failure(rpcs.sandbox, model, domain),
    ]);
    expect(real).not.toBe('no error');
    expect(ours).toBe(real);
  });
});
