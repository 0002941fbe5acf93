// Replays every exchange recorded from a real Odoo 19 (wire19/, copied from
// shared/research/odoo19-wire) against the sandbox in 19 mode: JSON-2, /jsonrpc, version routes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { errorDiff, shapeDiff } from './shape.js';

interface Recording {
  request: {
    method: string;
    url_path: string;
    headers: Record<string, string>;
    body?: unknown;
    api_key_of?: string;
  };
  response: { status: number; content_type: string; body: unknown; www_authenticate?: string };
}

const dir = join(import.meta.dirname, 'wire19');
const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== '_index.json');
const ADMIN_KEY = 'sandbox-test-admin-key-0123456789abcdef';

let sandbox: SandboxHandle;
/** A session of each state in the sandbox's data. */
const sessions = { open: 0, closed: 0 };

beforeAll(async () => {
  sandbox = await startTestSandbox({
    odooVersion: 19,
    adminKey: ADMIN_KEY,
    seed: 19,
    orders: 1500,
    now: new Date('2026-11-21T18:00:00Z'),
  });
  const find = async (state: string): Promise<number> => {
    const r = await fetch(`${sandbox.url}/json/2/pos.session/search`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `bearer ${ADMIN_KEY}` },
      body: JSON.stringify({ domain: [['state', '=', state]], limit: 1 }),
    });
    return ((await r.json()) as number[])[0] as number;
  };
  sessions.open = await find('opened');
  sessions.closed = await find('closed');
});
afterAll(async () => {
  await sandbox?.close();
});

function keyFor(file: string, who: string | undefined): string {
  const user = (login: string) => sandbox.users.find((u) => u.login === login)?.apiKey ?? '';
  if (!who) return file.includes('expired') ? (sandbox.expiredKey ?? '') : ADMIN_KEY;
  if (who.startsWith('admin')) return who.includes('expired') ? (sandbox.expiredKey ?? '') : ADMIN_KEY;
  if (who === 'cashier') return user('pos');
  if (who === 'nopos') return user('clerk');
  return '';
}

/**
 * The recorded server's names mapped to the sandbox's: database pos19, the non-POS user uid 8
 * "nopos" (the sandbox's clerk), the POS user uid 7 "cashier" (the sandbox's pos, uid 6), and
 * what a Sales Details call names: the recorded open or closed session; for the register and day
 * (`..._day_config`), whose recorded session ran overnight so the day did not hold it whole, the
 * sandbox's first register from noon (its sessions run in the day).
 */
function adapt(file: string, rec: Recording): { headers: Record<string, string>; body: string | undefined } {
  const key = keyFor(file, rec.request.api_key_of);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(rec.request.headers)) {
    headers[k] = v.replace('<api-key>', key).replace(/^pos19$/, 'demo');
  }
  let body: string | undefined;
  if (typeof rec.request.body === 'string') body = rec.request.body;
  else if (rec.request.body !== undefined) {
    body = JSON.stringify(rec.request.body)
      .replace(/"pos19"/g, '"demo"')
      .replace(/"<api-key>"/g, JSON.stringify(key));
    const parsed = JSON.parse(body) as { params?: { args?: unknown[] } } & Record<string, unknown>;
    const args = parsed.params?.args;
    const details = rec.request.url_path.endsWith('/get_sale_details')
      ? parsed
      : args?.[4] === 'get_sale_details'
        ? (args[6] as Record<string, unknown>)
        : undefined;
    if (details && Array.isArray(details.session_ids))
      details.session_ids = [file.includes('open_session') ? sessions.open : sessions.closed];
    if (details && file.includes('day_config')) {
      details.config_ids = [1];
      details.date_start = String(details.date_start).replace('00:00:00', '12:00:00');
    }
    if (args && args[1] === 8 && args[2] === 'nopos') {
      args[1] = 7;
      args[2] = 'clerk';
    } else if (args && args[1] === 7 && args[2] === 'cashier') {
      args[1] = 6;
      args[2] = 'pos';
    }
    body = JSON.stringify(parsed);
  }
  return { headers, body };
}

describe('Odoo 19 wire replay', () => {
  it('has recordings', () => {
    expect(files.length).toBeGreaterThan(50);
  });
  for (const file of files) {
    it(file, async () => {
      const rec = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Recording;
      const { headers, body } = adapt(file, rec);
      const res = await fetch(`${sandbox.url}${rec.request.url_path}`, {
        method: rec.request.method,
        headers,
        body,
      });
      expect(res.status).toBe(rec.response.status);
      expect(res.headers.get('content-type')).toBe(rec.response.content_type);
      if (rec.response.www_authenticate !== undefined)
        expect(res.headers.get('www-authenticate')).toBe(rec.response.www_authenticate);
      const text = await res.text();
      if (typeof rec.response.body === 'string') {
        expect(typeof text).toBe('string');
        expect(text.slice(0, 15)).toBe(rec.response.body.slice(0, 15));
        return;
      }
      const got = JSON.parse(text) as Record<string, unknown>;
      const want = rec.response.body as Record<string, unknown>;
      const isJsonRpc =
        rec.request.url_path === '/jsonrpc' || rec.request.url_path.startsWith('/web/webclient');
      if (isJsonRpc) {
        expect(Object.keys(got)).toEqual(Object.keys(want));
        const we = want.error as { code: number; message: string; data: Record<string, unknown> } | undefined;
        if (we) {
          const ge = got.error as typeof we;
          expect(ge.code).toBe(we.code);
          expect(ge.message).toBe(we.message);
          expect(errorDiff(we.data, ge.data)).toEqual([]);
        } else {
          const fieldsGet = body?.includes('"fields_get"') === true;
          expect(shapeDiff(want.result, got.result, '$', [], !fieldsGet)).toEqual([]);
        }
      } else if (rec.response.status >= 400) {
        expect(errorDiff(want, got)).toEqual([]);
      } else {
        expect(shapeDiff(want, got, '$', [], !rec.request.url_path.endsWith('/fields_get'))).toEqual([]);
      }
    });
  }
});
