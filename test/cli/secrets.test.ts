// The stored secret goes only where it was stored for, the store is refused when others
// could read or swap it, and every form a server may echo a secret in is masked
// (issue 18, cases 11, 13 and 14). Real CLI runs against the sandbox and a hostile server.
import {
  chmodSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type Hostile, startHostile } from '../helpers/hostile.js';
import { startHostile as startProxy } from '../helpers/hostile-proxy.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const SECRET = 'Okapi-5521-stored-secret';
let sandbox: SandboxHandle;
let hostile: Hostile;
let env: Record<string, string>;
const dirs: string[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 3, orders: 60, adminKey: SECRET });
  // Another host (a loopback address of its own): the stored secret is bound to the host.
  hostile = await startHostile(undefined, '127.0.0.2');
  env = await loginEnv(sandbox.url, 'admin', SECRET);
  dirs.push(env.POSDATA_CONFIG_DIR);
});

afterAll(async () => {
  await sandbox?.close();
  await hostile?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'posdata-test-secrets-'));
  dirs.push(d);
  return d;
}

const R = ['--rate', '0', '--format', 'json', '--limit', '2'];

describe('the stored secret is used only for the URL, database and login it was stored for', () => {
  it('another --url gets no secret: exit 3, one line, nothing sent', async () => {
    const before = hostile.received.length;
    const r = await runCli(['sales', ...R, '--url', hostile.url], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^posdata: the stored secret of profile default is for .*; set POSDATA_PASSWORD/,
    );
    expect(hostile.seen()).not.toContain(SECRET);
    expect(hostile.received.length).toBe(before);
  });

  it('POSDATA_URL is another target too', async () => {
    const r = await runCli(['whoami'], { env: { ...env, POSDATA_URL: hostile.url } });
    expect(r.code, r.stderr).toBe(3);
    expect(hostile.seen()).not.toContain(SECRET);
  });

  it('another --db or --user gets no secret either', async () => {
    for (const extra of [
      ['--db', 'other'],
      ['--user', 'pos'],
    ]) {
      const r = await runCli(['sales', ...R, ...extra], { env });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/stored secret .*POSDATA_PASSWORD/);
    }
  });

  it('with POSDATA_PASSWORD the other target is used with that secret', async () => {
    const r = await runCli(['sales', ...R, '--url', hostile.url], {
      env: { ...env, POSDATA_PASSWORD: 'given-for-this-run' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(hostile.seen()).toContain('given-for-this-run');
    expect(hostile.seen()).not.toContain(SECRET);
  });

  it('the same URL written differently (scheme case, no trailing slash, query) is the same target', async () => {
    const port = new URL(sandbox.url).port;
    for (const url of [
      `HTTP://127.0.0.1:${port}`,
      `http://127.0.0.1:${port}/`,
      `http://127.0.0.1:${port}/?x=1#y`,
    ]) {
      const r = await runCli(['sales', ...R, '--url', url], { env });
      expect(r.code, `${url}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveLength(2);
    }
  });

  it('another port of the same host is the same server (a tunnel or a proxy in front of Odoo)', async () => {
    const proxy = await startProxy(sandbox.url);
    try {
      expect(new URL(proxy.url).port).not.toBe(new URL(sandbox.url).port);
      const r = await runCli(['sales', ...R, '--url', proxy.url], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveLength(2);
      expect(proxy.searches).toBe(1);
    } finally {
      await proxy.close();
    }
  });
});

describe('a store others could read or swap is refused, as ssh refuses such a key', () => {
  async function freshLogin(): Promise<Record<string, string>> {
    const e = await loginEnv(sandbox.url, 'admin', SECRET);
    dirs.push(e.POSDATA_CONFIG_DIR);
    return e;
  }

  it('a group- or world-readable store file: exit 3, one line with the chmod to run', async () => {
    const e = await freshLogin();
    const file = join(e.POSDATA_CONFIG_DIR, 'config.json');
    chmodSync(file, 0o644);
    for (const args of [['sales', ...R], ['whoami'], ['profiles'], ['logout']]) {
      const r = await runCli(args, { env: e });
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(3);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`run chmod 600 ${file}`);
    }
    expect(statSync(file).mode & 0o777).toBe(0o644); // left for the owner to judge, not silently fixed
    chmodSync(file, 0o600);
    expect((await runCli(['sales', ...R], { env: e })).code).toBe(0);
  });

  it('a store folder open to others: exit 3 with chmod 700', async () => {
    const e = await freshLogin();
    chmodSync(e.POSDATA_CONFIG_DIR, 0o777);
    const r = await runCli(['sales', ...R], { env: e });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`run chmod 700 ${e.POSDATA_CONFIG_DIR}`);
    const l = await runCli(
      ['login', '--url', sandbox.url, '--db', 'demo', '--user', 'admin', '--password-stdin'],
      {
        env: e,
        input: SECRET,
      },
    );
    expect(l.code, l.stderr).toBe(3);
    chmodSync(e.POSDATA_CONFIG_DIR, 0o700);
  });

  it('a symlinked store is never followed', async () => {
    const e = await freshLogin();
    const file = join(e.POSDATA_CONFIG_DIR, 'config.json');
    const elsewhere = tempDir();
    const target = join(elsewhere, 'store.json');
    renameSync(file, target);
    symlinkSync(target, file);
    const r = await runCli(['sales', ...R], { env: e });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/symbolic link/);
    const l = await runCli(['logout'], { env: e });
    expect(l.code, l.stderr).toBe(3);
    expect(readFileSync(target, 'utf8')).toContain(SECRET); // untouched through the link
  });
});

/** Python's repr() of a str, as an Odoo error message would quote an argument. */
function pyRepr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    if (ch === '\\') out += '\\\\';
    else if (ch === q) out += `\\${q}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else out += ch;
  }
  return `${q}${out}${q}`;
}

/** Python's repr() of the JSON-RPC args list, roughly as Odoo formats one. */
function pyArgs(args: unknown[]): string {
  return `[${args.map((a) => (typeof a === 'string' ? pyRepr(a) : JSON.stringify(a))).join(', ')}]`;
}

describe('every form a server may echo the secret in is masked', () => {
  let echo: Hostile;
  // Forms of the secret this server puts in its error messages, for the test to look for.
  let forms: (pw: string) => string[];
  beforeAll(async () => {
    forms = (pw) => [
      pw,
      pyRepr(pw).slice(1, -1),
      encodeURIComponent(pw),
      encodeURIComponent(pw).replace(/%20/g, '+'),
      Buffer.from(pw).toString('base64'),
      Buffer.from(`admin:${pw}`).toString('base64'),
      Buffer.from(pw).toString('base64url'),
    ];
    echo = await startHostile((call) => {
      const { service, method, args } = call.params;
      if (service === 'common') return { result: method === 'authenticate' ? 2 : { server_version: '17.0' } };
      const pw = String(args[2]);
      const message = [
        `Access denied for ${pyArgs(args)}`,
        `see /web/login?password=${encodeURIComponent(pw).replace(/%20/g, '+')}`,
        `token ${Buffer.from(pw).toString('base64')} basic ${Buffer.from(`admin:${pw}`).toString('base64')}`,
        `url-safe ${Buffer.from(pw).toString('base64url')}`,
      ].join('; ');
      return { error: message };
    });
  });
  afterAll(async () => {
    await echo?.close();
  });

  const run = (pw: string) =>
    runCli(
      [
        'sales',
        ...R,
        '--debug',
        '--protocol',
        'jsonrpc',
        '--url',
        echo.url,
        '--db',
        'demo',
        '--user',
        'admin',
      ],
      {
        env: { POSDATA_CONFIG_DIR: tempDir(), POSDATA_PASSWORD: pw },
      },
    );

  it('Python repr, URL-encoded and base64 forms (a secret with quotes, spaces and non-ASCII)', async () => {
    const pw = `Ta'pir "7 9"/x+é\\end`;
    const r = await run(pw);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain('Access denied for');
    for (const f of forms(pw)) expect(r.stderr, f).not.toContain(f);
    expect(r.stdout).toBe('');
  });

  it('a plain secret in base64 inside a longer base64 text', async () => {
    const pw = 'Wombat-123-long-key';
    const r = await run(pw);
    for (const f of forms(pw)) expect(r.stderr, f).not.toContain(f);
  });

  it('a secret of one or two characters is masked where it stands as a quoted value, and nowhere else', async () => {
    const r = await run('de');
    expect(r.stderr).toContain("['demo', 2, '***', 'pos.order'");
    expect(r.stderr).not.toMatch(/'de'/);
    expect(r.stderr).toContain('"demo"'); // the database name in the trace is not mangled
  });
});

describe('a URL with user:password@', () => {
  it('is refused from --url and POSDATA_URL, without printing the password', async () => {
    const port = new URL(sandbox.url).port;
    const withUserinfo = `http://admin:Url-pw-4471@127.0.0.1:${port}`;
    const a = await runCli(
      ['login', '--url', withUserinfo, '--db', 'demo', '--user', 'admin', '--password-stdin'],
      {
        env: { POSDATA_CONFIG_DIR: tempDir() },
        input: SECRET,
      },
    );
    expect(a.code, a.stderr).toBe(2);
    expect(a.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(a.stderr).toMatch(/user name or password/);
    expect(a.stderr).not.toContain('Url-pw-4471');
    const b = await runCli(['sales', ...R], { env: { ...env, POSDATA_URL: withUserinfo } });
    expect(b.code, b.stderr).toBe(2);
    expect(b.stderr).not.toContain('Url-pw-4471');
    const c = await runCli(['sales', ...R, '--url', `ftp://admin:Url-pw-4471@127.0.0.1:${port}`], { env });
    expect(c.code, c.stderr).toBe(2);
    expect(c.stderr).not.toContain('Url-pw-4471');
  });

  it('stored by an older version: whoami, profiles and checkpoints never show it', async () => {
    const e = await loginEnv(sandbox.url, 'admin', SECRET);
    dirs.push(e.POSDATA_CONFIG_DIR);
    const file = join(e.POSDATA_CONFIG_DIR, 'config.json');
    const store = JSON.parse(readFileSync(file, 'utf8'));
    const port = new URL(sandbox.url).port;
    store.profiles.default.url = `http://admin:Old-pw-9907@127.0.0.1:${port}/`;
    writeFileSync(file, JSON.stringify(store), { mode: 0o600 });
    const w = await runCli(['whoami', '--format', 'json'], { env: e });
    expect(w.code, w.stderr).toBe(0);
    expect(JSON.parse(w.stdout).url).toBe(`http://127.0.0.1:${port}/`);
    const p = await runCli(['profiles'], { env: e });
    expect(p.stdout).not.toContain('Old-pw-9907');
    const ckpt = join(e.POSDATA_CONFIG_DIR, 'sales.ckpt');
    const s = await runCli(
      ['sales', '--rate', '0', '--checkpoint', ckpt, '-o', join(e.POSDATA_CONFIG_DIR, 'a.csv')],
      {
        env: e,
      },
    );
    expect(s.code, s.stderr).toBe(0);
    expect(readFileSync(ckpt, 'utf8')).not.toContain('Old-pw-9907');
    // A checkpoint an older version wrote with the password in it still belongs to this server.
    const cp = JSON.parse(readFileSync(ckpt, 'utf8'));
    cp.server = cp.server.replace('http://', 'http://admin:Old-pw-9907@');
    writeFileSync(ckpt, JSON.stringify(cp));
    const again = await runCli(
      ['sales', '--rate', '0', '--checkpoint', ckpt, '-o', join(e.POSDATA_CONFIG_DIR, 'b.csv')],
      {
        env: e,
      },
    );
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(ckpt, 'utf8')).not.toContain('Old-pw-9907');
  });
});

describe("a secret that is a piece of posdata's words leaves them whole (issue 22, item 2)", () => {
  // The sandbox's POS user logs in as pos/pos: its password is in "posdata" and "pos.order".
  const asPos = (args: string[]) =>
    runCli([...args, '--rate', '0', '--url', sandbox.url, '--db', 'demo', '--user', 'pos'], {
      env: { POSDATA_CONFIG_DIR: tempDir(), POSDATA_PASSWORD: 'pos' },
    });

  it('error lines: posdata, pos.order and the field names stay, what the user typed is masked', async () => {
    const f = await asPos(['sales', '--fields', 'pos,nosuch']);
    expect(f.code, f.stderr).toBe(2);
    expect(f.stderr).toMatch(
      /^posdata: unknown fields '\*\*\*', 'nosuch' on pos\.order; valid fields: .*pos_reference/,
    );
    const s = await asPos(['summary', '--session-id', '99999']);
    expect(s.stderr).toBe('posdata: session 99999 does not exist; see posdata closures or posdata configs\n');
  });

  it('--debug traces: the models, methods and fields of a call stay, its values are masked', async () => {
    const r = await asPos([
      'sales',
      '--limit',
      '1',
      '--debug',
      '--domain',
      '[["pos_reference","ilike","pos"]]',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      '[rpc] → jsonrpc pos.order.search_read ["demo",6,"***","pos.order","search_read"',
    );
    expect(r.stderr).toContain('[["pos_reference","ilike","***"]]');
    // The login equals the password: masked as the value it is.
    expect(r.stderr).toContain('common.authenticate ["demo","***","***",{}]');
    expect(r.stderr).not.toMatch(/\*\*\*[A-Za-z0-9._]/);
  });
});
