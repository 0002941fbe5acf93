// Checkpointed exports and the file they write (issue 22): the README's cron recipe run twice
// in one hour (a retry, a manual run) replaced the first file with the second run's few rows,
// the checkpoint moved on, and the first run's sales were in no file. A run that goes on from
// a checkpoint never replaces -o; `{from}`/`{to}` in -o name each run's file by its window.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const ids = (csv: string): number[] =>
  (parse(csv, { columns: true }) as { id: string }[]).map((r) => Number(r.id));

const STAMP = /^\d{8}T\d{6}Z$/;

describe('checkpointed exports and -o', () => {
  let sandbox: SandboxHandle;
  let env: Record<string, string>;
  let rpc: Rpc;
  let dir: string;
  let n = 0;
  /** A fresh folder per test. */
  const folder = () => {
    const d = join(dir, String(++n));
    rmSync(d, { recursive: true, force: true });
    return mkdtempSync(`${d}-`);
  };
  /** One paid order written again, so the next window holds it. */
  const touch = async (): Promise<number> => {
    // A counted ticket written again (its write_date moves): just after midnight the open
    // session may hold one paid ticket or none, so closed ones (done) count too.
    const [o] = await rpc.searchRead<{ id: number }>('pos.order', [['state', 'in', ['paid', 'done']]], {
      fields: ['id'],
      limit: 1,
      order: 'id desc',
    });
    await rpc.kw('pos.order', 'write', [[o?.id], { state: 'done' }]);
    return o?.id as number;
  };

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 22, orders: 300 });
    env = await loginEnv(sandbox.url);
    rpc = new Rpc(sandbox.url);
    dir = mkdtempSync(join(tmpdir(), 'posdata-windows-'));
  }, 60_000);

  afterAll(async () => {
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("the README's recipe run twice in one hour: the second run refuses (exit 2) and nothing is lost", async () => {
    const d = folder();
    const cp = join(d, 'sales.ckpt');
    const hourly = join(d, 'sales-2026-11-25-10.csv');
    const run = (out: string) =>
      runCli(['sales', '--quiet', '--checkpoint', cp, '-o', out, '--rate', '0'], { env });
    expect((await run(hourly)).code).toBe(0);
    const first = readFileSync(hourly, 'utf8');
    expect(ids(first).length).toBe(await rpc.count('pos.order', []));
    const checkpoint = readFileSync(cp, 'utf8');
    const touched = await touch();
    const retry = await run(hourly);
    expect(retry.code).toBe(2);
    expect(retry.stdout).toBe('');
    expect(retry.stderr).toBe(
      `posdata: -o ${hourly} already exists, and a run that goes on from checkpoint ${cp} does not replace it (the rows it holds would be in no file); nothing was exported; name each run's file by its window, e.g. -o '${join(d, 'sales-{to}.csv')}', or move ${hourly} away first\n`,
    );
    expect(readFileSync(hourly, 'utf8')).toBe(first);
    expect(readFileSync(cp, 'utf8')).toBe(checkpoint);
    // The next hour's file gets what changed since the first run.
    const next = join(d, 'sales-2026-11-25-11.csv');
    expect((await run(next)).code).toBe(0);
    expect(ids(readFileSync(next, 'utf8'))).toContain(touched);
  });

  it('-o with {from} and {to}: each run its own file, named by its window, consecutive', async () => {
    const d = folder();
    const cp = join(d, 'sales.ckpt');
    const run = () =>
      runCli(['sales', '--checkpoint', cp, '-o', join(d, 'sales-{from}-{to}.csv'), '--rate', '0'], { env });
    expect((await run()).code).toBe(0);
    // The next window ends at least a second later.
    await new Promise((r) => setTimeout(r, 1100));
    const touched = await touch();
    const again = await run();
    expect(again.code, again.stderr).toBe(0);
    const files = readdirSync(d)
      .filter((f) => f.endsWith('.csv'))
      .sort();
    expect(files).toHaveLength(2);
    const [a, b] = files.map((f) => /^sales-(.+)-(.+)\.csv$/.exec(f)?.slice(1) ?? []) as [string[], string[]];
    expect(a[0]).toBe('19700101T000000Z');
    expect(a[1]).toMatch(STAMP);
    expect(b[0]).toBe(a[1]);
    expect(b[1]).toMatch(STAMP);
    expect(b[1] > (b[0] as string)).toBe(true);
    const [first, second] = files.map((f) => ids(readFileSync(join(d, f), 'utf8')));
    expect(first?.length).toBe(await rpc.count('pos.order', []));
    expect(second).toContain(touched);
    // {to} is the window end the checkpoint now holds.
    const end = (JSON.parse(readFileSync(cp, 'utf8')) as { windowEnd: string }).windowEnd;
    expect(b[1]).toBe(`${end.replace(/[-:]/g, '').replace(' ', 'T')}Z`);
  });

  it('two runs within one second name the same file: the second refuses, the first file stays', async () => {
    const d = folder();
    const cp = join(d, 'sales.ckpt');
    const out = join(d, 'sales-{to}.parquet');
    const ok = await runCli(['sales', '--checkpoint', cp, '-o', out, '--rate', '0'], { env });
    expect(ok.code).toBe(0);
    const [file] = readdirSync(d).filter((f) => f.endsWith('.parquet'));
    const bytes = readFileSync(join(d, file as string));
    // The same second again, as the server's clock has it: a window end that is the next run's too.
    const end = (JSON.parse(readFileSync(cp, 'utf8')) as { windowEnd: string }).windowEnd;
    const stamp = `${end.replace(/[-:]/g, '').replace(' ', 'T')}Z`;
    expect(file).toBe(`sales-${stamp}.parquet`);
    const r = await runCli(
      ['sales', '--checkpoint', cp, '-o', join(d, `sales-${stamp}.parquet`), '--rate', '0'],
      {
        env,
      },
    );
    expect(r.code).toBe(2);
    expect(readFileSync(join(d, file as string)).equals(bytes)).toBe(true);
  });

  it('a first run and --full export everything, and may replace -o', async () => {
    const d = folder();
    const cp = join(d, 'sales.ckpt');
    const out = join(d, 'sales.csv');
    writeFileSync(out, 'id\n1\n');
    const all = await rpc.count('pos.order', []);
    const first = await runCli(['sales', '--checkpoint', cp, '-o', out, '--rate', '0'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(ids(readFileSync(out, 'utf8')).length).toBe(all);
    const full = await runCli(['sales', '--checkpoint', cp, '--full', '-o', out, '--rate', '0'], { env });
    expect(full.code, full.stderr).toBe(0);
    expect(ids(readFileSync(out, 'utf8')).length).toBe(all);
    // Standard output is never refused.
    const stdout = await runCli(['sales', '--checkpoint', cp, '--rate', '0', '--format', 'csv'], { env });
    expect(stdout.code).toBe(0);
  });

  it('{from} or {to} without --checkpoint: exit 2, one line, nothing asked', async () => {
    const d = folder();
    const r = await runCli(['sales', '-o', join(d, 'sales-{to}.csv'), '--rate', '0'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'posdata: {from} and {to} in -o name the window of a checkpointed run; add --checkpoint FILE, or leave them out of -o\n',
    );
    expect(existsSync(join(d, 'sales-{to}.csv'))).toBe(false);
  });
});
