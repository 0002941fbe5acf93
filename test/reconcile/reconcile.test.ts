// posdata reconcile against the sandbox over real HTTP: every figure is recomputed here from
// the raw sessions, payments and cash statement lines read with direct JSON-RPC calls.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const P = ['--rate', '0'];
const BASE_KEYS = [
  'session_id',
  'session',
  'config_id',
  'register',
  'opened',
  'closed',
  'opening_cash',
  'cash_taken',
  'cash_moves',
  'expected_cash',
  'counted_cash',
  'difference',
];

type Row = Record<string, string | number | null>;
type Rec = Record<string, unknown> & { id: number };

const cents = (v: number): number => Math.round(v * 100) / 100;
const id = (v: unknown): number => (Array.isArray(v) ? (v[0] as number) : (v as number));

let sandbox: SandboxHandle;
let rpc: Rpc;
let env: Record<string, string>;

beforeAll(async () => {
  // The data's clock is fixed: which sessions end short or over depends on it, and the tests need both.
  sandbox = await startTestSandbox({
    seed: 5,
    orders: 1500,
    days: 10,
    now: new Date('2024-06-15T12:00:00Z'),
  });
  rpc = new Rpc(sandbox.url);
  await rpc.auth();
  env = await loginEnv(sandbox.url);
});

afterAll(async () => {
  await sandbox?.close();
});

async function reconcileJson(args: string[]): Promise<Row[]> {
  const r = await runCli(['reconcile', ...args, '--format', 'json', ...P], { env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Row[];
}

/** The reference: the same figures added up from the raw records. */
async function reference(domain: unknown[]): Promise<Map<number, Row>> {
  const sessions = await rpc.searchRead<Rec>('pos.session', domain, {
    fields: [
      'name',
      'config_id',
      'start_at',
      'stop_at',
      'cash_register_balance_start',
      'cash_register_balance_end_real',
    ],
  });
  const ids = sessions.map((s) => s.id);
  const payments = await rpc.searchRead<Rec>('pos.payment', [['session_id', 'in', ids]], {
    fields: ['session_id', 'payment_method_id', 'amount'],
  });
  const moves = await rpc.searchRead<Rec>('account.bank.statement.line', [['pos_session_id', 'in', ids]], {
    fields: ['pos_session_id', 'amount', 'payment_ref'],
  });
  const methods = await rpc.searchRead<Rec>('pos.payment.method', [], {
    fields: ['name', 'is_cash_count'],
    context: { active_test: false },
  });
  const configs = await rpc.kw<Rec[]>(
    'pos.config',
    'read',
    [[...new Set(sessions.map((s) => id(s.config_id)))]],
    {
      fields: ['name'],
    },
  );
  const cash = new Set(methods.filter((m) => m.is_cash_count).map((m) => m.id));
  const methodName = new Map(methods.map((m) => [m.id, m.name as string]));
  const out = new Map<number, Row>();
  for (const s of sessions) {
    const mine = payments.filter((p) => id(p.session_id) === s.id);
    const taken = mine
      .filter((p) => cash.has(id(p.payment_method_id)))
      .reduce((a, p) => a + (p.amount as number), 0);
    // The lines a closing books (the cash takings, named after the session, and the counted
    // difference) are statement lines of the session but not cash moves.
    const closing = (l: Rec) =>
      l.payment_ref === s.name ||
      /^Cash difference observed during the counting \(\w+\) - closing$/.test(String(l.payment_ref));
    const moved = moves
      .filter((l) => id(l.pos_session_id) === s.id && !closing(l))
      .reduce((a, l) => a + (l.amount as number), 0);
    const opening = s.cash_register_balance_start as number;
    const counted = s.cash_register_balance_end_real as number;
    const row: Row = {
      session_id: s.id,
      session: s.name as string,
      config_id: id(s.config_id),
      register: configs.find((c) => c.id === id(s.config_id))?.name as string,
      opened: s.start_at as string,
      closed: s.stop_at as string,
      opening_cash: cents(opening),
      cash_taken: cents(taken),
      cash_moves: cents(moved),
      expected_cash: cents(opening + taken + moved),
      counted_cash: cents(counted),
      difference: cents(counted - (opening + taken + moved)),
    };
    for (const p of mine) {
      const k = `method:${methodName.get(id(p.payment_method_id))}`;
      row[k] = cents(((row[k] as number | undefined) ?? 0) + (p.amount as number));
    }
    out.set(s.id, row);
  }
  return out;
}

function expectSameFigures(got: Row[], want: Map<number, Row>): void {
  expect(got.map((r) => r.session_id).sort()).toEqual([...want.keys()].sort());
  for (const r of got) {
    const w = want.get(r.session_id as number) as Row;
    for (const k of BASE_KEYS) {
      if (typeof w[k] === 'number') expect(r[k], `${k} of ${r.session}`).toBeCloseTo(w[k] as number, 2);
      else expect(r[k], `${k} of ${r.session}`).toBe(w[k]);
    }
    // One key per method; methods without payments in this session are 0.
    for (const k of Object.keys(r).filter((k) => k.startsWith('method:'))) {
      expect(r[k], `${k} of ${r.session}`).toBeCloseTo((w[k] as number | undefined) ?? 0, 2);
    }
    for (const k of Object.keys(w).filter((k) => k.startsWith('method:'))) expect(r).toHaveProperty([k]);
  }
}

describe('posdata reconcile', () => {
  it('adds every figure of a business day up from the raw payments, cash moves and sessions', async () => {
    const [last] = await rpc.searchRead<Rec>('pos.session', [['state', '=', 'closed']], {
      fields: ['stop_at'],
      order: 'stop_at desc',
      limit: 1,
    });
    const day = (last.stop_at as string).slice(0, 10);
    const got = await reconcileJson(['--date', day, '--tz', 'UTC']);
    const want = await reference([
      ['state', '=', 'closed'],
      ['stop_at', '>=', `${day} 00:00:00`],
      ['stop_at', '<', nextDay(day)],
    ]);
    expect(got.length).toBeGreaterThan(1);
    // --tz given: times in ISO 8601 with the zone's offset.
    for (const r of got) {
      const w = want.get(r.session_id as number) as Row;
      expect(r.closed).toBe(`${(w.closed as string).replace(' ', 'T')}Z`);
      w.opened = `${(w.opened as string).replace(' ', 'T')}Z`;
      w.closed = r.closed;
    }
    expectSameFigures(got, want);
    // The contract's keys, in its order, then the methods.
    const keys = Object.keys(got[0]);
    expect(keys.slice(0, BASE_KEYS.length)).toEqual(BASE_KEYS);
    expect(keys.slice(BASE_KEYS.length).every((k) => k.startsWith('method:'))).toBe(true);
  });

  it('covers every closed session of a range, with UTC times when no --tz is given', async () => {
    const got = await reconcileJson(['--from', '2000-01-01', '--to', 'today']);
    const want = await reference([['state', '=', 'closed']]);
    expect(got.length).toBe(await rpc.count('pos.session', [['state', '=', 'closed']]));
    expectSameFigures(got, want);
    // Cash moves and change given back are really there to be counted.
    expect(got.some((r) => (r.cash_moves as number) < 0)).toBe(true);
    expect(got.some((r) => (r.cash_moves as number) > 0)).toBe(true);
    const change = await rpc.count('pos.payment', [['amount', '<', 0]]);
    expect(change).toBeGreaterThan(0);
  });

  it('filters one register, and the csv carries the same keys and figures', async () => {
    const r = await runCli(
      ['reconcile', '--from', '2000-01-01', '--to', 'today', '--config-id', '2', '--format', 'csv', ...P],
      {
        env,
      },
    );
    expect(r.code).toBe(0);
    const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
    const json = await reconcileJson(['--from', '2000-01-01', '--to', 'today', '--config-id', '2']);
    expect(rows.length).toBe(json.length);
    expect(rows.length).toBe(
      await rpc.count('pos.session', [
        ['state', '=', 'closed'],
        ['config_id', '=', 2],
      ]),
    );
    expect(Object.keys(rows[0])).toEqual(Object.keys(json[0]));
    rows.forEach((row, i) => {
      // Money is written at the currency's decimals (0.00, 12.50); the figure is the same.
      for (const [k, v] of Object.entries(json[i]))
        if (typeof v === 'number') expect(Number(row[k]), k).toBe(v);
        else expect(row[k]).toBe(v === null ? '' : String(v));
    });
  });

  it("--delimiter ';' --decimal ',' shape the csv as summary's: every cell split by ';', money with a comma", async () => {
    const range = ['--from', '2000-01-01', '--to', 'today', '--config-id', '2'];
    const r = await runCli(
      ['reconcile', ...range, '--format', 'csv', '--delimiter', ';', '--decimal', ',', ...P],
      { env },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = parse(r.stdout, { columns: true, delimiter: ';' }) as Record<string, string>[];
    const json = await reconcileJson(range);
    expect(rows.length).toBe(json.length);
    expect(Object.keys(rows[0])).toEqual(Object.keys(json[0]));
    rows.forEach((row, i) => {
      for (const [k, v] of Object.entries(json[i]))
        if (typeof v === 'number' && !Number.isInteger(v)) {
          expect(row[k], k).toMatch(/^-?\d+,\d{2}$/);
          expect(Number(row[k]?.replace(',', '.')), k).toBe(v);
        }
    });
  });

  it('flags sessions over and short: signed, coloured, counted in the closing line', async () => {
    const got = await reconcileJson(['--from', '2000-01-01', '--to', 'today']);
    const short = got.filter((r) => (r.difference as number) < -0.01);
    const over = got.filter((r) => (r.difference as number) > 0.01);
    expect(short.length).toBeGreaterThan(0);
    expect(over.length).toBeGreaterThan(0);

    const plain = await runCli(
      ['reconcile', '--from', '2000-01-01', '--to', 'today', '--format', 'table', ...P],
      {
        env: { ...env, COLUMNS: '200' },
      },
    );
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toMatch(/\x1b\[/);
    const s = short[0];
    const o = over[0];
    expect(lineOf(plain.stdout, s.session as string)).toContain(` ${(s.difference as number).toFixed(2)} `);
    expect(lineOf(plain.stdout, o.session as string)).toContain(` +${(o.difference as number).toFixed(2)} `);
    expect(plain.stdout).toContain(
      `${got.length} sessions, ${short.length + over.length} differ by more than 0.01 (${short.length} short, ${over.length} over;`,
    );
    // A totals row per register and one for the range.
    const registers = new Set(got.map((r) => r.register));
    expect(plain.stdout.match(/total \(\d+\)/g)?.length).toBe(registers.size > 1 ? registers.size + 1 : 1);
    const all = lineOf(plain.stdout, `total (${got.length})`);
    const sum = cents(got.reduce((a, r) => a + (r.difference as number), 0));
    expect(all).toContain(` ${sum > 0 ? '+' : ''}${sum.toFixed(2)} `);

    const colour = await runCli(
      ['reconcile', '--from', '2000-01-01', '--to', 'today', '--format', 'table', ...P],
      {
        env: { ...env, COLUMNS: '200', NO_COLOR: undefined, FORCE_COLOR: '1' },
      },
    );
    expect(lineOf(colour.stdout, s.session as string)).toContain(
      `\x1b[31m${(s.difference as number).toFixed(2)}`,
    );
    expect(lineOf(colour.stdout, o.session as string)).toContain(
      `\x1b[33m+${(o.difference as number).toFixed(2)}`,
    );
    // A session that balances is not painted.
    const fine = got.find((r) => r.difference === 0);
    if (fine) expect(lineOf(colour.stdout, fine.session as string)).not.toMatch(/\x1b\[3[13]m/);
  });

  it('exits 7 only when a difference exceeds the tolerance, after writing the output', async () => {
    const got = await reconcileJson(['--from', '2000-01-01', '--to', 'today']);
    const differing = got.filter((r) => Math.abs(r.difference as number) > 0.01);
    const worst = Math.max(...differing.map((r) => Math.abs(r.difference as number)));
    const dir = mkdtempSync(join(tmpdir(), 'posdata-rec-'));
    const file = join(dir, 'rec.json');
    const failing = await runCli(
      ['reconcile', '--from', '2000-01-01', '--to', 'today', '--fail-on-difference', '-o', file, ...P],
      { env },
    );
    expect(failing.code).toBe(7);
    expect(failing.stderr.trim().split('\n')).toHaveLength(1);
    expect(failing.stderr).toMatch(
      new RegExp(`^posdata: ${differing.length} of ${got.length} sessions differ`),
    );
    expect(failing.stderr).toContain(worst.toFixed(2));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveLength(got.length);

    const tolerant = await runCli(
      [
        'reconcile',
        '--from',
        '2000-01-01',
        '--to',
        'today',
        '--fail-on-difference',
        '--tolerance',
        String(worst + 1),
        '--format',
        'json',
        ...P,
      ],
      { env },
    );
    expect(tolerant.code).toBe(0);
    // Exactly at the tolerance is fine; a cent less is not.
    const atTolerance = await runCli(
      [
        'reconcile',
        '--from',
        '2000-01-01',
        '--to',
        'today',
        '--fail-on-difference',
        '--tolerance',
        worst.toFixed(2),
        '--format',
        'json',
        ...P,
      ],
      { env },
    );
    expect(atTolerance.code).toBe(0);
    const under = await runCli(
      [
        'reconcile',
        '--from',
        '2000-01-01',
        '--to',
        'today',
        '--fail-on-difference',
        '--tolerance',
        (worst - 0.01).toFixed(2),
        '--format',
        'json',
        ...P,
      ],
      { env },
    );
    expect(under.code).toBe(7);
    const atWorst = got.filter((r) => Math.abs(r.difference as number) > worst - 0.01 + 1e-9).length;
    expect(under.stderr).toMatch(
      new RegExp(
        `^posdata: ${atWorst} of \\d+ sessions ${atWorst === 1 ? 'differs' : 'differ'} by more than`,
      ),
    );

    // A session that balances passes (without the flag, reconcileJson above saw exit 0).
    const balanced = got.find((r) => r.difference === 0) as Row;
    const one = await runCli(
      [
        'reconcile',
        '--date',
        (balanced.closed as string).slice(0, 10),
        '--tz',
        'UTC',
        '--config-id',
        String(balanced.config_id),
        '--fail-on-difference',
        '--format',
        'json',
        ...P,
      ],
      { env },
    );
    expect(JSON.parse(one.stdout).map((r: Row) => r.difference)).toEqual([0]);
    expect(one.code).toBe(0);
  });

  it('refuses --date together with --from, and a --date that is not a day', async () => {
    const both = await runCli(['reconcile', '--date', 'today', '--from', '7d', ...P], { env });
    expect(both.code).toBe(2);
    const span = await runCli(['reconcile', '--date', '2h', ...P], { env });
    expect(span.code).toBe(2);
  });
});

describe('posdata reconcile on what real Odoo 16/17 write beside the cash moves', () => {
  it('ignores the lines Odoo posts when closing, and follows Odoo where it nets an opening count difference', async () => {
    const sb = await startTestSandbox({ seed: 5, orders: 300, days: 4 });
    try {
      const e = await loginEnv(sb.url);
      const raw = new Rpc(sb.url);
      const args = ['reconcile', '--from', '2000-01-01', '--to', 'today', '--format', 'json', ...P];
      const before = JSON.parse((await runCli(args, { env: e })).stdout) as Row[];
      const byId = (rows: Row[], sid: number): Row => rows.find((r) => r.session_id === sid) as Row;

      // Closing a session, Odoo 16-19 post its cash takings and the counted difference as
      // statement lines of the session; they are not cash moves.
      const closedOne =
        before.find((r) => r.config_id === 3 && r.difference !== 0) ??
        (before.find((r) => r.config_id === 3) as Row);
      await raw.kw('account.bank.statement.line', 'create', [
        {
          pos_session_id: closedOne.session_id,
          amount: closedOne.cash_taken,
          payment_ref: closedOne.session,
          date: '2026-11-20',
        },
      ]);
      if (closedOne.difference !== 0) {
        await raw.kw('account.bank.statement.line', 'create', [
          {
            pos_session_id: closedOne.session_id,
            amount: closedOne.difference,
            payment_ref: 'Cash difference observed during the counting (Loss) - closing',
            date: '2026-11-20',
          },
        ]);
      }
      // An opening count 5.00 above the previous closing: Odoo sets the opening balance to the
      // count and posts the 5.00 as a statement line before any sale (so it is in
      // cash_real_transaction); the drawer then holds 5.00 more at closing too.
      const last = before.filter((r) => r.config_id === 2).at(-1) as Row;
      const [t] = await raw.kw<Rec[]>('pos.session', 'read', [[last.session_id]], {
        fields: ['cash_register_balance_start', 'cash_real_transaction', 'cash_register_balance_end_real'],
      });
      await raw.kw('pos.session', 'write', [
        [t.id],
        {
          cash_register_balance_start: (t.cash_register_balance_start as number) + 5,
          cash_real_transaction: (t.cash_real_transaction as number) + 5,
          cash_register_balance_end_real: (t.cash_register_balance_end_real as number) + 5,
        },
      ]);
      await raw.kw('account.bank.statement.line', 'create', [
        {
          pos_session_id: t.id,
          amount: 5,
          payment_ref: 'Cash difference observed during the counting (Profit) - opening',
          date: '2026-11-20',
        },
      ]);

      const r = await runCli(args, { env: e });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(
        new RegExp(
          `^posdata: note: for 1 session \\(e\\.g\\. ${last.session}\\) expected cash is Odoo's theoretical balance`,
        ),
      );
      // The note points at the page that explains it (a README section it once named is gone).
      expect(r.stderr).toMatch(/\(docs\/reconcile\.md, expected_cash\)\n$/);
      const after = JSON.parse(r.stdout) as Row[];
      for (const row of after.filter((x) => x.session_id !== last.session_id)) {
        expect(row).toEqual(byId(before, row.session_id as number));
      }
      const lines = await raw.searchRead<Rec>(
        'account.bank.statement.line',
        [['pos_session_id', '=', closedOne.session_id]],
        {
          fields: ['amount'],
        },
      );
      // A plain sum of the statement lines would count the takings twice.
      expect(cents(lines.reduce((a, l) => a + (l.amount as number), 0))).not.toBe(closedOne.cash_moves);

      const b = byId(before, last.session_id as number);
      const a = byId(after, last.session_id as number);
      expect(a.opening_cash).toBeCloseTo((b.opening_cash as number) + 5, 2);
      expect(a.cash_moves).toBeCloseTo(b.cash_moves as number, 2);
      expect(a.expected_cash).toBeCloseTo((b.expected_cash as number) + 5, 2);
      expect(a.counted_cash).toBeCloseTo((b.counted_cash as number) + 5, 2);
      expect(a.difference).toBeCloseTo(b.difference as number, 2);
      const [odoo] = await raw.kw<Rec[]>('pos.session', 'read', [[last.session_id]], {
        fields: ['cash_register_difference'],
      });
      expect(a.difference).toBeCloseTo(odoo.cash_register_difference as number, 2);
    } finally {
      await sb.close();
    }
  });
});

describe('posdata reconcile RPC count', () => {
  it('stays flat from a handful of sessions to 500', async () => {
    const counts: { sessions: number; rpcs: number; debugLines: number }[] = [];
    // seed 5 has four registers: days 3 gives 8 closed sessions, days 126 gives 500.
    for (const days of [3, 126]) {
      const sb = await startTestSandbox({ seed: 5, orders: days * 8, days });
      try {
        const e = await loginEnv(sb.url);
        const before = sb.requestCount();
        const r = await runCli(
          ['reconcile', '--from', '2000-01-01', '--to', 'today', '--format', 'json', '--debug', ...P],
          {
            env: e,
          },
        );
        expect(r.code).toBe(0);
        const rows = JSON.parse(r.stdout) as Row[];
        counts.push({
          sessions: rows.length,
          rpcs: sb.requestCount() - before,
          debugLines: (r.stderr.match(/^\[rpc\] →/gm) ?? []).length,
        });
      } finally {
        await sb.close();
      }
    }
    expect(counts[0].sessions).toBeLessThanOrEqual(10);
    expect(counts[1].sessions).toBe(500);
    expect(counts[1].rpcs).toBe(counts[0].rpcs);
    expect(counts[1].debugLines).toBe(counts[0].debugLines);
    // Five for the figures, two for the currency's decimals (res.company, res.currency).
    expect(counts[1].rpcs).toBeLessThanOrEqual(8);
  });
});

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return `${d.toISOString().slice(0, 10)} 00:00:00`;
}

function lineOf(table: string, needle: string): string {
  const line = table.split('\n').find((l) => l.includes(needle));
  if (!line) throw new Error(`no line with ${needle} in\n${table}`);
  return line;
}
