// The dates Sales Details takes, as the real Odoo 17 reads them (fields.Datetime.from_string:
// strptime with the format cut to the value's length): the sandbox answers the same, the
// range it read (date_start, date_stop) or the same ValueError in strptime's words. posdata
// itself sends "YYYY-MM-DD HH:MM:SS"; a client that sends an ISO `T` or fractions of a second
// must see the error it would see on a real server.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rpcOdoo } from '../helpers/odoo17.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const odoo = inject('odoo');
const REPORT = 'report.point_of_sale.report_saledetails';

const STARTS = [
  '2026-11-14',
  '2026-11-14 10',
  '2026-11-14 10:30',
  '2026-11-14 10:30:15',
  '2026-11-14T00:00:00',
  '2026-11-14 00:00:00.123',
  '2026-11-14 00:00:00+01:00',
  'bad',
  'yesterday',
  '2026-02-30',
  '2026-13-01',
  '2026-11-00 10:00',
  '2026-11-14 25:00:00',
  '14/11/2026',
];

describe('get_sale_details: the dates it takes, the sandbox as the real Odoo 17', () => {
  let sandbox: SandboxHandle;
  let real: Rpc;
  let ours: Rpc;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ seed: 3, orders: 100, days: 3 });
    real = await rpcOdoo(odoo, 'admin');
    ours = new Rpc(sandbox.url, 'demo', 'admin', 'admin');
    await ours.auth();
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  /** The range the report read, or its error as `name: message`. */
  const answer = async (rpc: Rpc, start: string): Promise<string> => {
    try {
      const d = await rpc.kw<Record<string, unknown>>(REPORT, 'get_sale_details', [], {
        date_start: start,
        date_stop: '2026-11-30 23:59:59',
        config_ids: false,
        session_ids: false,
      });
      return `${d.date_start} .. ${d.date_stop}`;
    } catch (err) {
      return (err as Error).message;
    }
  };

  it.each(STARTS)('date_start %j', async (start) => {
    const [r, s] = await Promise.all([answer(real, start), answer(ours, start)]);
    expect(s).toBe(r);
  });
});
