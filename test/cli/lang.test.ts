// --lang of a language the Odoo has not installed: Odoo answers such a context in English
// without a word, so posdata asks res.lang first and refuses it (exit 2), naming the
// languages Odoo has. The sandbox has en_US and fr_BE installed and knows fr_FR, inactive,
// as a real Odoo 17 keeps every language it knows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debugCalls, loginEnv, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 2, orders: 50, adminKey: SUITE_SECRET });
  env = await loginEnv(sandbox.url, 'pos', 'pos');
});

afterAll(async () => {
  await sandbox?.close();
});

describe('--lang', () => {
  it('refuses a language Odoo knows but has not installed, naming those it has', async () => {
    const r = await runCli(['products', '--lang', 'fr_FR', '--format', 'csv'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'posdata: --lang fr_FR is not a language this Odoo has installed; it has en_US, fr_BE\n',
    );
  });

  it('refuses a language Odoo does not know at all', async () => {
    const r = await runCli(['sales', '--lang', 'xx_XX', '--count'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^posdata: --lang xx_XX is not a language this Odoo has installed; it has en_US, fr_BE\n$/,
    );
  });

  it('takes an installed language, asking res.lang once', async () => {
    const r = await runCli(['products', '--lang', 'fr_BE', '--format', 'csv', '--limit', '2', '--debug'], {
      env,
    });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^id,/);
    expect(debugCalls(r.stderr).filter((c) => c.includes('res.lang'))).toHaveLength(1);
  });

  it('asks nothing of res.lang without --lang', async () => {
    const r = await runCli(['products', '--format', 'csv', '--limit', '2', '--debug'], { env });
    expect(r.code).toBe(0);
    expect(debugCalls(r.stderr).filter((c) => c.includes('res.lang'))).toHaveLength(0);
  });
});
