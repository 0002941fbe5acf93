// posdata sandbox refuses what it cannot serve as one line and exit 2, before generating
// anything: absurd sizes (it generated until the heap ran out: an internal error), and a
// --host that is not loopback without --allow-remote (its users are the well-known
// admin/admin and pos/pos), as serve refuses.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('posdata sandbox', () => {
  for (const [args, message] of [
    [
      ['--orders', '99999999999'],
      /^posdata: --orders '99999999999' is more than the sandbox generates \(at most 2,000,000 orders\); give --orders at most 2000000$/,
    ],
    [['--orders', '2000001'], /at most 2,000,000 orders/],
    [['--orders', '1e12'], /--orders '1e12' is not a whole number/],
    [
      ['--days', '99999999'],
      /^posdata: --days '99999999' is more than the sandbox generates \(at most 3,660 days \(ten years\)\)/,
    ],
    [
      ['--host', '0.0.0.0'],
      /^posdata: refusing to listen on 0\.0\.0\.0: the sandbox's users \(admin\/admin, pos\/pos\) would log in from anywhere that reaches it; keep --host on loopback, or give --allow-remote$/,
    ],
    [['--host', '192.0.2.1'], /refusing to listen on 192\.0\.2\.1/],
  ] as const) {
    it(`${args.join(' ')}: exit 2, one line`, async () => {
      const r = await runCli(['sandbox', '--port', '0', ...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr.trimEnd()).toMatch(message);
      expect(r.stdout).toBe('');
    });
  }
});
