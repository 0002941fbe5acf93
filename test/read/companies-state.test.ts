// The run's companies are part of what a checkpoint and the tap's state were made for. A
// checkpointed export whose --company changes would carry on from its window and never read
// the added company's earlier records: it is refused (exit 2) and --full starts it again.
// The tap, whose user is given a further company, reads the stream whole again and says so.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let env: Record<string, string>;
let rpc: Rpc;
let dir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 9, orders: 300, days: 5, companies: 2, adminKey: SUITE_SECRET });
  env = await loginEnv(sandbox.url, 'admin', SUITE_SECRET);
  rpc = new Rpc(sandbox.url, 'demo', 'admin', SUITE_SECRET);
  dir = mkdtempSync(join(tmpdir(), 'posdata-companies-state-'));
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
});

const ids = (csv: string) => (parse(csv, { columns: true }) as { id: string }[]).map((r) => Number(r.id));

describe('a checkpoint is made for its companies', () => {
  it('a --company widened from 1 to 1,2 is refused (exit 2); --full reads the added company whole', async () => {
    const cp = join(dir, 'sales.ckpt');
    const run = (company: string, out: string, extra: string[] = []) =>
      runCli(
        [
          'sales',
          '--company',
          company,
          '--checkpoint',
          cp,
          '--rate',
          '0',
          '--format',
          'csv',
          '-o',
          out,
          ...extra,
        ],
        { env },
      );
    const first = await run('1', join(dir, 'a.csv'));
    expect(first.code, first.stderr).toBe(0);
    expect((JSON.parse(readFileSync(cp, 'utf8')) as { companies?: number[] }).companies).toEqual([1]);
    const before = readFileSync(cp, 'utf8');

    const widened = await run('1,2', join(dir, 'b.csv'));
    expect(widened.code, widened.stderr).toBe(2);
    expect(widened.stderr.trim().split('\n')).toHaveLength(1);
    expect(widened.stderr).toMatch(
      /checkpoint .* was made for companies 1, and this run reads companies 1, 2/,
    );
    expect(widened.stderr).toContain('--full');
    expect(readFileSync(cp, 'utf8')).toBe(before);

    const full = await run('1,2', join(dir, 'c.csv'), ['--full']);
    expect(full.code, full.stderr).toBe(0);
    const second = (await rpc.kw('pos.order', 'search', [[['company_id', '=', 2]]], {
      context: { allowed_company_ids: [2] },
    })) as number[];
    expect(second.length).toBeGreaterThan(0);
    const got = new Set(ids(readFileSync(join(dir, 'c.csv'), 'utf8')));
    for (const id of second) expect(got.has(id)).toBe(true);
  });
});

describe('a checkpoint that loses a company', () => {
  it("is refused (exit 2) in one line that says the lost company's records would be passed unread", async () => {
    const cp = join(dir, 'lost.ckpt');
    const run = (out: string, extra: string[]) =>
      runCli(
        ['sales', '--checkpoint', cp, '--rate', '0', '--format', 'csv', '-o', join(dir, out), ...extra],
        {
          env,
        },
      );
    // Made for every company the user may see (1 and 2), then read for company 1 only: as a
    // user who lost company 2 would.
    const first = await run('lost-a.csv', []);
    expect(first.code, first.stderr).toBe(0);
    const before = readFileSync(cp, 'utf8');
    const narrowed = await run('lost-b.csv', ['--company', '1']);
    expect(narrowed.code, narrowed.stderr).toBe(2);
    expect(narrowed.stderr.trim().split('\n')).toHaveLength(1);
    expect(narrowed.stderr).toMatch(
      /checkpoint .* was made for companies 1, 2, and this run reads companies 1: going on from its window would move it past the records of company 2 without reading them; run once with --full/,
    );
    expect(narrowed.stderr).not.toContain('added');
    expect(readFileSync(cp, 'utf8')).toBe(before);
  });
});

describe("the tap's bookmarks are made for their companies", () => {
  it('a company the state was not read for: the stream is sent whole again, and the run says so', async () => {
    const cfg = join(dir, 'tap.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        url: sandbox.url,
        db: 'demo',
        user: 'admin',
        password: SUITE_SECRET,
        rate: 0,
        streams: ['sales'],
      }),
    );
    const tap = (state?: unknown) => {
      const args = ['tap', '--config', cfg];
      if (state) {
        const f = join(dir, 'state.json');
        writeFileSync(f, JSON.stringify(state));
        args.push('--state', f);
      }
      return runCli(args, { env: { POSDATA_CONFIG_DIR: dir } });
    };
    const lastState = (stdout: string) =>
      stdout
        .split('\n')
        .filter((l) => l.startsWith('{"type":"STATE"'))
        .map((l) => (JSON.parse(l) as { value: { bookmarks: { sales: { companies?: number[] } } } }).value)
        .pop();
    const sent = (stdout: string) =>
      stdout
        .split('\n')
        .filter((l) => l.startsWith('{"type":"RECORD"'))
        .map((l) => (JSON.parse(l) as { record: { id: number } }).record.id);

    const first = await tap();
    expect(first.code, first.stderr).toBe(0);
    const state = lastState(first.stdout);
    expect(state?.bookmarks.sales.companies).toEqual([1, 2]);

    // Unchanged data, the same companies: nothing again.
    expect(sent((await tap(state)).stdout)).toEqual([]);

    // The state as a run of a user with company 1 alone left it; now the user reads 1 and 2.
    const narrower = { bookmarks: { sales: { ...state?.bookmarks.sales, companies: [1] } } };
    const r = await tap(narrower);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /sales: this user now reads company 2, which the state's bookmark was not read for/,
    );
    const all = (await rpc.kw('pos.order', 'search', [[]], {
      context: { allowed_company_ids: [1, 2] },
    })) as number[];
    expect(new Set(sent(r.stdout))).toEqual(new Set(all));
  });
});
