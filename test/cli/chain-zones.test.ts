// Whose day is a chain shop's day: the shop's. Two sandboxes whose admins are both in Brussels,
// one logged in as the Tokyo shop (`login --tz Asia/Tokyo`): every view of the chain (summary
// --by profile, the list exports' --from/--to, the report over both) reads the Tokyo shop's
// day in Tokyo and the Brussels shop's in Brussels, as each shop's own run with its --tz does,
// whoever reads; a --tz on the command line is every shop's. Tokyo's day and Brussels' share
// eight hours of the shops' opening hours only, so the figures differ where a zone is wrong.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { reportData } from '../helpers/report.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const DAY = '2026-11-20';
const dir = mkdtempSync(join(tmpdir(), 'posdata-chain-zones-'));
type Obj = Record<string, unknown>;
const sandboxes: SandboxHandle[] = [];
let env: Record<string, string>;

async function login(name: string, url: string, extra: string[] = []) {
  const r = await runCli(
    [
      'login',
      '--profile',
      name,
      '--url',
      url,
      '--db',
      'demo',
      '--user',
      'admin',
      '--password-stdin',
      ...extra,
    ],
    { env, input: SUITE_SECRET },
  );
  expect(r.code, r.stderr).toBe(0);
  return r;
}

async function json(args: string[]): Promise<Obj[]> {
  const r = await runCli([...args, '--rate', '0', '--format', 'json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Obj[];
}

/** Orders and total of one shop's day in `tz`, from its own single run. */
async function own(profile: string, tz: string) {
  const [row] = await json(['summary', '--date', DAY, '--profile', profile, '--tz', tz, '--by', 'currency']);
  return { orders: row?.orders, total: row?.total };
}

beforeAll(async () => {
  env = { POSDATA_CONFIG_DIR: freshConfigDir() };
  for (const seed of [31, 32])
    sandboxes.push(
      await startTestSandbox({ seed, orders: 1500, days: 30, adminKey: SUITE_SECRET, now: NOW }),
    );
  await login('brussels', sandboxes[0]?.url ?? '');
  const r = await login('tokyo', sandboxes[1]?.url ?? '', ['--tz', 'Asia/Tokyo']);
  expect(r.stderr).toMatch(/; its days in Asia\/Tokyo$/m);
}, 120_000);
afterAll(async () => {
  for (const s of sandboxes) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a chain shop's day is the shop's", { timeout: 120_000 }, () => {
  it('summary --by profile: each shop its own day, the Tokyo one in Tokyo', async () => {
    const tokyo = await own('tokyo', 'Asia/Tokyo');
    // The admin's own zone would give another day: the test tells the zones apart.
    expect(await own('tokyo', 'Europe/Brussels')).not.toEqual(tokyo);
    const rows = await json(['summary', '--date', DAY, '--profile', 'brussels,tokyo', '--by', 'profile']);
    const of = (p: string) => rows.find((r) => r.profile === p);
    expect({ orders: of('tokyo')?.orders, total: of('tokyo')?.total }).toEqual(tokyo);
    expect({ orders: of('brussels')?.orders, total: of('brussels')?.total }).toEqual(
      await own('brussels', 'Europe/Brussels'),
    );
    // A single run of the profile reads the same day without --tz.
    const [single] = await json(['summary', '--date', DAY, '--profile', 'tokyo', '--by', 'currency']);
    expect({ orders: single?.orders, total: single?.total }).toEqual(tokyo);
  });

  it('whoami shows the zone the runs use and where it comes from, beside the Odoo user’s', async () => {
    const who = async (profile: string) => {
      const r = await runCli(['whoami', '--profile', profile, '--format', 'json'], { env });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Obj;
    };
    expect(await who('tokyo')).toMatchObject({
      tz: 'Europe/Brussels',
      zone: 'Asia/Tokyo',
      zone_from: 'login --tz',
    });
    expect(await who('brussels')).toMatchObject({
      tz: 'Europe/Brussels',
      zone: 'Europe/Brussels',
      zone_from: "the Odoo user's, read at login",
    });
    const text = await runCli(['whoami', '--profile', 'tokyo'], { env });
    expect(text.stdout).toMatch(/^zone +Asia\/Tokyo \(login --tz\)$/m);
    expect(text.stdout).not.toMatch(/zone_from/);
  });

  it('a --tz given is every shop’s', async () => {
    const rows = await json([
      'summary',
      '--date',
      DAY,
      '--profile',
      'brussels,tokyo',
      '--by',
      'profile',
      '--tz',
      'UTC',
    ]);
    const t = rows.find((r) => r.profile === 'tokyo');
    expect({ orders: t?.orders, total: t?.total }).toEqual(await own('tokyo', 'UTC'));
  });

  it("the exports' --from/--to: the Tokyo shop's tickets of its day", async () => {
    const range = ['--from', DAY, '--to', DAY, '--state', 'paid,done,invoiced'];
    const chain = await json(['sales', ...range, '--profile', 'brussels,tokyo']);
    const tokyo = await json(['sales', ...range, '--profile', 'tokyo', '--tz', 'Asia/Tokyo']);
    expect(chain.filter((r) => r.profile === 'tokyo').map((r) => r.id)).toEqual(tokyo.map((r) => r.id));
    const brussels = await json(['sales', ...range, '--profile', 'brussels', '--tz', 'Europe/Brussels']);
    expect(chain.filter((r) => r.profile === 'brussels').map((r) => r.id)).toEqual(brussels.map((r) => r.id));
  });

  it("the report over both: each shop's part is its own day", async () => {
    const file = join(dir, 'chain.html');
    const r = await runCli(
      ['report', '--from', DAY, '--to', DAY, '--profile', 'brussels,tokyo', '--rate', '0', '-o', file],
      {
        env,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const sections = reportData(readFileSync(file, 'utf8')).currencies as Obj[];
    for (const [profile, tz] of [
      ['tokyo', 'Asia/Tokyo'],
      ['brussels', 'Europe/Brussels'],
    ] as const) {
      const glance = sections.find((x) => x.profile === profile)?.glance as Obj | undefined;
      expect({ orders: glance?.orders, total: glance?.total }, profile).toEqual(await own(profile, tz));
    }
  });
});
