// posdata books against the sandbox over real HTTP: its closings' entries (account.move,
// account.move.line, as a real Odoo 17 posts them; test/sandbox/wirebooks.test.ts checks their
// shape) agree to the cent with the POS; `--faults books` makes five closings drift, each named;
// two companies give each its rows; a POS user is told which right is missing (exit 5); a month
// is a handful of requests.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type Row = Record<string, string | number | boolean | null>;
const MONTH = ['--from', '2026-11-01', '--to', '2026-11-30', '--tz', 'UTC'];

async function booksJson(env: Record<string, string>, args: string[] = MONTH): Promise<Row[]> {
  const r = await runCli(['books', '--format', 'json', ...args], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Row[];
}

describe('books of a sandbox whose closings posted what the tills took', () => {
  let sandbox: SandboxHandle;
  let env: Record<string, string>;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 7, orders: 1500, days: 12 });
    env = await loginEnv(sandbox.url);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('agrees to the cent on every line of every closed session, and --fail-on-difference exits 0', async () => {
    const rows = await booksJson(env);
    expect(new Set(rows.map((r) => r.session_id)).size).toBeGreaterThan(20);
    expect(rows.filter((r) => !r.agrees)).toEqual([]);
    expect(rows.every((r) => r.entry_state === 'posted' && r.journal === 'Point of Sale')).toBe(true);
    expect(rows.some((r) => r.line === 'invoice payments')).toBe(true);
    expect(rows.some((r) => r.line === 'cash difference' && r.pos !== 0)).toBe(true);
    const r = await runCli(['books', ...MONTH, '--fail-on-difference', '--quiet'], { env });
    expect(r.code, r.stderr).toBe(0);
  });

  it("tells Odoo's balancing line in any language: by what it is, a receivable line of no method reconciled with nothing", async () => {
    // The same closings, their two translated labels ("Difference at closing PoS session", "From
    // invoice payments") in French: the rows are the same, the balancing lines' included.
    const english = await booksJson(env);
    expect(english.filter((r) => r.line === 'closing balance').length).toBeGreaterThan(0);
    const french = await startTestSandbox({ seed: 7, orders: 1500, days: 12, faults: 'books-fr' });
    try {
      expect(await booksJson(await loginEnv(french.url))).toEqual(english);
    } finally {
      await french.close();
    }
  });

  it('reads a month in the same handful of requests as a day, none per session', async () => {
    const count = async (args: string[]): Promise<number> => {
      const before = sandbox.requestCount();
      await booksJson(env, args);
      return sandbox.requestCount() - before;
    };
    const day = await count(['--date', '2026-11-20', '--tz', 'UTC']);
    const month = await count(MONTH);
    expect(month).toBe(day);
    expect(month).toBeLessThanOrEqual(20);
  });

  it('tells a POS user which right is missing (exit 5, one line), and --pos-only gives the POS side', async () => {
    const pos = await loginEnv(sandbox.url, 'pos', 'pos');
    const r = await runCli(['books', '--format', 'json', ...MONTH], { env: pos });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/accounting rights.*Journal Item.*--pos-only/);
    const side = await booksJson(pos, [...MONTH, '--pos-only']);
    expect(side.length).toBeGreaterThan(0);
    expect(side.every((x) => x.books === null && x.entry_state === null)).toBe(true);
  });
});

describe('books of a sandbox with --faults books: five closings drift, each named', () => {
  let sandbox: SandboxHandle;
  let env: Record<string, string>;
  let rows: Row[];
  const of = (kind: string): Row[] => {
    // The drifted sessions are company 1's last five closings, newest first: draft, edited,
    // missing, invoiced late, another journal (src/sandbox/data/books.ts).
    const sessions = [...new Set(rows.map((r) => r.session_id as number))].sort((a, b) => b - a);
    const k = ['draft', 'edited', 'missing', 'late', 'journal'].indexOf(kind);
    return rows.filter((r) => r.session_id === sessions[k]);
  };
  const line = (rs: Row[], name: string): Row => rs.find((r) => r.line === name) as Row;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 7, orders: 1500, days: 12, faults: 'books' });
    env = await loginEnv(sandbox.url);
    rows = await booksJson(env);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('names an entry in draft', () => {
    const rs = of('draft');
    expect(rs.every((r) => r.entry_state === 'draft')).toBe(true);
    expect(line(rs, 'entry')).toMatchObject({ agrees: false, note: 'the entry is draft, not posted' });
  });

  it('names an entry edited by hand: 10 less of sales, the 10 on a line it cannot place', () => {
    const rs = of('edited');
    expect(line(rs, 'sales')).toMatchObject({ difference: -10, agrees: false });
    expect(line(rs, 'other lines')).toMatchObject({ books: -10 });
  });

  it('names a session without an entry: every figure unbooked', () => {
    const rs = of('missing');
    expect(rs.every((r) => r.entry_state === 'missing' && r.entry === null)).toBe(true);
    expect(line(rs, 'entry').note).toBe('no journal entry for this session');
    expect(line(rs, 'sales').difference).toBe(-(line(rs, 'sales').pos as number));
  });

  it('names an order invoiced after its session closed, its sales still in the closing', () => {
    const rs = of('late');
    expect(line(rs, 'invoices').note).toMatch(/^POS\/\d+ invoiced after closing \(INV\/\d{4}\/L\d+\)$/);
    expect(rs.filter((r) => !r.agrees)).toEqual([]);
    // Taken out of the closing again by an entry of the register's journal, as Odoo 17 does.
    const rev = line(rs, 'late invoice reversal');
    expect(rev.note).toMatch(/^POS\/\d+ reversed in POSS\/\d{4}\/\d{2}\/\d{4}$/);
    expect(rev.pos).toBeGreaterThan(0);
    expect(rev.books).toBe(rev.pos);
  });

  it("names a method whose receivable went under another journal's name", () => {
    const rs = of('journal');
    const card = line(rs, 'payment: Card');
    expect(card.books).toBe(0);
    expect(card.agrees).toBe(false);
    expect(line(rs, 'other lines').books).toBe(card.pos);
  });

  it('leaves every other session agreeing', () => {
    const drifted = new Set(
      ['draft', 'edited', 'missing', 'journal'].flatMap((k) => of(k).map((r) => r.session_id)),
    );
    expect(rows.filter((r) => !r.agrees && !drifted.has(r.session_id))).toEqual([]);
  });

  it('keeps the note on a narrow terminal, where an entry row says everything: other columns go first', async () => {
    const r = await runCli(['books', ...MONTH, '--format', 'table'], { env: { ...env, COLUMNS: '80' } });
    expect(r.code, r.stderr).toBe(0);
    const table = r.stdout.split('\n');
    expect(table.filter((l) => /^[│┌└├]/.test(l) && [...l].length > 80)).toEqual([]);
    // The note wraps within its cell: the draft entry's row, then the rest of its sentence.
    const at = table.findIndex((l) => /│ entry +│ +│ the entry is draft, not +│$/.test(l));
    expect(at, r.stdout).toBeGreaterThan(0);
    expect(table[at + 1]).toMatch(/│ posted +│$/);
    expect(r.stdout).toMatch(/left out for width: register, closed, entry, pos, books/);
  });

  it('writes CSV with --delimiter and --decimal, as summary does', async () => {
    const r = await runCli(['books', ...MONTH, '--format', 'csv', '--delimiter', ';', '--decimal', ','], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    const csv = parse(r.stdout, { columns: true, delimiter: ';' }) as Record<string, string>[];
    expect(csv).toHaveLength(rows.length);
    const sales = csv.find((c) => c.line === 'sales' && c.pos !== '0') as Record<string, string>;
    const mine = rows.find((x) => x.session_id === Number(sales.session_id) && x.line === 'sales') as Row;
    expect(sales.pos).toBe(String(mine.pos).replace('.', ','));
  });

  it('exits 7 with --fail-on-difference after writing the output, in every format', async () => {
    for (const format of ['table', 'json', 'ndjson', 'csv']) {
      const r = await runCli(['books', ...MONTH, '--format', format, '--fail-on-difference'], { env });
      expect(r.code, `${format}: ${r.stderr}`).toBe(7);
      const err = r.stderr.trim().split('\n');
      expect(err, format).toHaveLength(1);
      expect(err[0]).toMatch(/the books differ from the POS in 4 of \d+ sessions/);
      if (format === 'json') expect((JSON.parse(r.stdout) as Row[]).length).toBe(rows.length);
      if (format === 'ndjson') expect(r.stdout.trim().split('\n')).toHaveLength(rows.length);
      if (format === 'csv') {
        const csv = parse(r.stdout, { columns: true }) as Record<string, string>[];
        expect(csv).toHaveLength(rows.length);
        expect(csv.filter((c) => c.agrees === 'false').length).toBe(rows.filter((x) => !x.agrees).length);
      }
      if (format === 'table') expect(r.stdout).toMatch(/│ entry +│/);
    }
  });
});

describe('books of two companies', () => {
  let sandbox: SandboxHandle;
  let env: Record<string, string>;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 3, orders: 600, days: 6, companies: 2 });
    env = await loginEnv(sandbox.url);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('gives each company its rows in its currency, never a sum across them', async () => {
    const rows = await booksJson(env);
    const pairs = new Set(rows.map((r) => `${r.company_id}|${r.currency}`));
    expect(pairs).toEqual(new Set(['1|EUR', '2|USD']));
    expect(rows.filter((r) => !r.agrees)).toEqual([]);
    const r = await runCli(['books', ...MONTH, '--format', 'table'], { env });
    expect(r.code, r.stderr).toBe(0);
    // One table per company and currency, each under its name.
    expect(r.stdout).toMatch(/^My Company \(EUR\)$/m);
    expect(r.stdout).toMatch(/^Shop US \(USD\)$/m);
  });
});

describe.each([16, 18, 19] as const)('books of a sandbox presenting Odoo %i', (version) => {
  let sandbox: SandboxHandle;
  let env: Record<string, string>;
  beforeAll(async () => {
    sandbox = await startTestSandbox({
      seed: 7,
      orders: 1500,
      days: 12,
      faults: 'books',
      odooVersion: version,
    });
    env = await loginEnv(sandbox.url);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('agrees where the closings posted what the tills took, names the four drifts, and reads the late invoice’s reversal', async () => {
    const rows = await booksJson(env);
    const off = new Set(rows.filter((r) => !r.agrees).map((r) => r.session_id));
    expect(off.size).toBe(4);
    // 19 keeps an invoiced order 'done' (16-18: 'invoiced'): the invoice is told by account_move.
    const rev = rows.find((r) => r.line === 'late invoice reversal') as Row;
    expect(rev.note).toMatch(/^POS\/\d+ reversed in POSS\/\d{4}\/\d{2}\/\d{4}$/);
    expect(rev).toMatchObject({ agrees: true });
    expect(rev.books).toBe(rev.pos);
    expect(rows.some((r) => r.line === 'invoice payments' && r.agrees)).toBe(true);
  });
});
