// read_group (Odoo 16-18, and 19's deprecated one) and Odoo 19's formatted_read_group, over
// JSON-RPC and JSON-2, checked against the sandbox's own raw records: every group's figures are the
// sums of the records its domain selects, in the zone the context names.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RpcReply, rpcClient, type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';
import { startSandboxCommand } from './command.js';

type R = Record<string, unknown>;
const here = dirname(fileURLToPath(import.meta.url));
// 2026-10-25 is the autumn change in Europe/Brussels (03:00 CEST -> 02:00 CET).
const NOW = new Date('2026-10-27T15:00:00Z');
const ZONES = ['Europe/Brussels', 'Pacific/Kiritimati', false] as const;
const GRANULARITIES = ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
const MONTHS = 'January February March April May June July August September October November December'.split(
  ' ',
);

let v17: SandboxHandle;
let v19: SandboxHandle;
const KEY = 'rg-admin-key';

beforeAll(async () => {
  [v17, v19] = await Promise.all([
    startTestSandbox({ seed: 11, orders: 1500, days: 6, now: NOW }),
    startTestSandbox({ seed: 11, orders: 1500, days: 6, now: NOW, odooVersion: 19, adminKey: KEY }),
  ]);
});
afterAll(async () => {
  await Promise.all([v17?.close(), v19?.close()]);
});

const rpc = (sb: SandboxHandle) => rpcClient(sb.url);
async function j2(model: string, method: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const r = await fetch(`${v19.url}/json/2/${model}/${method}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `bearer ${KEY}`,
      'X-Odoo-Database': 'demo',
    },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
}

/** Local wall clock of a UTC `YYYY-MM-DD HH:MM:SS` in a zone, by Intl (independent of the sandbox). */
function local(
  utc: string,
  tz: string | false,
): { y: number; mo: number; d: number; h: number; dow: number } {
  const date = new Date(`${utc.replace(' ', 'T')}Z`);
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: tz || 'UTC',
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    weekday: 'short',
  });
  const p: R = {};
  for (const x of f.formatToParts(date)) p[x.type] = x.value;
  return {
    y: Number(p.year),
    mo: Number(p.month),
    d: Number(p.day),
    h: Number(p.hour),
    dow: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(String(p.weekday)),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** The label Odoo 17 gives a group holding a record at `utc` (babel en_US formats). */
function expectedLabel(utc: string, tz: string | false, g: string): string | RegExp {
  const l = local(utc, tz);
  const mon = MONTHS[l.mo - 1] as string;
  switch (g) {
    case 'hour':
      return `${pad(l.h % 12 || 12)}:00 ${pad(l.d)} ${mon.slice(0, 3)}`;
    case 'day':
      return `${pad(l.d)} ${mon.slice(0, 3)} ${l.y}`;
    case 'week':
      return /^W\d{1,2} \d{4}$/;
    case 'month':
      return `${mon} ${l.y}`;
    case 'quarter':
      return `Q${Math.floor((l.mo - 1) / 3) + 1} ${l.y}`;
    default:
      return String(l.y);
  }
}

const near = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1e-6);
const sum = (rows: R[], f: string) => rows.reduce((s, r) => s + (r[f] as number), 0);

describe('read_group as Odoo 17 answers it', () => {
  it('replays the recorded reply: same keys in the same order, counts adding up', async () => {
    const rec = JSON.parse(readFileSync(join(here, 'wire17', 'read_group_orders_by_state.json'), 'utf8'));
    const [, , , model, method, args, kwargs] = rec.request.params.args;
    const r = (await rpc(v17).kw(model, method, args, kwargs)) as RpcReply;
    const groups = r.result as R[];
    const recorded = rec.response.result as R[];
    for (const g of groups) expect(Object.keys(g)).toEqual(Object.keys(recorded[0] as R));
    expect(groups.map((g) => g.state)).toEqual([...groups.map((g) => g.state)].sort());
    for (const g of groups) expect(g.__domain).toEqual([['state', '=', g.state]]);
    const total = groups.reduce((s, g) => s + (g.__count as number), 0);
    expect(total).toBe(await rpc(v17).ok('pos.order', 'search_count', [[]]));
  });

  for (const tz of ZONES)
    for (const g of GRANULARITIES)
      it(`date_order:${g} in ${tz || 'no zone'}: each group is exactly the records of its __domain`, async () => {
        const c = rpc(v17);
        const context = tz ? { tz } : {};
        const domain = [['state', 'in', ['paid', 'done', 'invoiced']]];
        const groups = await c.ok<R[]>(
          'pos.order',
          'read_group',
          [domain, ['amount_total:sum', 'amount_tax'], [`date_order:${g}`]],
          { lazy: false, context },
        );
        const all = await c.ok<R[]>('pos.order', 'search_read', [domain, ['amount_total', 'date_order']]);
        const seen = new Set<number>();
        for (const grp of groups) {
          const rows = await c.ok<R[]>('pos.order', 'search_read', [
            grp.__domain,
            ['amount_total', 'amount_tax', 'date_order'],
          ]);
          expect(rows.length).toBe(grp.__count);
          near(sum(rows, 'amount_total'), grp.amount_total as number);
          near(sum(rows, 'amount_tax'), grp.amount_tax as number);
          const range = (grp.__range as Record<string, { from: string; to: string }>)[`date_order:${g}`];
          for (const row of rows) {
            expect(seen.has(row.id as number)).toBe(false);
            seen.add(row.id as number);
            const at = row.date_order as string;
            expect(at >= (range?.from ?? '') && at < (range?.to ?? '')).toBe(true);
            const want = expectedLabel(row.date_order as string, tz, g);
            if (typeof want === 'string') expect(grp[`date_order:${g}`]).toBe(want);
            else expect(grp[`date_order:${g}`]).toMatch(want);
          }
          // Periods start at local midnight (hours at the hour), weeks on Sunday (en_US).
          if (g !== 'hour' && range) {
            const start = local(range.from, tz);
            expect(start.h).toBe(0);
            if (g === 'week') expect(start.dow).toBe(0);
            if (['month', 'quarter', 'year'].includes(g)) expect(start.d).toBe(1);
          }
        }
        expect(seen.size).toBe(all.length);
        near(
          groups.reduce((s, x) => s + (x.amount_total as number), 0),
          sum(all, 'amount_total'),
        );
      });

  it('cuts the Brussels day of the autumn change at local midnights 25 hours apart', async () => {
    const groups = await rpc(v17).ok<R[]>(
      'pos.order',
      'read_group',
      [[], ['amount_total'], ['date_order:day']],
      {
        context: { tz: 'Europe/Brussels' },
      },
    );
    const byLabel = new Map(groups.map((g) => [g['date_order:day'], g.__range as R]));
    expect(byLabel.get('25 Oct 2026')?.['date_order:day']).toEqual({
      from: '2026-10-24 22:00:00',
      to: '2026-10-25 23:00:00',
    });
    expect(byLabel.get('26 Oct 2026')?.['date_order:day']).toEqual({
      from: '2026-10-25 23:00:00',
      to: '2026-10-26 23:00:00',
    });
    // The count key of a lazy read_group on one groupby is <field>_count.
    expect(Object.keys(groups[0] as R)).toEqual([
      'date_order:day',
      'date_order_count',
      'amount_total',
      '__domain',
      '__range',
    ]);
  });

  it('merges the repeated autumn hour into one group whose __range is its standard-time half, as Odoo', async () => {
    const c = rpc(v17);
    const [session] = await c.ok<R[]>('pos.session', 'search_read', [[], ['id']], { limit: 1 });
    // 00:30 and 01:30 UTC on 2026-10-25 are both 02:30 on a Brussels clock (CEST, then CET).
    const made: number[] = [];
    for (const at of ['2026-10-25 00:30:00', '2026-10-25 01:30:00'])
      made.push(
        await c.ok<number>('pos.order', 'create', [
          {
            session_id: session?.id,
            date_order: at,
            amount_total: 10,
            amount_tax: 0,
            amount_paid: 10,
            amount_return: 0,
          },
        ]),
      );
    try {
      const groups = await c.ok<R[]>(
        'pos.order',
        'read_group',
        [[['id', 'in', made]], ['amount_total'], ['date_order:hour']],
        {
          context: { tz: 'Europe/Brussels' },
        },
      );
      expect(groups.length).toBe(1);
      expect(groups[0]).toMatchObject({
        'date_order:hour': '02:00 25 Oct',
        date_order_count: 2,
        amount_total: 20,
        __range: { 'date_order:hour': { from: '2026-10-25 01:00:00', to: '2026-10-25 02:00:00' } },
      });
    } finally {
      await c.ok('pos.order', 'unlink', [made]);
    }
  });

  it('puts a UTC+14 evening on the next local day', async () => {
    const c = rpc(v17);
    const groups = await c.ok<R[]>('pos.order', 'read_group', [[], [], ['date_order:day']], {
      context: { tz: 'Pacific/Kiritimati' },
    });
    const late = await c.ok<R[]>('pos.order', 'search_read', [
      [
        ['date_order', '>=', '2026-10-26 10:00:00'],
        ['date_order', '<', '2026-10-26 12:00:00'],
      ],
      ['date_order'],
    ]);
    expect(late.length).toBeGreaterThan(0);
    const g = groups.find((x) => x['date_order:day'] === '27 Oct 2026') as R;
    expect((g.__range as R)['date_order:day']).toEqual({
      from: '2026-10-26 10:00:00',
      to: '2026-10-27 10:00:00',
    });
  });

  it('lazy groups on the first groupby and passes the rest in __context; lazy=False groups on all', async () => {
    const c = rpc(v17);
    const lazy = await c.ok<R[]>('pos.order', 'read_group', [[], ['amount_total'], ['config_id', 'state']]);
    expect(Object.keys(lazy[0] as R)).toEqual([
      'config_id',
      'config_id_count',
      'amount_total',
      '__domain',
      '__context',
    ]);
    expect(lazy[0]?.__context).toEqual({ group_by: ['state'] });
    expect(Array.isArray(lazy[0]?.config_id)).toBe(true);
    const full = await c.ok<R[]>('pos.order', 'read_group', [[], ['amount_total'], ['config_id', 'state']], {
      lazy: false,
    });
    expect(Object.keys(full[0] as R)).toEqual(['config_id', 'state', '__count', 'amount_total', '__domain']);
    const f0 = full[0] as R;
    expect(f0.__domain).toEqual([
      '&',
      ['config_id', '=', (f0.config_id as number[])[0]],
      ['state', '=', f0.state],
    ]);
    const perConfig = new Map<number, number>();
    for (const g of full) {
      const id = (g.config_id as [number, string])[0];
      perConfig.set(id, (perConfig.get(id) ?? 0) + (g.__count as number));
    }
    for (const g of lazy) expect(perConfig.get((g.config_id as [number, string])[0])).toBe(g.config_id_count);
    // Keyword arguments bind like positional ones.
    const kw = await c.ok<R[]>('pos.order', 'read_group', [], {
      domain: [],
      fields: ['amount_total'],
      groupby: ['config_id', 'state'],
      lazy: false,
    });
    expect(kw).toEqual(full);
  });

  it('orders, offsets and limits groups', async () => {
    const c = rpc(v17);
    const all = await c.ok<R[]>('pos.order', 'read_group', [[], ['amount_total'], ['session_id']], {
      lazy: false,
    });
    const top = await c.ok<R[]>('pos.order', 'read_group', [[], ['amount_total'], ['session_id']], {
      lazy: false,
      orderby: 'amount_total desc',
      offset: 1,
      limit: 3,
    });
    const sorted = [...all].sort((a, b) => (b.amount_total as number) - (a.amount_total as number));
    expect(top.map((g) => g.session_id)).toEqual(sorted.slice(1, 4).map((g) => g.session_id));
    const byCount = await c.ok<R[]>('pos.order', 'read_group', [[], [], ['session_id']], {
      lazy: false,
      orderby: '__count desc',
      limit: 1,
    });
    expect(byCount[0]?.__count).toBe(Math.max(...all.map((g) => g.__count as number)));
  });

  it("sorts many2one groups in the comodel's _order, also 19's formatted_read_group without an order (recorded)", async () => {
    const g17 = await rpc(v17).ok<R[]>('pos.order', 'read_group', [[], [], ['session_id']], { lazy: false });
    const ids17 = g17.map((g) => (g.session_id as number[])[0] as number);
    expect(ids17).toEqual([...ids17].sort((a, b) => b - a)); // pos.session _order = 'id desc'
    const g19 = (
      await j2('pos.order', 'formatted_read_group', { domain: [], groupby: ['session_id'], aggregates: [] })
    ).body as R[];
    const ids19 = g19.map((g) => (g.session_id as number[])[0] as number);
    expect(ids19.length).toBeGreaterThan(3);
    expect(ids19).toEqual([...ids19].sort((a, b) => b - a));
    const bad = await rpc(v17).kw('pos.order', 'read_group', [[], [], ['state']], {
      orderby: 'state, nope desc',
    });
    expect(bad.error?.data.message).toBe(
      "Order term ' nope desc' is not a valid aggregate nor valid groupby",
    );
  });

  it('aggregates: default aggregator, :sum, :count, :count_distinct, :max, name:agg(field)', async () => {
    const c = rpc(v17);
    const [g] = await c.ok<R[]>('pos.order.line', 'read_group', [
      [],
      [
        'qty',
        'price_subtotal:sum',
        'id:count',
        'product_id:count_distinct',
        'price_unit:max',
        'top:max(price_subtotal_incl)',
        'product_id',
      ],
      [],
    ]);
    const rows = await c.ok<R[]>('pos.order.line', 'search_read', [
      [],
      ['qty', 'price_subtotal', 'price_subtotal_incl', 'price_unit', 'product_id'],
    ]);
    expect(Object.keys(g as R)).toEqual([
      '__count',
      'qty',
      'price_subtotal',
      'id',
      'product_id',
      'price_unit',
      'top',
      '__domain',
    ]);
    near(g?.qty as number, sum(rows, 'qty'));
    near(g?.price_subtotal as number, sum(rows, 'price_subtotal'));
    expect(g?.id).toBe(rows.length);
    expect(g?.product_id).toBe(new Set(rows.map((r) => (r.product_id as number[])[0])).size);
    expect(g?.price_unit).toBe(Math.max(...rows.map((r) => r.price_unit as number)));
    expect(g?.top).toBe(Math.max(...rows.map((r) => r.price_subtotal_incl as number)));
  });

  it('groups lines selected through their order (order_id.date_order) like a search of the same domain', async () => {
    const c = rpc(v17);
    const domain = [
      ['order_id.date_order', '>=', '2026-10-24 00:00:00'],
      ['order_id.date_order', '<', '2026-10-26 00:00:00'],
      ['order_id.state', 'in', ['paid', 'done', 'invoiced']],
    ];
    const groups = await c.ok<R[]>(
      'pos.order.line',
      'read_group',
      [domain, ['qty:sum', 'price_subtotal_incl:sum'], ['product_id']],
      {
        lazy: false,
      },
    );
    const rows = await c.ok<R[]>('pos.order.line', 'search_read', [
      domain,
      ['product_id', 'qty', 'price_subtotal_incl'],
    ]);
    expect(rows.length).toBeGreaterThan(0);
    expect(groups.reduce((n, g) => n + (g.__count as number), 0)).toBe(rows.length);
    for (const g of groups) {
      const mine = rows.filter((r) => (r.product_id as number[])[0] === (g.product_id as number[])[0]);
      expect(mine.length).toBe(g.__count);
      near(sum(mine, 'qty'), g.qty as number);
      near(sum(mine, 'price_subtotal_incl'), g.price_subtotal_incl as number);
      expect(await c.ok('pos.order.line', 'search_count', [g.__domain])).toBe(g.__count);
    }
  });

  it('answers one row without groupby, even when nothing matches (count 0, empty sum False)', async () => {
    const c = rpc(v17);
    const none = await c.ok<R[]>('pos.order', 'read_group', [
      [['id', '<', 0]],
      ['amount_total:sum', 'id:count'],
      [],
    ]);
    expect(none).toEqual([{ __count: 0, amount_total: false, id: 0, __domain: [['id', '<', 0]] }]);
  });

  it('groups a many2many per related record', async () => {
    const c = rpc(v17);
    const groups = await c.ok<R[]>(
      'pos.order.line',
      'read_group',
      [[], ['price_subtotal_incl'], ['tax_ids']],
      { lazy: false },
    );
    const lines = await c.ok<R[]>('pos.order.line', 'search_read', [[], ['tax_ids', 'price_subtotal_incl']]);
    for (const g of groups) {
      const rows = await c.ok<R[]>('pos.order.line', 'search_read', [
        g.__domain,
        ['tax_ids', 'price_subtotal_incl'],
      ]);
      expect(rows.length).toBe(g.__count);
      if (g.tax_ids === false) {
        expect(g.__domain).toEqual([['tax_ids', 'not any', []]]);
        for (const r of rows) expect(r.tax_ids).toEqual([]);
      } else {
        const [id, name] = g.tax_ids as [number, string];
        expect(typeof name).toBe('string');
        for (const r of rows) expect(r.tax_ids).toContain(id);
      }
      near(sum(rows, 'price_subtotal_incl'), g.price_subtotal_incl as number);
    }
    const expected = lines.reduce((n, l) => n + Math.max(1, (l.tax_ids as number[]).length), 0);
    expect(groups.reduce((n, g) => n + (g.__count as number), 0)).toBe(expected);
  });

  it('refuses as Odoo does: unknown field, non-stored field, bad aggregate, granularity, dotted path', async () => {
    const c = rpc(v17);
    const err = async (args: unknown[], kwargs: R = {}) => {
      const r = await c.kw('pos.order', 'read_group', args, kwargs);
      expect(r.error?.code).toBe(200);
      expect(r.error?.data.name).toBe('builtins.ValueError');
      return r.error?.data.message;
    };
    expect(await err([[], [], ['nope']])).toBe("Invalid field 'nope' on model 'pos.order'");
    expect(await err([[], ['nope:sum'], ['state']])).toBe("Invalid field 'nope' on model 'pos.order'");
    // 17's words (seen on a real 17); 18/19 add "because it is not stored" and drop "field".
    expect(await err([[], [], ['is_invoiced']])).toBe('Cannot convert field pos.order.is_invoiced to SQL');
    expect(await err([[], ['amount_total:median'], ['state']])).toBe(
      "Invalid aggregate method 'median' for 'amount_total:median'.",
    );
    expect(await err([[], [], ['state:day']])).toBe(
      "Granularity set on a no-datetime field or property: 'state:day'",
    );
    expect(await err([[], [], ['date_order:fortnight']])).toBe(
      "Granularity specification isn't correct: 'fortnight'",
    );
    expect(await err([[], [], ['date_order:day_of_week']])).toBe(
      "Granularity specification isn't correct: 'day_of_week'",
    );
    expect(await err([[], [], ['session_id.config_id']])).toBe(
      "Property name 'config_id' has to be used on a property field.",
    );
    const missing = await c.kw('pos.order', 'read_group', [[], []]);
    expect(missing.error?.data.message).toBe(
      "BaseModel.read_group() missing 1 required positional argument: 'groupby'",
    );
  });
});

describe('Odoo 19: formatted_read_group and the deprecated read_group', () => {
  it('gives date groups as [utc start, label], aggregates under their spec, __extra_domain', async () => {
    const r = await j2('pos.order', 'formatted_read_group', {
      domain: [['state', 'in', ['paid', 'done']]],
      groupby: ['date_order:day', 'config_id'],
      aggregates: ['amount_total:sum', '__count'],
      context: { tz: 'Europe/Brussels' },
    });
    expect(r.status).toBe(200);
    const groups = r.body as R[];
    const g = groups.find((x) => (x['date_order:day'] as string[])[1] === '25 Oct 2026') as R;
    // As recorded from a real 19: the groupby specs, __extra_domain, then the aggregates asked for.
    expect(Object.keys(g)).toEqual([
      'date_order:day',
      'config_id',
      '__extra_domain',
      'amount_total:sum',
      '__count',
    ]);
    expect(g['date_order:day']).toEqual(['2026-10-24 22:00:00', '25 Oct 2026']);
    expect(g.__extra_domain).toEqual([
      '&',
      '&',
      ['date_order', '>=', '2026-10-24 22:00:00'],
      ['date_order', '<', '2026-10-25 23:00:00'],
      ['config_id', '=', (g.config_id as number[])[0]],
    ]);
    for (const grp of groups) {
      const rows = (
        await j2('pos.order', 'search_read', {
          domain: ['&', ['state', 'in', ['paid', 'done']], ...(grp.__extra_domain as unknown[])],
          fields: ['amount_total'],
        })
      ).body as R[];
      expect(rows.length).toBe(grp.__count);
      near(sum(rows, 'amount_total'), grp['amount_total:sum'] as number);
    }
  });

  for (const g of GRANULARITIES)
    it(`formatted_read_group date_order:${g} in Europe/Brussels: [utc start, label] and an exact __extra_domain`, async () => {
      const spec = `date_order:${g}`;
      const groups = (
        await j2('pos.order', 'formatted_read_group', {
          domain: [],
          groupby: [spec],
          aggregates: ['__count', 'amount_total:sum'],
          context: { tz: 'Europe/Brussels' },
        })
      ).body as R[];
      let total = 0;
      for (const grp of groups) {
        const [start, label] = grp[spec] as [string, string];
        const dom = grp.__extra_domain as unknown[];
        expect(dom[1]).toEqual(['date_order', '>=', start]);
        const rows = (
          await j2('pos.order', 'search_read', { domain: dom, fields: ['amount_total', 'date_order'] })
        ).body as R[];
        expect(rows.length).toBe(grp.__count);
        near(sum(rows, 'amount_total'), grp['amount_total:sum'] as number);
        const want = expectedLabel(rows[0]?.date_order as string, 'Europe/Brussels', g);
        if (typeof want === 'string') expect(label).toBe(want);
        else expect(label).toMatch(want);
        total += rows.length;
      }
      expect(total).toBe((await j2('pos.order', 'search_count', { domain: [] })).body);
    });

  it('groups by day_of_week and hour_number in the zone (JSON-2: the user zone by default)', async () => {
    for (const context of [{}, { tz: 'Pacific/Kiritimati' }]) {
      const r = await j2('pos.order', 'formatted_read_group', {
        domain: [],
        groupby: ['date_order:day_of_week', 'date_order:hour_number'],
        aggregates: ['__count', 'amount_total:sum'],
        context,
      });
      const groups = r.body as R[];
      const tz = (context as R).tz ?? 'Europe/Brussels';
      const rows = (
        await j2('pos.order', 'search_read', { domain: [], fields: ['date_order', 'amount_total'] })
      ).body as R[];
      const want = new Map<string, number>();
      for (const o of rows) {
        const l = local(o.date_order as string, tz as string);
        const k = `${l.dow}/${l.h}`;
        want.set(k, (want.get(k) ?? 0) + 1);
      }
      expect(groups.length).toBe(want.size);
      for (const g of groups) {
        expect(g.__count).toBe(want.get(`${g['date_order:day_of_week']}/${g['date_order:hour_number']}`));
        expect(g.__extra_domain).toEqual([
          '&',
          ['date_order.day_of_week', '=', g['date_order:day_of_week']],
          ['date_order.hour_number', '=', g['date_order:hour_number']],
        ]);
      }
      // The __extra_domain selects the group's records, in the same zone.
      const g = groups[0] as R;
      const n = (await j2('pos.order', 'search_count', { domain: g.__extra_domain, context })).body;
      expect(n).toBe(g.__count);
    }
  });

  it('follows a many2one path in groupby, and keeps read_group callable', async () => {
    const r = await j2('pos.order.line', 'formatted_read_group', {
      domain: [],
      groupby: ['order_id.config_id'],
      aggregates: ['price_subtotal_incl:sum'],
    });
    const groups = r.body as R[];
    for (const g of groups) {
      // 19 writes a condition through a many2one with `any` (as recorded for order_id.date_order).
      expect(g.__extra_domain).toEqual([
        ['order_id', 'any', [['config_id', '=', (g['order_id.config_id'] as number[])[0]]]],
      ]);
      const rows = (
        await j2('pos.order.line', 'search_read', {
          domain: g.__extra_domain,
          fields: ['price_subtotal_incl'],
        })
      ).body as R[];
      near(sum(rows, 'price_subtotal_incl'), g['price_subtotal_incl:sum'] as number);
    }
    const old = await j2('pos.order', 'read_group', {
      domain: [],
      fields: ['amount_total:sum'],
      groupby: ['state'],
      lazy: false,
    });
    expect(old.status).toBe(200);
    expect(Object.keys((old.body as R[])[0] as R)).toEqual(['state', '__count', 'amount_total', '__domain']);
  });

  it('orders by an aggregate, filters with having, and refuses bad specs', async () => {
    const r = await j2('pos.order', 'formatted_read_group', {
      domain: [],
      groupby: ['session_id'],
      aggregates: ['amount_total:sum'],
      having: [['__count', '>', 5]],
      order: 'amount_total:sum desc',
      limit: 2,
    });
    const groups = r.body as R[];
    expect(groups.length).toBe(2);
    expect((groups[0]?.['amount_total:sum'] as number) >= (groups[1]?.['amount_total:sum'] as number)).toBe(
      true,
    );
    const bad = await j2('pos.order', 'formatted_read_group', {
      domain: [],
      groupby: ['state'],
      aggregates: ['amount_total'],
    });
    expect(bad.status).toBe(500);
    expect((bad.body as R).message).toBe("Aggregate method is mandatory for 'amount_total'");
    const unknown = await j2('pos.order', 'formatted_read_group', {
      domain: [],
      groupby: ['nope'],
      aggregates: [],
    });
    expect((unknown.body as R).message).toBe("Invalid field 'nope' on model 'pos.order'");
    const noGran = await j2('pos.order', 'formatted_read_group', {
      domain: [],
      groupby: ['date_order'],
      aggregates: [],
    });
    expect((noGran.body as R).message).toBe("Granularity not set on a date(time) field: 'date_order'");
  });
});

describe('what a summary needs: categories, taxes per line, cashiers, employees', () => {
  it('describes the fields in fields_get, with 17 group_operator and 19 aggregator', async () => {
    const f17 = await rpc(v17).ok<Record<string, R>>('pos.order.line', 'fields_get', [], {});
    expect(f17.tax_ids_after_fiscal_position).toMatchObject({
      type: 'many2many',
      relation: 'account.tax',
      store: false,
    });
    expect(f17.price_subtotal_incl?.group_operator).toBe('sum');
    expect(f17.product_id?.group_operator).toBeUndefined();
    const t17 = await rpc(v17).ok<Record<string, R>>(
      'product.template',
      'fields_get',
      [['categ_id', 'pos_categ_ids']],
      {
        attributes: ['type', 'relation', 'store'],
      },
    );
    expect(t17).toEqual({
      categ_id: { relation: 'product.category', store: true, type: 'many2one' },
      pos_categ_ids: { relation: 'pos.category', store: true, type: 'many2many' },
    });
    const p17 = await rpc(v17).ok<Record<string, R>>('product.product', 'fields_get', [['categ_id']], {
      attributes: ['store', 'searchable'],
    });
    expect(p17.categ_id).toEqual({ store: false, searchable: true });
    const o19 = (
      await j2('pos.order', 'fields_get', { allfields: ['amount_total', 'tip_amount', 'user_id'] })
    ).body as Record<string, R>;
    expect(o19.amount_total?.aggregator).toBe('sum');
    expect(o19.amount_total?.group_operator).toBeUndefined();
    expect(o19.tip_amount?.type).toBe('monetary');
    expect(o19.user_id?.relation).toBe('res.users');
  });

  it('keeps each line taxed consistently with its subtotals', async () => {
    const c = rpc(v17);
    const taxes = await c.ok<R[]>('account.tax', 'search_read', [
      [],
      ['amount', 'amount_type', 'price_include'],
    ]);
    const rate = new Map(taxes.map((t) => [t.id as number, (t.amount as number) / 100]));
    for (const t of taxes) expect(t).toMatchObject({ amount_type: 'percent', price_include: false });
    const lines = await c.ok<R[]>('pos.order.line', 'search_read', [
      [],
      [
        'qty',
        'price_unit',
        'discount',
        'price_subtotal',
        'price_subtotal_incl',
        'tax_ids',
        'tax_ids_after_fiscal_position',
      ],
    ]);
    for (const l of lines) {
      expect(l.tax_ids_after_fiscal_position).toEqual(l.tax_ids);
      const r = (l.tax_ids as number[]).reduce((s, id) => s + (rate.get(id) ?? 0), 0);
      const base = (l.qty as number) * (l.price_unit as number) * (1 - (l.discount as number) / 100);
      expect(Math.abs((l.price_subtotal as number) - base)).toBeLessThan(0.006);
      expect(Math.abs((l.price_subtotal_incl as number) - base * (1 + r))).toBeLessThan(0.006);
    }
  });

  it('groups lines by product category through the product (19 path), matching the products table', async () => {
    const groups = (
      await j2('pos.order.line', 'formatted_read_group', {
        domain: [],
        groupby: ['product_id.categ_id'],
        aggregates: ['price_subtotal:sum', '__count'],
      })
    ).body as R[];
    const products = (
      await j2('product.product', 'search_read', {
        domain: [['active', 'in', [true, false]]],
        fields: ['categ_id'],
      })
    ).body as R[];
    const categ = new Map(products.map((p) => [p.id as number, (p.categ_id as [number, string])[0]]));
    const lines = (
      await j2('pos.order.line', 'search_read', { domain: [], fields: ['product_id', 'price_subtotal'] })
    ).body as R[];
    const want = new Map<number, { n: number; s: number }>();
    for (const l of lines) {
      const k = categ.get((l.product_id as number[])[0] as number) as number;
      const w = want.get(k) ?? { n: 0, s: 0 };
      w.n++;
      w.s += l.price_subtotal as number;
      want.set(k, w);
    }
    expect(groups.length).toBe(want.size);
    for (const g of groups) {
      const [id, name] = g['product_id.categ_id'] as [number, string];
      expect(name.startsWith('All / Saleable / ')).toBe(true);
      expect(g.__count).toBe(want.get(id)?.n);
      near(g['price_subtotal:sum'] as number, want.get(id)?.s as number);
    }
    const pos = (
      await j2('product.template', 'search_read', {
        domain: [['available_in_pos', '=', true]],
        fields: ['pos_categ_ids'],
      })
    ).body as R[];
    for (const p of pos) expect((p.pos_categ_ids as number[]).length).toBe(1);
  });

  it('has several cashiers on orders, and the many2many empty group for an untaxed line', async () => {
    const c = rpc(v17);
    const byUser = await c.ok<R[]>('pos.order', 'read_group', [[], ['amount_total'], ['user_id']]);
    expect(byUser.length).toBeGreaterThanOrEqual(3);
    const names = byUser.map((g) => (g.user_id as [number, string])[1]);
    expect(names).toContain('Anita Oliver');
    // Lines without taxes (the sandbox's untaxed products, and one created through the API)
    // land in the False group, and its __domain finds exactly them.
    const untaxed = (await c.ok<R[]>('pos.order.line', 'search_read', [[], ['tax_ids']]))
      .filter((l) => (l.tax_ids as number[]).length === 0)
      .map((l) => l.id as number);
    expect(untaxed.length).toBeGreaterThan(0);
    const [order] = await c.ok<R[]>('pos.order', 'search_read', [[['state', '=', 'done']], ['id']], {
      limit: 1,
    });
    const product = await c.ok<R[]>('product.product', 'search_read', [[], ['id']], { limit: 1 });
    const lineId = await c.ok<number>('pos.order.line', 'create', [
      {
        order_id: order?.id,
        product_id: product[0]?.id,
        qty: 1,
        price_unit: 3,
        price_subtotal: 3,
        price_subtotal_incl: 3,
        tax_ids: [],
      },
    ]);
    const groups = await c.ok<R[]>(
      'pos.order.line',
      'read_group',
      [[], ['price_subtotal_incl'], ['tax_ids']],
      { lazy: false },
    );
    const none = groups.find((g) => g.tax_ids === false) as R;
    expect(none.__count).toBe(untaxed.length + 1);
    expect(none.__domain).toEqual([['tax_ids', 'not any', []]]);
    const found = await c.ok<number[]>('pos.order.line', 'search', [none.__domain]);
    expect([...found].sort((a, b) => a - b)).toEqual([...untaxed, lineId].sort((a, b) => a - b));
    expect(groups.at(-1)).toBe(none);
    await c.ok('pos.order.line', 'unlink', [[lineId]]);
  });

  it('models pos_hr only when asked: employee_id and cashier on orders', async () => {
    expect(
      (await rpc(v17).kw('pos.order', 'read_group', [[], [], ['employee_id']])).error?.data.message,
    ).toBe("Invalid field 'employee_id' on model 'pos.order'");
    const hr = await startTestSandbox({ seed: 3, orders: 200, days: 3, posHr: true });
    try {
      const c = rpc(hr);
      const orders = await c.ok<R[]>('pos.order', 'search_read', [[], ['user_id', 'employee_id', 'cashier']]);
      // As on posshop: the employee at the register is the cashier (cashier = its name), not a
      // function of the order's user, who is the session's.
      const employees = await c.ok<R[]>('hr.employee', 'search_read', [[], ['name', 'user_id']]);
      const nameOf = new Map(employees.map((e) => [e.id, e.name]));
      for (const o of orders) {
        const e = (o.employee_id as [number, string])[0];
        expect(o.employee_id).toEqual([e, nameOf.get(e)]);
        expect(o.cashier).toBe(nameOf.get(e));
      }
      const usersPerEmployee = new Map<unknown, Set<unknown>>();
      for (const o of orders) {
        const e = (o.employee_id as [number, string])[0];
        usersPerEmployee.set(
          e,
          (usersPerEmployee.get(e) ?? new Set()).add((o.user_id as [number, string])[0]),
        );
      }
      expect(Math.max(...[...usersPerEmployee.values()].map((u) => u.size))).toBeGreaterThan(1);
      const groups = await c.ok<R[]>('pos.order', 'read_group', [[], ['amount_total'], ['employee_id']]);
      expect(groups.reduce((n, g) => n + (g.employee_id_count as number), 0)).toBe(orders.length);
    } finally {
      await hr.close();
    }
  });

  it('posdata sandbox --pos-hr serves employees and says so in its banner', async () => {
    const sb = await startSandboxCommand(['--pos-hr', '--orders', '60', '--days', '2']);
    try {
      expect(sb.banner).toContain('modules: pos_hr');
      const employees = await rpcClient(sb.url).ok<R[]>('hr.employee', 'search_read', [[], ['name']]);
      expect(employees.map((e) => e.name)).toContain('Ava Student');
    } finally {
      sb.stop();
    }
  });
});
