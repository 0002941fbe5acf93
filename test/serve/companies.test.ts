// posdata serve over companies in several currencies (a sandbox of three: EUR, USD, JPY): its
// reports give one total per currency, never a sum of two, and answer exactly what the
// commands print with --format json; ?company= selects companies as --company does (one the
// user may not see is 403); the OpenAPI document says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { get, login, type Served, startServe } from './serve-process.js';

const NOW = new Date('2026-11-25T12:00:00Z');
const RANGE = ['--from', '2000-01-01', '--to', '2026-11-25'];
const QUERY = 'from=2000-01-01&to=2026-11-25';
let sb: SandboxHandle;
let env: Record<string, string>;
let served: Served;
let admin: string;

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 9, orders: 40, days: 3, companies: 3, now: NOW });
  env = await loginEnv(sb.url);
  served = await startServe(['--rate', '0'], env);
  admin = await login(served.base, 'admin', 'admin');
}, 60_000);
afterAll(async () => {
  await served?.stop();
  await sb?.close();
});

type Row = Record<string, unknown>;

async function cli(args: string[]): Promise<Row[]> {
  const r = await runCli([...args, ...RANGE, '--format', 'json', '--rate', '0'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Row[];
}

async function api(path: string): Promise<Row[]> {
  const r = await get(served.base, path, admin);
  expect(r.status, r.text).toBe(200);
  return JSON.parse(r.text) as Row[];
}

describe('serve over several currencies', () => {
  it('summary: one row per currency, as posdata summary gives them', async () => {
    const rows = await api(`/api/v1/summary?${QUERY}&by=currency`);
    expect(rows.map((r) => r.currency)).toEqual(['EUR', 'USD', 'JPY']);
    expect(rows).toEqual(await cli(['summary', '--by', 'currency']));
    const byRegister = await api(`/api/v1/summary?${QUERY}`);
    expect(byRegister).toEqual(await cli(['summary']));
    expect(new Set(byRegister.map((r) => r.currency))).toEqual(new Set(['EUR', 'USD', 'JPY']));
    const byCompany = await api(`/api/v1/summary?${QUERY}&by=company`);
    expect(byCompany).toEqual(await cli(['summary', '--by', 'company']));
    expect(byCompany.map((r) => r.company_id)).toEqual([1, 2, 3]);
  });

  it('reconcile: sessions per company, each row with its currency, as posdata reconcile', async () => {
    const rows = await api(`/api/v1/reconcile?${QUERY}`);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(await cli(['reconcile']));
    expect(new Set(rows.map((r) => r.currency))).toEqual(new Set(['EUR', 'USD', 'JPY']));
  });

  it('?company= selects companies as --company; one the user may not see is 403', async () => {
    const one = await api(`/api/v1/summary?${QUERY}&company=2`);
    expect(one).toEqual(await cli(['summary', '--company', '2']));
    expect(one[0]).not.toHaveProperty('currency');
    const two = await api(`/api/v1/reconcile?${QUERY}&company=${encodeURIComponent('Shop US,shop jp')}`);
    expect(two).toEqual(await cli(['reconcile', '--company', 'Shop US,shop jp']));
    const pos2 = await login(served.base, 'pos2', 'pos2');
    const refused = await get(served.base, `/api/v1/summary?${QUERY}&company=1`, pos2);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('this user may see 2 Shop US (USD)');
  });

  it('list paths take ?company= too: the records of those companies, as --company lists them', async () => {
    const rows = await api('/api/v1/sales?company=3&fields=id,amount_total,company_id');
    const r = await runCli(
      [
        'sales',
        '--company',
        '3',
        '--fields',
        'id,amount_total,company_id',
        '--format',
        'json',
        '--rate',
        '0',
      ],
      { env },
    );
    expect(rows).toEqual(JSON.parse(r.stdout));
    expect(rows.length).toBe(40);
    expect(new Set(rows.map((x) => (x.company_id as [number, string])[0]))).toEqual(new Set([3]));
  });

  it('the OpenAPI document names the company parameter and the split', async () => {
    const doc = JSON.parse((await get(served.base, '/api/v1/openapi.json')).text) as {
      paths: Record<string, { get: { parameters: { name: string }[]; responses: Record<string, unknown> } }>;
    };
    expect(doc.paths['/api/v1/sales']?.get.parameters.map((p) => p.name)).toContain('company');
    for (const path of ['/api/v1/summary', '/api/v1/reconcile']) {
      const op = doc.paths[path]?.get;
      expect(op?.parameters.map((p) => p.name)).toContain('company');
      expect(JSON.stringify(op?.responses)).toContain('no figure adds two currencies');
    }
  });
});
