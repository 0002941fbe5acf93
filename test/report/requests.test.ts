// How many requests a month's report makes, counted by the sandbox itself: at most 60 on every
// Odoo it presents, so that the default --rate 60 (requests per minute) never holds it back,
// and the same count whatever the month holds (the loss figures are grouped by Odoo, the orders
// behind a marked figure read in one request). The report says its own count in its JSON block.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { reportData } from '../helpers/report.js';
import { type SandboxOptions, SHOP_MODULES, startTestSandbox } from '../helpers/sandbox.js';

const NOW = new Date('2026-11-28T12:00:00Z');
/** The default --rate: requests per minute. */
const RATE = 60;
const dir = mkdtempSync(join(tmpdir(), 'posdata-report-requests-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Obj = Record<string, unknown>;

async function monthReport(opts: SandboxOptions, name: string) {
  const sandbox = await startTestSandbox({ seed: 3, days: 60, leaks: true, now: NOW, ...opts });
  try {
    const env = await loginEnv(sandbox.url);
    const before = sandbox.requestCount();
    const file = join(dir, `${name}.html`);
    // No --rate: the default one.
    const r = await runCli(['report', '--month', '2026-10', '--tz', 'UTC', '-o', file], { env });
    expect(r.code, r.stderr).toBe(0);
    const data = reportData(readFileSync(file, 'utf8'));
    const loss = ((data.currencies as Obj[])[0] as Obj).loss as { cashiers: { marks: string[] }[] };
    return { requests: sandbox.requestCount() - before, said: data.requests as number, loss };
  } finally {
    await sandbox.close();
  }
}

describe('the requests of a month', { timeout: 240_000 }, () => {
  it.each([16, 17, 18, 19] as const)('Odoo %s: at most one minute of the default --rate', async (v) => {
    const { requests, said, loss } = await monthReport({ odooVersion: v, orders: 6000 }, `v${v}`);
    // Something is marked, so the orders behind it were read too.
    expect(loss.cashiers.filter((c) => c.marks.length > 0).length).toBeGreaterThan(0);
    expect(said).toBe(requests);
    expect(requests).toBeLessThanOrEqual(RATE);
  });

  // A real shop's modules (pos_hr, pos_restaurant, pos_loyalty, pos_discount) add the employees,
  // the guests and the shop's lines beside the products: still within the minute.
  it.each([16, 17, 18, 19] as const)("Odoo %s with a real shop's modules: as much", async (v) => {
    const { requests, said } = await monthReport(
      { odooVersion: v, orders: 6000, ...SHOP_MODULES },
      `shop${v}`,
    );
    expect(said).toBe(requests);
    expect(requests).toBeLessThanOrEqual(RATE);
  });

  it('as many for four times the orders: the loss figures do not read the orders one by one', async () => {
    const small = await monthReport({ orders: 3000 }, 'small');
    const large = await monthReport({ orders: 12000 }, 'large');
    expect(large.requests).toBe(small.requests);
    expect(small.requests).toBeLessThan(RATE);
  });
});
