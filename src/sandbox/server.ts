/**
 * The HTTP layer (node:http only): routes `/jsonrpc`, the version routes and, in 19 mode, JSON-2;
 * counts requests; applies injected faults before answering.
 */
import http from 'node:http';
import type { Fault, FaultPlan } from './faults.js';
import { handleJson2 } from './json2.js';
import {
  type HttpReply,
  handleJsonRpc,
  handleVersionInfo,
  htmlError,
  JSON_TYPE,
  type ServerState,
} from './rpc.js';

const MAX_BODY = 128 * 1024 * 1024;

export interface Counter {
  n: number;
}

function notFound(): HttpReply {
  return htmlError(
    404,
    'Not Found',
    'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.',
  );
}

function route(
  state: ServerState,
  method: string,
  path: string,
  headers: http.IncomingHttpHeaders,
  body: string,
): HttpReply {
  if (path === '/jsonrpc' && state.jsonrpc) {
    if (method !== 'POST')
      return htmlError(405, 'Method Not Allowed', 'The method is not allowed for the requested URL.');
    return handleJsonRpc(state, String(headers['content-type'] ?? ''), body);
  }
  if (path === '/web/webclient/version_info' && method === 'POST') return handleVersionInfo(state, body);
  if (state.version === 19) {
    if (path === '/json/version' || path === '/web/version') {
      return {
        status: 200,
        headers: { 'Content-Type': JSON_TYPE },
        body: JSON.stringify({ version_info: [19, 0, 0, 'final', 0, ''], version: '19.0' }),
      };
    }
    if (path === '/json/2' || path.startsWith('/json/2/'))
      return handleJson2(state, { method, path, headers, body });
  }
  return notFound();
}

const isProbe = (path: string, body: string): boolean =>
  path === '/json/version' ||
  path === '/web/version' ||
  path === '/web/webclient/version_info' ||
  (path === '/jsonrpc' && /"service"\s*:\s*"common"/.test(body) && /"method"\s*:\s*"version"/.test(body));

function faultReply(f: Fault, path: string, body: string): HttpReply | undefined {
  const html = (status: number, title: string): HttpReply => ({
    status,
    headers: { 'Content-Type': 'text/html' },
    body: `<html>\r\n<head><title>${status} ${title}</title></head>\r\n<body>\r\n<center><h1>${status} ${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
  });
  switch (f.kind) {
    case '500':
      return html(500, 'Internal Server Error');
    case '502':
      return html(502, 'Bad Gateway');
    case '503':
      return html(503, 'Service Temporarily Unavailable');
    case '504':
      return html(504, 'Gateway Time-out');
    case '429': {
      const r = html(429, 'Too Many Requests');
      r.headers['Retry-After'] = '1';
      return r;
    }
    case 'html':
      return {
        status: 200,
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
        body: '<!DOCTYPE html>\n<html lang="en-US">\n<head><title>Login | Odoo</title></head>\n<body class="o_web_client">\n<form class="oe_login_form" role="form" action="/web/login" method="post">\n<input type="text" name="login" id="login"/>\n<input type="password" name="password" id="password"/>\n<button type="submit">Log in</button>\n</form>\n</body>\n</html>\n',
      };
    case 'notrpc':
      return { status: 200, headers: { 'Content-Type': JSON_TYPE }, body: '{"hello":"world"}' };
    case 'expired': {
      if (path.startsWith('/json/2')) {
        const msg = 'Invalid apikey';
        return {
          status: 401,
          headers: { 'Content-Type': JSON_TYPE, 'WWW-Authenticate': 'Bearer ' },
          body: JSON.stringify({
            name: 'werkzeug.exceptions.Unauthorized',
            message: msg,
            arguments: [msg, 401],
            context: {},
            debug: '',
          }),
        };
      }
      let id: unknown = null;
      try {
        id = (JSON.parse(body) as { id?: unknown }).id ?? null;
      } catch {
        id = null;
      }
      return {
        status: 200,
        headers: { 'Content-Type': JSON_TYPE },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          error: {
            code: 100,
            message: 'Odoo Session Expired',
            data: {
              name: 'odoo.http.SessionExpiredException',
              debug:
                'Traceback (most recent call last):\n  ...\nodoo.http.SessionExpiredException: Session expired',
              message: 'Session expired',
              arguments: ['Session expired'],
              context: {},
            },
          },
        }),
      };
    }
    default:
      return undefined;
  }
}

export function createServer(
  state: ServerState,
  faults: FaultPlan | undefined,
  counter: Counter,
): http.Server {
  return http.createServer((req, res) => {
    const n = ++counter.n;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        res.writeHead(413, { 'Content-Type': 'text/html' });
        res.end('<h1>413 Request Entity Too Large</h1>');
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (res.writableEnded) return;
      const body = Buffer.concat(chunks).toString('utf8');
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      const method = req.method ?? 'GET';
      const answer = (): HttpReply => {
        try {
          return route(state, method, path, req.headers, body);
        } catch (e) {
          return htmlError(500, 'Internal Server Error', e instanceof Error ? e.message : String(e));
        }
      };
      const send = (r: HttpReply): void => {
        const buf = Buffer.from(r.body, 'utf8');
        const headers: Record<string, string> = { ...r.headers, 'Content-Length': String(buf.length) };
        if (state.clockOffsetMs) headers.Date = new Date(Date.now() + state.clockOffsetMs).toUTCString();
        res.writeHead(r.status, headers);
        res.end(buf);
      };
      const fault = faults && !faults.empty ? faults.decide(n, isProbe(path, body)) : undefined;
      if (!fault) return send(answer());
      if (fault.kind === 'reset') {
        req.socket.destroy();
        return;
      }
      if (fault.kind === 'slow') {
        setTimeout(() => {
          if (!res.destroyed) send(answer());
        }, fault.ms);
        return;
      }
      if (fault.kind === 'cut') {
        // Promise more bytes than are sent, then drop the connection mid-body.
        const full = Buffer.from(answer().body, 'utf8');
        res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': String(full.length + 1024) });
        res.write(full.subarray(0, Math.floor(full.length / 2)));
        setImmediate(() => req.socket.destroy());
        return;
      }
      send(faultReply(fault, path, body) ?? answer());
    });
  });
}
