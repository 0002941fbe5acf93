// Days and hours across the autumn daylight-saving change in Europe/Brussels (25 October
// 2026, 03:00 CEST → 02:00 CET): Odoo buckets in the zone, posdata folds hours into business
// days with --day-starts; both must put each order where the zone's clock puts it.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type Row = Record<string, string | number | null>;
const ZONE = 'Europe/Brussels';
const P = ['--rate', '0', '--tz', ZONE, '--format', 'json'];
const RANGE = ['--from', '2026-10-20', '--to', '2026-10-28'];

let sandbox: SandboxHandle;
let env: Record<string, string>;
let orders: { date_order: string; amount_total: number }[];

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 3, orders: 1500, days: 8, now: new Date('2026-10-28T20:00:00Z') });
  env = await loginEnv(sandbox.url);
  const rpc = new Rpc(sandbox.url);
  orders = await rpc.searchRead('pos.order', [['state', 'in', ['paid', 'done', 'invoiced']]], {
    fields: ['date_order', 'amount_total'],
  });
});

afterAll(async () => {
  await sandbox?.close();
});

const local = (utc: string): DateTime =>
  DateTime.fromFormat(utc, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' }).setZone(ZONE);

async function summary(args: string[]): Promise<Row[]> {
  const r = await runCli(['summary', ...P, ...args], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Row[];
}

describe('posdata summary across the change to winter time in Brussels', () => {
  it('the data covers 25 October', () => {
    expect(orders.some((o) => local(o.date_order).toISODate() === '2026-10-25')).toBe(true);
  });

  it.each([['00:00'], ['03:00'], ['05:00']])('--by day --day-starts %s', async (cut) => {
    const h = Number(cut.slice(0, 2));
    const rows = await summary([...RANGE, '--by', 'day', '--day-starts', cut]);
    const want = new Map<string, number>();
    for (const o of orders) {
      const t = local(o.date_order);
      // The orders the range holds: from 20 October at the cut to 29 October at the cut.
      // The wall clock against the cut (not elapsed hours: the day of the change has 25).
      const day = (t.hour < h ? t.minus({ days: 1 }) : t).toISODate() as string;
      if (day < '2026-10-20' || day > '2026-10-28') continue;
      want.set(day, (want.get(day) ?? 0) + 1);
    }
    expect(Object.fromEntries(rows.map((r) => [r.day, r.orders]))).toEqual(Object.fromEntries(want));
  });

  it('--by hour counts each hour of the zone, the repeated 02:00 in one group', async () => {
    const rows = await summary(['--by', 'hour', '--date', '2026-10-25']);
    const want = new Map<number, number>();
    for (const o of orders) {
      const t = local(o.date_order);
      if (t.toISODate() !== '2026-10-25') continue;
      want.set(t.hour, (want.get(t.hour) ?? 0) + 1);
    }
    expect(Object.fromEntries(rows.map((r) => [r.hour, r.orders]))).toEqual(Object.fromEntries(want));
  });
});

// Orders moved to the hours around both changes of 2026 (issue 22): with --day-starts 03:00
// the business day is cut where the wall clock reads 03:00, whatever elapsed since midnight.
// The sandbox's own data are in December, so each range below holds only the moved orders.
describe('posdata summary --day-starts 03:00 on the days the clocks change', () => {
  let moved: SandboxHandle;
  let menv: Record<string, string>;
  /** UTC instants, and where the wall clock puts them. */
  const AT: [string, string][] = [
    ['2026-03-29 00:30:00', 'Brussels 01:30 CET: before the cut, Saturday 28 March'],
    ['2026-03-29 01:30:00', 'Brussels 03:30 CEST: after the cut, Sunday 29 March'],
    ['2026-10-25 00:30:00', 'Brussels 02:30 CEST, the first 02:30: Saturday 24 October'],
    ['2026-10-25 01:30:00', 'Brussels 02:30 CET, the second 02:30: still Saturday 24 October'],
    ['2026-10-25 02:30:00', 'Brussels 03:30 CET: Sunday 25 October'],
    ['2026-11-01 06:30:00', 'New York 01:30 EST, the second 01:30: Saturday 31 October'],
    ['2026-11-01 07:30:00', 'New York 02:30 EST: still Saturday 31 October'],
    ['2026-11-01 08:30:00', 'New York 03:30 EST: Sunday 1 November'],
  ];
  beforeAll(async () => {
    moved = await startTestSandbox({ seed: 4, orders: 200, days: 5, now: new Date('2026-12-15T20:00:00Z') });
    menv = await loginEnv(moved.url);
    const rpc = new Rpc(moved.url);
    const some = await rpc.searchRead<{ id: number }>('pos.order', [['state', 'in', ['paid', 'done']]], {
      fields: ['id'],
      limit: AT.length,
      order: 'id',
    });
    for (const [i, [at]] of AT.entries()) {
      // A POS order's payments carry its time (Odoo 16-18 bucket payments by payment_date).
      const id = some[i]?.id;
      await rpc.kw('pos.order', 'write', [[id], { date_order: at }]);
      const pays = await rpc.searchRead<{ id: number }>('pos.payment', [['pos_order_id', '=', id]], {
        fields: ['id'],
      });
      await rpc.kw('pos.payment', 'write', [pays.map((p) => p.id), { payment_date: at }]);
    }
  });
  afterAll(async () => {
    await moved?.close();
  });
  const run = async (zone: string, args: string[]): Promise<Row[]> => {
    const r = await runCli(['summary', '--rate', '0', '--tz', zone, '--format', 'json', ...args], {
      env: menv,
    });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Row[];
  };
  const byKey = (rows: Row[], k: string) => Object.fromEntries(rows.map((r) => [r[k], r.orders]));
  const CUT = ['--day-starts', '03:00'];
  const sum = (rows: Row[]) => rows.reduce((a, r) => a + Number(r.orders), 0);

  // [what, zone, first day, second day, orders on the first, on the second]: the first day is
  // a Saturday; --date of the first day ends where the second starts, at the clock's 03:00.
  it.each([
    ['Brussels, spring: the 03:30 order of 29 March is on 29 March', ZONE, '2026-03-28', '2026-03-29', 1, 1],
    [
      'Brussels, autumn: both 02:30 orders of 25 October are on 24 October',
      ZONE,
      '2026-10-24',
      '2026-10-25',
      2,
      1,
    ],
    [
      'New York, autumn: the 02:30 order of 1 November is on 31 October',
      'America/New_York',
      '2026-10-31',
      '2026-11-01',
      2,
      1,
    ],
  ] as const)('%s', async (_what, zone, first, second, n1, n2) => {
    const range = ['--from', first, '--to', second, ...CUT];
    expect(byKey(await run(zone, [...range, '--by', 'day']), 'day')).toEqual({ [first]: n1, [second]: n2 });
    expect(byKey(await run(zone, [...range, '--by', 'weekday']), 'weekday')).toEqual({
      Saturday: n1,
      Sunday: n2,
    });
    // Not 180 minutes after midnight: on these days the clock's 03:00 is 120 or 240 minutes after.
    const [a, b] = await Promise.all([first, second].map((d) => run(zone, ['--date', d, ...CUT])));
    expect(sum(a ?? [])).toBe(n1);
    expect(sum(b ?? [])).toBe(n2);
  });
});
