import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { TABLES } from '../odoo/tables.js';
import { tapConfig, writeTapConfig } from './config.js';
import { type Checked, checkOutput } from './singer.js';

const NOW = new Date('2026-11-25T12:00:00Z');
let multi: SandboxHandle;
let single: SandboxHandle;
let dir: string;

async function tapOf(s: SandboxHandle): Promise<Checked> {
  const cfg = writeTapConfig(dir, `c${s.url.replace(/\D/g, '')}.json`, tapConfig(s));
  const r = await runCli(['tap', '--config', cfg], { env: { POSDATA_CONFIG_DIR: dir } });
  expect(r.code, r.stderr).toBe(0);
  return checkOutput(r.stdout);
}

beforeAll(async () => {
  dir = freshConfigDir();
  [multi, single] = await Promise.all([
    startTestSandbox({ seed: 5, orders: 30, days: 2, companies: 3, now: NOW, adminKey: SUITE_SECRET }),
    startTestSandbox({ seed: 5, orders: 30, days: 2, now: NOW, adminKey: SUITE_SECRET }),
  ]);
}, 120_000);
afterAll(async () => {
  await multi?.close();
  await single?.close();
});

const MONEY = ['sales', 'lines', 'payments', 'sessions'];

describe('the tap over several companies', () => {
  it('each record says its company and its currency, as Odoo has them', async () => {
    const out = await tapOf(multi);
    const rpc = new Rpc(multi.url, 'demo', 'admin', SUITE_SECRET);
    const companies = await rpc.kw<{ id: number; currency_id: [number, string] }[]>(
      'res.company',
      'search_read',
      [[]],
      { fields: ['currency_id'] },
    );
    const codeOf = new Map(companies.map((c) => [c.id, c.currency_id[1]]));
    expect(new Set(codeOf.values())).toEqual(new Set(['EUR', 'USD', 'JPY']));
    for (const [stream, model] of TABLES) {
      if (!MONEY.includes(stream)) continue;
      const schema = out.schemas.get(stream) as { properties: Record<string, unknown> };
      expect(schema.properties.company_id, stream).toEqual({
        type: ['null', 'integer'],
        minimum: -Number.MAX_SAFE_INTEGER,
        maximum: Number.MAX_SAFE_INTEGER,
      });
      expect(schema.properties.currency, stream).toEqual({ type: ['null', 'string'] });
      const recs = out.records.get(stream) ?? [];
      const odoo = await rpc.kw<{ id: number; company_id: [number, string] | false }[]>(
        model,
        'search_read',
        [[]],
        { fields: ['company_id'] },
      );
      const companyOf = new Map(odoo.map((r) => [r.id, r.company_id ? r.company_id[0] : null]));
      expect(recs.length, stream).toBe(odoo.length);
      const seen = new Set<unknown>();
      for (const r of recs) {
        expect(r.company_id, `${stream} ${r.id}`).toBe(companyOf.get(r.id));
        expect(r.currency, `${stream} ${r.id}`).toBe(codeOf.get(r.company_id as number));
        seen.add(r.currency);
      }
      expect(seen, stream).toEqual(new Set(['EUR', 'USD', 'JPY']));
    }
  });

  it('a one-company database has the same properties: the schema stays when a company is added', async () => {
    const [one, three] = await Promise.all([tapOf(single), tapOf(multi)]);
    for (const [stream] of TABLES) {
      const a = one.schemas.get(stream) as { properties: Record<string, unknown> };
      const b = three.schemas.get(stream) as { properties: Record<string, unknown> };
      expect(Object.keys(a.properties).sort(), stream).toEqual(Object.keys(b.properties).sort());
    }
    for (const r of one.records.get('sales') ?? []) expect(r.currency).toBe('EUR');
  });
});
