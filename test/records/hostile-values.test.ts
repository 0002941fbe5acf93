// A reply that is not Odoo's in a field's type (a datetime that is no time, an amount sent as
// a string, an id that is not whole) gets one verdict in every format: exit 6, one line, no
// file written. Parquet's typed columns always refused it; json, csv and tables passed it on.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let proxy: RpcProxy;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 5, orders: 40, days: 2, now: new Date('2026-11-20T12:00:00Z') });
  proxy = await startRpcProxy(sandbox.url);
  env = await loginEnv(proxy.url);
  dir = mkdtempSync(join(tmpdir(), 'posdata-hostile-values-'));
});

afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

/** The third record of each page of orders gets `field` = `value`. */
function plant(field: string, value: unknown): void {
  for (const method of ['search_read', 'web_search_read', 'read'])
    proxy.rewrite.set(method, (result, body) => {
      if (!body.includes('"pos.order"')) return result;
      const rows = (Array.isArray(result) ? result : (result as { records?: unknown[] })?.records) as
        | Record<string, unknown>[]
        | undefined;
      if (rows && rows.length > 2) (rows[2] as Record<string, unknown>)[field] = value;
      return result;
    });
}

const cases: [string, string, unknown, RegExp][] = [
  [
    'a datetime that is no time',
    'date_order',
    'not a date',
    /"not a date" for date_order, which is not a datetime/,
  ],
  ['a datetime on no day', 'date_order', '2026-02-30 10:00:00', /for date_order, which is not a datetime/],
  ['a datetime as a number', 'date_order', 1763640000, /for date_order, which is not a datetime/],
  ['an amount as a string', 'amount_total', '12.50', /"12\.50" for amount_total, which is not a number/],
  ['an id list of text', 'payment_ids', 'all', /for payment_ids/],
];

describe('a value no Odoo sends', () => {
  afterAll(() => proxy.reset());
  for (const [what, field, value, message] of cases) {
    for (const format of ['json', 'ndjson', 'csv', 'table', 'parquet']) {
      it(`${what}, as ${format}: exit 6, one line, no file`, async () => {
        proxy.reset();
        plant(field, value);
        const out = join(dir, `${field}-${format}.out`);
        const r = await runCli(
          ['sales', '--rate', '0', '--tz', 'UTC', '--from', '2000-01-01', '--format', format, '-o', out],
          { env },
        );
        expect(r.code, r.stderr).toBe(6);
        expect(r.stderr).toMatch(/^posdata: the server sent [^\n]+; report this with --debug output\n$/);
        expect(r.stderr).toMatch(message);
        expect(existsSync(out)).toBe(false);
      });
    }
  }

  it('the same reply unchanged is exported', async () => {
    proxy.reset();
    const r = await runCli(['sales', '--rate', '0', '--format', 'json', '--limit', '5'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(5);
  });
});
