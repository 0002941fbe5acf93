// A hostile server for what the sandbox will not do: a JSON-RPC proxy in front of a real
// sandbox that breaks pos.order's search_read replies on purpose (records without an id,
// repeated ids, a domain or offset ignored, a result that is not a list). Everything else
// passes through unchanged, so login, fields_get and the rest are those of the sandbox.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type HostileMode = 'pass' | 'no-id' | 'repeated-ids' | 'ignore-domain' | 'not-a-list';

export interface Hostile {
  url: string;
  mode: HostileMode;
  /** search_read requests on pos.order seen. */
  searches: number;
  /** In a breaking mode, this many first search_reads still pass (a server that breaks halfway). */
  passFirst: number;
  close(): Promise<void>;
}

type Rpc = { params?: { service?: string; method?: string; args?: unknown[] } };

export async function startHostile(upstream: string, model = 'pos.order'): Promise<Hostile> {
  const h: Hostile = { url: '', mode: 'pass', searches: 0, passFirst: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      let body = Buffer.concat(chunks).toString('utf8');
      let target = false;
      try {
        const rpc = JSON.parse(body) as Rpc;
        const a = rpc.params?.args ?? [];
        if (rpc.params?.service === 'object' && a[3] === model && a[4] === 'search_read') {
          h.searches++;
          target = h.searches > h.passFirst;
          if (target && h.mode === 'ignore-domain') {
            // The server answers as if no domain, offset or key range had been asked.
            a[5] = [[]];
            const kw = (a[6] ?? {}) as Record<string, unknown>;
            delete kw.offset;
            a[6] = kw;
            body = JSON.stringify(rpc);
          }
        }
      } catch {
        /* not JSON: pass it on */
      }
      try {
        const up = await fetch(`${upstream}${req.url ?? '/'}`, {
          method: req.method,
          headers: { 'content-type': String(req.headers['content-type'] ?? 'application/json') },
          body: req.method === 'GET' ? undefined : body,
        });
        let text = await up.text();
        if (target && h.mode !== 'pass' && h.mode !== 'ignore-domain') {
          const reply = JSON.parse(text) as { result?: unknown };
          const rows = reply.result as Record<string, unknown>[] | undefined;
          if (Array.isArray(rows)) {
            if (h.mode === 'no-id') for (const r of rows) delete r.id;
            if (h.mode === 'repeated-ids' && rows.length > 1) rows[1] = { ...rows[1], id: rows[0]?.id };
            if (h.mode === 'not-a-list') reply.result = { records: rows };
          }
          text = JSON.stringify(reply);
        }
        res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
        res.end(text);
      } catch (err) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(err));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  h.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return h;
}
