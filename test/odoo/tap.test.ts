// posdata tap against the real Odoo 17 (read-only), as the administrator and as a POS user:
// every message valid Singer, every RECORD valid against its SCHEMA, STATE monotonic and
// after what it covers, per stream the ids Odoo has (search with active_test off where the
// model has `active`, as sync reads), each once; from the last STATE nothing is sent again,
// and two runs from one STATE write the same.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { freshConfigDir, runCli } from '../helpers/cli.js';
import { rpcOdoo } from '../helpers/odoo17.js';
import { tapConfig, writeTapConfig } from '../tap/config.js';
import { checkOutput } from '../tap/singer.js';
import { TABLES } from './tables.js';

const odoo = inject('odoo');

describe('posdata tap against the real Odoo 17', () => {
  for (const who of ['admin', 'cashier'] as const) {
    it(`as ${who}: valid messages, every stream complete, nothing again from the last STATE`, async () => {
      const dir = freshConfigDir();
      const { login, password } = odoo[who];
      const config = writeTapConfig(
        dir,
        'tap.json',
        tapConfig({ url: odoo.url, db: odoo.db, user: login, password }),
      );
      const env = { POSDATA_CONFIG_DIR: dir };
      const r = await runCli(['tap', '--config', config], { env });
      expect(r.code, r.stderr).toBe(0);
      const c = checkOutput(r.stdout);
      const rpc = await rpcOdoo(odoo, who);
      for (const [stream, model] of TABLES) {
        const fields = await rpc.kw<Record<string, unknown>>(model, 'fields_get', [], {
          attributes: ['type'],
        });
        const context = { active_test: !('active' in fields) };
        const count = await rpc.kw<number>(model, 'search_count', [[]], { context });
        const ids = (c.records.get(stream) ?? []).map((x) => x.id);
        expect(ids.length, stream).toBe(count);
        expect(new Set(ids).size, stream).toBe(count);
      }
      const state = join(dir, 'state.json');
      writeFileSync(state, JSON.stringify(c.last));
      const [a, b] = await Promise.all([
        runCli(['tap', '--config', config, '--state', state], { env }),
        runCli(['tap', '--config', config, '--state', state], { env }),
      ]);
      expect(a.code, a.stderr).toBe(0);
      expect(b.stdout).toBe(a.stdout);
      const again = checkOutput(a.stdout);
      expect([...again.records.values()].flat().map((x) => x.id)).toEqual([]);
    });
  }
});
