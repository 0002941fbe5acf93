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

/**
 * The recorded server's names for things, mapped to the sandbox's: db, the POS user (uid 8,
 * "cashier"), and the session a Sales Details call names (the recorded open or closed one).
 */
function adapt(file: string, request: Recording['request']): Recording['request'] {
  const text = JSON.stringify(request)
    .replace(/"posdemo"/g, '"demo"')
    .replace(/"cashier"/g, '"pos"');
  const req = JSON.parse(text) as Recording['request'];
  const args = req.params.args;
  if (args[1] === 8 && (args[2] === 'pos' || args[2] === 'cashier')) args[1] = 6;
  const kwargs = args[6] as Record<string, unknown> | undefined;
  if (args[4] === 'get_sale_details' && Array.isArray(kwargs?.session_ids))
    kwargs.session_ids = [file.includes('open_session') ? sessions.open : sessions.closed];
  return req;
}

/** A Sales Details reply with its payments in a fixed order (17 gives them in none). */
function byMethod(reply: unknown): unknown {
  const r = reply as { payments?: Record<string, unknown>[] };
  const key = (p: Record<string, unknown>) => `${p.cash === true ? 0 : 1}|${String(p.id).padStart(6, '0')}`;
  return { ...r, payments: [...(r.payments ?? [])].sort((a, b) => (key(a) < key(b) ? -1 : 1)) };
}

let sandbox: SandboxHandle;
/** A session of each state in the sandbox's data. */
const sessions = { open: 0, closed: 0 };

beforeAll(async () => {
  // The recorded data runs from 2026-11-03 to 2026-11-25 (writes until 18:30 UTC that day).
  sandbox = await startTestSandbox({
    seed: 11,
    orders: 3000,
    days: 25,
    now: new Date('2026-11-25T19:00:00Z'),
  });
  const find = async (state: string): Promise<number> => {
    const r = await fetch(`${sandbox.url}/jsonrpc`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        method: 'call',
        id: 1,
        params: {
          service: 'object',
          method: 'execute_kw',
          args: ['demo', 2, 'admin', 'pos.session', 'search', [[['state', '=', state]]], { limit: 1 }],
        },
      }),
    });
    return ((await r.json()) as { result: number[] }).result[0] as number;
  };
  sessions.open = await find('opened');
  sessions.closed = await find('closed');
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
        body: JSON.stringify(adapt(file, rec.request)),
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
        const method = rec.request.params.args[4];
        // 17 groups Sales Details payments with no ORDER BY: compare them cash first, then by method.
        const result = method === 'get_sale_details' ? byMethod(body.result) : body.result;
        const want = method === 'get_sale_details' ? byMethod(rec.response.result) : rec.response.result;
        expect(shapeDiff(want, result, '$', [], method !== 'fields_get')).toEqual([]);
      }
    });
  }
});
