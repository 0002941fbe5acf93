// Replays the requests recorded from the bundled real Odoo 17's `posshop` (a shop and a
// restaurant with pos_hr, pos_restaurant, pos_loyalty and pos_discount; recorded by
// wireshop-record.mjs) against a sandbox with the same modules, and compares the shape of each
// reply, as wire17.test.ts does for the plain shop.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, SHOP_MODULES, startTestSandbox } from '../helpers/sandbox.js';
import { shapeDiff } from './shape.js';

interface Recording {
  request: { params: { args: unknown[] } } & Record<string, unknown>;
  response: { result?: unknown } & Record<string, unknown>;
  http: { status: number; content_type: string };
}

const dir = join(import.meta.dirname, 'wireshop');
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 29, orders: 1500, days: 21, ...SHOP_MODULES });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('posshop (Odoo 17 with pos_hr, pos_restaurant, pos_loyalty, pos_discount) wire replay', () => {
  it('has recordings', () => {
    expect(files.length).toBeGreaterThan(15);
  });
  for (const file of files) {
    it(file, async () => {
      const rec = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Recording;
      const request = JSON.parse(JSON.stringify(rec.request).replace(/"posshop"/g, '"demo"'));
      const res = await fetch(`${sandbox.url}/jsonrpc`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(request),
      });
      expect(res.status).toBe(rec.http.status);
      expect(res.headers.get('content-type')).toBe(rec.http.content_type);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.error).toBeUndefined();
      const method = rec.request.params.args[4];
      expect(shapeDiff(rec.response.result, body.result, '$', [], method !== 'fields_get')).toEqual([]);
    });
  }
});
