// A sales ticket, session or register of a company the run does not read is refused by Odoo's
// company rule (the "top-secret records" AccessError, a read by id); posdata said "ask an Odoo
// administrator for the Point of Sale / User group", a group the user has. The line now says
// the cause, the company, and how to choose it (--company), with the same exit code (5). The
// sandbox refuses as the real Odoo 17 does (test/odoo/line-companies.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let admin: Record<string, string>;
let pos: Record<string, string>;
/** An order, a session and a register of company 2. */
let order: number;
let session: number;
let config: number;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 4, orders: 60, days: 2, companies: 2 });
  [admin, pos] = await Promise.all([loginEnv(sandbox.url), loginEnv(sandbox.url, 'pos', 'pos')]);
  const rpc = new Rpc(sandbox.url);
  const first = (model: string, domain: unknown[]) =>
    rpc.kw<number[]>(model, 'search', [domain], {
      limit: 1,
      order: 'id',
      context: { allowed_company_ids: [1, 2] },
    });
  [[order], [session], [config]] = (await Promise.all([
    first('pos.order', [['company_id', '=', 2]]),
    first('pos.session', [['config_id.company_id', '=', 2]]),
    first('pos.config', [['company_id', '=', 2]]),
  ])) as [number[], number[], number[]];
}, 120_000);
afterAll(async () => sandbox?.close());

const line = (model: string) =>
  `posdata: Odoo refused access to a ${model} record of a company this run does not read (Odoo's company rule); name its company with --company (by default every company the user may see), or ask an Odoo administrator to allow the user in it (Allowed Companies)`;

describe("a record of another company, named by id: exit 5, one line that says it is the company's", () => {
  it.each([
    ['a ticket, to a user of company 1', 'pos', () => ['lines', String(order)], 'pos.order'],
    [
      'a ticket, to the administrator with --company 1',
      'admin',
      () => ['lines', String(order), '--company', '1'],
      'pos.order',
    ],
    ['a session', 'pos', () => ['lines', '--session-id', String(session)], 'pos.session'],
    ['a register', 'pos', () => ['lines', '--config-id', String(config)], 'pos.config'],
  ])('%s', async (_what, who, args, model) => {
    const r = await runCli([...args(), '--rate', '0'], { env: who === 'pos' ? pos : admin });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr.trim()).toBe(line(model));
    expect(r.stdout).toBe('');
  });

  it('the administrator without --company reads it', async () => {
    const r = await runCli(['lines', String(order), '--rate', '0', '--format', 'csv'], { env: admin });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').length).toBeGreaterThan(2);
  });
});
