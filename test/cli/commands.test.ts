// Every read command, in every format, against the sandbox: the built CLI's output is
// compared with what direct JSON-RPC calls with the same filters return. Every test runs
// twice: against an Odoo-17 sandbox over JSON-RPC and an Odoo-19 sandbox over JSON-2 (issue
// 8). Where the versions differ, the expectation comes from what the server itself says
// (fields_get, version), as posdata learns it, not from the version number.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, SUITE_SECRET } from '../helpers/cli.js';
import { SETUPS, type Stage, stage } from '../helpers/protocols.js';

const P = ['--rate', '0'];

/** Odoo's false → null, except on booleans; floats rounded to cents. */
function normalise(v: unknown): unknown {
  if (v === false) return null;
  if (typeof v === 'number' && !Number.isInteger(v)) return Math.round(v * 100) / 100;
  return v;
}

describe.each(SETUPS)('$name', (setup) => {
  let s: Stage;
  // Short names for what every test uses; set once the sandbox is up.
  let sandbox: Stage['sandbox'];
  let rpc: Stage['rpc'];
  let env: Record<string, string>;

  beforeAll(async () => {
    s = await stage(setup, { seed: 11, orders: 1500 });
    ({ sandbox, rpc, env } = s);
  }, 60_000);

  afterAll(async () => {
    await sandbox?.close();
  });

  async function json(args: string[]): Promise<Record<string, unknown>[]> {
    const r = await runCli([...args, '--format', 'json', ...P], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout);
  }

  describe('every command in every format', () => {
    // The same records, whatever the format: counted in json, ndjson, csv and table.
    const commands: [string, string[]][] = [
      ['configs', []],
      ['sales', ['--limit', '40']],
      ['refunds', []],
      ['cancellations', []],
      ['closures', []],
      ['payments', ['--limit', '40']],
      ['products', []],
    ];
    for (const [name, extra] of commands) {
      it(`${name}: json, ndjson, csv and table agree`, async () => {
        const run = async (format: string) => {
          const r = await runCli([name, ...extra, '--format', format, ...P], { env });
          expect(r.code, r.stderr).toBe(0);
          expect(r.stderr).toBe('');
          return r.stdout;
        };
        const j = JSON.parse(await run('json')) as { id: number }[];
        expect(j.length).toBeGreaterThan(0);
        const nd = (await run('ndjson'))
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { id: number });
        expect(nd.map((r) => r.id)).toEqual(j.map((r) => r.id));
        const csv = parse(await run('csv'), { columns: true }) as { id: string }[];
        expect(csv.map((r) => Number(r.id))).toEqual(j.map((r) => r.id));
        const table = await run('table');
        const closing = table.trim().split('\n').at(-1) as string;
        expect(closing).toMatch(new RegExp(`^${j.length} ${name}\\b`));
      });
    }
    it('lines: json, ndjson, csv and table agree', async () => {
      const order = (
        await rpc.searchRead('pos.order', [['state', '!=', 'draft']], { fields: ['id'], limit: 1 })
      )[0].id as number;
      const j = JSON.parse(
        (await runCli(['lines', String(order), '--format', 'json', ...P], { env })).stdout,
      ) as { id: number }[];
      const nd = (await runCli(['lines', String(order), '--format', 'ndjson', ...P], { env })).stdout
        .trim()
        .split('\n');
      const csv = parse((await runCli(['lines', String(order), '--format', 'csv', ...P], { env })).stdout, {
        columns: true,
      });
      const table = (await runCli(['lines', String(order), '--format', 'table', ...P], { env })).stdout;
      expect(j.length).toBeGreaterThan(0);
      expect(nd).toHaveLength(j.length);
      expect(csv).toHaveLength(j.length);
      expect(table.trim().split('\n').at(-1)).toMatch(new RegExp(`^${j.length} lines`));
    });
  });

  describe('configs', () => {
    it('json equals pos.config search_read with the default fields, in order', async () => {
      const out = await json(['configs']);
      const fields = [
        'id',
        'name',
        'current_session_id',
        'current_session_state',
        'last_session_closing_date',
        'last_session_closing_cash',
        'payment_method_ids',
      ];
      const raw = await rpc.searchRead('pos.config', [], { fields, order: 'id' });
      expect(out.length).toBe(raw.length);
      expect(out.length).toBeGreaterThanOrEqual(2);
      expect(Object.keys(out[0])).toEqual(fields);
      out.forEach((o, i) => {
        for (const f of fields) expect(o[f]).toEqual(normalise(raw[i][f]));
      });
    });
  });

  describe('sales', () => {
    it('ndjson has every order once', async () => {
      const r = await runCli(['sales', '--format', 'ndjson', ...P], { env });
      expect(r.code).toBe(0);
      const ids = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id);
      expect(ids.length).toBe(await rpc.count('pos.order', []));
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('json keeps the default fields in order and matches the server', async () => {
      const out = await json(['sales', '--limit', '50']);
      const fields = [
        'id',
        'name',
        'date_order',
        'amount_total',
        'amount_paid',
        'amount_tax',
        'state',
        'config_id',
        'session_id',
        'payment_ids',
      ];
      expect(Object.keys(out[0])).toEqual(fields);
      const raw = await rpc.searchRead('pos.order', [], { fields, order: 'id', limit: 50 });
      out.forEach((o, i) => {
        for (const f of fields) expect(o[f]).toEqual(normalise(raw[i][f]));
      });
    });

    it('csv flattens relations into _id and _name and keeps amounts numeric', async () => {
      const r = await runCli(['sales', '--format', 'csv', '--limit', '30', ...P], { env });
      expect(r.code).toBe(0);
      const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
      expect(Object.keys(rows[0])).toEqual([
        'id',
        'name',
        'date_order',
        'amount_total',
        'amount_paid',
        'amount_tax',
        'state',
        'config_id',
        'config_name',
        'session_id',
        'session_name',
        'payment_ids',
      ]);
      const raw = await rpc.searchRead('pos.order', [], {
        fields: ['config_id', 'payment_ids', 'amount_total'],
        order: 'id',
        limit: 30,
      });
      rows.forEach((row, i) => {
        const c = raw[i].config_id as [number, string];
        expect(row.config_id).toBe(String(c[0]));
        expect(row.config_name).toBe(c[1]);
        expect(row.payment_ids).toBe((raw[i].payment_ids as number[]).join(';'));
        expect(Number(row.amount_total)).toBeCloseTo(raw[i].amount_total as number, 2);
        expect(row.amount_total).toMatch(/^-?\d+(\.\d{1,2})?$/);
      });
    });

    it('--config-id, --state and --session-id filter as the domain does', async () => {
      const configs = await rpc.searchRead('pos.config', [], { fields: ['id'] });
      const c = configs[0].id as number;
      expect((await json(['sales', '--config-id', String(c)])).length).toBe(
        await rpc.count('pos.order', [['config_id', '=', c]]),
      );
      expect((await json(['sales', '--state', 'paid,cancel'])).length).toBe(
        await rpc.count('pos.order', [['state', 'in', ['paid', 'cancel']]]),
      );
      const s = (await rpc.searchRead('pos.session', [], { fields: ['id'], limit: 1 }))[0].id as number;
      expect((await json(['sales', '--session-id', String(s)])).length).toBe(
        await rpc.count('pos.order', [['session_id', '=', s]]),
      );
    });

    it('--fields returns exactly those keys; an unknown field is exit 2 listing the valid ones', async () => {
      const out = await json(['sales', '--fields', 'name,amount_total', '--limit', '2']);
      expect(Object.keys(out[0])).toEqual(['name', 'amount_total']);
      const bad = await runCli(['sales', '--fields', 'nope_field', '--format', 'json', ...P], { env });
      expect(bad.code).toBe(2);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toMatch(/^posdata: unknown field 'nope_field'.*valid fields: .*amount_total/);
      expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    });

    it('--sort and --limit: the latest ten by date', async () => {
      const out = await json(['sales', '--sort', 'date_order desc', '--limit', '10']);
      const raw = await rpc.searchRead('pos.order', [], {
        fields: ['id'],
        order: 'date_order desc, id',
        limit: 10,
      });
      expect(out.map((o) => o.id)).toEqual(raw.map((o) => o.id));
    });

    it('--domain is ANDed with the other filters', async () => {
      const out = await json(['sales', '--domain', '[["amount_total", ">", 100]]', '--state', 'done']);
      expect(out.length).toBe(
        await rpc.count('pos.order', [
          ['amount_total', '>', 100],
          ['state', 'in', ['done']],
        ]),
      );
      expect(out.every((o) => (o.amount_total as number) > 100 && o.state === 'done')).toBe(true);
    });

    it('--with-payments attaches each order its payments with method names, summing to amount_paid', async () => {
      const out = await json(['sales', '--with-payments', '--state', 'paid,done', '--limit', '40']);
      expect(out.length).toBe(40);
      const methods = await rpc.searchRead('pos.payment.method', [], {
        fields: ['name'],
        context: { active_test: false },
      });
      const names = new Map(methods.map((m) => [m.id, m.name]));
      for (const o of out) {
        const payments = o.payments as { amount: number; payment_method_id: [number, string] }[];
        expect(payments.length).toBeGreaterThan(0);
        const sum = payments.reduce((s, p) => s + p.amount, 0);
        expect(Math.abs(sum - (o.amount_paid as number))).toBeLessThan(0.011);
        for (const p of payments) expect(p.payment_method_id[1]).toBe(names.get(p.payment_method_id[0]));
      }
    });

    it('table shows a closing line with the count and the total', async () => {
      const r = await runCli(['sales', '--format', 'table', '--limit', '5', ...P], { env });
      expect(r.code).toBe(0);
      const raw = await rpc.searchRead('pos.order', [], {
        fields: ['amount_total', 'state'],
        order: 'id',
        limit: 5,
      });
      // The total counts what posdata summary counts; other states are named apart.
      const counted = raw.filter((o) => ['paid', 'done', 'invoiced'].includes(o.state as string));
      const total = counted.reduce((s, o) => s + (o.amount_total as number), 0);
      const last = r.stdout.trim().split('\n').at(-1);
      if (counted.length === 5) expect(last).toBe(`5 sales, total ${total.toFixed(2)}`);
      else
        expect(last).toMatch(
          new RegExp(`^5 sales: ${counted.length} counted, total ${total.toFixed(2)}; .* not counted$`),
        );
      expect(r.stdout).not.toMatch(/\x1b\[/);
      for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    });

    it('-o FILE writes atomically in the format of the extension', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'posdata-out-'));
      for (const [file, check] of [
        ['s.json', (t: string) => expect(JSON.parse(t)).toHaveLength(7)],
        ['s.ndjson', (t: string) => expect(t.trim().split('\n')).toHaveLength(7)],
        ['s.csv', (t: string) => expect(t.trim().split('\n')).toHaveLength(8)],
      ] as const) {
        const r = await runCli(['sales', '--limit', '7', '-o', join(dir, file), ...P], { env });
        expect(r.code).toBe(0);
        expect(r.stdout).toBe('');
        check(readFileSync(join(dir, file), 'utf8'));
      }
      expect(readdirSync(dir).filter((f) => f.includes('posdata-tmp'))).toEqual([]);
    });

    it('posdata sales | head ends quietly', async () => {
      // Through a real shell pipe; the sandbox lives in this process, so nothing may block it.
      const { spawn } = await import('node:child_process');
      const out = await new Promise<string>((resolve) => {
        const sh = spawn(
          'bash',
          [
            '-c',
            `node ${BIN} sales --format csv --rate 0 --page-size 100 | head -2; echo "rc=\${PIPESTATUS[0]}"`,
          ],
          {
            env: { ...process.env, ...env },
          },
        );
        let text = '';
        let err = '';
        sh.stdout.on('data', (d) => {
          text += d;
        });
        sh.stderr.on('data', (d) => {
          err += d;
        });
        sh.on('close', () => resolve(text + err));
      });
      const lines = out.trim().split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[2]).toBe('rc=0');
    });
  });

  describe('lines, refunds, cancellations, closures, payments, products', () => {
    it('lines of an order equal its pos.order.line records; an unknown order is exit 4', async () => {
      const order = (
        await rpc.searchRead('pos.order', [['state', '=', 'done']], { fields: ['id'], limit: 1 })
      )[0].id as number;
      const out = await json(['lines', String(order)]);
      const raw = await rpc.searchRead('pos.order.line', [['order_id', '=', order]], {
        fields: ['id', 'price_subtotal_incl'],
        order: 'id',
      });
      expect(out.map((l) => l.id)).toEqual(raw.map((l) => l.id));
      expect(out.length).toBeGreaterThan(0);
      const missing = await runCli(['lines', '99999999', '--format', 'json', ...P], { env });
      expect(missing.code).toBe(4);
      expect(missing.stdout).toBe('');
      expect(missing.stderr).toMatch(/^posdata: .*99999999.*does not exist/);
    });

    it('a --config-id or --session-id that does not exist is exit 4, nothing written; one with no match is an empty success', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'posdata-missing-'));
      const file = join(dir, 'out.csv');
      for (const [args, what] of [
        [['sales', '--config-id', '99999', '--format', 'csv'], /^posdata: register 99999 does not exist; /],
        [['payments', '--config-id', '99999', '-o', file], /^posdata: register 99999 does not exist; /],
        [
          ['refunds', '--session-id', '99999', '--format', 'json'],
          /^posdata: session 99999 does not exist; /,
        ],
        [['closures', '--config-id', '99999', '--count'], /^posdata: register 99999 does not exist; /],
        [
          ['reconcile', '--config-id', '99999', '--format', 'json'],
          /^posdata: register 99999 does not exist; /,
        ],
        [
          ['summary', '--config-id', '99999', '--format', 'json'],
          /^posdata: register 99999 does not exist; /,
        ],
      ] as const) {
        const r = await runCli([...args, ...P], { env });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(4);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(what);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
      }
      expect(existsSync(file)).toBe(false);
      // A register that exists, in a range without sales: the header, exit 0.
      const [config] = await rpc.searchRead('pos.config', [], { fields: ['id'], limit: 1 });
      const empty = await runCli(
        [
          'sales',
          '--config-id',
          String(config?.id),
          '--from',
          '2000-01-01',
          '--to',
          '2000-01-02',
          '--format',
          'csv',
          ...P,
        ],
        { env },
      );
      expect(empty.code, empty.stderr).toBe(0);
      expect(empty.stdout.trim().split('\n')).toHaveLength(1);
    });

    it('refunds are the orders with refunded lines, each with refunded_order_id filled', async () => {
      const out = await json(['refunds']);
      // Version-independent reference: an order is a refund when one of its lines refunds
      // another order's line (the stored link every version has).
      const refundLines = await rpc.searchRead<{ order_id: [number, string] }>(
        'pos.order.line',
        [['refunded_orderline_id', '!=', false]],
        { fields: ['order_id'] },
      );
      const refundIds = [...new Set(refundLines.map((l) => l.order_id[0]))].sort((a, b) => a - b);
      expect(out.map((o) => o.id)).toEqual(refundIds);
      expect(out.length).toBeGreaterThan(0);
      for (const o of out) expect(o.amount_total as number).toBeLessThan(0);

      const f = s.server.orderFields;
      if (f.refunded_order_id) {
        // 18+: the server computes the link itself (not stored, so read, not searched); 19
        // also marks refunds with a stored is_refund.
        const raw = await rpc.kw<{ id: number; refunded_order_id: unknown; is_refund?: boolean }[]>(
          'pos.order',
          'read',
          [refundIds],
          { fields: f.is_refund ? ['refunded_order_id', 'is_refund'] : ['refunded_order_id'] },
        );
        const byId = new Map(raw.map((r) => [r.id, r]));
        for (const o of out) {
          const r = byId.get(o.id as number);
          expect(r?.refunded_order_id).toBeTruthy();
          expect(o.refunded_order_id).toEqual(r?.refunded_order_id);
          if (f.is_refund) expect(r?.is_refund).toBe(true);
        }
        if (f.is_refund?.store) {
          expect(await rpc.count('pos.order', [['is_refund', '=', true]])).toBe(out.length);
        }
      } else {
        // 16/17: posdata fills refunded_order_id from refunded_order_ids, the first original.
        expect(f.refunded_order_ids).toBeTruthy();
        const raw = await rpc.kw<{ id: number; refunded_order_ids: number[] }[]>(
          'pos.order',
          'read',
          [refundIds],
          {
            fields: ['refunded_order_ids'],
          },
        );
        const originals = raw.map((r) => r.refunded_order_ids[0]);
        const names = new Map(
          (
            await rpc.kw<{ id: number; name: string }[]>('pos.order', 'read', [originals], {
              fields: ['name'],
            })
          ).map((o) => [o.id, o.name]),
        );
        out.forEach((o, i) => {
          expect(o.refunded_order_id).toEqual([originals[i], names.get(originals[i])]);
        });
      }
    });

    it("--state takes this server's states: invoiced only where the selection has it", async () => {
      const states = (s.server.orderFields.state.selection ?? []).map(([v]) => v);
      expect(states).toEqual(expect.arrayContaining(['draft', 'paid', 'done', 'cancel']));
      const r = await runCli(['sales', '--state', 'invoiced', '--count', ...P], { env });
      if (states.includes('invoiced')) {
        expect(r.code).toBe(0);
        expect(r.stdout).toBe(`${await rpc.count('pos.order', [['state', 'in', ['invoiced']]])}\n`);
      } else {
        expect(r.code).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toBe(
          `posdata: unknown state 'invoiced'; this server's states: ${states.join(', ')}\n`,
        );
      }
    });

    it('cancellations, closures, payments and products match their fixed filters', async () => {
      const canc = await json(['cancellations']);
      expect(canc.length).toBe(await rpc.count('pos.order', [['state', 'in', ['cancel']]]));
      expect(canc.every((o) => o.state === 'cancel')).toBe(true);
      const clos = await json(['closures']);
      expect(clos.length).toBe(await rpc.count('pos.session', [['state', '=', 'closed']]));
      expect(clos.every((s) => s.state === 'closed' && s.stop_at !== null)).toBe(true);
      const pay = await json(['payments', '--limit', '25']);
      expect(pay).toHaveLength(25);
      expect(
        pay.every(
          (p) => Array.isArray(p.payment_method_id) && (p.payment_method_id as unknown[]).length === 2,
        ),
      ).toBe(true);
      const prod = await json(['products']);
      expect(prod.length).toBe(await rpc.count('product.template', []));
      expect(Object.keys(prod[0])).toEqual(['id', 'name', 'list_price']);
    });
  });

  describe('counting, dry runs, spreadsheets, archived records', () => {
    it('--count prints how many match, as search_count does', async () => {
      const r = await runCli(['sales', '--count', '--state', 'paid', ...P], { env });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${await rpc.count('pos.order', [['state', 'in', ['paid']]])}\n`);
    });

    it('--dry-run prints the request and sends no data request', async () => {
      const before = sandbox.requestCount();
      const r = await runCli(
        ['sales', '--dry-run', '--config-id', '2', '--from', '2026-11-01', '--tz', 'UTC', ...P],
        { env },
      );
      expect(r.code).toBe(0);
      const call = JSON.parse(r.stdout);
      expect(call.method).toBe('search_read');
      expect(call.domain).toEqual([
        ['config_id', '=', 2],
        ['date_order', '>=', '2026-11-01 00:00:00'],
      ]);
      // Only fields_get went out: the query is checked against the server's fields.
      expect(sandbox.requestCount() - before).toBe(1);
    });

    it("--delimiter ';' --decimal ',' for European spreadsheets", async () => {
      const r = await runCli(
        ['sales', '--limit', '5', '--delimiter', ';', '--decimal', ',', '--format', 'csv', ...P],
        { env },
      );
      expect(r.code).toBe(0);
      const rows = parse(r.stdout, { columns: true, delimiter: ';' }) as Record<string, string>[];
      const raw = await rpc.searchRead('pos.order', [], { fields: ['amount_total'], order: 'id', limit: 5 });
      for (const [i, row] of rows.entries()) {
        expect(Number(row.amount_total.replace(',', '.'))).toBeCloseTo(raw[i].amount_total as number, 2);
      }
      expect(rows.some((row) => row.amount_total.includes(','))).toBe(true);
    });

    it('--include-archived reads with active_test off', async () => {
      const r = await runCli(['products', '--include-archived', '--count', ...P], { env });
      expect(Number(r.stdout)).toBe(
        await rpc.kw('product.template', 'search_count', [[]], { context: { active_test: false } }),
      );
    });
  });

  describe('time zones', () => {
    // A local day in a zone far from UTC selects exactly the orders of that day there.
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Honolulu', 'UTC']) {
      it(`a whole day in ${zone}`, async () => {
        const all = await rpc.searchRead('pos.order', [], { fields: ['date_order'], order: 'id' });
        const latest = all
          .map((o) => o.date_order as string)
          .sort()
          .at(-1) as string;
        const day = DateTime.fromFormat(latest, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' })
          .setZone(zone)
          .minus({ days: 1 })
          .toISODate() as string;
        const expected = all
          .filter(
            (o) =>
              DateTime.fromFormat(o.date_order as string, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' })
                .setZone(zone)
                .toISODate() === day,
          )
          .map((o) => o.id)
          .sort((a, b) => (a as number) - (b as number));
        expect(expected.length).toBeGreaterThan(0);
        const out = await json([
          'sales',
          '--from',
          day,
          '--to',
          day,
          '--tz',
          zone,
          '--fields',
          'id,date_order',
        ]);
        expect(out.map((o) => o.id)).toEqual(expected);
        // With --tz, datetimes are ISO 8601 with that zone's offset, on that day.
        for (const o of out) expect((o.date_order as string).slice(0, 10)).toBe(day);
      });
    }

    it('--from after --to is a usage error', async () => {
      const r = await runCli(['sales', '--from', '2026-02-02', '--to', '2026-02-01', ...P], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^posdata: --from .* is not before --to/);
    });
  });

  describe('whoami and --debug', () => {
    it('whoami shows the uid, database, server version and protocol', async () => {
      const r = await runCli(['whoami', ...P], { env });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/uid\s+2/);
      expect(r.stdout).toMatch(/database\s+demo/);
      expect(r.stdout).toMatch(new RegExp(`server_version\\s+${s.server.serie.replace('.', '\\.')}`));
      expect(r.stdout).toMatch(new RegExp(`protocol\\s+${setup.protocol}\\b`));
    });

    it('--debug traces each call on stderr with the secret masked', async () => {
      const r = await runCli(['configs', '--debug', '--format', 'json', ...P], { env });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/pos\.config\.search_read/);
      expect(r.stderr).toContain('***');
      expect(r.stderr).not.toContain(SUITE_SECRET);
      expect(r.stderr).not.toMatch(/"admin","pos\.config"/);
      expect(existsSync(env.POSDATA_CONFIG_DIR)).toBe(true);
    });
  });
});
