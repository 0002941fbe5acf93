// Tables that fit (issue 25): the list and summary tables honour the width (the terminal's,
// COLUMNS when set), say which columns they left out and how to see them; lines show one
// product column and "1 line"; configs name their payment methods; the X report's title
// reads as a person would say it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let env: Record<string, string | undefined>;
const R = ['--rate', '0', '--tz', 'UTC'];
const ALL = ['--from', '2000-01-01', '--to', '2100-01-01'];

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 5, orders: 300 });
  // The width comes from the test IO unless a test sets COLUMNS.
  env = { ...(await loginEnv(sandbox.url)), COLUMNS: undefined, LINES: undefined };
});

afterAll(async () => {
  await sandbox?.close();
});

/** The table's own lines (its frame drawn with box characters). */
const tableLines = (out: string) => out.split('\n').filter((l) => /^[┌│└]/.test(l));
const headings = (out: string) =>
  (tableLines(out)[1] ?? '')
    .split('│')
    .map((c) => c.trim())
    .filter(Boolean);
/** The words under the table, lines joined: a note is wrapped to the width. */
const footOf = (out: string) =>
  out
    .split('\n')
    .filter((l) => l !== '' && !/^[┌│└]/.test(l))
    .join(' ');
/** The note on the columns left out, without the closing line after it. */
const noteOf = (out: string) => /\d+ columns? left out for width: .*?\)/.exec(footOf(out))?.[0];

describe('a sales table at 60, 80 and 200 columns', () => {
  it('fits each width, keeps the total, and names what it left out', async () => {
    const widths = [60, 80, 200];
    const runs = await Promise.all(
      widths.map((w) => runCli(['sales', '--limit', '20', '--format', 'table', ...R], { env, columns: w })),
    );
    for (const [i, r] of runs.entries()) {
      expect(r.code, r.stderr).toBe(0);
      const w = widths[i] as number;
      for (const l of tableLines(r.stdout)) expect([...l].length).toBeLessThanOrEqual(w);
      expect(headings(r.stdout)).toContain('total');
    }
    const [narrow, eighty, wide] = runs.map((r) => r.stdout) as [string, string, string];
    expect(headings(wide)).toEqual([
      'id',
      'name',
      'date',
      'total',
      'paid',
      'tax',
      'state',
      'register',
      'session',
      'payments',
    ]);
    expect(noteOf(wide)).toBeUndefined();
    // What 80 columns leave out is named by the field names --fields takes, with the way to see them.
    const left =
      /(\d+) columns? left out for width: ([a-z_, ]+) \(--format csv has every column; --fields chooses them\)$/.exec(
        noteOf(eighty) ?? '',
      );
    expect(left, eighty).not.toBeNull();
    const names = (left?.[2] ?? '').split(', ');
    expect(names).toEqual(expect.arrayContaining(['amount_tax', 'amount_paid']));
    expect(Number(left?.[1])).toBe(names.length);
    expect(names.length + headings(eighty).length).toBe(10);
    expect(noteOf(narrow)).toMatch(/: state, /);
    // The closing line stays the last line.
    for (const out of [narrow, eighty, wide]) expect(out.trimEnd().split('\n').at(-1)).toMatch(/^20 sales/);
  });

  it('COLUMNS, when set, wins over the terminal width', async () => {
    const r = await runCli(['sales', '--limit', '5', '--format', 'table', ...R], {
      env: { ...env, COLUMNS: '60' },
      columns: 200,
    });
    expect(r.code, r.stderr).toBe(0);
    for (const l of tableLines(r.stdout)) expect([...l].length).toBeLessThanOrEqual(60);
    expect(noteOf(r.stdout)).toBeDefined();
  });
});

describe('closures at 80 columns', () => {
  it('shows the counted cash and the payments, and every line fits', async () => {
    const r = await runCli(['closures', ...ALL, '--format', 'table', ...R], { env, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    expect(tableLines(r.stdout).length).toBeGreaterThan(3);
    for (const l of r.stdout.split('\n')) expect([...l].length).toBeLessThanOrEqual(80);
    expect(headings(r.stdout)).toEqual(expect.arrayContaining(['counted cash', 'payments']));
    // What gives way is named as before: the opening time, and the state every closure shares.
    expect(noteOf(r.stdout)).toMatch(/^2 columns left out for width: start_at, state /);
  });
});

describe('the summary at 80 and 200 columns', () => {
  it('names the columns it leaves out at 80 (gross, discounts, the payment methods), none at 200', async () => {
    const [eighty, wide] = await Promise.all(
      [80, 200].map((w) => runCli(['summary', ...ALL, '--format', 'table', ...R], { env, columns: w })),
    );
    expect(eighty.code, eighty.stderr).toBe(0);
    for (const l of eighty.stdout.split('\n')) expect([...l].length).toBeLessThanOrEqual(80);
    const wideHead = headings(wide.stdout);
    expect(wideHead).toEqual(expect.arrayContaining(['gross', 'discounts']));
    expect(wide.stdout).not.toContain('left out');
    const shown = headings(eighty.stdout);
    const note =
      /(\d+) columns? left out for width: (.+) \(widen the terminal, or --format csv has them all\) \d+ groups?$/.exec(
        footOf(eighty.stdout),
      );
    expect(note, eighty.stdout).not.toBeNull();
    const left = (note?.[2] ?? '').split(', ');
    expect(left).toEqual(wideHead.filter((h) => !shown.includes(h)));
    expect(left).toEqual(expect.arrayContaining(['gross', 'discounts']));
  });
});

describe('lines, configs and the X report as a person reads them', () => {
  it('a ticket of one line: one product column, "1 line"', async () => {
    const rpc = rpcClient(sandbox.url);
    const lines = await rpc.ok<{ order_id: [number, string] }[]>('pos.order.line', 'search_read', [[]], {
      fields: ['order_id'],
    });
    const perOrder = new Map<number, number>();
    for (const l of lines) perOrder.set(l.order_id[0], (perOrder.get(l.order_id[0]) ?? 0) + 1);
    const one = [...perOrder].find(([, n]) => n === 1)?.[0];
    expect(one).toBeDefined();
    const r = await runCli(['lines', String(one), '--format', 'table', ...R], { env, columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    expect(headings(r.stdout).filter((h) => h === 'product')).toHaveLength(1);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^1 line, total -?\d+\.\d\d$/);
  });

  it('--with-payments: one payments column, the methods and amounts, not the ids beside them', async () => {
    const r = await runCli(['sales', '--limit', '5', '--with-payments', '--format', 'table', ...R, ...ALL], {
      env,
      columns: 250,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(headings(r.stdout).filter((h) => h === 'payments')).toHaveLength(1);
    const rows = tableLines(r.stdout).slice(2, -1);
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row).toMatch(/│ [^│]*\d+\.\d\d(, [^│]*\d+\.\d\d)* *│$/);
    // Without it, the ids are the sale's only payments column; json keeps both keys.
    const plain = await runCli(['sales', '--limit', '5', '--format', 'table', ...R, ...ALL], {
      env,
      columns: 250,
    });
    expect(headings(plain.stdout).filter((h) => h === 'payments')).toHaveLength(1);
    const json = await runCli(
      ['sales', '--limit', '1', '--with-payments', '--format', 'json', ...R, ...ALL],
      { env },
    );
    expect(Object.keys(JSON.parse(json.stdout)[0])).toEqual(
      expect.arrayContaining(['payment_ids', 'payments']),
    );
  });

  it('refunds head the order a refund refunds "refunded order", and name it there', async () => {
    const args = ['refunds', ...ALL, '--limit', '5', '--sort', 'id', ...R];
    const [table, json] = await Promise.all([
      runCli([...args, '--format', 'table'], { env, columns: 200 }),
      runCli([...args, '--format', 'json'], { env }),
    ]);
    expect(table.code, table.stderr).toBe(0);
    const head = headings(table.stdout);
    const at = head.indexOf('refunded order');
    expect(at, head.join('|')).toBeGreaterThan(0);
    const cells = tableLines(table.stdout)
      .slice(2, -1)
      .map((l) => l.split('│').slice(1, -1)[at]?.trim());
    const refunded = (JSON.parse(json.stdout) as { refunded_order_id: [number, string] }[]).map(
      (r) => r.refunded_order_id[1],
    );
    expect(refunded).toHaveLength(5);
    expect(cells).toEqual(refunded);
  });

  it("lines at 80 columns: a product's name, not its internal reference cut short", async () => {
    const r = await runCli(['lines', '--format', 'table', '--limit', '30', ...R, ...ALL], {
      env,
      columns: 80,
    });
    expect(r.code, r.stderr).toBe(0);
    const head = headings(r.stdout);
    const at = head.indexOf('product');
    expect(at).toBeGreaterThanOrEqual(0);
    const cells = tableLines(r.stdout)
      .slice(2, -1)
      .map((l) => (l.split('│')[at + 1] ?? '').trim());
    expect(cells).toHaveLength(30);
    // The sandbox's products carry references ([FURN_0007] ...): none is shown instead of the name.
    for (const c of cells) expect(c).not.toMatch(/^\[/);
    const wide = await runCli(['lines', '--format', 'table', '--limit', '30', ...R, ...ALL], {
      env,
      columns: 250,
    });
    expect(wide.stdout).toMatch(/│ \[[A-Z]+_\d+\] /);
  });

  it("configs names each register's payment methods", async () => {
    const rpc = rpcClient(sandbox.url);
    const configs = await rpc.ok<{ name: string; payment_method_ids: number[] }[]>(
      'pos.config',
      'search_read',
      [[]],
      {
        fields: ['name', 'payment_method_ids'],
      },
    );
    const methods = await rpc.ok<{ id: number; name: string }[]>('pos.payment.method', 'search_read', [[]], {
      fields: ['name'],
    });
    const name = new Map(methods.map((m) => [m.id, m.name]));
    const r = await runCli(['configs', '--format', 'table', ...R], { env, columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    const head = headings(r.stdout);
    const at = head.indexOf('methods');
    for (const c of configs) {
      const row = tableLines(r.stdout)
        .map((l) =>
          l
            .split('│')
            .slice(1, -1)
            .map((x) => x.trim()),
        )
        .find((cells) => cells[1] === c.name);
      expect(row?.[at]).toBe(c.payment_method_ids.map((id) => name.get(id)).join(', '));
    }
  });

  it('the X report of an open session says it is open, once', async () => {
    const rpc = rpcClient(sandbox.url);
    const open = await rpc.ok<{ id: number; name: string }[]>(
      'pos.session',
      'search_read',
      [[['state', '=', 'opened']]],
      {
        fields: ['name'],
        limit: 1,
      },
    );
    expect(open).toHaveLength(1);
    const r = await runCli(['summary', '--session-id', String(open[0]?.id), '--format', 'table', ...R], {
      env,
      columns: 200,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`X report: ${open[0]?.name} \\(.+\\), still open\\n`));
    expect(r.stdout).not.toContain('open, opened');
  });
});
