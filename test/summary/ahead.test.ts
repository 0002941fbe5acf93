// A summary first reads the companies, to know whether its figures split by currency; the
// summary itself is asked beside that read, not after its answer (a round trip less, each
// server's in a chain). A proxy holds the companies' answer back until the orders' grouping is
// asked; if it never is, it lets it go after two seconds, and the orders came a round late.
// Where the companies keep two currencies the summary asked ahead is not the one wanted: what
// it had sent (the orders' two groupings) is the cost; nothing it would ask later is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, loginEnv, loginProfile, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const NOW = new Date('2024-06-15T12:00:00Z');
const ARGS = ['summary', '--date', '2024-06-14', '--tz', 'UTC', '--rate', '0', '--format', 'json'];
let one: SandboxHandle;
let two: SandboxHandle;
let proxy: RpcProxy;
let proxy2: RpcProxy;

beforeAll(async () => {
  one = await startTestSandbox({ seed: 5, orders: 300, days: 3, now: NOW, adminKey: SUITE_SECRET });
  two = await startTestSandbox({
    seed: 6,
    orders: 300,
    days: 3,
    now: NOW,
    companies: 2,
    adminKey: SUITE_SECRET,
  });
  proxy = await startRpcProxy(one.url);
  proxy2 = await startRpcProxy(two.url);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await proxy2?.close();
  await one?.close();
  await two?.close();
});

/** Holds the companies' answers until the orders are asked (`orders`), else for 2 s (`late`). */
function holdCompanies(p: RpcProxy): Promise<string> {
  p.reset();
  let release: (by: string) => void = () => undefined;
  const released = new Promise<string>((r) => {
    release = r;
  });
  const late = setTimeout(() => release('late'), 2000);
  released.then(() => clearTimeout(late));
  p.before.set('web_search_read', async (body) => {
    if (body.includes('"res.company"')) await released;
  });
  p.before.set('search_read', async (body) => {
    if (body.includes('"res.company"')) await released;
  });
  p.before.set('read_group', async (body) => {
    if (body.includes('"pos.order"')) release('orders');
  });
  return released;
}

const withoutCompanies = (p: RpcProxy): string[] =>
  [...p.seen.values()].flat().filter((b) => !/"allowed_company_ids":\[\d/.test(b));

describe('summary: the companies and the orders in one round trip', () => {
  it('asks the orders before the companies answer, the same requests as one after the other', async () => {
    const env = await loginEnv(proxy.url);
    const released = holdCompanies(proxy);
    const r = await runCli(ARGS, { env });
    expect(r.code, r.stderr).toBe(0);
    expect(await released).toBe('orders');
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
    expect(proxy.seen.get('web_search_read')).toHaveLength(1);
    expect(proxy.seen.get('read_group')?.filter((b) => b.includes('"pos.order"'))).toHaveLength(2);
  });

  it('so does a server of a chain, whose rows say their currency', async () => {
    const env = { POSDATA_CONFIG_DIR: freshConfigDir() };
    await loginProfile(env, 'a', proxy.url);
    await loginProfile(env, 'b', proxy2.url);
    const released = holdCompanies(proxy);
    proxy2.reset();
    const r = await runCli([...ARGS, '--profile', 'a,b'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(await released).toBe('orders');
    const rows = JSON.parse(r.stdout) as { profile: string; currency: string }[];
    expect(new Set(rows.map((x) => `${x.profile} ${x.currency}`))).toEqual(
      new Set(['a EUR', 'b EUR', 'b USD']),
    );
    // a's orders grouped twice: the summary asked ahead is the one used.
    expect(proxy.seen.get('read_group')?.filter((b) => b.includes('"pos.order"'))).toHaveLength(2);
  });

  it('two currencies: the summary asked ahead costs its first requests, the orders grouped twice', async () => {
    const env = await loginEnv(proxy2.url);
    const released = holdCompanies(proxy2);
    const r = await runCli(ARGS, { env });
    expect(r.code, r.stderr).toBe(0);
    expect(await released).toBe('orders');
    const rows = JSON.parse(r.stdout) as { currency: string }[];
    expect(new Set(rows.map((x) => x.currency))).toEqual(new Set(['EUR', 'USD']));
    // Each currency's part reads its companies alone; outside them, the companies' read and
    // the two groupings asked ahead, and nothing after them.
    const outside = withoutCompanies(proxy2);
    expect(outside.filter((b) => b.includes('"res.company"'))).toHaveLength(1);
    expect(outside.filter((b) => b.includes('"pos.order"') && b.includes('"read_group"'))).toHaveLength(2);
    // (and the methods' companies, which name the columns of both currencies: split.ts)
    expect(outside.filter((b) => !b.includes('"pos.payment.method"'))).toHaveLength(3);
  });
});
