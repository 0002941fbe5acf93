// "The same seed gives the same data": the data run up to the sandbox's clock, so two starts at
// different moments give the same data when --now fixes that clock (and differ without it).
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { rpcClient } from '../helpers/sandbox.js';
import { startSandboxCommand } from './command.js';

type R = Record<string, unknown>;

/** Starts `posdata sandbox ARGS`, takes a fingerprint of all its data, stops it. */
async function fingerprint(args: string[]): Promise<{ total: number; rows: string }> {
  const sb = await startSandboxCommand(args);
  try {
    const c = rpcClient(sb.url);
    const orders = await c.ok<R[]>(
      'pos.order',
      'search_read',
      [[], ['name', 'date_order', 'amount_total', 'state', 'session_id', 'write_date', 'create_date']],
      { order: 'id' },
    );
    const payments = await c.ok<R[]>('pos.payment', 'search_read', [[], ['amount', 'payment_method_id']], {
      order: 'id',
    });
    const sessions = await c.ok<R[]>('pos.session', 'search_read', [
      [],
      ['name', 'start_at', 'stop_at', 'cash_register_balance_end_real', 'write_date'],
    ]);
    const total = orders.reduce((x, o) => x + (o.amount_total as number), 0);
    return { total, rows: JSON.stringify([orders, payments, sessions]) };
  } finally {
    sb.stop();
  }
}

describe('the same data', () => {
  it('--now: two starts at different moments give the same orders, payments and sessions', async () => {
    const args = ['--seed', '1', '--now', '2026-11-25T12:00:00Z'];
    const a = await fingerprint(args);
    await sleep(1100);
    const b = await fingerprint(args);
    expect(a.total).toBeGreaterThan(0);
    expect(b.total).toBe(a.total);
    expect(b.rows).toBe(a.rows);
    // Another clock is another history.
    const c = await fingerprint(['--seed', '1', '--now', '2026-11-25T12:30:00Z']);
    expect(c.rows).not.toBe(a.rows);
  });

  it('a --now that is not a time is a usage error', async () => {
    const r = await runCli(['sandbox', '--port', '0', '--now', 'yesterday']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^posdata: --now 'yesterday' is not a time; give --now a UTC time/);
  });
});
