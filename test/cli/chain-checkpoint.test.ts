// A chain's checkpointed export (--checkpoint 'state/{profile}.ckpt' over several profiles)
// into one file or standard output lost sales: each server's run moved its checkpoint once its
// rows were in the chain's temporary file, before the joined output was written. A joined -o
// that already existed was replaced (a single run refuses it), `{to}` in a joined -o stayed the
// literal `{to}` (so the cron recipe `-o 'sales-{to}.csv'` replaced one file every hour), and
// a joined output that could not be written (a full disk) left every checkpoint moved on: the
// rows of that window were in no file. Now each server's checkpoint moves once the joined
// output is written whole (standard output, appended by the shell), and never where it is not;
// a joined -o file is refused (the servers' windows cannot name one file, and a fixed name
// would be replaced by the next window); a file per server ({profile}) goes on as a single
// run's.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runToFile } from '../helpers/cli.js';
import { chainOfShops } from '../helpers/servers.js';

let env: Record<string, string>;
let dir: string;
let shops: Awaited<ReturnType<typeof chainOfShops>>;

beforeAll(async () => {
  shops = await chainOfShops([71, 72]);
  ({ env, dir } = shops);
}, 60_000);

afterAll(async () => shops?.close());

const SALES = ['sales', '--profile', 'shop-a,shop-b', '--rate', '0', '--fields', 'id,amount_total'];

describe('--checkpoint over several servers', () => {
  it.each([
    ['one file', (out: string) => ['-o', join(out, 'sales.csv')]],
    ['one file named by the window', (out: string) => ['-o', join(out, 'sales-{to}.csv')]],
  ])('into %s: exit 2 before any server is read, no checkpoint, no file', async (_what, output) => {
    const out = mkdtempSync(join(dir, 'joined-'));
    const existing = join(out, 'sales.csv');
    writeFileSync(existing, 'id,amount_total\n1,2.00\n');
    const r = await runCli([...SALES, '--checkpoint', join(out, '{profile}.ckpt'), ...output(out)], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^posdata: --checkpoint over several servers writes a file per server: -o needs \{profile\}/,
    );
    expect(r.stdout).toBe('');
    expect(readdirSync(out).sort()).toEqual(['sales.csv']);
    expect(readFileSync(existing, 'utf8')).toBe('id,amount_total\n1,2.00\n');
  });

  it("into standard output: the servers' rows, then each checkpoint; the next run only what is new", async () => {
    const out = mkdtempSync(join(dir, 'stdout-'));
    const args = [...SALES, '--format', 'ndjson', '--checkpoint', join(out, '{profile}.ckpt')];
    const r = await runCli(args, { env });
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { profile: string });
    expect(new Set(rows.map((x) => x.profile))).toEqual(new Set(['shop-a', 'shop-b']));
    expect(rows).toHaveLength(60); // 30 orders on each sandbox
    for (const p of ['shop-a', 'shop-b']) expect(existsSync(join(out, `${p}.ckpt`))).toBe(true);
    // Nothing sold since: the next window holds at most the overlap's re-reads, never all again.
    const again = await runCli(args, { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim().split('\n').filter(Boolean).length).toBeLessThan(rows.length);
  });

  it('into a standard output that cannot be written (> /dev/full): exit 2, no checkpoint moved', async () => {
    expect(() => writeFileSync('/dev/full', 'x')).toThrow(/ENOSPC/);
    const out = mkdtempSync(join(dir, 'full-'));
    const args = [...SALES, '--checkpoint', join(out, '{profile}.ckpt')];
    const r = await runToFile(args, '/dev/full', env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^posdata: cannot write standard output: no space left on device; /);
    expect(readdirSync(out).filter((f) => f.endsWith('.ckpt'))).toEqual([]);
  });

  it('a file per server ({profile} in -o): each file goes with its own checkpoint, run after run', async () => {
    const out = mkdtempSync(join(dir, 'per-server-'));
    const args = [
      ...SALES,
      '--checkpoint',
      join(out, '{profile}.ckpt'),
      '-o',
      join(out, '{profile}-{to}.csv'),
    ];
    const r = await runCli(args, { env });
    expect(r.code, r.stderr).toBe(0);
    for (const p of ['shop-a', 'shop-b']) expect(existsSync(join(out, `${p}.ckpt`))).toBe(true);
    const files = readdirSync(out).filter((f) => f.endsWith('.csv'));
    expect(files.map((f) => f.replace(/-\d{8}T\d{6}Z\.csv$/, '')).sort()).toEqual(['shop-a', 'shop-b']);
    for (const f of files) expect(readFileSync(join(out, f), 'utf8').split('\n').length).toBeGreaterThan(30);
  });
});
