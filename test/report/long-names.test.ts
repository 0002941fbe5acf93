// Names of 100,000 characters (a register, the cashiers, the products): the report's page
// carried each whole wherever it named it (~160 times, page and data block: 33 MB, 634 MB of
// memory to write), and summary's table drew lines of as many characters. Every output a
// person reads now cuts a name as the list tables do (`…`): 40 characters on a terminal, 80
// on the page; json, ndjson and csv keep them whole, as the lists' machine formats do.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { reportData } from '../helpers/report.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const LONG = 100_000;
const RANGE = ['--from', '2026-11-20', '--to', '2026-11-27', '--tz', 'UTC', '--rate', '0'];
const dir = mkdtempSync(join(tmpdir(), 'posdata-long-names-'));
let sandbox: SandboxHandle;
let env: Record<string, string>;
let before: number;
let rpc: Rpc;

/** The longest run of one letter in `text`. */
const longestRun = (text: string, c: string): number =>
  Math.max(0, ...(text.match(new RegExp(`${c}+`, 'g')) ?? []).map((m) => m.length));

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 5, orders: 400, days: 10, adminKey: SUITE_SECRET });
  env = await loginEnv(sandbox.url, 'admin', SUITE_SECRET);
  const file = join(dir, 'short.html');
  expect((await runCli(['report', ...RANGE, '-o', file], { env })).code).toBe(0);
  before = readFileSync(file).length;
  rpc = new Rpc(sandbox.url, 'demo', 'admin', SUITE_SECRET);
  const ids = async (model: string): Promise<number[]> =>
    (
      (await rpc.kw(model, 'search_read', [[]], { fields: ['id'] })) as {
        id: number;
      }[]
    ).map((r) => r.id);
  await rpc.kw('pos.config', 'write', [await ids('pos.config'), { name: 'R'.repeat(LONG) }]);
  await rpc.kw('res.users', 'write', [await ids('res.users'), { name: 'C'.repeat(LONG) }]);
  await rpc.kw('product.template', 'write', [await ids('product.template'), { name: 'P'.repeat(LONG) }]);
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('names of 100,000 characters', { timeout: 120_000 }, () => {
  it("the report's page names each in at most 80 characters, and is the size of one with short names", async () => {
    const file = join(dir, 'long.html');
    const r = await runCli(['report', ...RANGE, '-o', file], { env });
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(file, 'utf8');
    for (const c of ['R', 'C', 'P']) {
      expect(html).toContain(`${c.repeat(79)}…`);
      expect(longestRun(html, c)).toBe(79);
    }
    // The names came in at 80 characters where they were a few: the page grows by their
    // difference at each place it names one, not by 100,000 characters there.
    expect(html.length).toBeLessThan(before * 1.25);
  });

  it("the report's JSON carries the page's names, cut alike; posdata's own sentences stay whole in both", async () => {
    // The methods' names differ past the cut alone: their columns stay apart.
    const methods = await rpc.kw('pos.payment.method', 'search_read', [[]], { fields: ['name'] });
    const named = async (name: (m: { id: number; name: string }, i: number) => string) => {
      for (const [i, m] of (methods as { id: number; name: string }[]).entries())
        await rpc.kw('pos.payment.method', 'write', [[m.id], { name: name(m, i) }]);
    };
    await named((_, i) => `${'M'.repeat(LONG)}${i}`);
    try {
      await jsonAndPage();
    } finally {
      await named((m) => m.name);
    }
  });

  async function jsonAndPage() {
    const page = join(dir, 'page.html');
    const file = join(dir, 'page.json');
    expect((await runCli(['report', ...RANGE, '-o', page], { env })).code).toBe(0);
    const r = await runCli(['report', ...RANGE, '--format', 'json', '-o', file], { env });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    const json = JSON.parse(text) as Record<string, unknown>;
    // What a chain's page is made of (each server's JSON) is what one server's page shows.
    expect(json.currencies).toEqual(reportData(readFileSync(page, 'utf8')).currencies);
    for (const c of ['R', 'C', 'P', 'M']) expect(longestRun(text, c), c).toBe(79);
    const section = (json.currencies as { loss: { unknown: string[] }; reconcile: object[] }[])[0];
    const keys = Object.keys(section?.reconcile[0] ?? {}).filter((k) => k.startsWith('method:'));
    expect(keys.slice(0, 2)).toEqual([`method:${'M'.repeat(79)}…`, `method:${'M'.repeat(75)}… #2`]);
    expect(new Set(keys).size).toBe(keys.length);
    const sentences = section?.loss.unknown ?? [];
    expect(Math.max(...sentences.map((u) => u.length))).toBeGreaterThan(80);
    for (const u of sentences) expect(readFileSync(page, 'utf8')).toContain(u.replace(/'/g, '&#39;'));
  }

  it("summary's table lines are bounded by the names' cut (40), by register, cashier and product", async () => {
    for (const by of ['register', 'cashier', 'product']) {
      const r = await runCli(['summary', ...RANGE, '--by', by, '--format', 'table'], {
        env: { ...env, COLUMNS: '100' },
      });
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.split('\n');
      expect(Math.max(...lines.map((l) => l.length)), by).toBeLessThanOrEqual(100);
      expect(r.stdout).toContain(`${'RCP'['register cashier product'.split(' ').indexOf(by)]?.repeat(39)}…`);
    }
  });

  it('reconcile and books cut them on their tables too', async () => {
    for (const cmd of ['reconcile', 'books']) {
      const r = await runCli([cmd, ...RANGE, '--format', 'table'], { env: { ...env, COLUMNS: '100' } });
      expect(r.code, r.stderr).toBe(0);
      expect(longestRun(r.stdout, 'R'), cmd).toBeLessThan(40);
      expect(Math.max(...r.stdout.split('\n').map((l) => l.length)), cmd).toBeLessThanOrEqual(100);
    }
  });

  it('json and csv keep the names whole, as the lists do', async () => {
    const json = await runCli(['summary', ...RANGE, '--by', 'register', '--format', 'json'], { env });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)[0].register).toBe('R'.repeat(LONG));
    const csv = await runCli(['summary', ...RANGE, '--by', 'cashier', '--format', 'csv'], { env });
    expect(longestRun(csv.stdout, 'C')).toBe(LONG);
    const list = await runCli(['configs', '--format', 'json'], { env });
    expect(JSON.parse(list.stdout)[0].name).toBe('R'.repeat(LONG));
  });
});
