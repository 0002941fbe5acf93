// A run over several Odoo servers (--profile a,b,c, a pattern, --all-profiles): sandboxes of
// Odoo 16 to 19, one down (its port closed) and one with a wrong password. The run gives
// exactly the union of the healthy ones' single runs, the profile as the first column, in
// the order given; the failing ones named on stderr, no rows of theirs, and exit 8.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, loginProfile, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const sandboxes: SandboxHandle[] = [];
let env: Record<string, string>;
let dir: string;

const login = (name: string, sandbox: SandboxHandle): Promise<void> => loginProfile(env, name, sandbox.url);

beforeAll(async () => {
  dir = freshConfigDir();
  env = { POSDATA_CONFIG_DIR: dir };
  const versions = [16, 17, 18, 19] as const;
  for (const [i, v] of versions.entries()) {
    const s = await startTestSandbox({
      seed: 40 + i,
      orders: 12 + i,
      odooVersion: v,
      adminKey: SUITE_SECRET,
      // One shop in dollars, one in yen: the chain's day is per currency.
      currency: v === 18 ? 'USD' : v === 19 ? 'JPY' : 'EUR',
    });
    sandboxes.push(s);
    await login(`shop-${v}`, s);
  }
  // shop-down: a server that was there at login and is gone now (its port closed).
  const gone = await startTestSandbox({ seed: 50, orders: 5, adminKey: SUITE_SECRET });
  await login('shop-down', gone);
  await gone.close();
  // shop-badpw: a healthy server, a secret it no longer takes (a database of its own: two
  // profiles of one database are refused in a chain).
  const badpw = await startTestSandbox({ seed: 51, orders: 5, adminKey: SUITE_SECRET });
  sandboxes.push(badpw);
  await login('shop-badpw', badpw);
  const file = readdirSync(dir)
    .map((f) => join(dir, f))
    .find((f) => f.endsWith('.json')) as string;
  const store = JSON.parse(readFileSync(file, 'utf8'));
  store.profiles['shop-badpw'].secret = 'not-the-secret-any-more';
  writeFileSync(file, JSON.stringify(store), { mode: 0o600 });
}, 60_000);

afterAll(async () => {
  for (const s of sandboxes) await s.close();
});

const HEALTHY = ['shop-16', 'shop-17', 'shop-18', 'shop-19'];
const ALL = ['shop-16', 'shop-down', 'shop-17', 'shop-badpw', 'shop-18', 'shop-19'];

/** A single run's CSV, its rows led by the profile's name, its header left out. */
async function single(name: string, args: string[]): Promise<string[]> {
  const r = await runCli([...args, '--profile', name, '--format', 'csv'], { env });
  expect(r.code, r.stderr).toBe(0);
  const [, ...rows] = r.stdout.trimEnd().split('\n');
  return rows.map((row) => `${name},${row}`);
}

describe('a run over several servers', () => {
  const query = ['sales', '--from', '2000-01-01', '--fields', 'id,name,amount_total,state'];

  it('gives the union of the healthy single runs, in the order given, names the failed ones, exit 8', async () => {
    const r = await runCli([...query, '--profile', ALL.join(','), '--format', 'csv', '--jobs', '3'], { env });
    expect(r.code, r.stderr).toBe(8);
    const [header, ...rows] = r.stdout.trimEnd().split('\n');
    expect(header).toBe('profile,id,name,amount_total,state');
    const expected: string[] = [];
    for (const name of HEALTHY) expected.push(...(await single(name, query)));
    expect(rows).toEqual(expected);
    expect(rows.length).toBeGreaterThan(40);
    // One line each for the two failing servers, and the closing line.
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.find((l) => l.startsWith('posdata: profile shop-down: '))).toMatch(/connect|refused/i);
    expect(lines.find((l) => l.startsWith('posdata: profile shop-badpw: '))).toBeDefined();
    expect(lines.at(-1)).toMatch(/^posdata: 2 of 6 servers failed \(shop-down, shop-badpw\)/);
    expect(r.stderr).not.toContain('not-the-secret-any-more');
  });

  it('-o without {profile}: one atomic file of the healthy servers, exit 8', async () => {
    const out = join(freshConfigDir(), 'all.csv');
    const r = await runCli([...query, '--profile', 'shop-1*,shop-down', '-o', out], { env });
    expect(r.code, r.stderr).toBe(8);
    const [header, ...rows] = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(header).toBe('profile,id,name,amount_total,state');
    const expected: string[] = [];
    for (const name of HEALTHY) expected.push(...(await single(name, query)));
    expect(rows).toEqual(expected);
    expect(r.stdout).toBe('');
  });

  it('-o with {profile}: one file per healthy server, as its single run writes it; none for a failed one', async () => {
    const root = freshConfigDir();
    const r = await runCli(
      [...query, '--profile', 'shop-17,shop-down,shop-19', '-o', `${root}/profile={profile}/sales.csv`],
      {
        env,
      },
    );
    expect(r.code, r.stderr).toBe(8);
    for (const name of ['shop-17', 'shop-19']) {
      const alone = await runCli([...query, '--profile', name, '--format', 'csv'], { env });
      expect(readFileSync(`${root}/profile=${name}/sales.csv`, 'utf8')).toBe(alone.stdout);
    }
    expect(existsSync(`${root}/profile=shop-down/sales.csv`)).toBe(false);
    expect(readdirSync(`${root}/profile=shop-down`)).toEqual([]);
  });

  it('ndjson and json carry the profile first; all healthy is exit 0', async () => {
    const nd = await runCli([...query, '--profile', 'shop-16,shop-18', '--format', 'ndjson'], { env });
    expect(nd.code, nd.stderr).toBe(0);
    const rows = nd.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(Object.keys(rows[0])[0]).toBe('profile');
    const one = await runCli([...query, '--profile', 'shop-18', '--format', 'json'], { env });
    expect(rows.filter((x) => x.profile === 'shop-18').map(({ profile: _p, ...x }) => x)).toEqual(
      JSON.parse(one.stdout),
    );
    const js = await runCli([...query, '--profile', 'shop-16,shop-18', '--format', 'json'], { env });
    expect(JSON.parse(js.stdout)).toEqual(rows);
  });

  it('a single --profile stays as it was: no profile column', async () => {
    const r = await runCli([...query, '--profile', 'shop-17', '--format', 'csv'], { env });
    expect(r.stdout.split('\n')[0]).toBe('id,name,amount_total,state');
  });

  it('--checkpoint over several needs {profile}; an unknown profile is exit 2 before any server is read', async () => {
    const a = await runCli([...query, '--profile', 'shop-16,shop-17', '--checkpoint', 'x.ckpt'], { env });
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/\{profile\}/);
    const w = await runCli(['summary', '--watch', '60', '--profile', 'shop-16,shop-17'], { env });
    expect(w.code).toBe(2);
    expect(w.stderr).toMatch(/--watch follows one server/);
    const b = await runCli([...query, '--profile', 'shop-16,shop-nope'], { env });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/shop-nope/);
  });

  it('summary and doctor over several: one block per server in text, the profile first in json', async () => {
    const s = await runCli(
      ['summary', '--from', '2000-01-01', '--profile', 'shop-16,shop-down', '--format', 'csv'],
      { env },
    );
    expect(s.code, s.stderr).toBe(8);
    // Its single run by currency (a chain's rows say their currency), its methods named as a
    // chain names them (`method:Cash · EUR`).
    const alone = await runCli(
      [
        'summary',
        '--from',
        '2000-01-01',
        '--by',
        'currency,register',
        '--profile',
        'shop-16',
        '--format',
        'csv',
      ],
      { env },
    );
    const [head, ...rest] = alone.stdout.trimEnd().split('\n');
    const named = (head as string)
      .split(',')
      .map((c) => (c.startsWith('method:') ? `${c} · EUR` : c))
      .join(',');
    expect(s.stdout.trimEnd().split('\n')).toEqual([`profile,${named}`, ...rest.map((l) => `shop-16,${l}`)]);
    const d = await runCli(['doctor', '--profile', 'shop-17,shop-19', '--format', 'json'], { env });
    const docs = JSON.parse(d.stdout);
    expect(docs.map((x: { profile: string }) => x.profile)).toEqual(['shop-17', 'shop-19']);
    const t = await runCli(['doctor', '--profile', 'shop-17,shop-19'], { env });
    expect(t.stdout).toMatch(/^== profile shop-17 ==\n[\s\S]*\n== profile shop-19 ==\n/);
  });
});

/** CSV rows (no quoted cells in these) as objects by their header, empty cells left out. */
function objects(csv: string, lead: Record<string, string> = {}): Record<string, string>[] {
  const [head, ...rows] = csv.trimEnd().split('\n');
  const names = (head as string).split(',');
  return rows.map((row) => {
    const o: Record<string, string> = { ...lead };
    row.split(',').forEach((v, i) => {
      if (v !== '') o[names[i] as string] = v;
    });
    return o;
  });
}

/** A single run's row as a chain names its methods: `method:<name> · <currency>`. */
function chainNamed(row: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k.startsWith('method:') ? `${k} · ${row.currency}` : k, v]),
  );
}

describe('reconcile over several servers', () => {
  it('one table, each row led by its profile and company, the columns the union of theirs, each row as its single run gives it', async () => {
    const args = ['reconcile', '--from', '2000-01-01', '--format', 'csv'];
    const r = await runCli([...args, '--profile', 'shop-16,shop-19'], { env });
    expect(r.code, r.stderr).toBe(0);
    // A chain's sessions say their company and currency (shop-16 is in EUR, shop-19 in JPY).
    expect(r.stdout.startsWith('profile,company_id,company,currency,session_id,')).toBe(true);
    const expected: Record<string, string>[] = [];
    for (const name of ['shop-16', 'shop-19']) {
      const one = await runCli([...args, '--profile', name], { env });
      const byCompany = await runCli(
        ['summary', '--from', '2000-01-01', '--by', 'company', '--profile', name, '--format', 'csv'],
        { env },
      );
      const company = objects(byCompany.stdout)[0] ?? {};
      const lead = {
        profile: name,
        company_id: company.company_id,
        company: company.company,
        currency: company.currency,
      };
      expected.push(...objects(one.stdout, lead as Record<string, string>).map(chainNamed));
    }
    expect(objects(r.stdout)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(2);
  });
});

describe('summary --by profile', () => {
  it("the chain's day: one row per server and currency, led by profile and currency, each its single run's figures, its methods named with their currency", async () => {
    const args = ['summary', '--from', '2000-01-01', '--format', 'csv'];
    const r = await runCli([...args, '--by', 'profile', '--profile', 'shop-17,shop-18,shop-19,shop-down'], {
      env,
    });
    expect(r.code, r.stderr).toBe(8);
    const rows = objects(r.stdout);
    expect(rows.map((x) => [x.profile, x.currency])).toEqual([
      ['shop-17', 'EUR'],
      ['shop-18', 'USD'],
      ['shop-19', 'JPY'],
    ]);
    for (const row of rows) {
      const one = await runCli([...args, '--by', 'currency', '--profile', row.profile as string], { env });
      expect(row).toEqual(chainNamed(objects(one.stdout, { profile: row.profile as string })[0] ?? {}));
    }
  });
});
