// Plain CSV writes amounts at their currency's decimals (1458.80, JPY 1458, KWD 1458.800), as a
// spreadsheet's money column wants them; JSON keeps them numbers (1458.8). Quantities and
// other numbers are written as they are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const cases = [
  { currency: 'EUR', places: 2 },
  { currency: 'JPY', places: 0 },
  { currency: 'KWD', places: 3 },
] as const;

const boxes: SandboxHandle[] = [];
afterAll(async () => {
  for (const b of boxes) await b.close();
});

describe.each(cases)('CSV amounts in $currency', ({ currency, places }) => {
  let env: Record<string, string>;
  beforeAll(async () => {
    const box = await startTestSandbox({ seed: 3, orders: 60, currency, adminKey: SUITE_SECRET });
    boxes.push(box);
    env = await loginEnv(box.url, 'pos', 'pos');
  });

  it('every amount has the currency decimals, the figures those of JSON', async () => {
    const args = ['sales', '--fields', 'name,amount_total,amount_tax', '--limit', '60', '--sort', 'id'];
    const csv = await runCli([...args, '--format', 'csv'], { env });
    const json = await runCli([...args, '--format', 'json'], { env });
    expect(csv.code).toBe(0);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe('name,amount_total,amount_tax');
    const rows = JSON.parse(json.stdout) as { amount_total: number; amount_tax: number }[];
    const shape = places === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${places}}$`);
    for (const [i, line] of lines.slice(1).entries()) {
      const [, total, tax] = line.split(',');
      expect(total).toMatch(shape);
      expect(tax).toMatch(shape);
      expect(Number(total)).toBe(rows[i]?.amount_total);
      expect(Number(tax)).toBe(rows[i]?.amount_tax);
    }
    // JSON stays numbers; some amount there has fewer decimals than CSV writes.
    if (places > 0)
      expect(rows.some((r) => !String(r.amount_total).match(new RegExp(`\\.\\d{${places}}$`)))).toBe(true);
  });

  it('--decimal , keeps the decimals with a comma', async () => {
    const r = await runCli(
      [
        'sales',
        '--fields',
        'amount_total',
        '--limit',
        '5',
        '--format',
        'csv',
        '--delimiter',
        ';',
        '--decimal',
        ',',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    const shape = places === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+,\\d{${places}}$`);
    for (const v of r.stdout.trim().split('\n').slice(1)) expect(v).toMatch(shape);
  });
});

describe('CSV numbers that are not money', () => {
  it('a quantity keeps its own text', async () => {
    const box = await startTestSandbox({ seed: 3, orders: 20, adminKey: SUITE_SECRET });
    boxes.push(box);
    const env = await loginEnv(box.url, 'pos', 'pos');
    const r = await runCli(
      [
        'lines',
        '--from',
        '2000-01-01',
        '--to',
        'today',
        '--fields',
        'qty,price_subtotal_incl',
        '--format',
        'csv',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    expect(rows.length).toBeGreaterThan(0);
    for (const [qty, total] of rows) {
      expect(qty).toMatch(/^-?\d+(\.\d*[1-9])?$/);
      expect(total).toMatch(/^-?\d+\.\d{2}$/);
    }
  });
});
