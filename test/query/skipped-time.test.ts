// A local time the clocks skip (the spring-forward hour: 02:00-03:00 on 2026-03-29 in
// Europe/Brussels) is read forward by the gap, as PostgreSQL reads it ('2026-03-29
// 02:30'::timestamptz is 03:30+02) and luxon and Odoo do: 02:30 is 03:30. A range that makes
// empty was refused as "--from 2026-03-29 02:30 is not before --to 2026-03-29 03:30", which
// reads as false; the line now says that 02:30 does not exist that day and what it is read as.
import { describe, expect, it } from 'vitest';
import { rangeDomain } from '../../src/query/time.js';
import { freshConfigDir, runCli } from '../helpers/cli.js';

const BRUSSELS = 'Europe/Brussels';

describe('a time the clocks skip', () => {
  it('is read forward by the gap, as PostgreSQL reads it: 02:30 is 03:30+02 (01:30 UTC)', () => {
    expect(rangeDomain('date_order', '2026-03-29 02:30', '2026-03-29 04:00', BRUSSELS)).toEqual([
      ['date_order', '>=', '2026-03-29 01:30:00'],
      ['date_order', '<=', '2026-03-29 02:00:00'],
    ]);
    // 03:00, the first time the clocks show after the gap, is 01:00 UTC.
    expect(rangeDomain('date_order', '2026-03-29 03:00', '2026-03-29 03:30', BRUSSELS)).toEqual([
      ['date_order', '>=', '2026-03-29 01:00:00'],
      ['date_order', '<=', '2026-03-29 01:30:00'],
    ]);
  });

  it('a range it makes empty: exit 2, one line that says the time does not exist that day', async () => {
    const env = { POSDATA_CONFIG_DIR: freshConfigDir() };
    const r = await runCli(
      ['sales', '--from', '2026-03-29 02:30', '--to', '2026-03-29 03:30', '--tz', BRUSSELS],
      { env },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(
      'posdata: --from 2026-03-29 02:30 is not before --to 2026-03-29 03:30: 02:30 does not exist on 2026-03-29 in Europe/Brussels (the clocks skip it) and is read as 03:30, as PostgreSQL reads it; give a time the clocks show that day, or widen the range\n',
    );
    // A range empty for another reason keeps its line.
    const plain = await runCli(
      ['sales', '--from', '2026-03-29 03:30', '--to', '2026-03-29 03:00', '--tz', BRUSSELS],
      { env },
    );
    expect(plain.code).toBe(2);
    expect(plain.stderr).toBe(
      'posdata: --from 2026-03-29 03:30 is not before --to 2026-03-29 03:00; swap them or widen the range\n',
    );
  });
});
