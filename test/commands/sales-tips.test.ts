// A tip is money: `sales --fields …,tip_amount` writes it at the currency's decimals (1.60, as
// amount_total beside it), and Parquet types it as the other amounts (DECIMAL), on Odoo 17,
// where pos.order's tip_amount is a Float with `digits: 0`, as on 19, where it is monetary.
// Until then 16-18 wrote Odoo's float as JavaScript prints it (1.6) and typed it DOUBLE.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TIME, freshConfigDir, loginEnv, runCli } from '../helpers/cli.js';
import { rpcClient, type SandboxHandle, SHOP_MODULES, startTestSandbox } from '../helpers/sandbox.js';

type Rec = Record<string, unknown> & { id: number };

describe.each([17, 19] as const)('sales --fields tip_amount on Odoo %i', (odooVersion) => {
  let sb: SandboxHandle;
  let env: Record<string, string>;
  beforeAll(async () => {
    sb = await startTestSandbox({ seed: 3, orders: 600, odooVersion, ...SHOP_MODULES });
    env = await loginEnv(sb.url);
  });
  afterAll(async () => sb?.close());

  it('writes each tip at the currency decimals, as amount_total', async () => {
    const orders = await rpcClient(sb.url).ok<Rec[]>('pos.order', 'search_read', [[], ['tip_amount']]);
    const tipped = orders.filter((o) => (o.tip_amount as number) > 0);
    expect(tipped.length, 'the sandbox tips some orders').toBeGreaterThan(0);
    expect(
      tipped.some((o) => Math.round((o.tip_amount as number) * 100) % 10 === 0),
      'a tip of whole tenths (1.6) is there to be written 1.60',
    ).toBe(true);
    const r = await runCli(
      ['sales', ...ALL_TIME, '--fields', 'id,amount_total,tip_amount', '--format', 'csv'],
      {
        env,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('id,amount_total,tip_amount');
    expect(lines).toHaveLength(orders.length + 1);
    const byId = new Map(orders.map((o) => [o.id, o.tip_amount as number]));
    for (const line of lines.slice(1)) {
      const [id, total, tip] = line.split(',');
      expect(total, line).toMatch(/^-?\d+\.\d\d$/);
      expect(tip, line).toBe((byId.get(Number(id)) as number).toFixed(2));
    }
  });

  it('types it in Parquet as the other amounts', async () => {
    // A folder of the run's own (freshConfigDir's: removed with the suite's temporary folder).
    const out = join(freshConfigDir(), 'tips.parquet');
    const r = await runCli(['sales', ...ALL_TIME, '--fields', 'id,amount_total,tip_amount', '-o', out], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    const b = readFileSync(out);
    const meta = parquetMetadata(b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer);
    const col = (name: string) => meta.schema.find((s) => s.name === name);
    expect(col('tip_amount')?.converted_type).toBe('DECIMAL');
    expect(col('tip_amount')?.scale).toBe(col('amount_total')?.scale);
  });
});
