// An Odoo-19 sandbox (JSON-RPC and JSON-2 side by side, API keys) for the JSON-2 tests, and
// logins over each protocol. The sandbox runs in-process on a loopback port; the CLI runs as
// a real process against it.

import { freshConfigDir, runCli } from '../helpers/cli.js';
import { startTestSandbox as startSandbox } from '../helpers/sandbox.js';

/** Long and unusual, so that any leak of it into output is found by a plain substring search. */
export const ADMIN_KEY = 'j2test-admin-key-7f3c9e21b4d84a06a5e1c0d2f9b8e7a6';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export function start19(opts: { orders?: number; faults?: string; seed?: number } = {}): Promise<Sandbox> {
  return startSandbox({
    port: 0,
    seed: opts.seed ?? 19,
    orders: opts.orders ?? 400,
    odooVersion: 19,
    adminKey: ADMIN_KEY,
    ...(opts.faults ? { faults: opts.faults } : {}),
  });
}

export interface Login {
  code: number | null;
  stderr: string;
  env: Record<string, string>;
}

/** `posdata login` with the secret on stdin; `protocol` undefined means auto. */
export async function login(
  url: string,
  secret: string,
  protocol?: 'json2' | 'jsonrpc' | 'auto',
  user = 'admin',
  db = 'demo',
): Promise<Login> {
  const env = { POSDATA_CONFIG_DIR: freshConfigDir() };
  const args = ['login', '--url', url, '--db', db, '--user', user, '--password-stdin'];
  if (protocol) args.push('--protocol', protocol);
  const r = await runCli(args, { env, input: secret });
  return { code: r.code, stderr: r.stderr, env };
}

export async function mustLogin(
  url: string,
  secret: string,
  protocol?: 'json2' | 'jsonrpc' | 'auto',
  user = 'admin',
): Promise<Record<string, string>> {
  const r = await login(url, secret, protocol, user);
  if (r.code !== 0) throw new Error(`login over ${protocol ?? 'auto'} failed (${r.code}): ${r.stderr}`);
  return r.env;
}
