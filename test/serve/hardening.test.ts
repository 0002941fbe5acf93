// `posdata serve` against callers who are not logged in, and against an Odoo that fails
// (issue: the security/API review of serve). A counting proxy between the service and the
// sandbox records every request that reaches "Odoo", in order; nothing is mocked.
import { createServer, request, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { get, login, post, type Served, startServe } from './serve-process.js';

interface Proxy {
  url: string;
  /** What reached Odoo, in order: `authenticate <login>` or `<model>.<method>`. */
  calls: string[];
  close(): Promise<void>;
}

/** A plain HTTP proxy in front of the sandbox that notes each JSON-RPC call it forwards. */
async function countingProxy(target: string): Promise<Proxy> {
  const t = new URL(target);
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        const p = (JSON.parse(body.toString('utf8')) as { params?: { method?: string; args?: unknown[] } })
          .params;
        if (p?.method === 'authenticate') calls.push(`authenticate ${String(p.args?.[1])}`);
        else if (p?.method === 'execute_kw') calls.push(`${String(p.args?.[3])}.${String(p.args?.[4])}`);
        else calls.push(String(p?.method ?? req.url));
      } catch {
        calls.push(String(req.url));
      }
      const out = request(
        { host: t.hostname, port: t.port, path: req.url, method: req.method, headers: req.headers },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

const open: { sandbox?: SandboxHandle; proxy?: Proxy; served?: Served }[] = [];

afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.served?.stop();
    await o.proxy?.close();
    await o.sandbox?.close();
  }
});

async function setup(args: string[], faults?: string) {
  const sandbox = await startTestSandbox({ seed: 7, orders: 40, faults });
  const proxy = await countingProxy(sandbox.url);
  const entry: { sandbox?: SandboxHandle; proxy?: Proxy; served?: Served } = { sandbox, proxy };
  open.push(entry);
  const served = await startServe(['--url', proxy.url, '--db', 'demo', '--protocol', 'jsonrpc', ...args], {
    POSDATA_CONFIG_DIR: freshConfigDir(),
  });
  entry.served = served;
  return { sandbox, proxy, served };
}

function problemOf(r: { status: number; type: string; text: string }): Record<string, unknown> {
  expect(r.type).toBe('application/problem+json');
  return JSON.parse(r.text) as Record<string, unknown>;
}

describe('callers who are not logged in cannot deny service to those who are', () => {
  it('a burst of bogus logins gets a small share of --rate; a logged-in read is answered', async () => {
    // --rate 12: logins share at most 2 attempts a minute. Before, each bogus login name took
    // its own turn towards Odoo from the same 12 slots: the read waited behind them all and,
    // with no slot left within --timeout, was a 504.
    const { proxy, served } = await setup(['--rate', '12', '--timeout', '3']);
    const token = await login(served.base, 'pos', 'pos');
    const bogus = Array.from({ length: 20 }, (_, i) =>
      post(served.base, '/api/v1/auth/login', { login: `intruder${i}`, password: 'guess' }),
    );
    const read = get(served.base, '/api/v1/sales?limit=1', token);
    const [answers, mine] = await Promise.all([Promise.all(bogus), read]);
    expect(mine.status).toBe(200);
    expect(JSON.parse(mine.text)).toHaveLength(1);
    const statuses = answers.map((a) => a.status).sort();
    // One attempt of the two left for the minute reaches Odoo (401); the others do not.
    expect(statuses.filter((s) => s === 401)).toHaveLength(1);
    expect(statuses.filter((s) => s === 503)).toHaveLength(19);
    const refused = answers.find((a) => a.status === 503);
    expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(String(problemOf(refused as NonNullable<typeof refused>).detail)).toMatch(
      /login attempts a minute/,
    );
    expect(proxy.calls.filter((c) => c.startsWith('authenticate'))).toEqual([
      'authenticate pos',
      expect.stringMatching(/^authenticate intruder\d+$/),
    ]);
  });
});

describe('login attempts take one turn together towards Odoo', () => {
  it('a logged-in read waits on at most one login per turn, not on every login name', async () => {
    // No --rate (so no login share either): only the four connections are shared, and every
    // Odoo request takes 300 ms. Before, each of the 16 login names had a turn of its own,
    // so the read's first request went out after all 16 attempts.
    const { proxy, served } = await setup(['--rate', '0'], 'every=1:slow300');
    const token = await login(served.base, 'pos', 'pos');
    const bogus = Array.from({ length: 16 }, (_, i) =>
      post(served.base, '/api/v1/auth/login', { login: `intruder${i}`, password: 'guess' }),
    );
    // Four attempts are at Odoo (all four connections), the other twelve wait for a turn.
    const attempts = () => proxy.calls.filter((c) => c.startsWith('authenticate intruder')).length;
    while (attempts() < 4) await new Promise((r) => setTimeout(r, 20));
    const mine = await get(served.base, '/api/v1/sales?limit=1', token);
    expect(mine.status).toBe(200);
    // The read's first request (fields_get) had the next turn after the four in flight: it
    // reached Odoo before the sixth attempt. (Its later ones each wait for one slot too, while
    // the other three connections serve logins.)
    const first = proxy.calls.indexOf('pos.order.fields_get');
    const before = proxy.calls.slice(0, first).filter((c) => c.startsWith('authenticate intruder'));
    expect(before.length).toBeLessThanOrEqual(5);
    expect((await Promise.all(bogus)).map((a) => a.status)).toEqual(Array(16).fill(401));
  });
});

describe('the per-address login limit counts well-formed attempts only', () => {
  it('logins that are not JSON, or lack a field, neither reach Odoo nor use up the limit', async () => {
    // A cross-site page can POST text/plain without a preflight: before, each such request
    // took one of the address's logins, and --client-rate of them locked it out (429).
    const { proxy, served } = await setup(['--rate', '0', '--client-rate', '3']);
    for (let i = 0; i < 5; i++) {
      const plain = await fetch(`${served.base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{"login":"pos","password":"pos"}',
      });
      expect(plain.status).toBe(415);
      await plain.arrayBuffer();
      const partial = await post(served.base, '/api/v1/auth/login', { login: 'pos' });
      expect(partial.status).toBe(400);
    }
    expect(proxy.calls.filter((c) => c.startsWith('authenticate'))).toEqual([]);
    const r = await post(served.base, '/api/v1/auth/login', { login: 'pos', password: 'pos' });
    expect(r.status).toBe(200);
    expect(r.headers.get('ratelimit')).toMatch(/r=2;/);
  });
});

describe('listening beyond loopback', () => {
  // No Odoo at this URL: a run that got past the check would fail on it (exit 6) before it
  // listened, so nothing here binds a non-loopback address.
  const NOWHERE = ['--url', 'http://127.0.0.1:9', '--db', 'demo', '--port', '0'];

  it('is refused without --allow-remote: exit 2, one line, before anything else', async () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.10']) {
      const r = await runCli(['serve', '--host', host, ...NOWHERE], {
        env: { POSDATA_CONFIG_DIR: freshConfigDir() },
      });
      expect(r.code, host).toBe(2);
      expect(r.stderr, host).toBe(
        `posdata: refusing to listen on ${host}: serve speaks plain HTTP, so passwords and tokens would cross the network in clear; put a TLS proxy in front and give --allow-remote, or keep --host on loopback\n`,
      );
    }
  });

  it('with --allow-remote it warns, even with --quiet', async () => {
    const r = await runCli(['serve', '--host', '0.0.0.0', '--allow-remote', '--quiet', ...NOWHERE], {
      env: { POSDATA_CONFIG_DIR: freshConfigDir() },
    });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(
      /^posdata serve: warning: listening on 0\.0\.0\.0 without TLS: passwords and tokens cross the network in clear/,
    );
  });

  it('loopback names need no flag', async () => {
    for (const host of ['127.0.0.1', 'localhost', '::1']) {
      const r = await runCli(['serve', '--host', host, ...NOWHERE], {
        env: { POSDATA_CONFIG_DIR: freshConfigDir() },
      });
      expect(r.code, host).toBe(6);
    }
  });
});

describe("callers are not told where Odoo is; serve's stderr is", () => {
  it('Odoo gone: the login and the read are 502s that name no host; stderr names it', async () => {
    const { sandbox, proxy, served } = await setup(['--rate', '0']);
    const token = await login(served.base, 'pos', 'pos');
    const where = new URL(proxy.url).host;
    await proxy.close();
    await sandbox.close();
    for (const r of [
      await post(served.base, '/api/v1/auth/login', { login: 'admin', password: 'admin' }),
      await get(served.base, '/api/v1/sales?limit=1', token),
    ]) {
      expect(r.status).toBe(502);
      const detail = String(problemOf(r).detail);
      expect(detail).toMatch(/^Odoo could not be reached/);
      expect(r.text).not.toContain(where);
      expect(r.text).not.toMatch(/127\.0\.0\.1|--url|is Odoo running/);
    }
    expect(served.stderr()).toContain(`connection to ${where} refused; is Odoo running at that address?`);
  });

  it("Odoo answering HTML: a 502 without the operator's hint; stderr has it", async () => {
    // Requests 1-3 are the start-up probe and the login (authenticate, context_get); the
    // read's first request gets an HTML page, as from a login page or proxy in between.
    const { proxy, served } = await setup(['--rate', '0'], 'html@4');
    const token = await login(served.base, 'pos', 'pos');
    const r = await get(served.base, '/api/v1/sales?limit=1', token);
    expect(r.status).toBe(502);
    expect(String(problemOf(r).detail)).toMatch(/^Odoo answered in a way the service cannot use/);
    expect(r.text).not.toMatch(/--url|127\.0\.0\.1/);
    expect(r.text).not.toContain(new URL(proxy.url).host);
    expect(served.stderr()).toMatch(
      /posdata serve: GET \/api\/v1\/sales\?limit=1: .*check that --url is the Odoo server/,
    );
  });
});

describe('a client that goes away is not a bug', () => {
  it('a login body cut off by the client: no internal error on stderr', async () => {
    const { served } = await setup(['--rate', '0', '--debug']);
    const u = new URL(served.base);
    await new Promise<void>((resolve) => {
      const s = connect(Number(u.port), u.hostname, () => {
        s.write(
          'POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"login":',
        );
        // The headers are in and the body has begun; then the client is gone.
        setTimeout(() => s.destroy(), 200);
      });
      s.on('close', () => resolve());
      s.on('error', () => resolve());
    });
    // The service says (under --debug) what became of that request, or that it failed.
    while (!/went away|internal error/.test(served.stderr())) await new Promise((r) => setTimeout(r, 20));
    expect(served.stderr()).not.toMatch(/internal error/);
    expect(served.stderr()).toMatch(/posdata serve: POST \/api\/v1\/auth\/login: the client went away/);
    expect(await served.stop()).toBe(0);
  });
});

describe('an Odoo that hangs gets the caller a 504 within --timeout per request', () => {
  it('a read that times out is not retried past --timeout: one attempt, then 504', async () => {
    // Requests 1-3 are the start-up probe and the login; the read's request and any retry of
    // it (4 to 8) get no answer for 3 s, past --timeout 1. Before, each read was tried
    // --retries + 1 = 5 times, so a caller waited (retries + 1) x --timeout, which at the
    // default 60 s outlasted the service's own socket limit (2 x --timeout + 30 s): the
    // caller saw a dropped connection instead of the 504.
    const { proxy, served } = await setup(
      ['--rate', '0', '--timeout', '1', '--retries', '4'],
      'slow3000@4,5,6,7,8',
    );
    const token = await login(served.base, 'pos', 'pos');
    const r = await get(served.base, '/api/v1/sales?limit=1', token);
    expect(r.status).toBe(504);
    expect(String(problemOf(r).detail)).toMatch(/^Odoo did not answer in time/);
    expect(proxy.calls.filter((c) => c === 'pos.order.fields_get')).toHaveLength(1);
  });
});

describe('bad input is a 400', () => {
  it('a limit or offset beyond 2^31-1 (or 2^53) is a 400, never a query sent to Odoo', async () => {
    const { proxy, served } = await setup(['--rate', '0']);
    const token = await login(served.base, 'pos', 'pos');
    const before = proxy.calls.length;
    for (const q of ['limit=2147483648', 'limit=99999999999999999999', 'offset=9007199254740993']) {
      const r = await get(served.base, `/api/v1/sales?${q}`, token);
      expect(r.status, q).toBe(400);
      expect(String(problemOf(r).detail), q).toMatch(
        /^query parameter (limit|offset) '\d+' must be <= 2147483647/,
      );
    }
    expect(proxy.calls.length).toBe(before);
    expect((await get(served.base, '/api/v1/sales?limit=2147483647&offset=0', token)).status).toBe(200);
  });

  it("the login body's login and password are strings, not numbers or arrays", async () => {
    const { proxy, served } = await setup(['--rate', '0']);
    for (const body of [
      { login: 123, password: 'pos' },
      { login: ['pos'], password: 'pos' },
      { login: 'pos', password: 42 },
      { login: 'pos', password: ['pos'] },
      { login: 'pos', password: true },
    ]) {
      const r = await post(served.base, '/api/v1/auth/login', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(String(problemOf(r).detail)).toMatch(/^body field (login|password) must be a string$/);
    }
    expect(proxy.calls.filter((c) => c.startsWith('authenticate'))).toEqual([]);
  });
});

describe('HTTP details', () => {
  it('a known path with another method is a 405 with Allow; HEAD on a GET path too', async () => {
    const { served } = await setup(['--rate', '0']);
    const cases: [string, string, string][] = [
      ['DELETE', '/api/v1/sales', 'GET'],
      ['HEAD', '/api/v1/sales', 'GET'],
      ['PUT', '/api/v1/sales/5/lines', 'GET'],
      ['GET', '/api/v1/auth/login', 'POST'],
      ['POST', '/api/v1/openapi.json', 'GET'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await fetch(served.base + path, { method });
      const text = await res.text();
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
      if (method !== 'HEAD')
        expect(JSON.parse(text).detail).toBe(`${method} is not allowed on ${path}; use ${allow}`);
    }
    expect((await fetch(`${served.base}/api/v1/nothing`, { method: 'DELETE' })).status).toBe(404);
    expect((await get(served.base, '/api/v1/nothing')).status).toBe(404);
  });

  it('answers carry nosniff; none may be framed', async () => {
    const { served } = await setup(['--rate', '0']);
    for (const path of [
      '/api/v1/openapi.json',
      '/docs/static/index.html',
      '/docs',
      '/api/v1/nothing',
      '/api/v1/sales',
    ]) {
      const res = await fetch(served.base + path);
      await res.arrayBuffer();
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
    }
  });
});

/** A GET with a Host header of the test's choosing (fetch may not set one). */
function getWithHost(base: string, path: string, host: string): Promise<{ status: number; text: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const r = request({ host: u.hostname, port: u.port, path, headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    r.on('error', reject);
    r.end();
  });
}

describe('DNS rebinding', () => {
  it('on loopback, a request whose Host is not a loopback name is refused (421)', async () => {
    const { served } = await setup(['--rate', '0']);
    const port = new URL(served.base).port;
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      '192.0.2.1',
      `attacker.localhost.evil:${port}`,
    ]) {
      const r = await getWithHost(served.base, '/api/v1/openapi.json', host);
      expect(r.status, host).toBe(421);
      expect(JSON.parse(r.text).detail, host).toMatch(/^this service answers to loopback names only/);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost', `[::1]:${port}`]) {
      expect((await getWithHost(served.base, '/api/v1/openapi.json', host)).status, host).toBe(200);
    }
  });

  it("--allow-host names the proxy's public name, which is then answered too", async () => {
    const { served } = await setup(['--rate', '0', '--allow-host', 'pos.shop.example,other.example']);
    expect((await getWithHost(served.base, '/api/v1/openapi.json', 'pos.shop.example')).status).toBe(200);
    expect((await getWithHost(served.base, '/api/v1/openapi.json', 'POS.shop.example:443')).status).toBe(200);
    expect((await getWithHost(served.base, '/api/v1/openapi.json', 'evil.example')).status).toBe(421);
  });
});
