// Injected faults: positions, rates, kinds, determinism, and version probes exempt.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const body = (service: string, method: string, args: unknown[]) =>
  JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { service, method, args }, id: 9 });
const count = body('object', 'execute_kw', ['demo', 2, 'admin', 'pos.order', 'search_count', [[]]]);
const post = (url: string, b = count) =>
  fetch(`${url}/jsonrpc`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: b });

/** Status (or the network failure) of each of n requests. */
async function outcomes(url: string, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    try {
      const r = await post(url);
      const text = await r.text();
      out.push(`${r.status}:${text.slice(0, 12)}`);
    } catch {
      out.push('network');
    }
  }
  return out;
}

describe('faults', () => {
  it('KIND@N hits exactly the Nth request', async () => {
    sandbox = await startTestSandbox({ orders: 50, faults: '502@2,4' });
    const statuses = (await outcomes(sandbox.url, 5)).map((s) => s.split(':')[0]);
    expect(statuses).toEqual(['200', '502', '200', '502', '200']);
    expect(sandbox.requestCount()).toBe(5);
  });

  it('429 carries Retry-After: 1; html is a login page; notrpc is not JSON-RPC; expired is a session error', async () => {
    sandbox = await startTestSandbox({ orders: 50, faults: '429@1;html@2;notrpc@3;expired@4' });
    const r1 = await post(sandbox.url);
    expect(r1.status).toBe(429);
    expect(r1.headers.get('retry-after')).toBe('1');
    await r1.text();
    const r2 = await post(sandbox.url);
    expect(r2.status).toBe(200);
    expect(r2.headers.get('content-type')).toContain('text/html');
    expect(await r2.text()).toContain('/web/login');
    expect(await (await post(sandbox.url)).json()).toEqual({ hello: 'world' });
    const r4 = (await (await post(sandbox.url)).json()) as {
      id: number;
      error: { code: number; message: string; data: { name: string } };
    };
    expect(r4.id).toBe(9);
    expect(r4.error.code).toBe(100);
    expect(r4.error.message).toBe('Odoo Session Expired');
    expect(r4.error.data.name).toBe('odoo.http.SessionExpiredException');
  });

  it('reset drops the connection; cut promises more than it sends', async () => {
    sandbox = await startTestSandbox({ orders: 50, faults: 'reset@1;cut@2' });
    await expect(post(sandbox.url)).rejects.toThrow();
    const port = sandbox.port;
    const raw = await new Promise<string>((resolve) => {
      let got = '';
      const s = net.connect(port, '127.0.0.1', () => {
        s.write(
          `POST /jsonrpc HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(count)}\r\n\r\n${count}`,
        );
      });
      s.on('data', (d) => {
        got += d.toString();
      });
      s.on('close', () => resolve(got));
      s.on('error', () => resolve(got));
    });
    const [head, rest = ''] = raw.split('\r\n\r\n');
    const declared = Number(/content-length: (\d+)/i.exec(head ?? '')?.[1]);
    expect(declared).toBeGreaterThan(Buffer.byteLength(rest));
  });

  it('slow delays the answer', async () => {
    sandbox = await startTestSandbox({ orders: 50, faults: 'slow300@1' });
    const t = Date.now();
    expect((await post(sandbox.url)).status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(280);
  });

  it('rate faults repeat exactly for a seed, and spare common.version probes', async () => {
    const run = async (): Promise<string[]> => {
      const h = await startTestSandbox({ orders: 50, seed: 4, faults: 'rate=0.3:502,503,504,429' });
      try {
        return await outcomes(h.url, 40);
      } finally {
        await h.close();
      }
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    const faulty = a.filter((s) => !s.startsWith('200')).length;
    expect(faulty).toBeGreaterThan(3);
    expect(faulty).toBeLessThan(30);
    sandbox = await startTestSandbox({ orders: 50, faults: 'every=1:503' });
    const probe = await post(sandbox.url, body('common', 'version', []));
    expect(probe.status).toBe(200);
    expect((await post(sandbox.url)).status).toBe(503);
  });

  it('refuses a spec it cannot read', async () => {
    await expect(startTestSandbox({ orders: 10, faults: 'boom@1' })).rejects.toThrow(/unknown fault kind/);
  });
});
