// `posdata lines` for a range of tickets (issue 25): --from/--to, --session-id and
// --config-id select the lines through their ticket (order_id.date_order, .session_id,
// .config_id) and read them in pages as sales does, not one call per ticket. What it gives
// equals the union of each ticket's lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { Rpc } from '../helpers/rpc.js';
import { type RpcProxy, startRpcProxy } from '../helpers/rpc-proxy.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let proxy: RpcProxy;
let env: Record<string, string>;
let rpc: Rpc;
const R = ['--rate', '0', '--tz', 'UTC', '--quiet'];

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 9, orders: 600 });
  proxy = await startRpcProxy(sandbox.url);
  env = await loginEnv(proxy.url);
  rpc = new Rpc(sandbox.url);
});

afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

type Line = { id: number; order_id: [number, string] };

/** The lines of each ticket in turn, as `posdata lines ID` gives them: the reference. */
async function perTicket(orderIds: number[]): Promise<Line[]> {
  const all: Line[] = [];
  for (const id of orderIds) {
    const r = await runCli(['lines', String(id), '--format', 'json', ...R], { env });
    expect(r.code, r.stderr).toBe(0);
    all.push(...(JSON.parse(r.stdout) as Line[]));
  }
  return all.sort((a, b) => a.id - b.id);
}

describe('posdata lines for a range of tickets', () => {
  it('--from/--to: the union of the lines of the tickets sales gives for that range, read in pages', async () => {
    const days = await rpc.searchRead<{ date_order: string }>('pos.order', [], {
      fields: ['date_order'],
      order: 'date_order',
    });
    // Two days in the middle of the data.
    const day = (days[Math.floor(days.length / 2)] as { date_order: string }).date_order.slice(0, 10);
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const range = ['--from', day, '--to', next];
    const sales = await runCli(['sales', ...range, '--fields', 'id', '--format', 'json', ...R], { env });
    const ids = (JSON.parse(sales.stdout) as { id: number }[]).map((s) => s.id);
    expect(ids.length).toBeGreaterThan(20);
    const expected = await perTicket(ids);
    proxy.reset();
    const r = await runCli(['lines', ...range, '--page-size', '50', '--format', 'json', ...R], { env });
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as Line[];
    expect(got).toEqual(expected);
    // Pages of 50, not a call per ticket.
    const reads = proxy.seen.get('search_read') ?? [];
    // (the stream's first page is read a second time, one record longer, as for sales)
    expect(reads.filter((b) => b.includes('pos.order.line')).length).toBeLessThanOrEqual(
      Math.ceil(expected.length / 50) + 1,
    );
    expect(reads.filter((b) => b.includes('pos.order.line')).length).toBeLessThan(ids.length);
  });

  it("--session-id and --config-id: the lines of that session's or register's tickets", async () => {
    const sessions = await rpc.searchRead<{ id: number; config_id: [number, string] }>('pos.session', [], {
      fields: ['config_id'],
      order: 'id',
    });
    const s = sessions[1] as { id: number; config_id: [number, string] };
    for (const [flag, value, field] of [
      ['--session-id', s.id, 'session_id'],
      ['--config-id', s.config_id[0], 'config_id'],
    ] as const) {
      const orders = await rpc.searchRead<{ id: number }>('pos.order', [[field, '=', value]], {
        fields: ['id'],
      });
      const lines = await rpc.searchRead<Line>(
        'pos.order.line',
        [['order_id', 'in', orders.map((o) => o.id)]],
        {
          fields: ['order_id'],
          order: 'id',
        },
      );
      expect(lines.length).toBeGreaterThan(0);
      const r = await runCli(
        ['lines', flag, String(value), '--fields', 'id,order_id', '--format', 'json', ...R],
        {
          env,
        },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(lines.map((l) => ({ id: l.id, order_id: l.order_id })));
    }
  });

  it('a table of a range shows which ticket each line is of', async () => {
    const r = await runCli(['lines', '--from', '2000-01-01', '--limit', '5', '--format', 'table', ...R], {
      env: { ...env, COLUMNS: '120' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[1]).toMatch(/│ order\s+│/);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^5 lines, total /);
  });

  it('neither a ticket nor a range: exit 2 saying what to give', async () => {
    const r = await runCli(['lines', ...R], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^posdata: no sales ticket given; give a ticket id \(posdata lines 42\), or a range/,
    );
  });
});
