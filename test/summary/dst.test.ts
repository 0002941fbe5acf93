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
      const day = t.minus({ hours: h }).toISODate() as string;
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
