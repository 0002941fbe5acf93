// A JSON-RPC proxy in front of a real server (a sandbox, a real Odoo) over real sockets, for
// what the server will not do on its own: hold back the replies of some ORM methods (a slow
// report), answer a method's first request 503 (a busy server), or change a method's result
// (a server whose figures differ). It counts every request by the body it carried. JSON-2
// requests (Odoo 19) go through too, by the method their path names.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RpcProxy {
  url: string;
  /** Bodies of the requests seen, by the ORM method they call (`service.method` outside `object`). */
  seen: Map<string, string[]>;
  /** Methods whose replies are held back this long (ms). */
  slow: Map<string, number>;
  /** Methods whose next request is answered 503 (the server did not take it on). */
  busyOnce: Set<string>;
  /** Methods whose result is changed on the way back (given the request's body, to pick one call). */
  rewrite: Map<string, (result: unknown, body: string) => unknown>;
  /** Methods whose requests wait for this before going on (given the request's body): a write meanwhile. */
  before: Map<string, (body: string) => Promise<void>>;
  /** Methods answered with Odoo's error of this name and message (after `before`), not sent on (JSON-RPC). */
  refuse: Map<string, { name: string; message: string }>;
  /** How many times each distinct body of these methods was sent. */
  sends(methods: string[]): number[];
  reset(): void;
  close(): Promise<void>;
}

function methodOf(body: string, path: string | undefined): string {
  // JSON-2 (Odoo 19): POST /json/2/<model>/<method>.
  const json2 = /^\/json\/2\/[^/]+\/([^/?]+)/.exec(path ?? '');
  if (json2) return json2[1] as string;
  try {
    const rpc = JSON.parse(body) as { params?: { service?: string; method?: string; args?: unknown[] } };
    const a = rpc.params?.args ?? [];
    return rpc.params?.service === 'object' ? String(a[4]) : `${rpc.params?.service}.${rpc.params?.method}`;
  } catch {
    return '?';
  }
}

function pick(headers: http.IncomingHttpHeaders, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) if (typeof headers[n] === 'string') out[n] = headers[n] as string;
  return out;
}

export async function startRpcProxy(upstream: string): Promise<RpcProxy> {
  const p: RpcProxy = {
    url: '',
    seen: new Map(),
    slow: new Map(),
    busyOnce: new Set(),
    rewrite: new Map(),
    before: new Map(),
    refuse: new Map(),
    sends(methods) {
      return methods.flatMap((m) => {
        const count = new Map<string, number>();
        for (const b of p.seen.get(m) ?? []) count.set(b, (count.get(b) ?? 0) + 1);
        return [...count.values()];
      });
    },
    reset() {
      p.seen.clear();
      p.slow.clear();
      p.busyOnce.clear();
      p.rewrite.clear();
      p.before.clear();
      p.refuse.clear();
    },
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const method = methodOf(body, req.url);
      p.seen.set(method, [...(p.seen.get(method) ?? []), body]);
      if (p.busyOnce.delete(method)) {
        res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '0' }).end('busy');
        return;
      }
      const wait = p.slow.get(method) ?? 0;
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await p.before.get(method)?.(body);
      const refusal = p.refuse.get(method);
      if (refusal) {
        const { name, message } = refusal;
        const error = {
          code: 200,
          message: 'Odoo Server Error',
          data: { name, message, arguments: [message] },
        };
        const { id } = JSON.parse(body) as { id?: unknown };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id, error }));
        return;
      }
      try {
        const up = await fetch(`${upstream.replace(/\/$/, '')}${req.url ?? '/'}`, {
          method: req.method,
          // JSON-2's key and database go on; JSON-RPC carries them in the body.
          headers: {
            'content-type': 'application/json',
            ...pick(req.headers, ['authorization', 'x-odoo-database']),
          },
          body: req.method === 'GET' ? undefined : body,
        });
        let text = await up.text();
        const change = p.rewrite.get(method);
        if (change) {
          const reply = JSON.parse(text) as { result?: unknown };
          if ('result' in reply) text = JSON.stringify({ ...reply, result: change(reply.result, body) });
        }
        if (!res.destroyed) res.writeHead(up.status, { 'content-type': 'application/json' }).end(text);
      } catch {
        res.destroy();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  p.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  p.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return p;
}
