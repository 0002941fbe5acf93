// Exports cron can trust: complete, atomic, incremental without losing late orders. Every
// test runs twice: against an Odoo-17 sandbox over JSON-RPC and an Odoo-19 sandbox over
// JSON-2 (issue 8), each with 100k orders.
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { SETUPS, type Stage, stage } from '../helpers/protocols.js';

const ORDERS = 100_000;

function ids(csv: string): number[] {
  return (parse(csv, { columns: true }) as { id: string }[]).map((r) => Number(r.id));
}

describe.each(SETUPS)('$name', (setup) => {
  let sandbox: Stage['sandbox'];
  let rpc: Stage['rpc'];
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    ({ sandbox, rpc, env } = await stage(setup, { seed: 3, orders: ORDERS }));
    dir = mkdtempSync(join(tmpdir(), 'posdata-exports-'));
  }, 180_000);

  afterAll(async () => {
    await sandbox?.close();
  });

  const temps = () => readdirSync(dir).filter((f) => f.includes('posdata-tmp'));

  describe('a full export', () => {
    it(`has every one of ${ORDERS} orders exactly once`, async () => {
      const total = await rpc.count('pos.order', []);
      expect(total).toBeGreaterThanOrEqual(ORDERS);
      const out = join(dir, 'all.csv');
      const r = await runCli(['sales', '-o', out, '--rate', '0', '--page-size', '5000'], { env });
      expect(r.code).toBe(0);
      const got = ids(readFileSync(out, 'utf8'));
      expect(got.length).toBe(total);
      expect(new Set(got).size).toBe(total);
      expect(temps()).toEqual([]);
    }, 120_000);
  });

  describe('an interrupted export', () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      it(`leaves the old file and no temporary file on ${signal}`, async () => {
        const out = join(dir, `keep-${signal}.csv`);
        writeFileSync(out, 'OLD\n');
        // One request a minute: the export has asked its first and waits for the next when
        // the signal comes (sent once the server saw it, whatever the machine's load).
        const before = sandbox.requestCount();
        const r = await spawnCli(['sales', '-o', out, '--rate', '1', '--page-size', '100'], {
          env,
          killWhen: () => sandbox.requestCount() > before,
          killSignal: signal,
        });
        expect(r.code).toBe(130);
        expect(r.stderr.trim().split('\n').at(-1)).toMatch(/^posdata: interrupted/);
        expect(readFileSync(out, 'utf8')).toBe('OLD\n');
        expect(temps()).toEqual([]);
      });
    }

    it('a failed export (bad credentials) leaves the old file', async () => {
      const out = join(dir, 'keep-auth.csv');
      writeFileSync(out, 'OLD\n');
      const r = await runCli(['sales', '-o', out, '--rate', '0'], {
        env: { ...env, POSDATA_PASSWORD: 'wrong' },
      });
      expect(r.code).toBe(3);
      expect(readFileSync(out, 'utf8')).toBe('OLD\n');
      expect(temps()).toEqual([]);
    });
  });

  describe('checkpointed exports', () => {
    it('export exactly the changes since the last run, plus the documented overlap', async () => {
      const cp = join(dir, 'sales.ckpt');
      const a = join(dir, 'a.csv');
      const r1 = await runCli(['sales', '--checkpoint', cp, '-o', a, '--rate', '0', '--page-size', '5000'], {
        env,
      });
      expect(r1.code).toBe(0);
      const total = await rpc.count('pos.order', []);
      expect(ids(readFileSync(a, 'utf8')).length).toBe(total);
      const first = JSON.parse(readFileSync(cp, 'utf8'));
      expect(statSync(cp).mode & 0o777).toBe(0o600);

      // An order moves to done; an offline register syncs a late order dated long ago.
      const [old] = await rpc.searchRead('pos.order', [['state', '=', 'paid']], {
        fields: ['id', 'session_id', 'config_id'],
        order: 'id',
        limit: 1,
      });
      await rpc.kw('pos.order', 'write', [[old.id], { state: 'done' }]);
      const late = await rpc.kw<number>('pos.order', 'create', [
        {
          name: 'POS/LATE-1',
          date_order: '2020-01-01 09:00:00',
          session_id: (old.session_id as [number, string])[0],
          config_id: (old.config_id as [number, string])[0],
          amount_total: 12.5,
          amount_paid: 12.5,
          amount_tax: 0,
          amount_return: 0,
          state: 'paid',
        },
      ]);

      const b = join(dir, 'b.csv');
      const r2 = await runCli(['sales', '--checkpoint', cp, '-o', b, '--rate', '0'], { env });
      expect(r2.code).toBe(0);
      const got = ids(readFileSync(b, 'utf8'));
      expect(got).toContain(old.id);
      expect(got).toContain(late);
      expect(new Set(got).size).toBe(got.length);
      // Everything else in the second file lies in the overlap before the first window end.
      const from = new Date(`${first.windowEnd.replace(' ', 'T')}Z`).getTime() - first.overlapSeconds * 1000;
      const rows = await rpc.kw<{ id: number; write_date: string }[]>('pos.order', 'read', [got], {
        fields: ['write_date'],
      });
      for (const row of rows) {
        if (row.id === old.id || row.id === late) continue;
        expect(new Date(`${row.write_date.replace(' ', 'T')}Z`).getTime()).toBeGreaterThanOrEqual(from);
      }
      // Which the server agrees is what changed in that window.
      const second = JSON.parse(readFileSync(cp, 'utf8'));
      expect(got.length).toBe(
        await rpc.count('pos.order', [
          ['write_date', '>=', new Date(from).toISOString().slice(0, 19).replace('T', ' ')],
          // The whole second of the window end (write_date has microseconds).
          [
            'write_date',
            '<',
            new Date(Date.parse(`${second.windowEnd.replace(' ', 'T')}Z`) + 1000)
              .toISOString()
              .slice(0, 19)
              .replace('T', ' '),
          ],
        ]),
      );
    }, 120_000);

    it('a failed run leaves the checkpoint as it was', async () => {
      const cp = join(dir, 'fail.ckpt');
      const r1 = await runCli(
        ['cancellations', '--checkpoint', cp, '-o', join(dir, 'c1.csv'), '--rate', '0'],
        {
          env,
        },
      );
      expect(r1.code).toBe(0);
      const before = readFileSync(cp, 'utf8');
      const r2 = await runCli(
        ['cancellations', '--checkpoint', cp, '-o', join(dir, 'c2.csv'), '--rate', '0'],
        {
          env: { ...env, POSDATA_PASSWORD: 'wrong' },
        },
      );
      expect(r2.code).toBe(3);
      expect(readFileSync(cp, 'utf8')).toBe(before);
      expect(existsSync(join(dir, 'c2.csv'))).toBe(false);
    });

    it('a checkpoint made for another query is refused; --full starts it again', async () => {
      const cp = join(dir, 'other.ckpt');
      expect(
        (
          await runCli(
            ['sales', '--state', 'cancel', '--checkpoint', cp, '-o', join(dir, 'o1.csv'), '--rate', '0'],
            { env },
          )
        ).code,
      ).toBe(0);
      const r = await runCli(
        ['sales', '--state', 'paid', '--checkpoint', cp, '-o', join(dir, 'o2.csv'), '--rate', '0'],
        { env },
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^posdata: checkpoint .* another query/);
      const full = await runCli(
        ['sales', '--state', 'paid', '--checkpoint', cp, '--full', '-o', join(dir, 'o3.csv'), '--rate', '0'],
        { env },
      );
      expect(full.code).toBe(0);
    });
  });

  describe('politeness', () => {
    it('--rate N sends at most N requests in the first minute (counted)', async () => {
      const before = sandbox.requestCount();
      // Stopped once the server has seen three: an unbounded export sends its next pages at once
      // (two ahead), a bounded one waits twenty seconds for its fourth.
      const r = await spawnCli(['sales', '--rate', '3', '--page-size', '10', '--format', 'csv'], {
        env,
        killWhen: () => sandbox.requestCount() - before >= 3,
      });
      expect(r.code).toBe(130);
      expect(sandbox.requestCount() - before).toBe(3);
    });
  });
});
