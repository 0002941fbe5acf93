// posdata sync over several Odoo servers: each into a schema of its own (--schema
// 'pos_{profile}'), at once up to --jobs; each schema holds exactly what that server's single
// sync holds, one query reads them together with UNION ALL, a server that is down is one line
// naming it and exit 8 with the others loaded whole, and one schema for several servers (whose
// ids would collide) is refused before anything is read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, loginProfile, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let pg: TestPostgres;
const sandboxes: SandboxHandle[] = [];
let env: Record<string, string>;
const NOW = new Date('2026-11-20T12:00:00Z');

const login = (name: string, sandbox: SandboxHandle): Promise<void> => loginProfile(env, name, sandbox.url);

beforeAll(async () => {
  pg = await startPostgres();
  env = { POSDATA_CONFIG_DIR: freshConfigDir(), PGPASSWORD: pg.password };
  for (const [i, currency] of (['EUR', 'USD'] as const).entries()) {
    const s = await startTestSandbox({
      seed: 60 + i,
      orders: 40 + i * 7,
      days: 3,
      currency,
      adminKey: SUITE_SECRET,
      now: NOW,
    });
    sandboxes.push(s);
    await login(`shop-${currency.toLowerCase()}`, s);
  }
  const gone = await startTestSandbox({ seed: 70, orders: 5, adminKey: SUITE_SECRET, now: NOW });
  await login('shop-down', gone);
  await gone.close();
}, 120_000);

afterAll(async () => {
  for (const s of sandboxes) await s.close();
  await pg?.stop();
});

const count = async (schema: string, table: string): Promise<number> =>
  Number((await pg.query<{ n: string }>(`select count(*)::text as n from "${schema}".${table}`))[0]?.n);

describe('posdata sync over several servers', () => {
  it('loads each server into its own schema, as its single sync does; a server down is exit 8', async () => {
    const to = pg.url({ password: '' });
    const r = await runCli(
      [
        'sync',
        '--to',
        to,
        '--rate',
        '0',
        '--profile',
        'shop-eur,shop-down,shop-usd',
        '--schema',
        'pos_{profile}',
      ],
      { env },
    );
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toMatch(/profile shop-down: /);
    expect(r.stderr).not.toMatch(/profile shop-(eur|usd): /);
    // Each healthy server's schema holds what a single sync of it holds.
    for (const shop of ['shop-eur', 'shop-usd']) {
      const alone = await runCli(
        ['sync', '--to', to, '--rate', '0', '--profile', shop, '--schema', `one_${shop}`],
        {
          env,
        },
      );
      expect(alone.code, alone.stderr).toBe(0);
      // The chain's log says per server what its single sync says per table.
      const tables = (text: string) => text.split('\n').filter((l) => /^\w+: [\d,]+ upserted, /.test(l));
      const said = r.stderr
        .split('\n')
        .filter((l) => l.startsWith(`[${shop}] `))
        .map((l) => l.slice(shop.length + 3));
      expect(tables(alone.stderr).length).toBeGreaterThan(3);
      expect(tables(said.join('\n'))).toEqual(tables(alone.stderr));
      for (const table of ['sales', 'lines', 'payments', 'sessions'])
        expect(await count(`pos_${shop}`, table), `${shop} ${table}`).toBe(await count(`one_${shop}`, table));
    }
    // The server that is down loaded nothing (its schema may be made, as its single run makes it).
    const down = await pg.query<{ n: string }>(
      "select count(*)::text as n from information_schema.tables where table_schema = 'pos_shop-down' and table_name = 'sales'",
    );
    expect(down[0]?.n).toBe('0');
    // One query over the chain: ids repeat across servers, (profile, id) does not.
    const rows = await pg.query<{ profile: string; currency: string; n: string }>(
      `select profile, currency, count(*)::text as n from (
         select 'shop-eur' as profile, id, currency from "pos_shop-eur".sales
         union all select 'shop-usd', id, currency from "pos_shop-usd".sales) s
       group by 1, 2 order by 1`,
    );
    expect(rows.map((x) => [x.profile, x.currency])).toEqual([
      ['shop-eur', 'EUR'],
      ['shop-usd', 'USD'],
    ]);
    expect(Number(rows[0]?.n)).toBe(await count('one_shop-eur', 'sales'));
    // Run again: exactly once, no row twice.
    const again = await runCli(
      ['sync', '--to', to, '--rate', '0', '--profile', 'shop-eur,shop-usd', '--schema', 'pos_{profile}'],
      { env },
    );
    expect(again.code, again.stderr).toBe(0);
    expect(await count('pos_shop-eur', 'sales')).toBe(await count('one_shop-eur', 'sales'));
  });

  it('refuses one schema for several servers, and a per-profile schema for one, before reading', async () => {
    const to = pg.url({ password: '' });
    const one = await runCli(['sync', '--to', to, '--profile', 'shop-eur,shop-usd'], { env });
    expect(one.code).toBe(2);
    expect(one.stderr.trim().split('\n')).toHaveLength(1);
    expect(one.stderr).toMatch(
      /^posdata: several servers in one schema posdata would collide.*\{profile\} in --schema/,
    );
    const single = await runCli(['sync', '--to', to, '--profile', 'shop-eur', '--schema', 'pos_{profile}'], {
      env,
    });
    expect(single.code).toBe(2);
    expect(single.stderr).toMatch(/^posdata: --schema pos_\{profile\} names a schema per profile/);
  });
});
