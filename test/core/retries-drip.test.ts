// One retry policy, one count: a reply dripped slower than --timeout is tried --retries more
// times (N+1 attempts in all), each the same JSON-RPC POST again (never a Range header, as an
// HTTP library's resumed download would send), and the run ends with the timeout's own line.
// A body cut short after its headers is retried in the same count. A server of the test's
// own passes everything to a sandbox but pos.order's search_read, which it spoils, and
// counts those requests with their headers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALL_TIME, loginEnv, runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let server: http.Server;
let url: string;
let env: Record<string, string>;
let mode: 'pass' | 'drip' | 'cut' = 'pass';
/** Each spoiled request: its body and headers. */
let spoiled: { body: string; headers: http.IncomingHttpHeaders }[] = [];

/**
 * How many times each distinct request was sent (the export reads a page ahead, so two
 * requests may be under way when the first one fails).
 */
const sends = () => {
  const n = new Map<string, number>();
  for (const s of spoiled) n.set(s.body, (n.get(s.body) ?? 0) + 1);
  return [...n.values()];
};
const drips = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 15, orders: 60, now: new Date('2026-03-02T12:00:00Z') });
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let target = false;
      try {
        const a = (JSON.parse(body) as { params?: { args?: unknown[] } }).params?.args ?? [];
        target = a[3] === 'pos.order' && a[4] === 'search_read';
      } catch {
        /* not JSON-RPC */
      }
      if (target && mode !== 'pass') {
        spoiled.push({ body, headers: req.headers });
        res.writeHead(200, { 'content-type': 'application/json' });
        if (mode === 'cut') {
          // The headers and a part of the body out, then the connection goes.
          res.write('{"jsonrpc": "2.0", ', () => setTimeout(() => res.socket?.destroy(), 50));
          return;
        }
        res.write('{"jsonrpc": "2.0", ');
        // A byte every 400 ms, never the end: slower than any --timeout of the test.
        const t = setInterval(() => res.write(' '), 400);
        drips.add(t);
        res.on('close', () => {
          clearInterval(t);
          drips.delete(t);
        });
        return;
      }
      const up = await fetch(`${sandbox.url.replace(/\/$/, '')}${req.url ?? '/'}`, {
        method: req.method,
        headers: { 'content-type': 'application/json' },
        body: req.method === 'GET' ? undefined : body,
      });
      res.writeHead(up.status, { 'content-type': 'application/json' }).end(await up.text());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  env = await loginEnv(url);
}, 60_000);

afterAll(async () => {
  for (const t of drips) clearInterval(t);
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  await sandbox?.close();
});

beforeEach(() => {
  spoiled = [];
});

const sales = (retries: number) =>
  runCli(
    [
      'sales',
      ...ALL_TIME,
      '--format',
      'json',
      '--fields',
      'id,name',
      '--timeout',
      '1',
      '--retries',
      String(retries),
    ],
    {
      env,
    },
  );

describe('--retries is the one count', () => {
  for (const n of [0, 2]) {
    it(`a reply dripped slower than --timeout, --retries ${n}: ${n + 1} attempts, no Range header, the timeout's line`, async () => {
      mode = 'drip';
      const r = await sales(n);
      mode = 'pass';
      expect(r.code).toBe(6);
      // The first page's request: n + 1 attempts; the one read ahead no more.
      expect(sends()[0]).toBe(n + 1);
      expect(Math.max(...sends())).toBe(n + 1);
      for (const s of spoiled) expect(s.headers.range).toBeUndefined();
      const lines = r.stderr.trim().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^posdata: 127\.0\.0\.1:\d+ did not answer in time \(no complete reply within --timeout 1 s\); /,
      );
    });
  }

  it('a body cut short after its headers, --retries 1: 2 attempts, then the cut in one line', async () => {
    mode = 'cut';
    const r = await sales(1);
    mode = 'pass';
    expect(r.code).toBe(6);
    expect(sends()[0]).toBe(2);
    expect(Math.max(...sends())).toBe(2);
    for (const s of spoiled) expect(s.headers.range).toBeUndefined();
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/was cut short/);
  });
});
