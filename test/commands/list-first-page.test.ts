// An export's first pages go out with fields_get, not after it, where an earlier run against the
// same server remembered its fields (src/store/remembered.ts): one round trip less before the
// data. The server's own fields decide: the same bytes, the same requests where they are the
// same, and where a module came or went (or fields_get fails) the run is the one it would have
// been without the guess.
import {
  chmodSync,
  chownSync,
  lstatSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, freshConfigDir, loginEnv, runCli, SUITE_SECRET } from '../helpers/cli.js';
import type { Setup } from '../helpers/protocols.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { type SandboxHandle, SHOP_MODULES, startTestSandbox } from '../helpers/sandbox.js';

const RANGE = ['--rate', '0', '--tz', 'UTC', '--from', '2000-01-01'];

/** The export's arguments with the range (one ticket's lines have none of their own). */
const ranged = (args: string[]) =>
  /^\d+$/.test(args[1] ?? '') ? [...args, '--rate', '0', '--tz', 'UTC'] : [...args, ...RANGE];

/** The remembered fields_get replies in a config folder. */
function fieldFiles(env: Record<string, string>): string[] {
  return readdirSync(env.POSDATA_CONFIG_DIR as string).filter((f) => /^fields\.[0-9a-f]+\.json$/.test(f));
}

function forget(env: Record<string, string>): void {
  for (const f of fieldFiles(env)) rmSync(join(env.POSDATA_CONFIG_DIR as string, f));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const outcome = (r: CliResult) => ({ code: r.code, stdout: r.stdout, stderr: r.stderr });

const EXPORTS: string[][] = [
  ['sales', '--format', 'csv'],
  ['sales', '--format', 'json'],
  ['sales', '--format', 'ndjson', '--with-payments'],
  ['sales', '--format', 'csv', '--fields', 'id,name,amount_total,config_id'],
  ['lines', '--format', 'csv'],
  ['payments', '--format', 'ndjson'],
  ['refunds', '--format', 'json'],
  ['sales', '--format', 'table'],
  // One ticket's lines: the ticket is looked up too.
  ['lines', '7', '--format', 'json'],
];

const SETUPS: (Setup & { modules?: boolean })[] = [
  { name: 'Odoo 16 over JSON-RPC', odooVersion: 16, protocol: 'jsonrpc' },
  { name: 'Odoo 17 over JSON-RPC', odooVersion: 17, protocol: 'jsonrpc' },
  { name: 'Odoo 17 with the shop modules', odooVersion: 17, protocol: 'jsonrpc', modules: true },
  { name: 'Odoo 18 over JSON-RPC', odooVersion: 18, protocol: 'jsonrpc' },
  { name: 'Odoo 19 over JSON-2', odooVersion: 19, protocol: 'json2' },
];

/**
 * Holds fields_get at the proxy until the run has asked `method` (3 s at most); says whether
 * it had. Without the change nothing is asked before fields_get's reply.
 */
function askedBeforeFields(proxy: RpcProxy, method = 'search_read'): () => boolean {
  let first = false;
  proxy.before.set('fields_get', async () => {
    for (const t = Date.now(); Date.now() - t < 3000; await sleep(5))
      if (proxy.seen.has(method)) {
        first = true;
        return;
      }
  });
  return () => first;
}

const counts = (proxy: RpcProxy) =>
  Object.fromEntries([...proxy.seen].map(([m, bodies]) => [m, bodies.length]));

describe.each(SETUPS)('$name', (setup) => {
  let sandbox: SandboxHandle;
  let proxy: RpcProxy;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startTestSandbox({
      seed: 11,
      orders: 600,
      odooVersion: setup.odooVersion,
      adminKey: SUITE_SECRET,
      ...(setup.modules ? SHOP_MODULES : {}),
    });
    proxy = await startRpcProxy(sandbox.url);
    env = { POSDATA_CONFIG_DIR: freshConfigDir() };
    const login = ['login', '--url', proxy.url, '--db', 'demo', '--user', 'admin', '--password-stdin'];
    const r = await runCli([...login, '--protocol', setup.protocol], { env, input: SUITE_SECRET });
    if (r.code !== 0) throw new Error(r.stderr);
  }, 60_000);

  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
  });

  it.each(EXPORTS.map((args) => [args.join(' '), args]))(
    '%s: its first page with fields_get, the same bytes and requests as without remembered fields',
    async (_, args) => {
      forget(env);
      proxy.reset();
      const cold = await runCli(ranged(args), { env });
      const coldCalls = counts(proxy);
      expect(cold.code).toBe(0);
      expect(fieldFiles(env)).toHaveLength(1);
      const file = join(env.POSDATA_CONFIG_DIR as string, fieldFiles(env)[0] as string);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const written = statSync(file).mtimeMs;
      proxy.reset();
      const pageFirst = askedBeforeFields(proxy);
      const warm = await runCli(ranged(args), { env });
      expect(pageFirst()).toBe(true);
      expect(outcome(warm)).toEqual(outcome(cold));
      expect(counts(proxy)).toEqual(coldCalls);
      // Nothing changed: the file is not written again.
      expect(statSync(file).mtimeMs).toBe(written);
    },
    30_000,
  );

  it("the companies' read leaves before the first page, which waits for its money's decimals", async () => {
    // A server that answers in turn (the sandbox; an Odoo with one worker) has the small read
    // ahead of the pages, not behind two of them. --debug says each request as it leaves.
    for (const warm of [false, true]) {
      if (!warm) forget(env);
      const r = await runCli(['sales', '--format', 'csv', '--debug', ...RANGE], { env });
      expect(r.code).toBe(0);
      const sent = r.stderr.split('\n').filter((l) => l.includes('→'));
      const company = sent.findIndex((l) => / res\.company\./.test(l));
      const page = sent.findIndex((l) => / pos\.order\.search_read/.test(l));
      expect(company, sent.join('\n')).toBeGreaterThanOrEqual(0);
      expect(page).toBeGreaterThan(company);
    }
  });

  it('a remembered file that cannot be read is as good as none', async () => {
    forget(env);
    proxy.reset();
    const cold = await runCli(['sales', '--format', 'csv', ...RANGE], { env });
    const [name] = fieldFiles(env);
    writeFileSync(join(env.POSDATA_CONFIG_DIR as string, name as string), '{"key": [', { mode: 0o600 });
    const warm = await runCli(['sales', '--format', 'csv', ...RANGE], { env });
    expect(outcome(warm)).toEqual(outcome(cold));
  });

  it("a remembered file that is JSON but not fields_get's shape (a field null) is as good as none", async () => {
    forget(env);
    for (const format of ['csv', 'json', 'table']) {
      const args = ['sales', '--format', format, ...RANGE];
      const cold = await runCli(args, { env });
      const file = join(env.POSDATA_CONFIG_DIR as string, fieldFiles(env)[0] as string);
      const saved = JSON.parse(readFileSync(file, 'utf8'));
      saved.models['pos.order'].amount_total = null;
      writeFileSync(file, JSON.stringify(saved), { mode: 0o600 });
      const warm = await runCli(args, { env });
      expect(outcome(warm), format).toEqual(outcome(cold));
    }
  });
});

describe('a server whose modules changed since the fields were remembered', () => {
  let sandbox: SandboxHandle | undefined;
  let env: Record<string, string>;
  let port: number;

  /** The sandbox on the same address, with or without pos_hr (employee_id on orders). */
  async function serve(posHr: boolean): Promise<SandboxHandle> {
    await sandbox?.close();
    sandbox = await startTestSandbox({ seed: 12, orders: 500, adminKey: SUITE_SECRET, posHr, port });
    return sandbox;
  }

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 12, orders: 500, adminKey: SUITE_SECRET });
    port = sandbox.port;
    env = await loginEnv(sandbox.url, 'admin', SUITE_SECRET);
  }, 60_000);

  afterAll(async () => {
    await sandbox?.close();
  });

  for (const [from, to] of [
    [true, false],
    [false, true],
  ] as const) {
    it(`pos_hr ${from ? 'removed' : 'added'}: the pages asked from the old fields are dropped, the output is the new server's`, async () => {
      await serve(from);
      expect((await runCli(['sales', ...RANGE], { env })).code).toBe(0);
      let now = await serve(to);
      for (const format of ['csv', 'json']) {
        const at = now.requestCount();
        const stale = await runCli(['sales', '--format', format, ...RANGE], { env });
        const staleRequests = now.requestCount() - at;
        // The fields are this server's now.
        const warm = await runCli(['sales', '--format', format, ...RANGE], { env });
        forget(env);
        const at2 = now.requestCount();
        const cold = await runCli(['sales', '--format', format, ...RANGE], { env });
        expect(outcome(stale)).toEqual(outcome(cold));
        expect(outcome(warm)).toEqual(outcome(cold));
        expect(staleRequests).toBeGreaterThan(now.requestCount() - at2);
        // The old fields are remembered again for the next case.
        await serve(from);
        expect((await runCli(['sales', ...RANGE], { env })).code).toBe(0);
        now = await serve(to);
      }
    }, 60_000);
  }

  it('a field asked for that the server no longer has: its own error, as without the guess', async () => {
    await serve(true);
    const asked = ['sales', '--fields', 'id,employee_id', ...RANGE];
    expect((await runCli(asked, { env })).code).toBe(0);
    await serve(false);
    const stale = await runCli(asked, { env });
    forget(env);
    const cold = await runCli(asked, { env });
    expect(stale.code).toBe(2);
    expect(outcome(stale)).toEqual(outcome(cold));
  }, 60_000);
});

describe('through a proxy, Odoo 17', () => {
  let sandbox: SandboxHandle;
  let proxy: RpcProxy;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 13, orders: 300 });
    proxy = await startRpcProxy(sandbox.url);
    env = await loginEnv(proxy.url);
  }, 60_000);

  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
  });

  it("fields_get's error is the run's, not the page's asked with it", async () => {
    const args = ['sales', '--format', 'csv', ...RANGE];
    proxy.reset();
    expect((await runCli(args, { env })).code).toBe(0);
    proxy.reset();
    proxy.refuse.set('fields_get', { name: 'odoo.exceptions.UserError', message: 'fields refused' });
    proxy.refuse.set('search_read', { name: 'odoo.exceptions.UserError', message: 'page refused' });
    // The page's refusal is in before fields_get's.
    proxy.before.set('fields_get', async () => {
      for (const t = Date.now(); Date.now() - t < 3000 && !proxy.seen.has('search_read'); ) await sleep(5);
      await sleep(50);
    });
    const warm = await runCli(args, { env });
    expect(proxy.seen.has('search_read')).toBe(true);
    forget(env);
    const cold = await runCli(args, { env });
    expect(warm.stderr).toContain('fields refused');
    expect(warm.stderr).not.toContain('page refused');
    expect(outcome(warm)).toEqual(outcome(cold));
    proxy.reset();
  }, 30_000);

  it("a checkpoint's companies are read with fields_get, not after it: its first page a round trip sooner", async () => {
    const dir = freshConfigDir();
    const args = ['sales', '--format', 'csv', ...RANGE, '--checkpoint', join(dir, 'sales.ckpt')];
    proxy.reset();
    const companiesFirst = askedBeforeFields(proxy, 'web_search_read');
    const first = await runCli([...args, '-o', join(dir, 'first.csv')], { env });
    expect(first.code).toBe(0);
    expect(companiesFirst()).toBe(true);
    proxy.reset();
    const plain = await runCli(['sales', '--format', 'csv', ...RANGE], { env });
    // In write_date order: the same records.
    const sorted = (csv: string) => csv.trim().split('\n').sort();
    expect(sorted(readFileSync(join(dir, 'first.csv'), 'utf8'))).toEqual(sorted(plain.stdout));
    // The next run reads from the checkpoint's window on, as before.
    const next = await runCli([...args, '-o', join(dir, 'next.csv')], { env });
    expect(next.code).toBe(0);
    expect(readFileSync(join(dir, 'next.csv'), 'utf8').trim().split('\n')).toHaveLength(1);
  }, 30_000);

  it("one ticket's lines: the ticket is looked up with fields_get, not after it", async () => {
    forget(env);
    proxy.reset();
    const readFirst = askedBeforeFields(proxy, 'read');
    const r = await runCli(['lines', '7', '--rate', '0'], { env });
    expect(r.code).toBe(0);
    expect(readFirst()).toBe(true);
    proxy.reset();
    const missing = await runCli(['lines', '999999', '--rate', '0'], { env });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toBe(
      'posdata: sales ticket 999999 does not exist; list ticket ids with posdata sales\n',
    );
  }, 30_000);
  it("a remembered file that is not the run's own (a symlink, another user's, writable by others) is not used, and the run's own replaces it", async () => {
    const args = ['sales', '--format', 'csv', ...RANGE];
    forget(env);
    expect((await runCli(args, { env })).code).toBe(0);
    const dir = env.POSDATA_CONFIG_DIR as string;
    const file = join(dir, fieldFiles(env)[0] as string);
    const good = readFileSync(file, 'utf8');
    // The file as the run left it is used: the page goes out before fields_get's reply.
    proxy.reset();
    const used = askedBeforeFields(proxy);
    expect((await runCli(args, { env })).code).toBe(0);
    expect(used()).toBe(true);
    const elsewhere = join(freshConfigDir(), 'fields.json');
    const plants: [string, () => void][] = [
      [
        'a symlink',
        () => {
          writeFileSync(elsewhere, good, { mode: 0o600 });
          symlinkSync(elsewhere, file);
        },
      ],
      [
        'writable by others',
        () => {
          writeFileSync(file, good);
          chmodSync(file, 0o666);
        },
      ],
    ];
    // Another user's file: only root can make one.
    if (process.getuid?.() === 0)
      plants.push([
        "another user's",
        () => {
          writeFileSync(file, good, { mode: 0o600 });
          chownSync(file, 4242, 4242);
        },
      ]);
    for (const [what, plant] of plants) {
      rmSync(file);
      plant();
      proxy.reset();
      const asked = askedBeforeFields(proxy);
      expect((await runCli(args, { env })).code, what).toBe(0);
      expect(asked(), what).toBe(false);
      // The run's own file now, 0600, a link's target untouched.
      const st = lstatSync(file);
      expect(st.isFile() && (st.mode & 0o777) === 0o600 && st.uid === process.getuid?.(), what).toBe(true);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(good));
    }
    expect(readFileSync(elsewhere, 'utf8')).toBe(good);
  }, 60_000);
});
