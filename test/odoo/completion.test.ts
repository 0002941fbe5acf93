// Shell completion against a real Odoo 17 (issue 25): after a run read them, Tab offers the
// server's own registers (id and name, as a POS user sees them) and the fields its fields_get
// lists. (That a Tab sends nothing is shown with a sandbox that is gone: test/cli/completion.test.ts.)
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loginOdoo, rpcOdoo } from '../helpers/odoo17.js';

const odoo = inject('odoo');

async function tab(words: string[], env: Record<string, string>) {
  const r = await runCli(['complete', '--', ...words], { env });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .trimEnd()
    .split('\n')
    .slice(0, -1)
    .map((l) => l.split('\t'));
}

describe('completion from what a run read of a real Odoo 17', () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    env = await loginOdoo(odoo, 'cashier');
  });

  it("a POS user's registers and pos.order's fields, as Odoo gives them", async () => {
    const rpc = await rpcOdoo(odoo, 'cashier');
    const registers = await rpc.searchRead<{ id: number; name: string }>('pos.config', [], {
      fields: ['name'],
      order: 'id',
    });
    const fields = Object.keys(await rpc.kw<Record<string, unknown>>('pos.order', 'fields_get', [])).sort();
    expect(registers.length).toBeGreaterThan(0);

    expect(await tab(['sales', '--config-id', ''], env)).toEqual([]);
    expect((await runCli(['configs', '--format', 'csv'], { env })).code).toBe(0);
    expect((await runCli(['sales', '--limit', '1', '--format', 'csv'], { env })).code).toBe(0);

    expect(await tab(['sales', '--config-id', ''], env)).toEqual(
      registers.map((r) => [String(r.id), r.name]),
    );
    expect((await tab(['sales', '--fields', ''], env)).map(([v]) => v)).toEqual(fields);
  });
});
