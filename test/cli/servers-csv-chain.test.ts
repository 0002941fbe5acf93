// A chain's CSV (several profiles, one output) is each healthy server's single run with its
// profile's cell first, under the union of their columns: each run writes its records led by
// that cell as it goes (CsvLead), and the join copies its bytes, or takes it cell by cell where
// its columns are not the union's (servers-join.ts). End to end over real sockets here, where
// the join's own test (servers-csv-join.test.ts) gives it files: names that must be quoted (the
// delimiter is in them), --excel's one BOM and CRLF, a server with no sales, one with two
// companies (columns the others lack), and one that fails after it wrote a page (none of its
// rows), the same bytes with --jobs 1 and 4; and servers whose second page (asked with the
// first: client.ts idPages) answers before their first, which a chain must wait out.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, loginProfile, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const sandboxes: SandboxHandle[] = [];
let proxy: RpcProxy;
let env: Record<string, string>;

// The delimiter ('.') is in every name: each row's first cell is quoted.
const ONE = 'shop.one';
const TWO = 'shop.two'; // two companies: its rows say their company and currency
const NONE = 'shop.none'; // no sales at all
const HALF = 'shop.half'; // behind a proxy that spoils its second page of sales
// Behind proxies that hold each run's first page of sales until its second has been answered.
const LATE = ['late-1', 'late-2', 'late-3', 'late-4'];
const lateProxies: RpcProxy[] = [];

beforeAll(async () => {
  env = { POSDATA_CONFIG_DIR: freshConfigDir() };
  const one = await startTestSandbox({ seed: 81, orders: 30, adminKey: SUITE_SECRET });
  const two = await startTestSandbox({ seed: 82, orders: 30, companies: 2, adminKey: SUITE_SECRET });
  const none = await startTestSandbox({ seed: 83, orders: 0, adminKey: SUITE_SECRET });
  const half = await startTestSandbox({ seed: 84, orders: 30, adminKey: SUITE_SECRET });
  sandboxes.push(one, two, none, half);
  proxy = await startRpcProxy(half.url);
  await loginProfile(env, ONE, one.url);
  await loginProfile(env, TWO, two.url);
  await loginProfile(env, NONE, none.url);
  await loginProfile(env, HALF, proxy.url);
  for (const [i, name] of LATE.entries()) {
    const s = await startTestSandbox({ seed: 90 + i, orders: 40, adminKey: SUITE_SECRET });
    sandboxes.push(s);
    const p = await startRpcProxy(s.url);
    lateProxies.push(p);
    await loginProfile(env, name, p.url);
  }
}, 60_000);

afterAll(async () => {
  for (const p of lateProxies) await p.close();
  await proxy?.close();
  for (const s of sandboxes) await s.close();
});

const SALES = ['sales', '--from', '2000-01-01', '--tz', 'UTC', '--rate', '0', '--page-size', '10'];
const CSV = ['--format', 'csv', '--excel', '--delimiter', '.'];

/** A CSV's records as csv-parse reads them, its BOM dropped. */
const records = (text: string): string[][] =>
  parse(text, { delimiter: '.', bom: true, relax_column_count: true });

describe('a CSV over several servers, end to end', () => {
  it("each healthy server's single run led by its quoted name, under the union of their columns; none of one that failed midway", async () => {
    // shop.half's second page of sales is not a list of records: its run stops after its first.
    let pages = 0;
    proxy.rewrite.set('search_read', (result, body) =>
      body.includes('"pos.order"') && ++pages === 2 ? 'not a list of records' : result,
    );
    const alone = await runCli([...SALES, ...CSV, '--profile', HALF], { env });
    expect(alone.code).not.toBe(0);
    expect(records(alone.stdout).length, 'the failing run wrote rows before it failed').toBeGreaterThan(1);

    const singles = new Map<string, string[][]>();
    for (const name of [ONE, TWO, NONE]) {
      const r = await runCli([...SALES, ...CSV, '--profile', name], { env });
      expect(r.code, r.stderr).toBe(0);
      singles.set(name, records(r.stdout));
    }
    const columns: string[] = [];
    for (const [head] of singles.values())
      for (const c of head ?? []) if (!columns.includes(c)) columns.push(c);
    expect(columns.length).toBeGreaterThan((singles.get(ONE)?.[0] ?? []).length); // the union is wider than one's
    expect(singles.get(NONE)?.length ?? 0).toBeLessThanOrEqual(1); // a header at most
    const expected = [['profile', ...columns]];
    for (const [name, [head = [], ...rows]] of singles)
      for (const row of rows)
        expected.push([name, ...columns.map((c) => (head.includes(c) ? row[head.indexOf(c)] : ''))]);
    expect(expected.length).toBeGreaterThan(40);

    const outs: string[] = [];
    for (const jobs of ['1', '4']) {
      pages = 0;
      const r = await runCli(
        [...SALES, ...CSV, '--profile', [ONE, HALF, TWO, NONE].join(','), '--jobs', jobs],
        {
          env,
        },
      );
      expect(r.code, r.stderr).toBe(8);
      expect(r.stderr).toMatch(/^posdata: profile shop\.half: /m);
      expect(pages).toBeGreaterThanOrEqual(2);
      expect(records(r.stdout)).toEqual(expected);
      // One BOM, at the start; every record ends CRLF; each row's name quoted as it is.
      expect(r.stdout.startsWith('\uFEFFprofile.id.')).toBe(true);
      expect(r.stdout.indexOf('\uFEFF', 1)).toBe(-1);
      expect(r.stdout.endsWith('\r\n')).toBe(true);
      expect(r.stdout.split('\r\n').filter((l) => l.startsWith(`"${ONE}".`))).toHaveLength(
        (singles.get(ONE)?.length ?? 0) - 1,
      );
      outs.push(r.stdout);
    }
    expect(outs[1]).toBe(outs[0]);
  });

  it("servers whose second page answers before their first: every server's rows, at any --jobs", async () => {
    // The first two pages go out at once (the second by offset, client.ts idPages): each proxy
    // lets a run's first through only once its second has come back from the sandbox.
    const hold = () => {
      let second: () => void = () => undefined;
      const answered = new Promise<void>((r) => {
        second = r;
      });
      let first = true;
      const isFirst = (): boolean => {
        const was = first;
        first = false;
        return was;
      };
      return { answered, second, isFirst };
    };
    const arm = () => {
      for (const p of lateProxies) {
        p.reset();
        const h = hold();
        p.before.set('search_read', async (body) => {
          if (body.includes('"pos.order"') && !body.includes('"offset"') && h.isFirst()) await h.answered;
        });
        p.rewrite.set('search_read', (result, body) => {
          if (body.includes('"pos.order"') && body.includes('"offset"')) h.second();
          return result;
        });
      }
    };
    const args = [...SALES, '--format', 'csv'];
    const expected: string[] = [];
    for (const name of LATE) {
      arm();
      const r = await runCli([...args, '--profile', name], { env });
      expect(r.code, r.stderr).toBe(0);
      const [, ...rows] = r.stdout.trimEnd().split('\n');
      expect(rows.length).toBeGreaterThan(10);
      expected.push(...rows.map((row) => `${name},${row}`));
    }
    for (const jobs of ['1', '4']) {
      arm();
      const r = await runCli([...args, '--profile', LATE.join(','), '--jobs', jobs], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trimEnd().split('\n').slice(1)).toEqual(expected);
    }
  });
});
