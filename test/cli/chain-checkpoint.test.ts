// A chain's checkpointed export (--checkpoint 'state/{profile}.ckpt' over several profiles)
// into one file or standard output lost sales: each server's run moved its checkpoint once its
// rows were in the chain's temporary file, before the joined -o was written. A joined -o that
// already existed was replaced (a single run refuses it), `{to}` in a joined -o stayed the
// literal `{to}` (so the cron recipe `-o 'sales-{to}.csv'` replaced one file every hour), and
// a joined -o that could not be written (a full disk) left every checkpoint moved on: the
// rows of that window were in no file. A checkpoint is moved with its own server's file, so
// over several servers -o must name a file per server ({profile}); the per-server files
// go on as a single run's.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, loginProfile, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const sandboxes: SandboxHandle[] = [];
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  dir = freshConfigDir();
  env = { POSDATA_CONFIG_DIR: dir };
  for (const seed of [71, 72])
    sandboxes.push(await startTestSandbox({ seed, orders: 30, adminKey: SUITE_SECRET }));
  await loginProfile(env, 'shop-a', (sandboxes[0] as SandboxHandle).url);
  await loginProfile(env, 'shop-b', (sandboxes[1] as SandboxHandle).url);
}, 60_000);

afterAll(async () => {
  for (const s of sandboxes) await s.close();
});

const SALES = ['sales', '--profile', 'shop-a,shop-b', '--rate', '0', '--fields', 'id,amount_total'];

describe('--checkpoint over several servers', () => {
  it.each([
    ['one file', (out: string) => ['-o', join(out, 'sales.csv')]],
    ['one file named by the window', (out: string) => ['-o', join(out, 'sales-{to}.csv')]],
    ['standard output', () => []],
  ])('into %s: exit 2 before any server is read, no checkpoint, no file', async (_what, output) => {
    const out = mkdtempSync(join(dir, 'joined-'));
    const existing = join(out, 'sales.csv');
    writeFileSync(existing, 'id,amount_total\n1,2.00\n');
    const r = await runCli([...SALES, '--checkpoint', join(out, '{profile}.ckpt'), ...output(out)], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^posdata: --checkpoint over several servers .*\{profile\}/);
    expect(r.stdout).toBe('');
    expect(readdirSync(out).sort()).toEqual(['sales.csv']);
    expect(readFileSync(existing, 'utf8')).toBe('id,amount_total\n1,2.00\n');
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
