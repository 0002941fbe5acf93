// A small hostile "Odoo" on a loopback port for the secret tests: it records every request
// it receives (so a test can see whether a secret was sent to it) and answers JSON-RPC the
// way a test asks, for example by echoing the request back in an error message.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Hostile {
  url: string;
  received: Received[];
  /** Everything received, as one string: what the server could have stolen. */
  seen(): string;
  close(): Promise<void>;
}

interface RpcCall {
  id: unknown;
  params: { service: string; method: string; args: unknown[] };
}

/** What to answer a JSON-RPC call: a result, or an Odoo-style error with this message. */
export type Answerer = (call: RpcCall) => { result: unknown } | { error: string };

/** Answers as a minimal Odoo 17 (version, authenticate → uid 2, empty reads) unless told otherwise. */
export const plainOdoo: Answerer = (call) => {
  const { service, method } = call.params;
  if (service === 'common' && method === 'version')
    return {
      result: {
        server_version: '17.0',
        server_version_info: [17, 0, 0, 'final', 0, ''],
        server_serie: '17.0',
        protocol_version: 1,
      },
    };
  if (service === 'common' && method === 'authenticate') return { result: 2 };
  return { result: [] };
};

/** `host`: a loopback address of its own (127.0.0.2, ...) makes it another server than the sandbox's. */
export async function startHostile(answer: Answerer = plainOdoo, host = '127.0.0.1'): Promise<Hostile> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      body += d;
    });
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      if (req.url !== '/jsonrpc') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      let call: RpcCall;
      try {
        call = JSON.parse(body) as RpcCall;
      } catch {
        res.writeHead(400).end();
        return;
      }
      const a = answer(call);
      const reply =
        'result' in a
          ? { jsonrpc: '2.0', id: call.id, result: a.result }
          : {
              jsonrpc: '2.0',
              id: call.id,
              error: {
                code: 200,
                message: 'Odoo Server Error',
                data: {
                  name: 'odoo.exceptions.UserError',
                  message: a.error,
                  arguments: [a.error],
                  debug: '',
                  context: {},
                },
              },
            };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    received,
    seen: () => received.map((r) => `${r.path} ${JSON.stringify(r.headers)} ${r.body}`).join('\n'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
