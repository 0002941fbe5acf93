// posdata tap against the sandbox, at the protocol level: every message valid, every RECORD
// valid against its SCHEMA, STATE monotonic and after what it covers, each stream complete
// (the ids Odoo has), two runs from one STATE identical, a resume from any STATE losing
// nothing and resending nothing unchanged (also under the sandbox's faults), --discover then
// --catalog with a stream and a field deselected, bad input as one line and exit 2, and
// the secret in no output.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { Rpc } from '../helpers/rpc.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { TABLES } from '../odoo/tables.js';
import { tapConfig } from './config.js';
import { type Checked, checkOutput, covers, type Rec, type StateValue } from './singer.js';

const STREAMS = TABLES;

let sandbox: SandboxHandle;
let rpc: Rpc;
let dir: string;
let n = 0;

const file = (doc: unknown, name = `f${++n}.json`): string => {
  const p = join(dir, name);
  writeFileSync(p, typeof doc === 'string' ? doc : JSON.stringify(doc));
  return p;
};

const configOf = (s: SandboxHandle, extra: Record<string, unknown> = {}) =>
  tapConfig(s, { page_size: 200, ...extra });

const tap = (args: string[]) => runCli(['tap', ...args], { env: { POSDATA_CONFIG_DIR: dir } });

/** Every id of each stream's model, as a direct RPC reads it. */
async function idsInOdoo(r: Rpc): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  for (const [stream, model] of STREAMS)
    out.set(
      stream,
      ((await r.kw(model, 'search', [[]], { context: { active_test: false } })) as number[]).sort(
        (a, b) => a - b,
      ),
    );
  return out;
}

const ids = (recs: Rec[] | undefined) => (recs ?? []).map((r) => r.id).sort((a, b) => a - b);

/** Records a STATE covers: those of `c` up to its stream's bookmark. */
function covered(c: Checked, state: StateValue): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const [stream, recs] of c.records) {
    const b = state.bookmarks[stream];
    out.set(stream, new Set(recs.filter((r) => covers(b, r)).map((r) => r.id)));
  }
  return out;
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 11, orders: 3000, days: 10, adminKey: SUITE_SECRET });
  rpc = new Rpc(sandbox.url, 'demo', 'admin', SUITE_SECRET);
  dir = freshConfigDir();
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
});

describe('posdata tap against the sandbox', () => {
  let full: Checked;
  let reference: Map<string, number[]>;

  beforeAll(async () => {
    const r = await tap(['--config', file(configOf(sandbox))]);
    expect(r.stderr).not.toMatch(/warning|error/i);
    expect(r.code).toBe(0);
    full = checkOutput(r.stdout);
    reference = await idsInOdoo(rpc);
  }, 120_000);

  it('writes valid messages, each stream complete: the ids Odoo has, each once', () => {
    expect([...full.schemas.keys()]).toEqual(STREAMS.map(([s]) => s));
    for (const [stream] of STREAMS)
      expect(ids(full.records.get(stream)), stream).toEqual(reference.get(stream));
    expect(full.records.get('sales')?.length).toBe(3000);
    // Empty Odoo values are null, never false; amounts are numbers at their decimals.
    const sale = full.records.get('sales')?.[0] as Rec;
    expect(typeof sale.amount_total).toBe('number');
    expect(Object.values(sale)).not.toContain(false);
    const schema = full.schemas.get('sales') as { properties: Record<string, Record<string, unknown>> };
    expect(schema.properties.amount_total).toEqual({ type: ['null', 'number'] });
    expect(schema.properties.id).toMatchObject({ type: 'integer', maximum: Number.MAX_SAFE_INTEGER });
    expect(schema.properties.partner_id).toMatchObject({ type: ['null', 'integer'] });
    for (const recs of full.records.values())
      for (const r of recs)
        for (const [k, v] of Object.entries(r))
          if (typeof v === 'number' && /^amount_|^price_/.test(k))
            expect(Math.round(v * 100) / 100, `${k} of ${r.id}`).toBe(v);
  });

  it('resumes from any STATE losing nothing and resending nothing; two runs from one STATE are identical', async () => {
    for (const k of [1, Math.floor(full.states.length / 2), full.states.length - 2]) {
      const state = full.states[k] as StateValue;
      const path = file(state);
      const a = await tap(['--config', file(configOf(sandbox)), '--state', path]);
      const b = await tap(['--config', file(configOf(sandbox)), '--state', path]);
      expect(a.code).toBe(0);
      expect(b.stdout).toBe(a.stdout);
      const resumed = checkOutput(a.stdout);
      const before = covered(full, state);
      for (const [stream] of STREAMS) {
        const again = ids(resumed.records.get(stream)).filter((id) => before.get(stream)?.has(id));
        expect(again, `${stream} resent from STATE #${k}`).toEqual([]);
        const all = new Set([...(before.get(stream) ?? []), ...ids(resumed.records.get(stream))]);
        expect(
          [...all].sort((x, y) => x - y),
          `${stream} from STATE #${k}`,
        ).toEqual(reference.get(stream));
      }
    }
  }, 120_000);

  it('from the last STATE, sends a changed record and nothing unchanged', async () => {
    const idle = await tap(['--config', file(configOf(sandbox)), '--state', file(full.last)]);
    expect(idle.code).toBe(0);
    const quiet = checkOutput(idle.stdout);
    expect([...quiet.records.values()].flat()).toEqual([]);
    const paid = (await rpc.kw('pos.order', 'search', [[['state', '=', 'paid']]], { limit: 1 })) as number[];
    await rpc.kw('pos.order', 'write', [paid, { state: 'done' }]);
    const r = await tap(['--config', file(configOf(sandbox)), '--state', file(quiet.last)]);
    const changed = checkOutput(r.stdout);
    expect(ids(changed.records.get('sales'))).toEqual(paid);
    expect(changed.records.get('sales')?.[0]?.state).toBe('done');
    expect(
      (changed.last.bookmarks.sales?.write_date ?? '') > (full.last.bookmarks.sales?.write_date ?? ''),
    ).toBe(true);
  }, 60_000);

  it('from the last STATE, sends an order an offline register synced late: sold long before the bookmark, written after it', async () => {
    const before = checkOutput(
      (await tap(['--config', file(configOf(sandbox)), '--state', file(full.last)])).stdout,
    );
    const [old] = await rpc.kw<Rec[]>('pos.order', 'search_read', [[['state', '=', 'paid']]], {
      fields: ['session_id', 'config_id', 'date_order'],
      order: 'date_order',
      limit: 1,
    });
    const m2o = (v: unknown): number => (v as [number, string])[0];
    const late = await rpc.kw<number>('pos.order', 'create', [
      {
        name: 'Restaurant/LATE-1',
        date_order: '2020-01-01 19:30:00',
        session_id: m2o(old?.session_id),
        config_id: m2o(old?.config_id),
        amount_total: 12.5,
        amount_paid: 12.5,
        amount_tax: 0,
        amount_return: 0,
        state: 'paid',
      },
    ]);
    const r = await tap(['--config', file(configOf(sandbox)), '--state', file(before.last)]);
    expect(r.code, r.stderr).toBe(0);
    const sent = checkOutput(r.stdout).records.get('sales') ?? [];
    expect(sent.map((s) => s.id)).toEqual([late]);
    // Its day is the day it was sold, long before what the bookmark covers.
    expect(String(sent[0]?.date_order)).toMatch(/^2020-01-01/);
    // The later cases compare whole streams with Odoo's ids: they hold this order now.
    reference = await idsInOdoo(rpc);
  }, 60_000);

  it("a bookmark by hand or in the Meltano SDK's form reads as the tap's own at that second, id 0", async () => {
    const at = full.last.bookmarks.sales?.write_date as string; // 2026-…T10:15:07Z
    const cfg = file(configOf(sandbox, { streams: ['sales'] }));
    const run = async (bookmark: Record<string, unknown>) => {
      const r = await tap(['--config', cfg, '--state', file({ bookmarks: { sales: bookmark } })]);
      expect(r.code, r.stderr).toBe(0);
      // The settled time follows the server's clock while the data changed within the overlap
      // (an earlier test wrote an order): the runs agree on everything else.
      return r.stdout.replace(/"settled":"[^"]*",/g, '');
    };
    const own = await run({ write_date: at, id: 0, sent: [] });
    expect(checkOutput(own).records.get('sales')?.length).toBeGreaterThan(0);
    expect(await run({ write_date: at })).toBe(own);
    // The same instant an hour ahead with its offset, and with a fraction of the second.
    const t = new Date(at);
    const ahead = new Date(t.getTime() + 3600_000).toISOString().slice(0, 19);
    expect(await run({ replication_key: 'write_date', replication_key_value: `${ahead}+01:00` })).toBe(own);
    expect(await run({ write_date: `${at.slice(0, 19)}.750Z` })).toBe(own);
    // Not a time: refused as before.
    const bad = await tap([
      '--config',
      cfg,
      '--state',
      file({ bookmarks: { sales: { write_date: 'yesterday' } } }),
    ]);
    expect(bad.code).toBe(2);
  }, 60_000);

  it('--discover gives a catalog; --catalog with a stream and a field deselected reads the rest', async () => {
    const d = await tap(['--discover', '--config', file(configOf(sandbox))]);
    expect(d.code).toBe(0);
    const catalog = JSON.parse(d.stdout) as {
      streams: { stream: string; metadata: { breadcrumb: string[]; metadata: Record<string, unknown> }[] }[];
    };
    expect(catalog.streams.map((s) => s.stream)).toEqual(STREAMS.map(([s]) => s));
    for (const s of catalog.streams) {
      const top = s.metadata.find((m) => m.breadcrumb.length === 0)?.metadata;
      expect(top).toMatchObject({
        'table-key-properties': ['id'],
        'valid-replication-keys': ['write_date'],
        selected: true,
      });
      const inclusion = (f: string) =>
        s.metadata.find((m) => m.breadcrumb[0] === 'properties' && m.breadcrumb[1] === f)?.metadata.inclusion;
      expect(inclusion('id')).toBe('automatic');
      expect(inclusion('write_date')).toBe('automatic');
    }
    const products = catalog.streams.find((s) => s.stream === 'products');
    const top = products?.metadata.find((m) => m.breadcrumb.length === 0)?.metadata as Record<
      string,
      unknown
    >;
    top.selected = false;
    const sales = catalog.streams.find((s) => s.stream === 'sales');
    for (const m of sales?.metadata ?? [])
      if (m.breadcrumb[1] === 'amount_tax' || m.breadcrumb[1] === 'write_date') m.metadata.selected = false;
    const r = await tap(['--config', file(configOf(sandbox)), '--catalog', file(catalog)]);
    expect(r.code).toBe(0);
    const c = checkOutput(r.stdout);
    expect([...c.schemas.keys()]).toEqual(STREAMS.map(([s]) => s).filter((s) => s !== 'products'));
    expect(c.records.has('products')).toBe(false);
    expect(c.records.get('sales')?.[0]).not.toHaveProperty('amount_tax');
    expect(c.records.get('sales')?.[0]).toHaveProperty('write_date');
    expect(ids(c.records.get('sales'))).toEqual(reference.get('sales'));
  }, 60_000);
});

describe('bad input', () => {
  const cases: [string, () => string[]][] = [
    ['no --config', () => []],
    ['a missing config', () => ['--config', join(dir, 'nowhere.json')]],
    ['a config that is not JSON', () => ['--config', file(`{"password": "${SUITE_SECRET}", `)]],
    ['a config without db', () => ['--config', file({ ...configOf(sandbox), db: undefined })]],
    ['page_size 0', () => ['--config', file(configOf(sandbox, { page_size: 0 }))]],
    ['an unknown stream', () => ['--config', file(configOf(sandbox, { streams: ['sales', 'orders'] }))]],
    ['a bad start_date', () => ['--config', file(configOf(sandbox, { start_date: 'soon' }))]],
    ['a bad tz', () => ['--config', file(configOf(sandbox, { tz: 'Mars/Olympus' }))]],
    [
      'a bad state',
      () => ['--config', file(configOf(sandbox)), '--state', file({ bookmarks: { sales: { id: 'x' } } })],
    ],
    [
      'a catalog that is not one',
      () => ['--config', file(configOf(sandbox)), '--catalog', file({ streams: 3 })],
    ],
    [
      'a catalog with an unknown stream',
      () => ['--config', file(configOf(sandbox)), '--catalog', file({ streams: [{ stream: 'orders' }] })],
    ],
  ];
  for (const [what, args] of cases) {
    it(`${what}: one line, exit 2, nothing on stdout, no secret`, async () => {
      const r = await tap(args());
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^posdata: [^\n]+\n$/);
      expect(r.stderr).not.toContain(SUITE_SECRET);
    });
  }

  // A day that does not exist, in every form a bookmark takes: named, before any SCHEMA.
  const impossible: [string, unknown][] = [
    ["the tap's own form", { write_date: '2026-02-30T10:00:00Z', id: 5, sent: [] }],
    ['by hand, with an offset', { write_date: '2026-02-30T10:00:00+01:00' }],
    ['by hand, a fraction', { write_date: '2026-02-30T10:00:00.250Z' }],
    ["the SDK's form", { replication_key: 'write_date', replication_key_value: '2026-02-30T10:00:00Z' }],
    ['a first read', { full_read: { until: '2026-02-30T10:00:00Z', after_id: 3 }, sent: [] }],
    ['an hour 24', { write_date: '2026-02-27T24:00:00Z', id: 5, sent: [] }],
  ];
  for (const [form, bookmark] of impossible) {
    it(`an impossible bookmark time, ${form}: exit 2 naming it, nothing on stdout`, async () => {
      const state = file({ bookmarks: { sales: bookmark } });
      const r = await tap(['--config', file(configOf(sandbox)), '--state', state]);
      expect(r.stdout).toBe('');
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        /^posdata: the state \S+ has a bookmark for sales whose (write_date|full_read\.until) '2026-02-(30|27)T[^']+' is not a time on the calendar; correct it [^\n]+\n$/,
      );
    });
  }

  it('a wrong password: exit 3, one line, nothing on stdout', async () => {
    const r = await tap(['--config', file(configOf(sandbox, { password: `${SUITE_SECRET}-not` }))]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^posdata: [^\n]+\n$/);
    expect(r.stderr).not.toContain(SUITE_SECRET);
  });

  it('the password is in no output, with --debug too', async () => {
    const r = await runCli(
      ['tap', '--debug', '--config', file(configOf(sandbox, { streams: ['configs'] }))],
      {
        env: { POSDATA_CONFIG_DIR: dir },
      },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('[rpc]');
    expect(r.stdout + r.stderr).not.toContain(SUITE_SECRET);
  });

  it('--about --format json says the capabilities and the secret setting', async () => {
    const r = await tap(['--about', '--format', 'json']);
    expect(r.code).toBe(0);
    const about = JSON.parse(r.stdout) as {
      capabilities: string[];
      settings: { properties: Record<string, { secret?: boolean }> };
    };
    expect(about.capabilities).toEqual(['catalog', 'discover', 'state', 'about']);
    // The plugin's name, as Meltano's taps report theirs, not the CLI's.
    expect((about as unknown as { name: string }).name).toBe('tap-posdata');
    expect(about.settings.properties.password?.secret).toBe(true);
  });
});

describe('under the sandbox faults', () => {
  let faulty: SandboxHandle;
  beforeAll(async () => {
    faulty = await startTestSandbox({
      seed: 12,
      orders: 2000,
      days: 6,
      adminKey: SUITE_SECRET,
      faults: 'rate=0.1:502,503,504,429,reset,cut,html,notrpc,expired;seed=3',
    });
  }, 60_000);
  afterAll(async () => {
    await faulty?.close();
  });

  it('runs resumed from their last STATE until one succeeds lose nothing and resend nothing', async () => {
    const cfg = file({ ...configOf(faulty), page_size: 100, timeout: 5 });
    let state: StateValue = { bookmarks: {} };
    const sent = new Map<string, Map<number, string>>();
    let failures = 0;
    for (let run = 0; run < 40; run++) {
      const r = await tap(['--config', cfg, '--state', file(state)]);
      expect(r.stderr).not.toContain(SUITE_SECRET);
      const c = checkOutput(r.stdout, { partial: r.code !== 0 });
      // Nothing the given STATE covers comes again (the data did not change).
      const given = state;
      for (const [stream, recs] of c.records) {
        const b = given.bookmarks[stream];
        const had = sent.get(stream) ?? new Map<number, string>();
        for (const rec of recs) {
          if (had.has(rec.id) && covers(b, rec))
            throw new Error(`${stream} ${rec.id} resent after a STATE that covers it`);
          had.set(rec.id, rec.write_date);
        }
        sent.set(stream, had);
      }
      if (c.states.length > 0) state = c.last;
      if (r.code === 0) break;
      failures++;
      expect([3, 5, 6], r.stderr).toContain(r.code);
      expect(r.stderr).toMatch(/^posdata: [^\n]+\n$/m);
    }
    expect(failures, 'the faults stopped some runs').toBeGreaterThan(0);
    // The reference is read through the same faults: again until one read gets through.
    let reference: Map<string, number[]> | undefined;
    for (let i = 0; i < 50 && !reference; i++)
      reference = await idsInOdoo(new Rpc(faulty.url, 'demo', 'admin', SUITE_SECRET)).catch(() => undefined);
    for (const [stream] of STREAMS)
      expect(
        [...(sent.get(stream)?.keys() ?? [])].sort((a, b) => a - b),
        stream,
      ).toEqual(reference?.get(stream));
  }, 300_000);
});
