// Which calls are retried (issue 22, item 11): a call whose cost grows with the range (Odoo's
// grouping, its Sales Details report) is sent once, never again after a timeout, since the
// server may still be computing the first copy; a page of a read is retried as before. A proxy
// in front of a sandbox holds back the replies of the calls it is told to, over real sockets,
// and counts every request by its body.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

interface Held {
  url: string;
  /** Bodies of the requests seen, by the ORM method they call. */
  seen: Map<string, string[]>;
  /** Methods whose replies are held back this long (ms). */
  slow: Map<string, number>;
  /** Methods whose first request is answered 503 (the server did not take it on). */
  busyOnce: Set<string>;
  close(): Promise<void>;
}

function methodOf(body: string): string {
  try {
    const rpc = JSON.parse(body) as { params?: { service?: string; method?: string; args?: unknown[] } };
    const a = rpc.params?.args ?? [];
    return rpc.params?.service === 'object' ? String(a[4]) : `${rpc.params?.service}.${rpc.params?.method}`;
  } catch {
    return '?';
  }
}

async function startHeld(upstream: string): Promise<Held> {
  const h: Held = {
    url: '',
    seen: new Map(),
    slow: new Map(),
    busyOnce: new Set(),
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const method = methodOf(body);
      const list = h.seen.get(method) ?? [];
      list.push(body);
      h.seen.set(method, list);
      if (h.busyOnce.delete(method)) {
        res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '0' }).end('busy');
        return;
      }
      const wait = h.slow.get(method) ?? 0;
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      try {
        const up = await fetch(`${upstream}${req.url ?? '/'}`, {
          method: req.method,
          headers: { 'content-type': 'application/json' },
          body: req.method === 'GET' ? undefined : body,
        });
        const text = await up.text();
        if (!res.destroyed) res.writeHead(up.status, { 'content-type': 'application/json' }).end(text);
      } catch {
        res.destroy();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  h.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return h;
}

let sandbox: SandboxHandle;
let held: Held;
let env: Record<string, string>;
const P = ['--rate', '0', '--tz', 'UTC', '--format', 'json', '--from', '2000-01-01', '--to', 'today'];

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 21, orders: 400 });
  held = await startHeld(sandbox.url);
  env = await loginEnv(held.url);
});
afterAll(async () => {
  await held?.close();
  await sandbox?.close();
});
beforeEach(() => {
  held.seen.clear();
  held.slow.clear();
  held.busyOnce.clear();
});

/** Each request body of these methods, and how many times it was sent. */
const sends = (methods: string[]): number[] =>
  methods.flatMap((m) => {
    const count = new Map<string, number>();
    for (const b of held.seen.get(m) ?? []) count.set(b, (count.get(b) ?? 0) + 1);
    return [...count.values()];
  });

describe('a costly call is sent once', () => {
  it('summary: grouping calls that time out are not retried; one line says to narrow the range (exit 6)', async () => {
    held.slow.set('read_group', 4000);
    const r = await runCli(['summary', ...P, '--timeout', '1', '--retries', '4'], { env });
    const tries = sends(['read_group']);
    expect(tries.length).toBeGreaterThan(0);
    expect(
      tries.every((n) => n === 1),
      `sent ${tries.join(', ')} times`,
    ).toBe(true);
    expect(r.code, r.stderr).toBe(6);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^posdata: .*did not answer in time.*read_group was sent once, not retried.*narrow the range/,
    );
  });

  it("summary --check-odoo: Odoo's Sales Details that times out is sent once (exit 6), the data already out", async () => {
    held.slow.set('get_sale_details', 4000);
    const r = await runCli(['summary', ...P, '--check-odoo', '--timeout', '1', '--retries', '4'], { env });
    expect(held.seen.get('get_sale_details')).toHaveLength(1);
    expect(r.code, r.stderr).toBe(6);
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/get_sale_details was sent once, not retried.*narrow the range/);
  });

  it('a costly call the server did not take on (503) is sent again', async () => {
    held.busyOnce.add('read_group');
    const r = await runCli(['summary', ...P], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(sends(['read_group']).filter((n) => n === 2)).toHaveLength(1);
  });

  it('a page of a read that times out is retried, as before', async () => {
    held.slow.set('search_read', 2500);
    const slowOnce = held.slow;
    // Only the first try is slow: the proxy forgets the delay once it is seen.
    const r0 = runCli(['sales', '--rate', '0', '--format', 'json', '--limit', '5', '--timeout', '1'], {
      env,
    });
    const until = Date.now() + 20_000;
    while (!(held.seen.get('search_read')?.length ?? 0) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    slowOnce.delete('search_read');
    const r = await r0;
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(5);
    expect(Math.max(...sends(['search_read']))).toBeGreaterThan(1);
  });
});
