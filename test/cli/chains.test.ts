// What a chain of shops (several profiles, one run) must never do: put a profile's name into a
// path outside the folder, write two profiles into one file, read one Odoo database as two shops.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOST } from '../../src/sink/atomic.js';
import { freshConfigDir, loginProfile, runCli, SUITE_SECRET, spawnCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const sandboxes: SandboxHandle[] = [];
let env: Record<string, string>;
let dir: string;

/** The store's file, to put in what an older posdata stored (names login refuses today). */
function editStore(change: (profiles: Record<string, unknown>) => void): void {
  const file = join(dir, 'config.json');
  const store = JSON.parse(readFileSync(file, 'utf8'));
  change(store.profiles);
  writeFileSync(file, JSON.stringify(store), { mode: 0o600 });
}

beforeAll(async () => {
  dir = freshConfigDir();
  env = { POSDATA_CONFIG_DIR: dir };
  for (const seed of [61, 62]) {
    const s = await startTestSandbox({ seed, orders: 6, adminKey: SUITE_SECRET });
    sandboxes.push(s);
  }
  await loginProfile(env, 'shop-a', (sandboxes[0] as SandboxHandle).url);
  await loginProfile(env, 'shop-b', (sandboxes[1] as SandboxHandle).url);
}, 60_000);

afterAll(async () => {
  for (const s of sandboxes) await s.close();
});

const SALES = ['sales', '--from', '2000-01-01', '--fields', 'id,amount_total'];

describe('profile names', () => {
  it.each(['../x', 'a/b', '.', './b', '-x', '.hidden', 'a b', 'x'.repeat(65)])(
    'login refuses %s as a name (exit 2, nothing stored)',
    async (name) => {
      const url = (sandboxes[0] as SandboxHandle).url;
      const r = await runCli(
        ['login', '--profile', name, '--url', url, '--db', 'demo', '--user', 'admin', '--password-stdin'],
        { env, input: SUITE_SECRET },
      );
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        /^posdata: profile name .* cannot be stored: a name is letters, digits and _\.@\+-/,
      );
      const list = await runCli(['profiles', '--format', 'json'], { env });
      expect(list.stdout).not.toContain(JSON.stringify(name));
    },
  );

  it('login takes letters, digits and _.@+- (shop.lyon@2+b_c-d)', async () => {
    await loginProfile(env, 'shop.lyon@2+b_c-d', (sandboxes[0] as SandboxHandle).url);
    editStore((p) => {
      delete p['shop.lyon@2+b_c-d'];
    });
  });

  it('a name stored before (../x) is refused where {profile} would make it a path, with advice', async () => {
    editStore((p) => {
      p['../x'] = p['shop-b'];
      delete p['shop-b'];
    });
    try {
      const root = mkdtempSync(join(dir, 'out-'));
      const r = await runCli([...SALES, '--profile', 'shop-a,../x', '-o', `${root}/{profile}.csv`], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/profile name \.\.\/x cannot be put into a path/);
      expect(r.stderr).toMatch(/posdata login --profile/);
      expect(readdirSync(root)).toEqual([]);
      expect(existsSync(join(dir, 'x.csv'))).toBe(false);
    } finally {
      editStore((p) => {
        p['shop-b'] = p['../x'];
        delete p['../x'];
      });
    }
  });

  it('two profiles that differ in case only are one file: refused before any server is read', async () => {
    editStore((p) => {
      p['Shop-b'] = p['shop-b'];
      delete p['shop-b'];
    });
    try {
      const root = mkdtempSync(join(dir, 'out-'));
      // shop-a's server is a different one; what is refused is the one path.
      editStore((p) => {
        p['shop-B'] = p['shop-a'];
        delete p['shop-a'];
      });
      const r = await runCli([...SALES, '--profile', 'Shop-b,shop-B', '-o', `${root}/{profile}.csv`], {
        env,
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/profiles Shop-b and shop-B would write one file/);
      expect(readdirSync(root)).toEqual([]);
    } finally {
      editStore((p) => {
        p['shop-b'] = p['Shop-b'];
        p['shop-a'] = p['shop-B'];
        delete p['Shop-b'];
        delete p['shop-B'];
      });
    }
  });
});

describe('one Odoo database under two profiles', () => {
  it('--all-profiles with two profiles of one database is refused, naming them (exit 2)', async () => {
    await loginProfile(env, 'shop-a-again', (sandboxes[0] as SandboxHandle).url);
    try {
      const r = await runCli([...SALES, '--all-profiles', '--format', 'csv'], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        /^posdata: profiles shop-a and shop-a-again are one Odoo database \(.*, database demo\)/,
      );
      expect(r.stdout).toBe('');
      // Named apart, the chain runs.
      const ok = await runCli([...SALES, '--profile', 'shop-a,shop-b', '--format', 'csv'], { env });
      expect(ok.code, ok.stderr).toBe(0);
    } finally {
      editStore((p) => {
        delete p['shop-a-again'];
      });
    }
  });
});

describe('--excel over several servers', () => {
  it("a profile that reads as a formula (=1+2, @shop) is quoted as csv-stringify quotes any cell: '=1+2", async () => {
    for (const name of ['=1+2', '@shop']) {
      editStore((p) => {
        p[name] = p['shop-b'];
        delete p['shop-b'];
      });
      try {
        const r = await runCli([...SALES, '--profile', `shop-a,${name}`, '--format', 'csv', '--excel'], {
          env,
        });
        expect(r.code, r.stderr).toBe(0);
        const rows = r.stdout.split('\r\n').filter((l) => l !== '');
        const theirs = rows.filter((l) => !l.startsWith('shop-a,') && !l.startsWith('\uFEFFprofile,'));
        expect(theirs.length).toBeGreaterThan(0);
        for (const row of theirs) expect(row.startsWith(`'${name},`), row).toBe(true);
      } finally {
        editStore((p) => {
          p['shop-b'] = p[name];
          delete p[name];
        });
      }
    }
  });
});

describe('the shared layer', () => {
  it('knows no command by name: each declares how it runs over several servers beside its flags', () => {
    const root = join(import.meta.dirname, '../../src');
    const files = [
      join(root, 'main.ts'),
      ...readdirSync(join(root, 'cli'))
        .filter((f) => f.endsWith('.ts'))
        .map((f) => join(root, 'cli', f)),
    ];
    const named: string[] = [];
    for (const file of files)
      for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries())
        if (
          /(\bname|\bonly|\bc\.name)\s*[!=]==\s*'(sync|doctor|summary|tap|report|reconcile|serve)'/.test(line)
        )
          named.push(`${file}:${i + 1}: ${line.trim()}`);
    expect(named).toEqual([]);
  });
});

describe('summary --by profile', () => {
  it('a server with no sales in the period is a row of zeros, not a missing row', async () => {
    const empty = await startTestSandbox({ seed: 63, orders: 6, adminKey: SUITE_SECRET });
    try {
      await loginProfile(env, 'shop-quiet', empty.url);
      // A day before any sandbox's sales: every server is quiet, every one a row.
      const quiet = ['summary', '--date', '2001-01-01', '--by', 'profile', '--format', 'json'];
      const r = await runCli([...quiet, '--profile', 'shop-a,shop-quiet'], { env });
      expect(r.code, r.stderr).toBe(0);
      const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
      expect(rows.map((x) => [x.profile, x.currency, x.orders, x.total])).toEqual([
        ['shop-a', 'EUR', 0, 0],
        ['shop-quiet', 'EUR', 0, 0],
      ]);
    } finally {
      await empty.close();
      editStore((p) => {
        delete p['shop-quiet'];
      });
    }
  });
});

describe('leftovers', () => {
  /** A pid of this machine that no process has any more. */
  const deadPid = (): number => spawnSync(process.execPath, ['-e', '']).pid as number;

  it("a chain interrupted by SIGTERM leaves no posdata-servers-* folder; a killed run's is swept by the next", async () => {
    const tmp = mkdtempSync(join(dir, 'tmp-'));
    // A server that takes the connection and never answers: the chain is mid-run when the signal comes.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    editStore((p) => {
      p['shop-silent'] = { ...(p['shop-a'] as object), url: `http://127.0.0.1:${port}` };
    });
    const stale = join(tmp, `posdata-servers-${deadPid()}-${HOST}-abc123`);
    const live = join(tmp, `posdata-servers-${process.pid}-${HOST}-abc123`);
    mkdirSync(stale);
    mkdirSync(live);
    writeFileSync(join(stale, '0.out'), 'partial');
    const folders = () => readdirSync(tmp).filter((n) => n.startsWith('posdata-servers-'));
    try {
      let pid = 0;
      const run = spawnCli(
        [...SALES, '--profile', 'shop-a,shop-silent', '--format', 'csv', '-o', join(tmp, 'out.csv')],
        { env: { ...env, TMPDIR: tmp }, started: (p) => (pid = p) },
      );
      // The run's own folder (the third) is there, and shop-a's output in it: then the signal.
      await vi.waitFor(
        () => {
          const own = folders().find((n) => n.startsWith(`posdata-servers-${pid}-`));
          expect(own && existsSync(join(tmp, own, '0.out'))).toBeTruthy();
        },
        { timeout: 60_000, interval: 20 },
      );
      expect(existsSync(stale)).toBe(false);
      process.kill(pid, 'SIGTERM');
      const r = await run;
      expect(r.code, r.stderr).toBe(130);
      expect(folders()).toEqual([`posdata-servers-${process.pid}-${HOST}-abc123`]);
      expect(existsSync(join(tmp, 'out.csv'))).toBe(false);
    } finally {
      silent.close();
      editStore((p) => {
        delete p['shop-silent'];
      });
    }
  }, 90_000);

  it("-o named by the window ({to}): a killed run's hidden temporary file is swept by the next run", async () => {
    const out = mkdtempSync(join(dir, 'window-'));
    const left = join(out, `.sales-20200101T000000Z.csv.${deadPid()}-${HOST}-deadbeef.posdata-tmp`);
    const running = join(out, `.sales-20200101T000000Z.csv.${process.pid}-${HOST}-deadbeef.posdata-tmp`);
    writeFileSync(left, 'partial');
    writeFileSync(running, 'partial');
    const r = await runCli(
      [...SALES, '--profile', 'shop-a', '--checkpoint', join(out, 'ckpt'), '-o', join(out, 'sales-{to}.csv')],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(left)).toBe(false);
    expect(existsSync(running)).toBe(true);
  });
});
