// Issue 18, case 21: names from Odoo may hold control characters (an ANSI escape that
// clears the screen or sets the terminal's title, a bell, a newline, a right-to-left
// override). A table shows them escaped (\x1b, \n, \u202e); csv and json carry the bytes
// Odoo sent, unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visible } from '../../src/render/visible.js';
import { loginEnv, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { rpcClient } from '../helpers/sandbox.js';

const HOSTILE = 'Evil\x1b[2J\x1b]0;pwned\x07\nline\u202eyas\x9b';
const REGISTER = 'Shop\x1b[31m';

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's handle, as the tests use it
let sandbox: any;
let env: Record<string, string>;
let orderId = 0;

beforeAll(async () => {
  const { startTestSandbox: startSandbox } = await import('../helpers/sandbox.js');
  sandbox = await startSandbox({ port: 0, seed: 5, orders: 30, adminKey: SUITE_SECRET });
  env = await loginEnv(sandbox.url, 'admin', SUITE_SECRET);
  const rpc = rpcClient(sandbox.url).as(2, SUITE_SECRET);
  const [order] = await rpc.ok<{ id: number; config_id: [number, string] }[]>(
    'pos.order',
    'search_read',
    [[]],
    {
      fields: ['config_id'],
      limit: 1,
      order: 'id',
    },
  );
  orderId = order?.id as number;
  await rpc.ok('pos.order', 'write', [[orderId], { name: HOSTILE }]);
  await rpc.ok('pos.config', 'write', [[order?.config_id[0]], { name: REGISTER }]);
});

afterAll(async () => {
  await sandbox?.close();
});

const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe('visible', () => {
  it('escapes C0, DEL, C1 and bidirectional controls; leaves text alone', () => {
    expect(visible(HOSTILE)).toBe('Evil\\x1b[2J\\x1b]0;pwned\\x07\\nline\\u202eyas\\x9b');
    expect(visible('Café «Zoë» 東京 ☕')).toBe('Café «Zoë» 東京 ☕');
    expect(visible('tab\there\r')).toBe('tab\\there\\r');
  });
});

describe('a name with control characters', () => {
  const args = () => ['sales', '--domain', JSON.stringify([['id', '=', orderId]]), '--rate', '0'];

  it('is escaped in a table', async () => {
    const r = await runCli([...args(), '--format', 'table', '--fields', 'name,config_id,amount_total'], {
      env: { ...env, COLUMNS: '200' },
    });
    expect(r.code, r.stderr).toBe(0);
    // The table's own newlines aside, nothing that a terminal would act on.
    for (const line of r.stdout.split('\n')) expect(line).not.toMatch(CONTROL);
    expect(r.stdout).toContain('Evil\\x1b[2J\\x1b]0;pwned\\x07\\nline\\u202e');
    expect(r.stdout).toContain('Shop\\x1b[31m');
  });

  it('stays as Odoo sent it in csv and json', async () => {
    const csv = await runCli([...args(), '--format', 'csv', '--fields', 'name'], { env });
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe(`name\n"${HOSTILE}"\n`);
    const json = await runCli([...args(), '--format', 'json', '--fields', 'name'], { env });
    expect(JSON.parse(json.stdout)[0].name).toBe(HOSTILE);
  });

  it('is escaped in the reconcile table', async () => {
    const r = await runCli(['reconcile', '--format', 'table', '--rate', '0'], {
      env: { ...env, COLUMNS: '200' },
    });
    expect(r.code, r.stderr).toBe(0);
    for (const line of r.stdout.split('\n')) expect(line).not.toMatch(CONTROL);
    expect(r.stdout).toContain('Shop\\x1b[31m');
  });
});

describe('a register name with control characters in the summary', () => {
  it('is escaped in the summary table', async () => {
    const r = await runCli(
      ['summary', '--from', '60d', '--by', 'register', '--format', 'table', '--rate', '0'],
      {
        env: { ...env, COLUMNS: '200' },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    for (const line of r.stdout.split('\n')) expect(line).not.toMatch(CONTROL);
    expect(r.stdout).toContain('Shop\\x1b[31m');
  });
});
