// Start the sandbox in-process on a free port, for vitest beforeAll/afterAll, plus a tiny
// JSON-RPC caller that talks to it. The sandbox is reached by its public entry, posdata/sandbox
// (package.json exports), whose `posdata-source` condition (vitest's and tsc's) is its source.
import type { SandboxHandle, SandboxOptions } from 'posdata/sandbox';

export type { SandboxHandle, SandboxOptions };

type SandboxModule = typeof import('posdata/sandbox');

/**
 * The data's "now" of every test sandbox: the same data at whatever hour the suite runs (a
 * sandbox generated from the machine's clock has a draft, or no sale yet, in today's open
 * session at some hours, and a test that read its first sale failed at 11:35 UTC).
 * The open session is on this UTC day; `--date TEST_DAY` asks for it.
 */
export const TEST_NOW = new Date('2026-11-27T10:55:00Z');
export const TEST_DAY = '2026-11-27';

/**
 * The optional modules of the bundled real Odoo 17's posshop, as the sandbox models them:
 * pos_hr, pos_restaurant (tables, tips, take-away, late sync), pos_loyalty (points, gift cards)
 * and pos_discount. `startTestSandbox({ ...SHOP_MODULES, ... })`.
 */
export const SHOP_MODULES = { posHr: true, restaurant: true, loyalty: true, globalDiscount: true } as const;

/**
 * Starts a sandbox on 127.0.0.1 with a free port, its data ending at TEST_NOW. A test about
 * the clock passes `now: undefined` to have the data end at the machine's time. Close it in
 * afterAll.
 */
export async function startTestSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  const mod = (await import('posdata/sandbox')) as SandboxModule;
  return mod.startSandbox({ port: 0, now: TEST_NOW, ...opts });
}

export interface RpcReply {
  jsonrpc: string;
  id: unknown;
  result?: unknown;
  error?: {
    code: number;
    message: string;
    data: { name: string; message: string; arguments: unknown[]; debug: string; context: object };
  };
}

/** Raw JSON-RPC calls against a sandbox, as `uid`/`secret` (admin/admin by default). */
export function rpcClient(url: string, db = 'demo') {
  const call = async (service: string, method: string, args: unknown[]): Promise<RpcReply> => {
    const r = await fetch(`${url}/jsonrpc`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { service, method, args }, id: 1 }),
    });
    return (await r.json()) as RpcReply;
  };
  const as = (uid: number, secret: string) => ({
    kw: (model: string, method: string, args: unknown[], kwargs: Record<string, unknown> = {}) =>
      call('object', 'execute_kw', [db, uid, secret, model, method, args, kwargs]),
    /** The result, or throws with the server's error message. */
    ok: async <T = unknown>(
      model: string,
      method: string,
      args: unknown[],
      kwargs: Record<string, unknown> = {},
    ): Promise<T> => {
      const r = await call('object', 'execute_kw', [db, uid, secret, model, method, args, kwargs]);
      if (r.error) throw new Error(`${r.error.data.name}: ${r.error.data.message}`);
      return r.result as T;
    },
  });
  return { call, as, ...as(2, 'admin') };
}
