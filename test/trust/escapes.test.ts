// A server's words reach the terminal as text, never as orders to it: the escape sequences in
// an Odoo error message (OSC 52 that writes the clipboard, a window title, ESC[2J that
// clears the screen, a bare CR that overwrites the line) are shown escaped on stderr, as
// tables show them in a name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, loginEnv, runCli, spawnCli } from '../helpers/cli.js';
import { type Hostile, plainOdoo, startHostile } from '../helpers/hostile.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const HOSTILE_TEXT =
  'Access denied\x1b]52;c;cm0gLXJmIH4K\x07\x1b[2J\x1b]0;pwned\x07\rposdata: all good\u202e';

let hostile: Hostile;

beforeAll(async () => {
  hostile = await startHostile((call) =>
    call.params.service === 'object' ? { error: HOSTILE_TEXT } : plainOdoo(call),
  );
});

afterAll(async () => {
  await hostile?.close();
});

function expectEscaped(stderr: string): void {
  expect(stderr).toMatch(/^posdata: /m);
  // Nothing a terminal obeys: no ESC, BEL, CR, nor a bidirectional override.
  expect(stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
  expect(stderr).toContain('Access denied\\x1b]52;c;cm0gLXJmIH4K\\x07\\x1b[2J\\x1b]0;pwned\\x07\\rposdata');
  expect(stderr).toContain('\\u202e');
}

describe("an Odoo error message's control characters", () => {
  const env = () => ({
    POSDATA_CONFIG_DIR: freshConfigDir(),
    POSDATA_URL: hostile.url,
    POSDATA_DB: 'demo',
    POSDATA_USER: 'admin',
    POSDATA_PASSWORD: 'admin',
  });

  it('are escaped in the one line on stderr', async () => {
    const r = await runCli(['sales', '--protocol', 'jsonrpc', '--rate', '0'], { env: env() });
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expectEscaped(r.stderr);
  });

  it('are escaped by the built CLI too, with --debug', async () => {
    const r = await spawnCli(['sales', '--protocol', 'jsonrpc', '--rate', '0', '--debug'], { env: env() });
    expect(r.code).not.toBe(0);
    expectEscaped(r.stderr);
  });
});

// A company's name and its currency's code are Odoo's text too (a user with the rights to
// rename a company, or a currency, writes them): wherever posdata says them to a person.
describe("a company's name and currency code with escape sequences", () => {
  const NAME = 'Shop \x1b]0;pwned\x07US\x1b[31m';
  const CODE = 'U\x1b[2JSD';
  const SHOWN = ['Shop \\x1b]0;pwned\\x07US\\x1b[31m', 'U\\x1b[2JSD'];
  const P = ['--from', '2026-11-01', '--to', '2026-11-27', '--tz', 'UTC', '--rate', '0'];
  let sandbox: SandboxHandle;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 11, orders: 300, days: 30, companies: 2 });
    const rpc = rpcClient(sandbox.url);
    await rpc.ok('res.company', 'write', [[2], { name: NAME }]);
    await rpc.ok('res.currency', 'write', [[2], { name: CODE }]);
    env = await loginEnv(sandbox.url);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  /** Nothing a terminal obeys, and the name and code shown escaped. */
  function shownEscaped(text: string): void {
    expect(text).not.toMatch(/\x1b[\][]|\x07/);
    for (const s of SHOWN) expect(text).toContain(s);
  }

  it("in summary's and reconcile's notes per currency on stderr", async () => {
    for (const cmd of ['summary', 'reconcile']) {
      const r = await runCli([cmd, ...P, '--format', 'json'], { env });
      expect(r.code, r.stderr).toBe(0);
      shownEscaped(r.stderr);
    }
  });

  it('in the refusal of a --company the user may not see', async () => {
    const r = await runCli(['summary', ...P, '--company', 'nope'], { env });
    expect(r.code).toBe(5);
    shownEscaped(r.stderr);
  });

  it("in summary's and reconcile's tables, and doctor's lines", async () => {
    for (const args of [
      ['summary', ...P, '--format', 'table'],
      ['reconcile', ...P, '--format', 'table'],
      ['doctor', '--date', '2026-11-20', '--tz', 'UTC', '--rate', '0'],
    ]) {
      const r = await runCli(args, { env });
      expect(r.code === 0 || r.code === 7, r.stderr).toBe(true);
      shownEscaped(r.stdout);
    }
  });
});
