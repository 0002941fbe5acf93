// An order of a closed session (a register offline when its session closed, synced after),
// as the sandbox's create_from_ui takes it on Odoo 16/17: into its register's rescue session
// ("POS/00017 (RESCUE FOR POS/00014)"), made for the first such order and used again for the
// next, never the register's open session; and posdata counts it on the day it was sold, in
// its register (test/odoo/shop-sync.test.ts holds the same against a real Odoo 17).
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { type Late, sendLate, shapeOf } from '../helpers/late-order.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

type Row = Record<string, unknown>;
const id = (v: unknown): number => (Array.isArray(v) ? (v[0] as number) : (v as number));

let sb: SandboxHandle;
let late: Late;
let env: Record<string, string>;

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 4, orders: 200 });
  env = await loginEnv(sb.url);
  late = await sendLate(new Rpc(sb.url));
}, 120_000);
afterAll(async () => sb?.close());

describe('create_from_ui for a closed session', () => {
  it('puts the orders into a rescue session of their register, not into its open session', () => {
    expect(late.rescue.name).toBe(
      `POS/${String(late.rescue.id).padStart(5, '0')} (RESCUE FOR ${late.closed.name})`,
    );
    expect(shapeOf(late)).toMatchObject({
      rescue: {
        state: 'opened',
        rescue: true,
        stop_at: false,
        sameRegister: true,
        newId: true,
        openedWhenSent: true,
        openingIsNewestCount: true,
      },
    });
    for (const o of late.orders) {
      expect(id(o.session_id)).toBe(late.rescue.id);
      expect(id(o.config_id)).toBe(id(late.closed.config_id));
    }
  });

  it('and posdata counts them on the day they were sold, in their register, under the rescue session', async () => {
    const day = DateTime.fromSQL(String(late.orders[0]?.date_order), { zone: 'UTC' }).toISODate() as string;
    const of = async (by: string) => {
      const r = await runCli(['summary', '--date', day, '--tz', 'UTC', '--by', by, '--format', 'json'], {
        env,
      });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Row[];
    };
    const sessions = await of('session');
    expect(sessions.find((x) => x.session_id === late.rescue.id)).toMatchObject({
      session: late.rescue.name,
      orders: 2,
      total: 2 * late.total,
    });
    const registers = await of('register');
    const register = registers.find((x) => x.config_id === id(late.closed.config_id));
    const ofRegister = sessions.filter(
      (x) => x.session_id === late.rescue.id || x.session_id === late.closed.id,
    );
    expect(Math.round(Number(register?.total) * 100)).toBe(
      ofRegister.reduce((a, x) => a + Math.round(Number(x.total) * 100), 0),
    );
  });
});
