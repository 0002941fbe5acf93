// The stage's first proof: posdata logs in to the real Odoo 17 as the administrator and as a
// POS user, and counts what Odoo counts.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loginOdoo, rpcOdoo } from '../helpers/odoo17.js';
import type { Rpc } from '../helpers/rpc.js';

const odoo = inject('odoo');

describe('a real Odoo 17', () => {
  let rpc: Rpc;
  beforeAll(async () => {
    rpc = await rpcOdoo(odoo);
  });

  it('whoami names the server version and the user', async () => {
    const env = await loginOdoo(odoo);
    const r = await runCli(['whoami', '--format', 'json'], { env });
    expect(r.code).toBe(0);
    const who = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(who.uid).toBe(rpc.uid);
    expect(String(who.server_version)).toMatch(/^17\./);
  });

  for (const who of ['admin', 'cashier'] as const) {
    it(`sales --count as ${who} equals Odoo's search_count`, async () => {
      const env = await loginOdoo(odoo, who);
      const r = await runCli(['sales', '--count'], { env });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(Number(r.stdout.trim())).toBe(await rpc.count('pos.order', []));
    });
  }
});
