// The tips by payment method behind a server that caps search_read (`--faults cap=N` on the
// sandbox): the tipped orders were one unlimited search_read, so a month's tips by method
// were those of its first 50 tipped orders, with exit 0. They are grouped now (a read_group
// is not cut): the same figures as on the uncapped server, in as many requests.
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loggedInServers } from '../helpers/servers.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const servers = loggedInServers({ seed: 3, days: 60, restaurant: true, now: NOW, orders: 6000 });
afterAll(() => servers.close());
/** A sandbox and its login, the same data whatever the faults. */
const server = (faults?: string) => servers.server(faults ? { faults } : {});

describe('summary --by method, search_read capped at 50', { timeout: 240_000 }, () => {
  it('the same tips per method as on the uncapped server', async () => {
    const args = ['summary', '--by', 'method', '--from', '2026-10-01', '--to', '2026-10-31'];
    const a = await runCli([...args, '--tz', 'UTC', '--rate', '0', '--format', 'json'], {
      env: await server(),
    });
    const b = await runCli([...args, '--tz', 'UTC', '--rate', '0', '--format', 'json'], {
      env: await server('cap=50'),
    });
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const tips = (JSON.parse(a.stdout) as { tips: number }[]).reduce((t, r) => t + r.tips, 0);
    // More tipped orders than one capped reply holds.
    expect(tips).toBeGreaterThan(0);
    expect(b.stdout).toBe(a.stdout);
  });
});
