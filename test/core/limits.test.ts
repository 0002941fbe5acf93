// Issue 18, cases 15 and 16: a hostile server cannot make posdata hold an endless reply in
// memory (--max-reply, counted while it arrives) nor keep it waiting past --timeout by
// dripping bytes (--timeout bounds the whole request, not each gap between bytes).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli } from '../helpers/cli.js';

type Behaviour = (req: IncomingMessage, res: ServerResponse, body: string) => void;

let server: Server;
let url = '';
let behaviour: Behaviour = (_req, res) => res.end();
let requests = 0;
/** Bytes of the reply the server managed to hand to its socket before the client left. */
let sent = 0;
const timers = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    let body = '';
    req.setEncoding('utf8').on('data', (d) => {
      body += d;
    });
    req.on('end', () => behaviour(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const t of timers) clearInterval(t);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  requests = 0;
  sent = 0;
});

/** A reply of `total` bytes of JSON-looking text, chunked, as fast as the client takes it. */
function endless(total: number, headers: Record<string, string | number> = {}): Behaviour {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const push = (): void => {
      while (sent < total && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', push);
          return;
        }
      }
      if (!res.destroyed) res.end();
    };
    res.write('{"jsonrpc": "2.0", "id": 1, "result": "');
    push();
  };
}

/** A valid reply, one byte every `gapMs`. */
function drip(gapMs: number): Behaviour {
  return (_req, res) => {
    const body = `{"jsonrpc": "2.0", "id": 1, "result": ${' '.repeat(200)}2}`;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    let i = 0;
    const t = setInterval(() => {
      if (res.destroyed || i >= body.length) {
        clearInterval(t);
        timers.delete(t);
        if (!res.destroyed) res.end();
        return;
      }
      res.write(body[i++]);
    }, gapMs);
    timers.add(t);
  };
}

const env = () => ({
  POSDATA_CONFIG_DIR: freshConfigDir(),
  POSDATA_URL: url,
  POSDATA_DB: 'demo',
  POSDATA_USER: 'admin',
  POSDATA_PASSWORD: 'admin',
});
const whoami = ['whoami', '--protocol', 'jsonrpc', '--rate', '0'];

function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^posdata: /);
  return lines[0] as string;
}

describe('--max-reply (case 15)', () => {
  it('stops reading a reply past the cap: exit 6, one line, the rest never received', async () => {
    behaviour = endless(200 * 1024 * 1024);
    const r = await runCli([...whoami, '--max-reply', '1MiB'], { env: env() });
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(6);
    expect(oneLine(r.stderr)).toMatch(/reply .* larger than --max-reply \(1 MiB\)/);
    // Counted while it arrives: the client left long before 200 MB.
    expect(sent).toBeLessThan(32 * 1024 * 1024);
    expect(requests).toBe(1);
  });

  it('refuses a declared Content-Length over the default cap (256 MiB) before reading it', async () => {
    behaviour = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 300 * 1024 * 1024 });
      res.write('{"jsonrpc": "2.0"');
    };
    const r = await runCli(whoami, { env: env() });
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(6);
    expect(oneLine(r.stderr)).toMatch(/larger than --max-reply \(256 MiB\)/);
  });

  it('takes sizes in bytes or with units, and refuses nonsense (exit 2)', async () => {
    for (const bad of ['0', 'lots', '-5MiB', '1.5.0MiB', '1TiB']) {
      const r = await runCli([...whoami, '--max-reply', bad], { env: env() });
      expect(r.code, `${bad}: ${r.stderr}`).toBe(2);
      expect(oneLine(r.stderr)).toMatch(/--max-reply/);
    }
  });
});

describe('--timeout bounds the whole request (case 16)', () => {
  it('a reply dripped a byte every 300 ms ends at --timeout 2, exit 6', async () => {
    behaviour = drip(300);
    const r = await runCli([...whoami, '--timeout', '2', '--retries', '0'], { env: env() });
    // Dripped whole, the reply would take a minute.
    expect(r.signal, 'still running: the timeout did not bound the whole request').toBeNull();
    expect(r.code, r.stderr).toBe(6);
    expect(oneLine(r.stderr)).toMatch(/did not answer in time|within --timeout/);
  });

  it('is retried like any timeout of a read call (--retries)', async () => {
    const dripping = drip(300);
    let dripped = 0;
    behaviour = (req, res, body) => {
      const call = JSON.parse(body) as { id: number; params: { method: string } };
      if (call.params.method === 'authenticate') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: 2 }));
        return;
      }
      dripped++;
      dripping(req, res, body);
    };
    const r = await runCli([...whoami, '--timeout', '1', '--retries', '1'], { env: env() });
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(6);
    oneLine(r.stderr);
    expect(dripped).toBe(2);
  });
});
