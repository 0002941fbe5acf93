// JSON-2's error replies, each mapped to the contract's exit code, against a real Odoo-19
// sandbox (its `faults` option for what only a proxy or a sick server sends). Decisions:
//   401 (unknown, expired, revoked key; password as bearer) → 3 with the "new API key" hint
//   403 AccessError → 5 with the POS-group hint
//   404 unknown model / method → 5; 404 MissingError → 4; 404 HTML "No database" → 3
//   404 HTML elsewhere (no /json/2: Odoo ≤ 18) → 6
//   422 bad keyword → 5 (posdata builds every keyword itself: not the user's input)
//   500 ValueError "Invalid field …" → 2, as over JSON-RPC (the same error data); other 500 → 5
//   429/502/503/504 → retried, then 6; a 200 that is HTML or not the method's result → 6
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OdooClient } from '../../src/core/client.js';
import { EXIT, isTransient, type PosdataError } from '../../src/core/errors.js';
import { Http } from '../../src/core/http.js';
import { Json2Transport } from '../../src/core/json2.js';
import { JsonRpcTransport } from '../../src/core/jsonrpc.js';
import { parseServerUrl } from '../../src/core/url.js';
import { runCli, transcript } from '../helpers/cli.js';
import { startTestSandbox as startSandbox } from '../helpers/sandbox.js';
import { ADMIN_KEY, login, mustLogin, type Sandbox, start19 } from './harness.js';

const NEW_KEY_HINT =
  /invalid, expired or revoked.*Preferences → Account Security → New API Key.*posdata login/;

let sbx: Sandbox;
let clerkKey: string;
let expiredKey: string;

beforeAll(async () => {
  sbx = await start19({ orders: 150, seed: 7 });
  clerkKey = sbx.users.find((u) => u.login === 'clerk')?.apiKey ?? '';
  expiredKey = sbx.expiredKey ?? '';
  expect(clerkKey).not.toBe('');
  expect(expiredKey).not.toBe('');
}, 60_000);

afterAll(async () => {
  await sbx?.close();
});

function client(protocol: 'json2' | 'jsonrpc', secret = ADMIN_KEY, db = 'demo', login = 'admin'): OdooClient {
  const http = new Http(parseServerUrl(sbx.url), { timeoutMs: 15_000, rate: 0, retries: 0 });
  const t = protocol === 'json2' ? new Json2Transport(http, db) : new JsonRpcTransport(http, db);
  return new OdooClient(t, { db, login, secret });
}

async function failure(p: Promise<unknown>): Promise<PosdataError> {
  try {
    await p;
  } catch (err) {
    return err as PosdataError;
  }
  throw new Error('expected the call to fail');
}

describe('401: the API key', () => {
  it('an unknown key: exit 3, says invalid/expired/revoked and how to make a new one', async () => {
    const bad = 'not-a-key-0000000000000000000000000000000000';
    const r = await login(sbx.url, bad, 'json2');
    expect(r.code).toBe(EXIT.auth);
    expect(r.stderr).toMatch(/^posdata: /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(NEW_KEY_HINT);
    expect(r.stderr).not.toContain(bad);
  });

  it('an expired key: exit 3 with the same hint', async () => {
    const r = await login(sbx.url, expiredKey, 'json2');
    expect(r.code).toBe(EXIT.auth);
    expect(r.stderr).toMatch(NEW_KEY_HINT);
    expect(r.stderr).not.toContain(expiredKey);
  });

  it('auto with an expired key (40 hex digits, the shape of every Odoo key): the same exit 3 and hint', async () => {
    expect(expiredKey).toMatch(/^[0-9a-f]{40}$/);
    const r = await login(sbx.url, expiredKey);
    expect(r.code).toBe(EXIT.auth);
    expect(r.stderr).toMatch(NEW_KEY_HINT);
  });

  it('a password sent over JSON-2 (forced): exit 3, and the message says JSON-2 takes only keys', async () => {
    const r = await login(sbx.url, 'admin', 'json2');
    expect(r.code).toBe(EXIT.auth);
    expect(r.stderr).toMatch(/JSON-2 accepts only API keys/);
  });

  it('a key revoked after login: the next command exits 3 with the hint', async () => {
    const env = await mustLogin(sbx.url, ADMIN_KEY, 'json2');
    const r = await runCli(['sales', '--format', 'json', '--limit', '3'], {
      env: { ...env, POSDATA_PASSWORD: expiredKey },
    });
    expect(r.code).toBe(EXIT.auth);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(NEW_KEY_HINT);
  });

  it('a key of another user than --user: exit 3 naming the owner', async () => {
    const r = await login(sbx.url, clerkKey, 'json2', 'admin');
    expect(r.code).toBe(EXIT.auth);
    expect(r.stderr).toMatch(/belongs to 'clerk', not 'admin'/);
  });
});

describe('403: access rights', () => {
  it('a user without POS rights: exit 5 with the group hint, the same line over both protocols', async () => {
    const [e2, er] = await Promise.all([
      mustLogin(sbx.url, clerkKey, 'json2', 'clerk'),
      mustLogin(sbx.url, clerkKey, 'jsonrpc', 'clerk'),
    ]);
    for (const cmd of [['configs'], ['sales'], ['closures']]) {
      const [a, b] = await Promise.all([
        runCli([...cmd, '--format', 'json'], { env: e2 }),
        runCli([...cmd, '--format', 'json'], { env: er }),
      ]);
      expect(a.code, a.stderr).toBe(EXIT.server);
      expect(b.code, b.stderr).toBe(EXIT.server);
      expect(a.stderr).toMatch(/refused access.*Point of Sale/);
      expect(a.stderr).toBe(b.stderr);
      expect(a.stdout).toBe('');
    }
  });

  it('a private method is a 403 AccessError: exit 5', async () => {
    const c = client('json2');
    const e = await failure(c.executeKw('pos.order', '_compute_prices', [], {}));
    expect(e.exitCode).toBe(EXIT.server);
    await c.close();
  });
});

describe('404', () => {
  it('an unknown model: exit 5, asks whether Point of Sale is installed', async () => {
    const c = client('json2');
    const e = await failure(c.searchRead('pos.nope', [], { fields: ['name'] }));
    expect(e.exitCode).toBe(EXIT.server);
    expect(e.line()).toMatch(/pos\.nope.*does not exist.*Point of Sale app installed/);
    await c.close();
  });

  it('an unknown method: exit 5', async () => {
    const c = client('json2');
    const e = await failure(c.executeKw('pos.order', 'no_such_method', [], {}));
    expect(e.exitCode).toBe(EXIT.server);
    expect(e.line()).toMatch(/no_such_method/);
    await c.close();
  });

  it('a MissingError (write on a record that does not exist): exit 4', async () => {
    const c = client('json2');
    const e = await failure(
      c.executeKw('pos.order', 'write', [[99999999], { internal_note: 'x' }], {}, false),
    );
    expect(e.exitCode).toBe(EXIT.notFound);
    await c.close();
  });

  it('a database the server does not serve (HTML 404): exit 3, check --db', async () => {
    const r = await login(sbx.url, ADMIN_KEY, 'json2', 'admin', 'no_such_db');
    expect(r.code).toBe(EXIT.auth);
    expect(r.stderr).toMatch(/database 'no_such_db' does not exist.*--db/);
  });

  it('a server without JSON-2 (Odoo 17, HTML 404): forced json2 exits 6, auto uses JSON-RPC', async () => {
    const old = await startSandbox({ port: 0, seed: 3, orders: 50, odooVersion: 17, adminKey: ADMIN_KEY });
    try {
      const forced = await login(old.url, ADMIN_KEY, 'json2');
      expect(forced.code).toBe(EXIT.connection);
      expect(forced.stderr).toMatch(/no JSON-2 endpoint.*--protocol jsonrpc/);
      const env = await mustLogin(old.url, ADMIN_KEY);
      const w = await runCli(['whoami', '--format', 'json'], { env });
      expect(JSON.parse(w.stdout)).toMatchObject({
        protocol: 'jsonrpc',
        server_version: expect.stringMatching(/^17/),
      });
    } finally {
      await old.close();
    }
  });
});

describe('422: bad keyword arguments', () => {
  it('an unknown keyword: exit 5 with the server message', async () => {
    const c = client('json2');
    const e = await failure(c.executeKw('pos.order', 'search_count', [[]], { bogus: 1 }));
    expect(e.exitCode).toBe(EXIT.server);
    expect(e.line()).toMatch(/unexpected keyword argument 'bogus'/);
    await c.close();
  });
});

describe('500: server-side errors', () => {
  it('an invalid field: exit 2 over JSON-2, as over JSON-RPC', async () => {
    for (const p of ['json2', 'jsonrpc'] as const) {
      const c = client(p);
      const e = await failure(c.searchRead('pos.order', [], { fields: ['id', 'no_such_field'], limit: 3 }));
      expect(e.exitCode, p).toBe(EXIT.usage);
      expect(e.line()).toMatch(/Invalid field 'no_such_field'/);
      await c.close();
    }
  });

  it('a domain on a field that is not stored: refused before sending (exit 2), the same line over both', async () => {
    const [e2, er] = await Promise.all([
      mustLogin(sbx.url, ADMIN_KEY, 'json2'),
      mustLogin(sbx.url, ADMIN_KEY, 'jsonrpc'),
    ]);
    const args = ['sales', '--format', 'json', '--domain', '[["refund_orders_count", ">", 0]]'];
    const [a, b] = await Promise.all([runCli(args, { env: e2 }), runCli(args, { env: er })]);
    // Odoo 19 would raise, 16-18 would silently match everything: posdata says so first.
    expect(a.code, a.stderr).toBe(EXIT.usage);
    expect(b.code, b.stderr).toBe(EXIT.usage);
    expect(a.stderr).toMatch(/cannot filter on 'refund_orders_count'/);
    expect(a.stderr).toBe(b.stderr);
  });
});

/** How many requests a `login --protocol json2` makes, so faults can be aimed just past it. */
async function loginRequests(): Promise<number> {
  const probe = await start19({ orders: 20, seed: 5 });
  try {
    await mustLogin(probe.url, ADMIN_KEY, 'json2');
    return probe.requestCount();
  } finally {
    await probe.close();
  }
}

describe('replies that are not JSON-2 (injected faults)', () => {
  let n = 0;
  beforeAll(async () => {
    n = await loginRequests();
    expect(n).toBeGreaterThan(0);
  }, 60_000);

  async function afterLogin(faults: (first: number) => string, args: string[]) {
    const s = await start19({ orders: 20, seed: 5, faults: faults(n + 1) });
    try {
      const env = await mustLogin(s.url, ADMIN_KEY, 'json2');
      return await runCli(args, { env });
    } finally {
      await s.close();
    }
  }

  it('an HTML page with status 200 (a login page): exit 6, not retried', async () => {
    const r = await afterLogin((f) => `html@${f}`, ['configs', '--format', 'json']);
    expect(r.code).toBe(EXIT.connection);
    expect(r.stderr).toMatch(/HTML page/);
  });

  it('JSON that is not the method result: exit 6', async () => {
    const r = await afterLogin(
      (f) => `notrpc@${f},${f + 1},${f + 2},${f + 3},${f + 4}`,
      ['configs', '--format', 'json'],
    );
    expect(r.code).toBe(EXIT.connection);
    expect(r.stderr).toMatch(/not its result/);
  });

  it('a proxy 500 page (HTML, no Odoo error body): exit 6', async () => {
    const r = await afterLogin((f) => `500@${f}`, ['configs', '--format', 'json']);
    expect(r.code).toBe(EXIT.connection);
    expect(r.stderr).toMatch(/HTTP 500 with an HTML page/);
  });

  it('502, 503, 429 are retried and the export completes', async () => {
    const r = await afterLogin(
      (f) => `502@${f};503@${f + 1};429@${f + 3}`,
      ['configs', '--format', 'json', '--debug'],
    );
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBeGreaterThan(0);
    expect(r.stderr).toMatch(/retry 1 .* after HTTP 502/);
    expect(r.stderr).not.toContain(ADMIN_KEY);
  });

  it('503 six times in a row: --retries 6 carries the export through', async () => {
    const r = await afterLogin(
      (f) => `503@${[0, 1, 2, 3, 4, 5].map((i) => f + i).join(',')}`,
      ['configs', '--format', 'json', '--debug', '--retries', '6'],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/retry 4 .* after HTTP 503/);
  }, 60_000);

  it('503 once retries are spent: exit 6, the last answer (not retried again by the client)', async () => {
    const s = await start19({ orders: 20, seed: 5, faults: '503@1' });
    try {
      const http = new Http(parseServerUrl(s.url), { timeoutMs: 15_000, rate: 0, retries: 0 });
      const c = new OdooClient(
        new Json2Transport(http, 'demo'),
        { db: 'demo', login: 'admin', secret: ADMIN_KEY },
        2,
      );
      const e = await failure(c.searchRead('pos.config', [], { fields: ['name'] }));
      expect(e.exitCode).toBe(EXIT.connection);
      // The HTTP layer retries statuses; a status that reaches the client is final.
      expect(isTransient(e)).toBe(false);
      expect(e.line()).toMatch(/HTTP 503/);
      await c.close();
    } finally {
      await s.close();
    }
  });
});

describe('secret', () => {
  it('no output of any run in this file contains a key', () => {
    for (const t of transcript) {
      expect(t).not.toContain(ADMIN_KEY);
      expect(t).not.toContain(clerkKey);
      expect(t).not.toContain(expiredKey);
    }
  });
});
