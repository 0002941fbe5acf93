// Every list command in every format against the real Odoo 17, as the administrator and as
// a POS user: the same records and values as a direct search_read with the contract's fixed
// filter, shaped by the contract's rules (test/odoo/reference.ts); the filters equal their
// domains. Expectations come from the server, never from the bundled data.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { loginOdoo, rpcOdoo } from '../helpers/odoo17.js';
import type { Rpc } from '../helpers/rpc.js';
import {
  expectCsv,
  expectJson,
  expectParquet,
  expectTable,
  json,
  LINES,
  type Obj,
  odooTime,
  ok,
  Reference,
  SPECS,
  type Spec,
  utc,
} from './reference.js';

const odoo = inject('odoo');
const dir = mkdtempSync(join(tmpdir(), 'posdata-odoo-lists-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

describe.each(['admin', 'cashier'] as const)('as %s', (who) => {
  let env: Record<string, string>;
  let rpc: Rpc;
  let ref: Reference;
  beforeAll(async () => {
    [env, rpc] = await Promise.all([loginOdoo(odoo, who), rpcOdoo(odoo, who)]);
    ref = await Reference.open(rpc);
  });

  /** One command in all five formats at once, each checked against the reference rows. */
  async function everyFormat(args: string[], s: Spec, expected: Obj[]): Promise<void> {
    const file = join(dir, `${s.name}-${who}-${++files}.parquet`);
    const what = `${who}: posdata ${args.join(' ')}`;
    const [j, nd, csv, table] = await Promise.all([
      ok([...args, '--format', 'json'], env),
      ok([...args, '--format', 'ndjson'], env),
      ok([...args, '--format', 'csv'], env),
      ok([...args, '--format', 'table'], env),
      ok([...args, '-o', file], env),
    ]);
    const rows = JSON.parse(j.stdout) as Obj[];
    expectJson(rows, expected, `${what} (json)`);
    const ndRows = nd.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Obj);
    expect(ndRows, `${what}: ndjson = json`).toEqual(rows);
    const fields = await ref.fields(s.model);
    expectCsv(csv.stdout, expected, fields, what);
    expectTable(table.stdout, expected, s.sum, what);
    await expectParquet(file, expected, fields, s.sum, what);
  }

  for (const s of SPECS) {
    it(`${s.name}: json, ndjson, csv, table and parquet give search_read's records and values`, async () => {
      const expected = await ref.rows(s);
      expect(expected.length, 'search_count agrees with search_read').toBe(await ref.count(s));
      await everyFormat([s.name], s, expected);
    });
  }

  it('refunds: each names the order its lines refund (Odoo 16/17 keep the link on the lines only)', async () => {
    const refunds = await ref.rows(SPECS.find((s) => s.name === 'refunds') as Spec);
    expect(refunds.length, 'the server has refunds to check').toBeGreaterThan(0);
    // The reference reads the origin from the lines (refunded_orderline_id → order_id), not
    // from the refund's own fields; the refunds test above compares posdata's with it.
    for (const r of refunds) expect(r.refunded_order_id, `refund ${r.id}`).not.toBeNull();
  });

  it('lines: of a refund and of a discounted order, in every format; of no order, exit 4', async () => {
    const refund = await rpc.searchRead('pos.order.line', [['refunded_orderline_id', '!=', false]], {
      fields: ['order_id'],
      limit: 1,
    });
    const discounted = await rpc.searchRead('pos.order.line', [['discount', '>', 0]], {
      fields: ['order_id'],
      limit: 1,
    });
    const orders = [...refund, ...discounted].map((l) => (l.order_id as [number])[0]);
    expect(orders.length, 'the server has a refund and a discount').toBe(2);
    for (const id of orders) {
      const expected = await ref.rows(LINES, [['order_id', '=', id]]);
      expect(expected.length).toBeGreaterThan(0);
      await everyFormat(['lines', String(id)], LINES, expected);
    }
    const [last] = await rpc.searchRead('pos.order', [], { fields: ['id'], order: 'id desc', limit: 1 });
    const missing = (last?.id as number) + 1000;
    const r = await runCli(['lines', String(missing)], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(new RegExp(`^posdata: .*${missing}.*; .+\\n$`));
  });

  it('--from/--to (the business day in the user zone, or times in --tz) equal the domain on each time field', async () => {
    const timed = SPECS.filter((s) => s.time);
    await Promise.all(
      timed.map(async (s) => {
        const time = s.time as string;
        // A day that has records: that of the middle record, in the user's zone (the default --tz).
        const all = await rpc.searchRead(s.model, await ref.domain(s, [[time, '!=', false]]), {
          fields: [time],
          order: `${time}, id`,
        });
        const mid = all[Math.floor(all.length / 2)]?.[time] as string;
        expect(mid, `${s.name} has records`).toBeDefined();
        const day = utc(mid).setZone(ref.tz).startOf('day');
        const d = day.toISODate() as string;
        const wholeDay = [
          [time, '>=', odooTime(day)],
          [time, '<', odooTime(day.plus({ days: 1 }))],
        ];
        expectJson(
          await json([s.name, '--from', d, '--to', d], env),
          await ref.rows(s, wholeDay),
          `${s.name} ${d}`,
        );
        // Times read in another zone, --to inclusive to the second; output times in that zone.
        const zone = 'America/New_York';
        const from = utc(mid).setZone(zone).minus({ hours: 7 }).startOf('minute');
        const to = utc(mid).setZone(zone).plus({ hours: 5, seconds: 17 });
        const args = [
          '--from',
          from.toFormat('yyyy-MM-dd HH:mm'),
          '--to',
          to.toFormat('yyyy-MM-dd HH:mm:ss'),
        ];
        const within = [
          [time, '>=', odooTime(from)],
          [time, '<=', odooTime(to)],
        ];
        expectJson(
          await json([s.name, ...args, '--tz', zone], env),
          await ref.rows(s, within, { tz: zone }),
          `${s.name} ${args.join(' ')} --tz ${zone}`,
        );
      }),
    );
  });

  it('lines --from/--to, --session-id and --config-id: the union of the lines of each ticket they select', async () => {
    const dates = await rpc.searchRead('pos.order', [], { fields: ['date_order'], order: 'date_order, id' });
    const mid = dates[Math.floor(dates.length / 2)]?.date_order as string;
    const d = utc(mid).setZone(ref.tz).toISODate() as string;
    const tickets = (await json(['sales', '--from', d, '--to', d, '--fields', 'id'], env)).map(
      (t) => t.id as number,
    );
    expect(tickets.length).toBeGreaterThan(1);
    // One ticket at a time, as it had to be done before (one after the other: the server
    // has few workers).
    const union: Obj[] = [];
    for (const id of tickets) union.push(...(await json(['lines', String(id)], env)));
    union.sort((a, b) => (a.id as number) - (b.id as number));
    expect(union.length).toBeGreaterThan(tickets.length - 1);
    expect(await json(['lines', '--from', d, '--to', d, '--page-size', '7'], env)).toEqual(union);
    // A session's and a register's lines: those of its tickets, as Odoo's domain on the ticket gives them.
    const order = dates[Math.floor(dates.length / 2)]?.id as number;
    const [t] = await rpc.searchRead('pos.order', [['id', '=', order]], {
      fields: ['session_id', 'config_id'],
    });
    const session = (t?.session_id as [number, string] | undefined)?.[0] as number;
    const config = (t?.config_id as [number, string] | undefined)?.[0] as number;
    for (const [flag, field, value] of [
      ['--session-id', 'session_id', session],
      ['--config-id', 'config_id', config],
    ] as const) {
      const ids = (await rpc.searchRead('pos.order', [[field, '=', value]], { fields: ['id'] })).map(
        (o) => o.id,
      );
      expectJson(
        await json(['lines', flag, String(value)], env),
        await ref.rows(LINES, [['order_id', 'in', ids]]),
        `lines ${flag} ${value}`,
      );
    }
  });

  it('--config-id and --session-id equal the domain on the register and the session', async () => {
    const configs = (await rpc.searchRead('pos.config', [], { fields: ['id'] })).map((c) => c.id as number);
    expect(configs.length).toBeGreaterThan(0);
    await Promise.all(
      SPECS.filter((s) => s.config || s.session).map(async (s) => {
        for (const c of configs) {
          expectJson(
            await json([s.name, '--config-id', String(c)], env),
            await ref.rows(s, [[s.config, '=', c]]),
            `${s.name} --config-id ${c}`,
          );
        }
        if (!s.session) return;
        // The session of the resource's latest record, so the filter keeps something.
        const [rec] = await rpc.searchRead(s.model, await ref.domain(s), {
          fields: [s.session],
          order: 'id desc',
          limit: 1,
        });
        const session = (rec?.[s.session] as [number] | false) || [0];
        expectJson(
          await json([s.name, '--session-id', String(session[0])], env),
          await ref.rows(s, [[s.session, '=', session[0]]]),
          `${s.name} --session-id ${session[0]}`,
        );
      }),
    );
  });

  it('a register or session that does not exist: exit 4 and one line, for lists, summary and reconcile', async () => {
    // Odoo answers a read of `id` alone with any id; posdata asks for the name, which it does not.
    const [last] = await rpc.searchRead('pos.config', [], { fields: ['id'], order: 'id desc', limit: 1 });
    const none = String((last?.id as number) + 1000);
    for (const args of [
      ['sales', '--config-id', none],
      ['payments', '--session-id', none],
      ['summary', '--config-id', none],
      ['reconcile', '--config-id', none],
    ]) {
      const r = await runCli([...args, '--format', 'json', '--rate', '0'], { env });
      expect(r.code, `${who}: ${args.join(' ')}: ${r.stderr}`).toBe(4);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^posdata: (register|session) ${none} does not exist; [^\n]+\n$`));
    }
  });

  it('sales --tz: every datetime in that zone, the same instant as Odoo stores', async () => {
    const s = SPECS.find((x) => x.name === 'sales') as Spec;
    const zone = 'Asia/Kolkata';
    const got = await json(['sales', '--tz', zone], env);
    expectJson(got, await ref.rows(s, [], { tz: zone }), `sales --tz ${zone}`);
    expect(String(got[0]?.date_order)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:30$/);
  });
});

describe('what Odoo refuses the POS user', () => {
  it('one line, exit 5, naming the groups Odoo names (not the POS group the user has)', async () => {
    const [env, rpc] = await Promise.all([loginOdoo(odoo, 'cashier'), rpcOdoo(odoo, 'cashier')]);
    // The session's bank payments are accounting records (account.payment): Odoo refuses
    // them to a Point of Sale / User, and says which groups may read them.
    const refused = await rpc.searchRead('pos.session', [], { fields: ['bank_payment_ids'], limit: 1 }).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(refused, 'Odoo refuses the POS user the session payments').toMatch(
      /^odoo\.exceptions\.AccessError: /,
    );
    const groups = [...refused.matchAll(/^\s*- (.+)$/gm)].map((m) => (m[1] as string).trim());
    const r = await runCli(['closures', '--fields', 'id,bank_payment_ids', '--format', 'json'], { env });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^posdata: Odoo refused access: [^\n]+; [^\n]+\n$/);
    for (const g of groups) expect(r.stderr).toContain(g);
  });
});
