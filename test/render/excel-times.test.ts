// Times a spreadsheet gets right (issue 25): csv keeps the contract's header and Odoo's UTC
// times (ISO with an offset under --tz); --excel writes each datetime as the wall-clock time
// in the zone a table shows (--tz, else the Odoo user's), `YYYY-MM-DD HH:MM:SS` with no
// offset, which a spreadsheet reads as a date and time.
import { parse } from 'csv-parse/sync';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginEnv, runCli } from '../helpers/cli.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;
let env: Record<string, string>;
let raw: { id: number; date_order: string }[];
let userZone: string;
const R = ['--rate', '0', '--quiet'];
const F = ['--fields', 'id,name,date_order,config_id', '--limit', '30'];

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 3, orders: 200 });
  env = await loginEnv(sandbox.url);
  const rpc = new Rpc(sandbox.url);
  raw = await rpc.searchRead('pos.order', [], { fields: ['date_order'], order: 'id', limit: 30 });
  const [me] = await rpc.searchRead<{ tz: string | false }>('res.users', [['id', '=', await rpc.auth()]], {
    fields: ['tz'],
  });
  userZone = me?.tz || 'UTC';
});

afterAll(async () => {
  await sandbox?.close();
});

const rows = (csv: string) =>
  parse(csv.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
const local = (utc: string, zone: string) =>
  DateTime.fromFormat(utc, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' })
    .setZone(zone)
    .toFormat('yyyy-MM-dd HH:mm:ss');

describe('datetimes in csv and --excel', () => {
  it("--excel: wall-clock times in the user's zone, the header as plain csv has it", async () => {
    expect(userZone).not.toBe('UTC');
    const [plain, excel] = await Promise.all([
      runCli(['sales', ...F, '--format', 'csv', ...R], { env }),
      runCli(['sales', ...F, '--format', 'csv', '--excel', ...R], { env }),
    ]);
    expect(excel.code, excel.stderr).toBe(0);
    expect(excel.stdout.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(plain.stdout.split('\n')[0]);
    // Plain csv: Odoo's UTC text, as the contract says.
    expect(rows(plain.stdout).map((r) => r.date_order)).toEqual(raw.map((r) => r.date_order));
    const got = rows(excel.stdout).map((r) => r.date_order);
    expect(got).toEqual(raw.map((r) => local(r.date_order, userZone)));
    expect(got).not.toEqual(raw.map((r) => r.date_order));
  });

  it('--excel --tz: wall-clock times in that zone, not ISO with an offset', async () => {
    const zone = 'America/New_York';
    const [iso, excel] = await Promise.all([
      runCli(['sales', ...F, '--format', 'csv', '--tz', zone, ...R], { env }),
      runCli(['sales', ...F, '-o', '-', '--format', 'csv', '--excel', '--tz', zone, ...R], { env }),
    ]);
    expect(excel.code, excel.stderr).toBe(0);
    expect(rows(iso.stdout)[0]?.date_order).toMatch(/T\d\d:\d\d:\d\d-0[45]:00$/);
    expect(rows(excel.stdout).map((r) => r.date_order)).toEqual(raw.map((r) => local(r.date_order, zone)));
  });

  it("reconcile --excel: a session's opened and closed in the user's zone too", async () => {
    const [plain, excel] = await Promise.all([
      runCli(['reconcile', '--from', '2000-01-01', '--format', 'csv', ...R], { env }),
      runCli(['reconcile', '--from', '2000-01-01', '--format', 'csv', '--excel', ...R], { env }),
    ]);
    expect(excel.code, excel.stderr).toBe(0);
    const p = rows(plain.stdout);
    const e = rows(excel.stdout);
    expect(e.length).toBeGreaterThan(0);
    expect(e.map((r) => r.opened)).toEqual(p.map((r) => local(r.opened as string, userZone)));
    expect(e.map((r) => r.closed)).toEqual(p.map((r) => local(r.closed as string, userZone)));
  });
});
