// posdata books behind a server that caps search_read (`--faults cap=N` on the sandbox). One
// register's October (31 sessions) was silently short with exit 0: its invoiced orders and the
// cash statement lines were unlimited search_reads. Three registers' (93 sessions) were exit 6,
// advising a --page-size books does not take. Now the same CSV as the uncapped server's.
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loggedInServers } from '../helpers/servers.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const servers = loggedInServers({ seed: 3, days: 60, leaks: true, now: NOW, orders: 6000 });
afterAll(() => servers.close());
/** A sandbox and its login, the same data whatever the faults. */
const server = (faults?: string) => servers.server(faults ? { faults } : {});

describe('books, search_read capped at 50', { timeout: 240_000 }, () => {
  let plain: Record<string, string>;
  let capped: Record<string, string>;
  it.each([
    ['one register', ['--config-id', '1']],
    ['three registers', []],
  ])('%s over October: the same rows as on the uncapped server', async (_, more) => {
    plain ??= await server();
    capped ??= await server('cap=50');
    const args = ['books', '--from', '2026-10-01', '--to', '2026-10-31', ...more];
    const opts = ['--tz', 'UTC', '--rate', '0', '--format', 'csv'];
    const a = await runCli([...args, ...opts], { env: plain });
    const b = await runCli([...args, ...opts], { env: capped });
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toBe(a.stdout);
  });
});
