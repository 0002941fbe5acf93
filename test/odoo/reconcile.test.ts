// posdata reconcile against the real Odoo 17, as the administrator and as a POS user: each
// closed session's figures equal what Odoo itself computed for it (cash_register_difference,
// cash_register_balance_end, cash_register_balance_end_real) and the payments Odoo holds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loginOdoo, rpcOdoo } from '../helpers/odoo17.js';
import type { Rpc } from '../helpers/rpc.js';
import { duckRows, type Obj, odooTime, Reference, utc } from './reference.js';

const odoo = inject('odoo');
const dir = mkdtempSync(join(tmpdir(), 'posdata-odoo-reconcile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cents = (v: unknown): number => Math.round((v as number) * 100);

describe.each(['admin', 'cashier'] as const)('as %s', (who) => {
  let env: Record<string, string>;
  let rpc: Rpc;
  let ref: Reference;
  let sessions: Obj[];
  /** Odoo's payments summed by session and method name, in cents. */
  const taken = new Map<number, Map<string, number>>();
  const cashMethods = new Set<string>();

  beforeAll(async () => {
    [env, rpc] = await Promise.all([loginOdoo(odoo, who), rpcOdoo(odoo, who)]);
    ref = await Reference.open(rpc);
    sessions = await rpc.searchRead('pos.session', [['state', '=', 'closed']], {
      fields: [
        'config_id',
        'stop_at',
        'cash_control',
        'cash_register_balance_start',
        'cash_register_balance_end',
        'cash_register_balance_end_real',
        'cash_register_difference',
      ],
      order: 'id',
    });
    const methods = await rpc.searchRead('pos.payment.method', [], {
      fields: ['name', 'is_cash_count'],
      context: { active_test: false },
    });
    const nameOf = new Map(methods.map((m) => [m.id as number, m.name as string]));
    for (const m of methods) if (m.is_cash_count) cashMethods.add(m.name as string);
    const payments = await rpc.searchRead('pos.payment', [['session_id', 'in', sessions.map((s) => s.id)]], {
      fields: ['session_id', 'payment_method_id', 'amount'],
    });
    for (const p of payments) {
      const s = (p.session_id as [number])[0];
      const m = nameOf.get((p.payment_method_id as [number])[0]) as string;
      const bySession = taken.get(s) ?? new Map<string, number>();
      bySession.set(m, (bySession.get(m) ?? 0) + cents(p.amount));
      taken.set(s, bySession);
    }
  });

  /** One reconcile row against Odoo's session and payments. */
  function expectSession(row: Obj): void {
    const s = sessions.find((x) => x.id === row.session_id) as Obj;
    const where = `${who}: session ${row.session_id}`;
    expect(s, where).toBeDefined();
    expect(row.config_id, where).toBe((s.config_id as [number])[0]);
    expect(cents(row.difference), `${where} difference`).toBe(cents(s.cash_register_difference));
    expect(cents(row.counted_cash), `${where} counted`).toBe(cents(s.cash_register_balance_end_real));
    expect(cents(row.opening_cash), `${where} opening`).toBe(cents(s.cash_register_balance_start));
    if (s.cash_control)
      expect(cents(row.expected_cash), `${where} expected`).toBe(cents(s.cash_register_balance_end));
    // The contract's arithmetic: expected = opening + taken + moves, difference = counted - expected.
    expect(cents(row.expected_cash), `${where} expected = opening + taken + moves`).toBe(
      cents(row.opening_cash) + cents(row.cash_taken) + cents(row.cash_moves),
    );
    expect(cents(row.difference), `${where} difference = counted - expected`).toBe(
      cents(row.counted_cash) - cents(row.expected_cash),
    );
    const byMethod = taken.get(s.id as number) ?? new Map<string, number>();
    let cash = 0;
    for (const [m, c] of byMethod) {
      expect(cents(row[`method:${m}`]), `${where} method:${m}`).toBe(c);
      if (cashMethods.has(m)) cash += c;
    }
    for (const k of Object.keys(row).filter((k) => k.startsWith('method:'))) {
      expect(cents(row[k]), `${where} ${k}`).toBe(byMethod.get(k.slice(7)) ?? 0);
    }
    expect(cents(row.cash_taken), `${where} cash taken`).toBe(cash);
  }

  it("every closed session: Odoo's difference, theoretical balance and counted cash; json = csv = parquet", async () => {
    const file = join(dir, `reconcile-${who}.parquet`);
    const [j, csv, pq] = await Promise.all(
      [
        ['--format', 'json'],
        ['--format', 'csv'],
        ['-o', file],
      ].map((f) => runCli(['reconcile', '--rate', '0', ...f], { env })),
    );
    for (const r of [j, csv, pq]) {
      expect(r.code).toBe(0);
      // At most reconcile's note on Odoo's theoretical balance (README); no error.
      expect(r.stderr).toMatch(/^(posdata: note: [^\n]+\n)?$/);
    }
    const rows = JSON.parse(j.stdout) as Obj[];
    expect(rows.map((r) => r.session_id).sort((a, b) => (a as number) - (b as number))).toEqual(
      sessions.map((s) => s.id),
    );
    for (const row of rows) expectSession(row);
    const csvRows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(csvRows.length).toBe(rows.length);
    for (const [i, c] of csvRows.entries()) {
      const row = rows[i] as Obj;
      expect(Object.keys(c)).toEqual(Object.keys(row));
      // Money is written at the currency's decimals (0.00): the same figure.
      for (const [k, v] of Object.entries(row))
        if (typeof v === 'number') expect(Number(c[k]), `csv ${row.session_id} ${k}`).toBe(v);
        else expect(c[k], `csv ${row.session_id} ${k}`).toBe(v === null ? '' : String(v));
    }
    const [sum] = await duckRows(
      file,
      `select count(*)::int as n, sum(difference)::varchar as d, sum(counted_cash)::varchar as c from read_parquet('${file}')`,
    );
    const total = (k: string) => (sessions.reduce((a, s) => a + cents(s[k]), 0) / 100).toFixed(2);
    expect(sum).toEqual({
      n: sessions.length,
      d: total('cash_register_difference'),
      c: total('cash_register_balance_end_real'),
    });
  });

  it('--fail-on-difference exits 7 exactly when Odoo posted a difference beyond the tolerance', async () => {
    const differs = sessions.some((s) => Math.abs(cents(s.cash_register_difference)) > 1);
    const r = await runCli(['reconcile', '--rate', '0', '--fail-on-difference', '--format', 'csv'], { env });
    expect(r.code).toBe(differs ? 7 : 0);
    const still = await runCli(
      ['reconcile', '--rate', '0', '--fail-on-difference', '--tolerance', '1000000', '--format', 'csv'],
      { env },
    );
    expect(still.code).toBe(0);
  });

  it('--config-id and --date keep the sessions of that register and business day (stop_at in the user zone)', async () => {
    const configs = [...new Set(sessions.map((s) => (s.config_id as [number])[0]))];
    const last = sessions.reduce((a, s) => ((s.stop_at as string) > (a.stop_at as string) ? s : a));
    const day = utc(last.stop_at as string)
      .setZone(ref.tz)
      .startOf('day');
    const d = day.toISODate() as string;
    const runs = await Promise.all([
      ...configs.map((c) =>
        runCli(['reconcile', '--rate', '0', '--config-id', String(c), '--format', 'json'], { env }),
      ),
      runCli(['reconcile', '--rate', '0', '--date', d, '--format', 'json'], { env }),
    ]);
    for (const [i, c] of configs.entries()) {
      const rows = JSON.parse((runs[i] as { stdout: string }).stdout) as Obj[];
      const ids = sessions.filter((s) => (s.config_id as [number])[0] === c).map((s) => s.id);
      expect(rows.map((r) => r.session_id).sort((a, b) => (a as number) - (b as number))).toEqual(ids);
      for (const row of rows) expectSession(row);
    }
    const onDay = await rpc.searchRead(
      'pos.session',
      [
        ['state', '=', 'closed'],
        ['stop_at', '>=', odooTime(day)],
        ['stop_at', '<', odooTime(day.plus({ days: 1 }))],
      ],
      { fields: ['id'], order: 'id' },
    );
    const rows = JSON.parse((runs[configs.length] as { stdout: string }).stdout) as Obj[];
    expect(onDay.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.session_id).sort((a, b) => (a as number) - (b as number))).toEqual(
      onDay.map((s) => s.id),
    );
  });
});
