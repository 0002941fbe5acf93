// `posdata serve` against the sandbox over real HTTP: every path answers exactly what the
// matching command prints with --format json, with the rights of the user behind the
// token; tokens, expiry, logout, the per-token rate limit and problem documents.
import { get as httpGet } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { get, login, post, type Served, startServe } from './serve-process.js';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
let sandbox: any;
let env: Record<string, string>;
let served: Served;
let admin: string;
const P = ['--rate', '0'];

beforeAll(async () => {
  const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
  // The data's last day runs two hours ahead of UTC, so that the admin's "yesterday"
  // (Europe/Brussels) is a day of closed sessions at any hour, midnight in Brussels included.
  sandbox = await startSandbox({
    port: 0,
    seed: 21,
    orders: 1200,
    now: new Date(Date.now() + 2 * 3_600_000),
  });
  env = await loginEnv(sandbox.url);
  served = await startServe(P, env);
  admin = await login(served.base, 'admin', 'admin');
});

afterAll(async () => {
  await served?.stop();
  await sandbox?.close();
});

async function command(args: string[], e = env): Promise<string> {
  const r = await runCli([...args, '--format', 'json', ...P], { env: e });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

function isProblem(r: { status: number; type: string; text: string }, status: number): void {
  expect(r.status).toBe(status);
  expect(r.type).toBe('application/problem+json');
  const p = JSON.parse(r.text) as Record<string, unknown>;
  expect(p.status).toBe(status);
  expect(Object.keys(p).sort()).toEqual(['detail', 'instance', 'status', 'title', 'type']);
  expect(String(p.detail).length).toBeGreaterThan(10);
}

describe('every path answers what the command prints with --format json', () => {
  const cases: [string, string[]][] = [
    ['/api/v1/pos/configs', ['configs']],
    ['/api/v1/sales', ['sales']],
    [
      '/api/v1/sales?config_id=2&state=paid,done&limit=40',
      ['sales', '--config-id', '2', '--state', 'paid,done', '--limit', '40'],
    ],
    [
      '/api/v1/sales?fields=name,amount_total,session_id&order=amount_total%20desc&limit=25',
      ['sales', '--fields', 'name,amount_total,session_id', '--sort', 'amount_total desc', '--limit', '25'],
    ],
    [
      '/api/v1/sales?from=7d&tz=America/New_York&limit=30',
      ['sales', '--from', '7d', '--tz', 'America/New_York', '--limit', '30'],
    ],
    ['/api/v1/sales?session_id=3&with_payments=true', ['sales', '--session-id', '3', '--with-payments']],
    ['/api/v1/refunds', ['refunds']],
    ['/api/v1/cancellations', ['cancellations']],
    ['/api/v1/sessions/closures', ['closures']],
    [
      '/api/v1/sessions/closures?config_id=1&order=stop_at%20desc&limit=5',
      ['closures', '--config-id', '1', '--sort', 'stop_at desc', '--limit', '5'],
    ],
    ['/api/v1/payments?session_id=2', ['payments', '--session-id', '2']],
    ['/api/v1/products', ['products']],
    [
      '/api/v1/sales?domain=%5B%5B%22amount_total%22%2C%22%3E%22%2C500%5D%5D',
      ['sales', '--domain', '[["amount_total",">",500]]'],
    ],
    ['/api/v1/reconcile', ['reconcile', '--quiet']],
    [
      '/api/v1/reconcile?from=7d&config_id=1&tz=UTC',
      ['reconcile', '--from', '7d', '--config-id', '1', '--tz', 'UTC', '--quiet'],
    ],
    ['/api/v1/reconcile?date=yesterday', ['reconcile', '--date', 'yesterday', '--quiet']],
    [
      '/api/v1/summary?from=2000-01-01&to=today&tz=UTC',
      ['summary', '--from', '2000-01-01', '--to', 'today', '--tz', 'UTC'],
    ],
    [
      '/api/v1/summary?from=7d&by=product&top=5&config_id=1',
      ['summary', '--from', '7d', '--by', 'product', '--top', '5', '--config-id', '1'],
    ],
    [
      '/api/v1/summary?date=yesterday&by=register&day_starts=03:00&tz=Europe/Brussels',
      [
        'summary',
        '--date',
        'yesterday',
        '--by',
        'register',
        '--day-starts',
        '03:00',
        '--tz',
        'Europe/Brussels',
      ],
    ],
    ['/api/v1/summary?session_id=2', ['summary', '--session-id', '2']],
  ];
  for (const [path, args] of cases) {
    it(`GET ${path} = posdata ${args.join(' ')}`, async () => {
      const [http, cli] = await Promise.all([get(served.base, path, admin), command(args)]);
      expect(http.status).toBe(200);
      expect(http.type).toBe('application/json; charset=utf-8');
      expect(http.text).toBe(cli);
      expect(JSON.parse(http.text).length).toBeGreaterThan(0);
    });
  }

  it('GET /api/v1/sales/{order_id}/lines = posdata lines ORDER_ID', async () => {
    const sales = JSON.parse((await get(served.base, '/api/v1/sales?limit=3&order=id%20desc', admin)).text);
    for (const o of sales as { id: number }[]) {
      const [http, cli] = await Promise.all([
        get(served.base, `/api/v1/sales/${o.id}/lines`, admin),
        command(['lines', String(o.id)]),
      ]);
      expect(http.status).toBe(200);
      expect(http.text).toBe(cli);
      expect(JSON.parse(http.text).length).toBeGreaterThan(0);
    }
  });

  it('offset skips records as paging does', async () => {
    const all = JSON.parse((await get(served.base, '/api/v1/sales?limit=20', admin)).text) as {
      id: number;
    }[];
    const page = JSON.parse((await get(served.base, '/api/v1/sales?limit=5&offset=10', admin)).text) as {
      id: number;
    }[];
    expect(page.map((r) => r.id)).toEqual(all.slice(10, 15).map((r) => r.id));
  });

  it('a large answer streams (chunked, no Content-Length)', async () => {
    const r = await get(served.base, '/api/v1/sales', admin);
    expect(r.headers.get('transfer-encoding')).toBe('chunked');
    expect(r.headers.get('content-length')).toBeNull();
    expect(JSON.parse(r.text).length).toBe(JSON.parse(await command(['sales'])).length);
  });
});

describe('tokens', () => {
  it('login answers an opaque random token, the uid and the expiry', async () => {
    const before = Date.now();
    const r = await post(served.base, '/api/v1/auth/login', { login: 'admin', password: 'admin' });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const body = JSON.parse(r.text) as { token: string; uid: number; expires_at: string };
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'token', 'uid']);
    expect(body.uid).toBe(2);
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.token).not.toBe(admin);
    expect(body.token).not.toContain(String(body.uid).padStart(43, '0'));
    const exp = Date.parse(body.expires_at);
    expect(exp).toBeGreaterThanOrEqual(before + 3600_000 - 1000);
    expect(exp).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000);
  });

  it('a wrong password is 401 and gives no token', async () => {
    const r = await post(served.base, '/api/v1/auth/login', { login: 'admin', password: 'wrong-password' });
    isProblem(r, 401);
    expect(r.text).not.toContain('token"');
  });

  it('a login body without password is 400', async () => {
    isProblem(await post(served.base, '/api/v1/auth/login', { login: 'admin' }), 400);
    isProblem(
      await post(served.base, '/api/v1/auth/login', { login: 'admin', password: 'admin', x: 1 }),
      400,
    );
  });

  it('no token, a forged token, a UID as token: 401 problem with WWW-Authenticate', async () => {
    for (const token of [undefined, `x${admin}`, admin.slice(0, -1), '2']) {
      const r = await get(served.base, '/api/v1/sales?limit=1', token);
      isProblem(r, 401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('logout revokes the token at once; other tokens live on', async () => {
    const t = await login(served.base, 'admin', 'admin');
    expect((await get(served.base, '/api/v1/pos/configs', t)).status).toBe(200);
    const out = await post(served.base, '/api/v1/auth/logout', undefined, t);
    expect(out.status).toBe(204);
    isProblem(await get(served.base, '/api/v1/pos/configs', t), 401);
    isProblem(await post(served.base, '/api/v1/auth/logout', undefined, t), 401);
    expect((await get(served.base, '/api/v1/pos/configs', admin)).status).toBe(200);
  });

  it("a password is masked in its own user's answers only, never in another's", async () => {
    const own = await startServe(P, env);
    try {
      const a = await login(own.base, 'admin', 'admin');
      const detail = async (t: string) =>
        JSON.parse((await get(own.base, '/api/v1/sales?fields=name,nope_pos', t)).text).detail as string;
      // "pos" is the sandbox POS user's password: masked in what the POS user gets back
      // (in the value it sent, never in posdata's words: "pos.order" stays), and not in the
      // admin's answers, live token or not (no oracle across users).
      const p = await login(own.base, 'pos', 'pos');
      expect(await detail(p)).toMatch(/^unknown field 'nope_\*\*\*' on pos\.order;/);
      expect(await detail(a)).toMatch(/^unknown field 'nope_pos' on pos\.order;/);
      expect((await post(own.base, '/api/v1/auth/logout', undefined, p)).status).toBe(204);
      expect(await detail(a)).toMatch(/^unknown field 'nope_pos' on pos\.order;/);
    } finally {
      await own.stop();
    }
  });

  it('a token expires after --token-ttl', async () => {
    const short = await startServe([...P, '--token-ttl', '1'], env);
    try {
      const t = await login(short.base, 'admin', 'admin');
      expect((await get(short.base, '/api/v1/pos/configs', t)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1500));
      const r = await get(short.base, '/api/v1/pos/configs', t);
      isProblem(r, 401);
      expect(JSON.parse(r.text).detail).toMatch(/expired/);
    } finally {
      await short.stop();
    }
  });
});

describe("each request runs with the rights of the token's user", () => {
  it('a POS user reads what posdata reads as that user', async () => {
    const posEnv = await loginEnv(sandbox.url, 'pos', 'pos');
    const t = await login(served.base, 'pos', 'pos');
    for (const [path, args] of [
      ['/api/v1/sales?limit=50', ['sales', '--limit', '50']],
      ['/api/v1/sessions/closures', ['closures']],
      ['/api/v1/pos/configs', ['configs']],
    ] as [string, string[]][]) {
      const [http, cli] = await Promise.all([get(served.base, path, t), command(args, posEnv)]);
      expect(http.status).toBe(200);
      expect(http.text).toBe(cli);
    }
  });

  it('a clerk without POS rights gets 403 where Odoo refuses, 200 on the catalog', async () => {
    const t = await login(served.base, 'clerk', 'clerk');
    for (const path of [
      '/api/v1/sales',
      '/api/v1/pos/configs',
      '/api/v1/sessions/closures',
      '/api/v1/refunds',
    ]) {
      const r = await get(served.base, path, t);
      isProblem(r, 403);
      expect(JSON.parse(r.text).detail).toMatch(/Odoo refused access/);
    }
    const cli = await runCli(['sales', '--format', 'json', ...P], {
      env: await loginEnv(sandbox.url, 'clerk', 'clerk'),
    });
    expect(cli.code).toBe(5);
    expect((await get(served.base, '/api/v1/products', t)).status).toBe(200);
  });
});

describe('problem documents', () => {
  const bad: [string, number][] = [
    ['/api/v1/sales?config_id=abc', 400],
    ['/api/v1/sales?config_id=0', 400],
    ['/api/v1/sales?limit=-1', 400],
    ['/api/v1/sales?cofnig_id=1', 400],
    ['/api/v1/products?config_id=1', 400],
    ['/api/v1/sales?fields=name,nope', 400],
    ['/api/v1/sales?fields=,', 400],
    ['/api/v1/sales?tz=Mars/Olympus', 400],
    ['/api/v1/sales?from=someday', 400],
    ['/api/v1/sales?state=sold', 400],
    ['/api/v1/sales?order=nope%20desc', 400],
    ['/api/v1/sales?domain=not-json', 400],
    ['/api/v1/sales/abc/lines', 400],
    ['/api/v1/sales/99999999/lines', 404],
    ['/api/v1/sales/99999999999999999999/lines', 400],
    ['/api/v1/nothing', 404],
    ['/api/v1/reconcile?date=yesterday&from=7d', 400],
    ['/api/v1/reconcile?date=2h', 400],
    ['/api/v1/reconcile?state=closed', 400],
    ['/api/v1/summary?by=colour', 400],
    ['/api/v1/summary?top=0', 400],
    ['/api/v1/summary?day_starts=25:00', 400],
    ['/api/v1/summary?state=paid', 400],
    ['/api/v1/summary?session_id=99999', 404],
  ];
  for (const [path, status] of bad) {
    it(`GET ${path} → ${status}`, async () => {
      const r = await get(served.base, path, admin);
      isProblem(r, status);
      expect(JSON.parse(r.text).instance).toBe(path);
    });
  }

  it("reconcile's range errors are the command's, with the parameters' names", async () => {
    const both = JSON.parse((await get(served.base, '/api/v1/reconcile?date=yesterday&from=7d', admin)).text);
    expect(both.detail).toMatch(/^date and from\/to both give the range; use either date D or from\/to$/);
    const span = JSON.parse((await get(served.base, '/api/v1/reconcile?date=2h', admin)).text);
    expect(span.detail).toMatch(/^date '2h' is not a day/);
  });

  it("summary's errors name the parameters", async () => {
    const by = JSON.parse((await get(served.base, '/api/v1/summary?by=colour', admin)).text);
    expect(by.detail).toMatch(/^by 'colour' is not a summary key; use one or more of day, hour/);
    const cut = JSON.parse((await get(served.base, '/api/v1/summary?day_starts=25:00', admin)).text);
    expect(cut.detail).toMatch(/^day_starts '25:00' is not a time of day/);
  });

  it("a bad parameter's detail names the parameter, not the command's flag", async () => {
    const r = await get(served.base, '/api/v1/sales?fields=name,nope', admin);
    expect(JSON.parse(r.text).detail).toMatch(
      /unknown field 'nope' on pos\.order; valid fields: .*amount_total/,
    );
    const s = await get(served.base, '/api/v1/sales?order=nope', admin);
    expect(JSON.parse(s.text).detail).not.toMatch(/--/);
  });

  it('an id or a number not written in decimal is 400, never another record (issue 22)', async () => {
    const admin = await login(served.base, 'admin', 'admin');
    const cases: [string, string][] = [
      ['/api/v1/sales/0x10/lines', "path parameter order_id '0x10' is not a decimal id"],
      ['/api/v1/sales/1e3/lines', "path parameter order_id '1e3' is not a decimal id"],
      ['/api/v1/sales?config_id=0x1', "query parameter config_id '0x1' is not a decimal id"],
      ['/api/v1/sales?limit=1e1', "query parameter limit '1e1' is not a decimal number"],
      ['/api/v1/summary?top=0b11', "query parameter top '0b11' is not a decimal number"],
    ];
    for (const [path, detail] of cases) {
      const r = await get(served.base, path, admin);
      isProblem(r, 400);
      expect(JSON.parse(r.text).detail, path).toBe(detail);
    }
    expect((await get(served.base, '/api/v1/sales/16/lines', admin)).status).toBe(200);
  });

  it('an unknown query parameter is named, with the one meant when it is close', async () => {
    const admin = await login(served.base, 'admin', 'admin');
    const near = await get(served.base, '/api/v1/sales?limt=1', admin);
    isProblem(near, 400);
    expect(JSON.parse(near.text).detail).toBe("unknown query parameter 'limt'; did you mean 'limit'?");
    const far = JSON.parse((await get(served.base, '/api/v1/pos/configs?colour=red', admin)).text);
    expect(far.detail).toMatch(/^unknown query parameter 'colour'; this path takes [a-z_, ]*limit/);
    const twice = JSON.parse((await get(served.base, '/api/v1/sales?limit=1&limit=2', admin)).text);
    expect(twice.detail).toBe('the query parameter limit is given more than once');
  });

  it('a docs path out of its folder is 404, a range beyond the file 416: problems, not internal errors', async () => {
    // Sent as written: fetch would resolve the dots before sending.
    const raw = (path: string) =>
      new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
        const { hostname, port } = new URL(served.base);
        httpGet({ hostname, port, path }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (d: string) => {
            text += d;
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), text }),
          );
        }).on('error', reject);
      });
    for (const path of ['/docs/static/%2e%2e/%2e%2e/package.json', '/docs/static/%2e%2e/index.html']) {
      const r = await raw(path);
      isProblem(r, 404);
      expect(JSON.parse(r.text).detail).toBe(`no such path: GET ${path}`);
    }
    const res = await fetch(`${served.base}/docs/static/index.css`, { headers: { range: 'bytes=999999-' } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('content-range')).toMatch(/^bytes \*\/\d+$/);
    expect(served.stderr()).not.toMatch(/internal error/);
  });
});

describe('rate limit per token', () => {
  it('the N+1th request in the window is 429 with Retry-After; another token is unaffected', async () => {
    const limited = await startServe([...P, '--client-rate', '5'], env);
    try {
      const t = await login(limited.base, 'admin', 'admin');
      const other = await login(limited.base, 'pos', 'pos');
      const remaining: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await get(limited.base, '/api/v1/pos/configs', t);
        expect(r.status).toBe(200);
        expect(r.headers.get('ratelimit-policy')).toBe('"per-client";q=5;w=60');
        remaining.push(r.headers.get('ratelimit') ?? '');
      }
      expect(remaining.map((h) => /;r=(\d+);/.exec(h)?.[1])).toEqual(['4', '3', '2', '1', '0']);
      const r = await get(limited.base, '/api/v1/pos/configs', t);
      isProblem(r, 429);
      const wait = Number(r.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
      expect(r.headers.get('ratelimit')).toMatch(/^"per-client";r=0;t=\d+$/);
      expect((await get(limited.base, '/api/v1/pos/configs', other)).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});

describe('OpenAPI and docs', () => {
  it('/api/v1/openapi.json is OpenAPI 3.1 generated from the resource table', async () => {
    const r = await get(served.base, '/api/v1/openapi.json');
    expect(r.status).toBe(200);
    const doc = JSON.parse(r.text);
    expect(doc.openapi).toMatch(/^3\.1/);
    for (const p of [
      '/api/v1/pos/configs',
      '/api/v1/sales',
      '/api/v1/sales/{order_id}/lines',
      '/api/v1/refunds',
      '/api/v1/cancellations',
      '/api/v1/sessions/closures',
      '/api/v1/payments',
      '/api/v1/products',
      '/api/v1/reconcile',
      '/api/v1/books',
      '/api/v1/summary',
      '/api/v1/auth/login',
      '/api/v1/auth/logout',
    ])
      expect(doc.paths).toHaveProperty([p]);
    const names = (p: string) => doc.paths[p].get.parameters.map((x: { name: string }) => x.name);
    expect(names('/api/v1/sales')).toEqual(
      expect.arrayContaining([
        'config_id',
        'session_id',
        'state',
        'from',
        'to',
        'tz',
        'fields',
        'limit',
        'offset',
        'order',
      ]),
    );
    expect(names('/api/v1/sessions/closures')).toContain('config_id');
    // The answers the service gives besides 200, as the document says them (405, 421: the hardening).
    expect(Object.keys(doc.paths['/api/v1/sales'].get.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '405', '421', '429', '502', '504']),
    );
    expect(names('/api/v1/summary').sort()).toEqual(
      ['by', 'company', 'config_id', 'date', 'day_starts', 'from', 'session_id', 'to', 'top', 'tz'].sort(),
    );
    expect(doc.paths['/api/v1/summary'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(names('/api/v1/books').sort()).toEqual(
      ['company', 'config_id', 'date', 'from', 'pos_only', 'to', 'tolerance', 'tz'].sort(),
    );
    expect(names('/api/v1/products')).not.toContain('config_id');
    expect(doc.paths['/api/v1/sales'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/v1/sales'].get.responses).toHaveProperty(['429']);
  });

  it('/docs is the Swagger UI page from the package, with its assets served locally', async () => {
    const page = await fetch(`${served.base}/docs`, { redirect: 'follow' });
    const html = await page.text();
    expect(html).toMatch(/<html/i);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[^"']*\.js/);
    const init = await get(served.base, '/docs/static/swagger-initializer.js');
    expect(init.status).toBe(200);
    expect(init.text).toContain('preauthorizeApiKey');
    expect((await get(served.base, '/docs/static/swagger-ui-bundle.js')).status).toBe(200);
  });
});

describe('secrets and shutdown', () => {
  it('a port already in use is a usage error (exit 2), one line', async () => {
    const port = new URL(served.base).port;
    const r = await runCli(['serve', '--port', port, ...P], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `posdata: port ${port} on 127.0.0.1 is already in use; choose another with --port (0 = any free port)\n`,
    );
  });

  it('with --debug, neither the password nor a token reaches stderr; SIGTERM stops it cleanly', async () => {
    const key = sandbox.users.find((u: { login: string }) => u.login === 'pos').apiKey as string;
    const dbg = await startServe([...P, '--debug'], env);
    const t = await login(dbg.base, 'pos', key);
    expect((await get(dbg.base, '/api/v1/sales?limit=3', t)).status).toBe(200);
    expect((await get(dbg.base, '/api/v1/sales?limit=x', t)).status).toBe(400);
    await post(dbg.base, '/api/v1/auth/login', { login: 'pos', password: `${key}x` });
    const code = await dbg.stop();
    const err = dbg.stderr();
    expect(err).toContain('GET /api/v1/sales?limit=3 200');
    expect(err).toContain('jsonrpc pos.order.search_read');
    expect(err).not.toContain(key);
    expect(err).not.toContain(t);
    expect(err).toMatch(/stopping \(SIGTERM\)/);
    expect(code).toBe(0);
  });
});
