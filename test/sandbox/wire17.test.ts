// Replays every request recorded from a real Odoo 17 (wire17/, copied from
// shared/research/odoo17-wire) against the sandbox and compares the shape of each reply.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { errorDiff, shapeDiff } from './shape.js';

interface Recording {
  request: { params: { args: unknown[] } } & Record<string, unknown>;
  response: { error?: { code: number; message: string; data: Record<string, unknown> } } & Record<
    string,
    unknown
  >;
  http: { status: number; content_type: string };
}

const dir = join(import.meta.dirname, 'wire17');
const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== '_index.json');

/** The recorded server's names for things, mapped to the sandbox's: db, the POS user (uid 8, "cashier"). */
function adapt(request: Recording['request']): Recording['request'] {
  const text = JSON.stringify(request)
    .replace(/"posdemo"/g, '"demo"')
    .replace(/"cashier"/g, '"pos"');
  const req = JSON.parse(text) as Recording['request'];
  const args = req.params.args;
  if (args[1] === 8 && (args[2] === 'pos' || args[2] === 'cashier')) args[1] = 6;
  return req;
}

let sandbox: SandboxHandle;

beforeAll(async () => {
  // The recorded data runs from 2026-11-03 to 2026-11-25 (writes until 18:30 UTC that day).
  sandbox = await startTestSandbox({
    seed: 11,
    orders: 3000,
    days: 25,
    now: new Date('2026-11-25T19:00:00Z'),
  });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('Odoo 17 wire replay', () => {
  it('has recordings', () => {
    expect(files.length).toBeGreaterThan(30);
  });
  for (const file of files) {
    it(file, async () => {
      const rec = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Recording;
      const res = await fetch(`${sandbox.url}/jsonrpc`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(adapt(rec.request)),
      });
      expect(res.status).toBe(rec.http.status);
      expect(res.headers.get('content-type')).toBe(rec.http.content_type);
      const body = (await res.json()) as Record<string, unknown> & {
        error?: { code: number; message: string; data: Record<string, unknown> };
      };
      expect(Object.keys(body)).toEqual(Object.keys(rec.response));
      expect(body.id).toEqual(rec.response.id);
      if (rec.response.error) {
        expect(body.error?.code).toBe(rec.response.error.code);
        expect(body.error?.message).toBe(rec.response.error.message);
        expect(errorDiff(rec.response.error.data, body.error?.data ?? {})).toEqual([]);
      } else {
        const fieldsGet = rec.request.params.args[4] === 'fields_get';
        expect(shapeDiff(rec.response.result, body.result, '$', [], !fieldsGet)).toEqual([]);
      }
    });
  }
});
