// A restaurant's guests in the report (pos_restaurant): the sales rung up at a table, their
// guests (the orders' customer_count) and the sales per guest, this period and the previous
// one, as the orders add up; no such part where the server has no tables.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { reportData } from '../helpers/report.js';
import { rpcClient, type SandboxHandle, SHOP_MODULES, startTestSandbox } from '../helpers/sandbox.js';

type Obj = Record<string, unknown>;
type Guests = { orders: number; guests: number; sales: number; per_guest: number | null };
const PERIOD = ['--from', '2026-11-13', '--to', '2026-11-26', '--tz', 'UTC', '--rate', '0'];
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'posdata-guests-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function report(url: string, name: string): Promise<{ html: string; section: Obj }> {
  const env = await loginEnv(url);
  const file = join(dir, name);
  const r = await runCli(['report', ...PERIOD, '-o', file], { env });
  expect(r.code, r.stderr).toBe(0);
  const html = readFileSync(file, 'utf8');
  return { html, section: (reportData(html).currencies as Obj[])[0] as Obj };
}

describe.each([17, 19] as const)('the report of a restaurant on Odoo %i', (odooVersion) => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await startTestSandbox({ seed: 29, orders: 800, days: 28, odooVersion, ...SHOP_MODULES });
  });
  afterAll(async () => {
    await sb?.close();
  });

  it("shows the guests and sales per guest of the sales at tables, this period's and the last", async () => {
    const { html, section } = await report(sb.url, `shop${odooVersion}.html`);
    const got = section.guests as { period: Guests; previous: Guests };
    const c = rpcClient(sb.url);
    const seated = async (from: string, to: string): Promise<Guests> => {
      const orders = await c.ok<Obj[]>('pos.order', 'search_read', [
        [
          ['state', 'in', ['paid', 'done', 'invoiced']],
          ['amount_total', '>=', 0],
          ['table_id', '!=', false],
          ['date_order', '>=', from],
          ['date_order', '<', to],
        ],
        ['customer_count', 'amount_total'],
      ]);
      const guests = orders.reduce((a, o) => a + (o.customer_count as number), 0);
      const sales = Math.round(orders.reduce((a, o) => a + (o.amount_total as number), 0) * 100) / 100;
      return {
        orders: orders.length,
        guests,
        sales,
        per_guest: guests > 0 ? Math.round((sales / guests) * 100) / 100 : null,
      };
    };
    const want = await seated('2026-11-13 00:00:00', '2026-11-27 00:00:00');
    expect(want.guests).toBeGreaterThan(want.orders);
    expect(got.period).toEqual(want);
    expect(got.previous).toEqual(await seated('2026-10-30 00:00:00', '2026-11-13 00:00:00'));
    expect(html).toContain('<h3>Guests</h3>');
    expect(html).toContain('Sales per guest');
  });
});

it('a shop without tables: no guests in the report', async () => {
  const sb = await startTestSandbox({ seed: 3, orders: 300, days: 20 });
  try {
    const { html, section } = await report(sb.url, 'plain.html');
    expect(section.guests).toBeNull();
    expect(html).not.toContain('<h3>Guests</h3>');
  } finally {
    await sb.close();
  }
});
