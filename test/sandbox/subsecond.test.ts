// create_date / write_date as Odoo keeps them: PostgreSQL stores the transaction's now() with
// microseconds, Odoo sends them cut to the second, and a domain compares with the stored value.
// So after a page ending in second T, `write_date > T` gives the rows of T again and
// `write_date = T` gives none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type R = Record<string, unknown>;
let sandbox: SandboxHandle;
let rpc: ReturnType<typeof rpcClient>;

const nextSecond = (t: string): string =>
  new Date(Date.parse(`${t.replace(' ', 'T')}Z`) + 1000).toISOString().replace('T', ' ').slice(0, 19);

beforeAll(async () => {
  // The default data (2000 orders over 14 days), as `posdata sandbox` starts.
  sandbox = await startTestSandbox({ now: new Date('2026-11-25T12:00:00Z') });
  rpc = rpcClient(sandbox.url);
});
afterAll(async () => {
  await sandbox?.close();
});

async function biggestBatch(): Promise<{ stamp: string; ids: number[] }> {
  const orders = await rpc.ok<R[]>('pos.order', 'search_read', [[], ['write_date']], { order: 'id' });
  const by = new Map<string, number[]>();
  for (const o of orders) {
    const list = by.get(o.write_date as string) ?? [];
    list.push(o.id as number);
    by.set(o.write_date as string, list);
  }
  const [stamp, ids] = [...by.entries()].sort((a, b) => b[1].length - a[1].length)[0] as [string, number[]];
  return { stamp, ids };
}

describe('sub-second write dates', () => {
  it('the default data has a session close that wrote more than 500 orders in one transaction', async () => {
    const { stamp, ids } = await biggestBatch();
    expect(stamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(ids.length).toBeGreaterThan(500);
    const sessions = await rpc.ok<R[]>('pos.order', 'read', [ids, ['session_id', 'state']]);
    expect(new Set(sessions.map((o) => (o.session_id as [number])[0])).size).toBe(1);
    expect(new Set(sessions.map((o) => o.state))).toEqual(new Set(['done']));
  });

  it("'>' T gives T's rows again, '=' T none, '>= T and < T+1s' exactly them", async () => {
    const { stamp, ids } = await biggestBatch();
    const after = await rpc.ok<number[]>('pos.order', 'search', [[['write_date', '>', stamp]]], {
      order: 'id',
    });
    for (const id of ids) expect(after).toContain(id);
    expect(await rpc.ok('pos.order', 'search_count', [[['write_date', '=', stamp]]])).toBe(0);
    expect(await rpc.ok('pos.order', 'search_count', [[['write_date', 'in', [stamp]]]])).toBe(0);
    const within = await rpc.ok<number[]>(
      'pos.order',
      'search',
      [
        [
          ['write_date', '>=', stamp],
          ['write_date', '<', nextSecond(stamp)],
        ],
      ],
      { order: 'id' },
    );
    const whole = await rpc.ok<R[]>('pos.order', 'search_read', [[], ['write_date']], { order: 'id' });
    expect(within).toEqual(whole.filter((o) => o.write_date === stamp).map((o) => o.id));
    // '<=' T leaves T's rows out (they are later than T.000000).
    const upTo = await rpc.ok<number[]>('pos.order', 'search', [[['write_date', '<=', stamp]]]);
    for (const id of ids) expect(upTo).not.toContain(id);
  });

  it('a keyset page on write_date, id that ends inside the batch serves its rows again after it', async () => {
    const { stamp, ids } = await biggestBatch();
    const page = await rpc.ok<R[]>(
      'pos.order',
      'search_read',
      [[['write_date', '>=', stamp]], ['write_date']],
      { order: 'write_date, id', limit: 100 },
    );
    expect(page.every((o) => o.write_date === stamp)).toBe(true);
    const next = await rpc.ok<number[]>('pos.order', 'search', [[['write_date', '>', stamp]]], {
      order: 'write_date, id',
      limit: 100,
    });
    expect(next).toEqual(page.map((o) => o.id));
    expect(ids.slice(0, 100)).toEqual(next);
  });

  it('create and write through the API stamp the current time with microseconds, one per call', async () => {
    // Any two counted tickets (just after midnight the open session may hold fewer than two paid).
    const [a, b] = await rpc.ok<number[]>('pos.order', 'search', [[['state', 'in', ['paid', 'done']]]], {
      limit: 2,
    });
    expect(await rpc.ok('pos.order', 'write', [[a, b], { note: 'checked' }])).toBe(true);
    const [ra, rb] = await rpc.ok<R[]>('pos.order', 'read', [[a, b], ['write_date']]);
    const t = ra?.write_date as string;
    expect(rb?.write_date).toBe(t);
    expect(Math.abs(Date.parse(`${t.replace(' ', 'T')}Z`) - Date.now())).toBeLessThan(60_000);
    // One transaction: both share the stored value, which is not T.000000.
    const within = await rpc.ok<number[]>(
      'pos.order',
      'search',
      [
        [
          ['write_date', '>=', t],
          ['write_date', '<', nextSecond(t)],
          ['id', 'in', [a, b]],
        ],
      ],
      { order: 'id' },
    );
    expect(within).toEqual([a, b].sort((x, y) => (x as number) - (y as number)));
    const created = await rpc.ok<number>('res.partner', 'create', [{ name: 'Sub Second' }]);
    const [p] = await rpc.ok<R[]>('res.partner', 'read', [[created], ['create_date', 'write_date']]);
    expect(p?.create_date).toBe(p?.write_date);
    expect(p?.create_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(
      await rpc.ok('res.partner', 'search_count', [
        [
          ['create_date', '>', p?.create_date],
          ['id', '=', created],
        ],
      ]),
    ).toBe(1);
  });
});
