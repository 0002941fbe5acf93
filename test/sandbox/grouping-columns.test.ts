// The sandbox's grouping reads fields from columns filled as they are read (store.ts Column):
// the first grouping and the next ones answer alike, a change through the API is seen by the
// next grouping (no stale column), and the figures equal sums made from search_read, including
// a zone whose offset is not whole hours (its hours are keyed value by value).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const NOW = new Date('2026-11-25T12:00:00Z');
let sb: SandboxHandle;
let rpc: ReturnType<typeof rpcClient>;

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 11, orders: 400, days: 5, now: NOW });
  rpc = rpcClient(sb.url);
});
afterAll(() => sb.close());

interface Group {
  __count: number;
  [k: string]: unknown;
}

const SALES = ['state', 'in', ['paid', 'done', 'invoiced']];
const group = (model: string, domain: unknown[], fields: string[], groupby: string[], tz = 'UTC') =>
  rpc.ok<Group[]>(model, 'read_group', [domain, fields, groupby], { lazy: false, context: { tz } });
const cents = (x: number): number => Math.round(x * 100);

describe('grouping from columns', () => {
  it('answers the same the first time and the next, and as search_read adds up', async () => {
    const domain = [SALES, ['amount_total', '>=', 0]];
    const first = await group('pos.order', domain, ['amount_total:sum'], ['session_id']);
    const again = await group('pos.order', domain, ['amount_total:sum'], ['session_id']);
    expect(again).toEqual(first);
    const raw = await rpc.ok<{ session_id: [number, string]; amount_total: number }[]>(
      'pos.order',
      'search_read',
      [domain],
      { fields: ['session_id', 'amount_total'] },
    );
    const bySession = new Map<number, { n: number; total: number }>();
    for (const o of raw) {
      const s = bySession.get(o.session_id[0]) ?? { n: 0, total: 0 };
      s.n++;
      s.total += o.amount_total;
      bySession.set(o.session_id[0], s);
    }
    expect(first.length).toBe(bySession.size);
    for (const g of first) {
      const s = bySession.get((g.session_id as [number, string])[0]);
      expect(g.__count).toBe(s?.n);
      expect(cents(g.amount_total as number)).toBe(cents(s?.total ?? Number.NaN));
    }
  });

  it('groups lines through their order (a related leaf) by day as the rows add up', async () => {
    const domain = [SALES, ['order_id.amount_total', '>=', 0]];
    const spec = ['product_qty:sum', 'price_total:sum'];
    const first = await group('report.pos.order', domain, spec, ['date:day']);
    const again = await group('report.pos.order', domain, spec, ['date:day']);
    expect(again).toEqual(first);
    const rows = await rpc.ok<{ date: string; price_total: number; order_id: [number, string] }[]>(
      'report.pos.order',
      'search_read',
      [[SALES]],
      { fields: ['date', 'price_total', 'order_id'] },
    );
    const refunds = new Set(
      (await rpc.ok<number[]>('pos.order', 'search', [[['amount_total', '<', 0]]])).map(Number),
    );
    const byDay = new Map<string, number>();
    for (const r of rows)
      if (!refunds.has(r.order_id[0]))
        byDay.set(r.date.slice(0, 10), (byDay.get(r.date.slice(0, 10)) ?? 0) + r.price_total);
    const days = first.map((g) => String(g['date:day']));
    expect(days.length).toBe(byDay.size);
    for (const g of first) {
      const range = (g.__range as { 'date:day': { from: string } })['date:day'];
      expect(cents(g.price_total as number)).toBe(cents(byDay.get(range.from.slice(0, 10)) ?? Number.NaN));
    }
  });

  it('keys hours of a zone 5:30 from UTC value by value', async () => {
    const spec = ['amount_total:sum'];
    const grouped = await group('pos.order', [SALES], spec, ['date_order:hour'], 'Asia/Kolkata');
    const raw = await rpc.ok<{ date_order: string; amount_total: number }[]>(
      'pos.order',
      'search_read',
      [[SALES]],
      { fields: ['date_order', 'amount_total'] },
    );
    const byHour = new Map<string, number>();
    for (const o of raw) {
      const local = new Date(Date.parse(`${o.date_order.replace(' ', 'T')}Z`) + 330 * 60_000);
      const hour = local.toISOString().slice(0, 13);
      byHour.set(hour, (byHour.get(hour) ?? 0) + o.amount_total);
    }
    expect(grouped.length).toBe(byHour.size);
    const total = grouped.reduce((s, g) => s + cents(g.amount_total as number), 0);
    expect(total).toBe([...byHour.values()].reduce((s, v) => s + cents(v), 0));
    for (const g of grouped) expect(g.__count).toBeGreaterThan(0);
  });

  it('sees a change made through the API in the next grouping', async () => {
    const domain = [SALES];
    const before = await group('pos.order', domain, ['amount_total:sum'], ['state']);
    await group('pos.order', domain, ['amount_total:sum'], ['state']);
    const [last] = await rpc.ok<{ session_id: [number, string]; config_id: [number, string] }[]>(
      'pos.order',
      'search_read',
      [[SALES]],
      { fields: ['session_id', 'config_id'], limit: 1, order: 'id desc' },
    );
    if (!last) throw new Error('no sale');
    await rpc.ok('pos.order', 'create', [
      {
        session_id: last.session_id[0],
        config_id: last.config_id[0],
        state: 'paid',
        amount_total: 12.34,
        amount_tax: 0,
        amount_paid: 12.34,
        amount_return: 0,
        date_order: '2026-11-24 10:00:00',
      },
    ]);
    const after = await group('pos.order', domain, ['amount_total:sum'], ['state']);
    const paid = (gs: Group[]) => gs.find((g) => g.state === 'paid');
    expect((paid(after)?.__count ?? 0) - (paid(before)?.__count ?? 0)).toBe(1);
    expect(
      cents((paid(after)?.amount_total as number) ?? 0) - cents((paid(before)?.amount_total as number) ?? 0),
    ).toBe(1234);
  });
});
