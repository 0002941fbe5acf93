// The two ways posdata reaches a server, for test files that must hold over both: an Odoo-17
// sandbox over JSON-RPC and an Odoo-19 sandbox over JSON-2 (issue 8). Both log in with the
// admin's API key (SUITE_SECRET), so the suite-wide secret check covers both. The reference
// calls stay plain JSON-RPC with the key as password, which the 19 sandbox still serves.
import { freshConfigDir, runCli, SUITE_SECRET } from './cli.js';
import { Rpc } from './rpc.js';
import { type SandboxHandle, startTestSandbox } from './sandbox.js';

export type Protocol = 'jsonrpc' | 'json2';

export interface Setup {
  name: string;
  odooVersion: 16 | 17 | 18 | 19;
  protocol: Protocol;
}

export const SETUPS: Setup[] = [
  { name: 'Odoo 17 over JSON-RPC', odooVersion: 17, protocol: 'jsonrpc' },
  { name: 'Odoo 19 over JSON-2', odooVersion: 19, protocol: 'json2' },
];

export interface FieldInfo {
  type: string;
  store?: boolean;
  selection?: [string, string][];
}

/** What the server says about itself, asked the way posdata asks (version, fields_get). */
export interface ServerFacts {
  serie: string;
  orderFields: Record<string, FieldInfo>;
}

export interface Stage {
  sandbox: SandboxHandle;
  rpc: Rpc;
  /** The environment of a posdata profile logged in over the setup's protocol. */
  env: Record<string, string>;
  server: ServerFacts;
}

export async function stage(
  setup: Setup,
  data: { seed: number; orders: number; days?: number; now?: Date },
): Promise<Stage> {
  const sandbox = await startTestSandbox({
    ...data,
    odooVersion: setup.odooVersion,
    adminKey: SUITE_SECRET,
  });
  try {
    const rpc = new Rpc(sandbox.url, 'demo', 'admin', SUITE_SECRET);
    await rpc.auth();
    const env = { POSDATA_CONFIG_DIR: freshConfigDir() };
    const login = ['login', '--url', sandbox.url, '--db', 'demo', '--user', 'admin', '--password-stdin'];
    const r = await runCli([...login, '--protocol', setup.protocol], { env, input: SUITE_SECRET });
    if (r.code !== 0) throw new Error(`login over ${setup.protocol} failed (${r.code}): ${r.stderr}`);
    const version = (await rpc.call('common', 'version', [])) as { server_serie: string };
    const orderFields = await rpc.kw<Record<string, FieldInfo>>('pos.order', 'fields_get', [], {
      attributes: ['type', 'store', 'selection'],
    });
    return { sandbox, rpc, env, server: { serie: version.server_serie, orderFields } };
  } catch (e) {
    await sandbox.close();
    throw e;
  }
}
