// JSON-RPC over HTTP as Odoo 17 answers it: content types, malformed bodies, ids, envelopes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startTestSandbox({ orders: 100 });
});
afterAll(async () => {
  await sandbox?.close();
});

const post = (body: string, type = 'application/json', path = '/jsonrpc') =>
  fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'Content-Type': type }, body });
const version = (id: unknown) =>
  JSON.stringify({
    jsonrpc: '2.0',
    method: 'call',
    params: { service: 'common', method: 'version', args: [] },
    id,
  });

describe('JSON-RPC over HTTP', () => {
  it('refuses a body that is not declared as JSON with a 400 HTML page', async () => {
    const r = await post(version(1), 'text/plain');
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('text/html');
    expect(await r.text()).toContain('is type=&#39;json&#39;');
  });

  it('answers malformed JSON with 400 "Invalid JSON data"', async () => {
    const r = await post('{"jsonrpc": ');
    expect(r.status).toBe(400);
    expect(await r.text()).toContain('Invalid JSON data');
  });

  it('echoes ids, strings included, and accepts application/json-rpc', async () => {
    expect(((await (await post(version('abc'))).json()) as { id: unknown }).id).toBe('abc');
    expect(((await (await post(version(null))).json()) as { id: unknown }).id).toBe(null);
    expect((await post(version(3), 'application/json-rpc; charset=utf-8')).status).toBe(200);
  });

  it('refuses positional params with an error envelope', async () => {
    const r = (await (
      await post(JSON.stringify({ jsonrpc: '2.0', method: 'call', params: [1], id: 1 }))
    ).json()) as { error: { data: { name: string } } };
    expect(r.error.data.name).toBe('builtins.ValueError');
  });

  it('has no JSON-2 nor /json/version on 17', async () => {
    expect((await fetch(`${sandbox.url}/json/version`)).status).toBe(404);
    expect((await post('{}', 'application/json', '/json/2/pos.order/search_count')).status).toBe(404);
  });

  it('counts every HTTP request', async () => {
    const before = sandbox.requestCount();
    await post(version(1));
    await fetch(`${sandbox.url}/nowhere`);
    expect(sandbox.requestCount() - before).toBe(2);
  });
});

describe('context', () => {
  it('refuses companies other than the sandbox one, as Odoo does', async () => {
    const body = (ctx: unknown) =>
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'call',
        params: {
          service: 'object',
          method: 'execute_kw',
          args: ['demo', 2, 'admin', 'pos.order', 'search_count', [[]], { context: ctx }],
        },
        id: 1,
      });
    const bad = (await (await post(body({ allowed_company_ids: [99] }))).json()) as {
      error: { data: { message: string } };
    };
    expect(bad.error.data.message).toBe('Access to unauthorized or invalid companies.');
    expect(
      (
        (await (await post(body({ allowed_company_ids: [1], tz: 'Asia/Tokyo' }))).json()) as {
          result: number;
        }
      ).result,
    ).toBe(100);
  });
});

describe('read quirks', () => {
  it("reading only 'id' echoes a missing id, as Odoo does; any real field drops it", async () => {
    const read = (fields: string[]) =>
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'call',
        params: {
          service: 'object',
          method: 'execute_kw',
          args: ['demo', 2, 'admin', 'pos.order', 'read', [[999999, 1]], { fields }],
        },
        id: 1,
      });
    expect(((await (await post(read(['id']))).json()) as { result: unknown }).result).toEqual([
      { id: 999999 },
      { id: 1 },
    ]);
    expect(
      ((await (await post(read(['name']))).json()) as { result: { id: number }[] }).result.map((r) => r.id),
    ).toEqual([1]);
  });
});
