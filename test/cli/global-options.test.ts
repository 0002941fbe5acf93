// `posdata [global options] <command> [options]` (cli-contract.md): the global options
// (--debug, -q/--quiet, --no-color) and the connection's (--profile, --url, --timeout...)
// may come before the command, as gh's and git's do; a command's own option there is one
// line that says where it goes, not "unknown command" for its value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 8, orders: 50 });
  env = await loginEnv(sandbox.url);
});
afterAll(async () => {
  await sandbox?.close();
});

describe('global options before the command', () => {
  it('give what they give after it', async () => {
    const after = await runCli(
      ['sales', '--limit', '3', '--format', 'csv', '--profile', 'default', '--quiet'],
      {
        env,
      },
    );
    expect(after.code, after.stderr).toBe(0);
    for (const args of [
      ['--profile', 'default', '--quiet', 'sales', '--limit', '3', '--format', 'csv'],
      ['-q', '--profile=default', 'sales', '--limit', '3', '--format', 'csv'],
      ['--timeout', '30', '--no-color', 'sales', '--limit', '3', '--format', 'csv'],
    ]) {
      const r = await runCli(args, { env });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toBe(after.stdout);
      expect(r.stderr).toBe('');
    }
  });

  it('--debug before the command traces its calls; a profile that does not exist is still refused', async () => {
    const traced = await runCli(['--debug', 'whoami'], { env });
    expect(traced.code, traced.stderr).toBe(0);
    expect(traced.stderr).toMatch(/^\[rpc\] → jsonrpc /m);
    const none = await runCli(['--profile', 'nope', 'sales', '--limit', '1'], { env });
    expect(none.code).toBe(3);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('logout and profiles take --quiet as every command does', async () => {
    const own = await loginEnv(sandbox.url);
    const listed = await runCli(['--quiet', 'profiles'], { env: own });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^\* default\t/m);
    const out = await runCli(['-q', 'logout'], { env: own });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toBe('');
  });

  it("a command's own option before the command: one line that says where it goes, exit 2", async () => {
    const r = await runCli(['--format', 'json', 'sales'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'posdata: --format is an option of the command; give it after the command: posdata sales --format json; see posdata sales --help\n',
    );
    // With no command after it, the word is an unknown command, as before.
    const alone = await runCli(['--format', 'json'], { env });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/^posdata: unknown command 'json'/);
  });
});
