// `posdata serve` under load and abuse (issue 18, case 19): one user cannot starve another
// of the shared budget towards Odoo, a request never waits past --timeout without a 504,
// idle and slow connections are capped and timed out, each user's live tokens are capped,
// parser-level errors are problem documents, and the public documents name no Odoo.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { get, login, post, type Served, startServe } from './serve-process.js';

const open: { sandbox?: SandboxHandle; served?: Served; sockets?: Socket[] }[] = [];

async function setup(
  args: string[],
  faults?: string,
): Promise<{ sandbox: SandboxHandle; served: Served; sockets: Socket[] }> {
  const sandbox = await startTestSandbox({ seed: 6, orders: 80, faults });
  const served = await startServe(['--url', sandbox.url, '--db', 'demo', '--protocol', 'jsonrpc', ...args], {
    POSDATA_CONFIG_DIR: freshConfigDir(),
  });
  const sockets: Socket[] = [];
  open.push({ sandbox, served, sockets });
  return { sandbox, served, sockets };
}

afterEach(async () => {
  for (const o of open.splice(0)) {
    for (const s of o.sockets ?? []) s.destroy();
    await o.served?.stop();
    await o.sandbox?.close();
  }
});

function problemOf(r: { status: number; type: string; text: string }): Record<string, unknown> {
  expect(r.type).toBe('application/problem+json');
  return JSON.parse(r.text) as Record<string, unknown>;
}

/** A GET that gives up after `ms` (the test then fails on the status, not by hanging). */
async function getWithin(base: string, path: string, token: string, ms: number) {
  try {
    const res = await fetch(base + path, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(ms),
    });
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  } catch {
    return { status: 0, type: '', text: 'no answer in time' };
  }
}

/** Opens `n` TCP connections that send nothing; resolves once all are connected or closed. */
async function idle(base: string, n: number, sockets: Socket[]): Promise<{ closed: () => number }> {
  const u = new URL(base);
  let closed = 0;
  await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<void>((resolve) => {
          const s = connect(Number(u.port), u.hostname);
          sockets.push(s);
          s.resume(); // read what the server says before closing (a 408), so 'close' comes
          s.on('connect', () => resolve());
          s.on('error', () => resolve());
          s.on('close', () => {
            closed++;
            resolve();
          });
        }),
    ),
  );
  return { closed: () => closed };
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

/** Sends raw bytes and returns the whole reply. */
function raw(base: string, bytes: string): Promise<string> {
  const u = new URL(base);
  return new Promise((resolve) => {
    const s = connect(Number(u.port), u.hostname, () => s.write(bytes));
    let out = '';
    s.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    s.on('close', () => resolve(out));
    s.on('error', () => resolve(out));
    s.setTimeout(5000, () => s.destroy());
  });
}

describe('the shared budget towards Odoo', () => {
  it('a request that cannot get a slot within --timeout is a 504, not a wait without end', async () => {
    // --rate 5: the start-up probe and two logins (authenticate, context_get) take all five
    // slots of the minute; the POS user's read then has no slot for a minute.
    const { served } = await setup(['--rate', '5', '--timeout', '2']);
    await login(served.base, 'admin', 'admin');
    const pos = await login(served.base, 'pos', 'pos');
    const r = await getWithin(served.base, '/api/v1/pos/configs', pos, 15_000);
    expect(r.status).toBe(504);
    expect(String(problemOf(r).detail)).toMatch(/--rate|slot/);
  });

  it("one user's burst does not starve another: requests to Odoo take turns per user", async () => {
    // Every Odoo request takes 400 ms; the admin sends 16 requests at once, then the POS
    // user one. Served in arrival order, the POS user's answer would come after nearly all
    // of the admin's; taking turns, it comes early.
    const { served } = await setup(['--rate', '0'], 'every=1:slow400');
    const admin = await login(served.base, 'admin', 'admin');
    const pos = await login(served.base, 'pos', 'pos');
    const done: string[] = [];
    const burst = Array.from({ length: 16 }, (_, i) =>
      get(served.base, `/api/v1/sales?limit=${i + 1}`, admin).then((r) => {
        expect(r.status).toBe(200);
        done.push('admin');
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    const mine = get(served.base, '/api/v1/pos/configs', pos).then((r) => {
      expect(r.status).toBe(200);
      done.push('pos');
    });
    await Promise.all([...burst, mine]);
    expect(done.indexOf('pos')).toBeLessThan(8);
  });
});

describe('connections', () => {
  it('by default, hundreds of idle connections are not all held open, nor for long', async () => {
    const { served, sockets } = await setup(['--rate', '0']);
    const conns = await idle(served.base, 400, sockets);
    // Past the default cap (256) they are closed at once, the others after the header timeout (10 s).
    expect(await until(() => conns.closed() >= 100, 5000)).toBe(true);
    expect(await until(() => conns.closed() === 400, 20_000)).toBe(true);
    expect(await login(served.base, 'admin', 'admin')).toBeTruthy();
  });

  it('--max-connections caps them and --header-timeout closes the idle ones', async () => {
    const { served, sockets } = await setup([
      '--rate',
      '0',
      '--max-connections',
      '20',
      '--header-timeout',
      '1',
    ]);
    const conns = await idle(served.base, 50, sockets);
    // With a 1 s header timeout no bound tells the cap from the timeout: each is a ceiling.
    expect(await until(() => conns.closed() >= 30, 60_000)).toBe(true);
    expect(await until(() => conns.closed() === 50, 60_000)).toBe(true);
    expect(
      (await post(served.base, '/api/v1/auth/login', { login: 'admin', password: 'admin' })).status,
    ).toBe(200);
  });
});

describe('tokens', () => {
  it('each user holds at most 20 live tokens: the 21st login revokes the oldest', async () => {
    const { served } = await setup(['--rate', '0', '--client-rate', '0']);
    const tokens: string[] = [];
    for (let i = 0; i < 21; i++) tokens.push(await login(served.base, 'pos', 'pos'));
    expect((await get(served.base, '/api/v1/pos/configs', tokens[0])).status).toBe(401);
    expect((await get(served.base, '/api/v1/pos/configs', tokens[1])).status).toBe(200);
    expect((await get(served.base, '/api/v1/pos/configs', tokens[20])).status).toBe(200);
    // Another user's tokens are not affected.
    expect(
      (await get(served.base, '/api/v1/pos/configs', await login(served.base, 'admin', 'admin'))).status,
    ).toBe(200);
  });
});

describe('errors below the routes are problem documents too', () => {
  it('oversized headers: 431; a garbled request: 400; a bad URL: 400', async () => {
    const { served } = await setup(['--rate', '0']);
    const big = await raw(
      served.base,
      `GET /api/v1/sales HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    expect(big).toMatch(/content-type: application\/problem\+json/i);
    expect(JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4)).status).toBe(431);
    const garbled = await raw(served.base, 'HELLO THERE\r\n\r\n');
    expect(garbled).toMatch(/^HTTP\/1\.1 400 /);
    expect(garbled).toMatch(/content-type: application\/problem\+json/i);
    const badUrl = await get(served.base, '/api/v1/sales/%zz/lines');
    expect(badUrl.status).toBe(400);
    expect(problemOf(badUrl).status).toBe(400);
    const badJson = await fetch(`${served.base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"login": ',
    });
    expect(badJson.status).toBe(400);
    expect(badJson.headers.get('content-type')).toBe('application/problem+json');
  });
});

describe('what anyone can read names no Odoo', () => {
  it('openapi.json, /docs and a rejected login show neither the Odoo URL nor the database', async () => {
    const { sandbox, served } = await setup(['--rate', '0']);
    const host = new URL(sandbox.url).host;
    for (const path of ['/api/v1/openapi.json', '/docs/json', '/docs/static/index.html']) {
      const r = await get(served.base, path);
      expect(r.status, path).toBe(200);
      expect(r.text, path).not.toContain(host);
      expect(r.text, path).not.toMatch(/database demo|'demo'/);
    }
    const r = await post(served.base, '/api/v1/auth/login', { login: 'admin', password: 'nope' });
    expect(r.status).toBe(401);
    expect(r.text).not.toMatch(/demo|127\.0\.0\.1/);
  });
});
