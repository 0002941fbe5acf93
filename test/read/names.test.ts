// Many2one values read as bare ids (load='') with their names read once per value: the
// records an export hands on must be exactly those of a plain search_read, whether the
// names come from the first page, from a later read of their holders, or (holders deleted
// in between) from their own model. Against a real sandbox over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OdooClient as Client } from '../../src/core/client.js';
import type { Transport } from '../../src/core/transport.js';
import type { OdooRecord } from '../../src/core/types.js';
import { type SandboxHandle, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: SandboxHandle;

beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 12, orders: 12_000 });
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
});

interface Seen {
  model: string;
  method: string;
  args: unknown[];
  kwargs: Record<string, unknown>;
}

/** A client whose calls are recorded; `before` runs ahead of each call is sent. */
async function client(before?: (c: Seen, inner: Transport) => Promise<void>) {
  const { Http } = await import('../../src/core/http.js');
  const { parseServerUrl } = await import('../../src/core/url.js');
  const { JsonRpcTransport } = await import('../../src/core/jsonrpc.js');
  const { OdooClient } = await import('../../src/core/client.js');
  const http = new Http(parseServerUrl(sandbox.url), { timeoutMs: 60_000, rate: 0, retries: 2 });
  const inner = new JsonRpcTransport(http, 'demo');
  const transport = Object.create(inner) as typeof inner;
  const seen: Seen[] = [];
  transport.executeKw = async (creds, uid, c, opts) => {
    seen.push(c);
    await before?.(c, inner);
    return inner.executeKw(creds, uid, c, opts);
  };
  const odoo = new OdooClient(transport, { db: 'demo', login: 'admin', secret: 'admin' }) as Client;
  return { odoo, seen };
}

async function exported(odoo: Client, resource: 'sales' | 'lines', pageSize = 1000) {
  const { RESOURCES } = await import('../../src/catalog/resources.js');
  const { prepare, streamRows } = await import('../../src/read/stream.js');
  const p = await prepare(odoo, RESOURCES[resource], { tz: 'UTC', sort: 'id' });
  const records: OdooRecord[] = [];
  for await (const page of streamRows(odoo, p, { pageSize, rows: false })) records.push(...page.records);
  return { records, fields: p.query.fetchFields, model: p.query.model };
}

/**
 * The export as the CSV writer reads it (bareNames): its pages' bare ids left as they came,
 * counted, then named as the writer names them, for the comparison.
 */
async function exportedBare(odoo: Client) {
  const { RESOURCES } = await import('../../src/catalog/resources.js');
  const { prepare, streamRows } = await import('../../src/read/stream.js');
  const p = await prepare(odoo, RESOURCES.sales, { tz: 'UTC', sort: 'id' });
  const records: OdooRecord[] = [];
  let bare = 0;
  for await (const page of streamRows(odoo, p, { pageSize: 1000, rows: false, bareNames: true })) {
    for (const r of page.records) {
      if (typeof r.session_id === 'number') bare++;
      page.names?.name(r);
      records.push(r);
    }
  }
  return { records, bare };
}

/** The same fields by a plain search_read: many2one values as [id, name]. */
async function plain(odoo: Client, model: string, fields: string[]): Promise<OdooRecord[]> {
  return odoo.searchRead(model, [], { fields, order: 'id' });
}

/** The sales a plain search_read gives for the export's fields, read before a test changes any. */
async function plainSales(): Promise<OdooRecord[]> {
  const { odoo } = await client();
  const { fields, model } = await exported(odoo, 'sales');
  return plain(odoo, model, fields);
}

describe('many2one names', () => {
  it('sales: bare ids after the first page, each name read once, the records unchanged', async () => {
    const { odoo, seen } = await client();
    const { records, fields, model } = await exported(odoo, 'sales');
    const calls = [...seen];
    const reference = await plain(odoo, model, fields);
    expect(records).toEqual(reference);
    const pages = calls.filter((c) => c.method === 'search_read' && c.kwargs.limit);
    const bare = pages.filter((c) => c.kwargs.load === '');
    // The first two requests leave before any page has arrived; the later ones are bare.
    expect(bare.length).toBe(pages.length - 2);
    // At most one read of names a page, and only while new values come.
    const names = calls.filter((c) => c.method === 'search_read' && !c.kwargs.limit);
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThanOrEqual(pages.length);
    for (const c of names) expect(c.kwargs.fields).toEqual(['config_id', 'session_id']);
    // One holder a value, and a value asked for once: no more holders than values.
    const asked = names.flatMap((c) => ((c.args[0] as unknown[][])[0]?.[2] as number[]) ?? []);
    expect(new Set(asked).size).toBe(asked.length);
    const values = new Set(
      reference.flatMap((r) => [`c${(r.config_id as [number])[0]}`, `s${(r.session_id as [number])[0]}`]),
    );
    expect(asked.length).toBeLessThanOrEqual(values.size);
    // In id order: no sort by the model's own order (pos.order's date_order desc...) for a
    // few records looked up by id.
    expect(names.length).toBeGreaterThan(0);
    for (const c of names) expect(c.kwargs.order).toBe('id');
  }, 60_000);

  it('sales for a writer that names them itself: ids left bare, named as a plain read has them', async () => {
    const reference = await plainSales();
    const { odoo } = await client();
    const { records, bare } = await exportedBare(odoo);
    expect(records).toEqual(reference);
    // All but the first two pages (asked before any had arrived) came and stayed bare.
    expect(bare).toBeGreaterThanOrEqual(reference.length - 2000);
  }, 60_000);

  it('lines: the order changes every few lines, so its name stays in the pages', async () => {
    const { odoo, seen } = await client();
    const { records, fields, model } = await exported(odoo, 'lines');
    const calls = [...seen];
    expect(records).toEqual(await plain(odoo, model, fields));
    expect(calls.some((c) => c.kwargs.load === '')).toBe(false);
    expect(calls.filter((c) => c.method === 'search_read' && !c.kwargs.limit)).toEqual([]);
  }, 60_000);

  it('a read of names that fails: the page records are read again, on the export model', async () => {
    const reference = await plainSales();
    const { ProtocolError } = await import('../../src/core/errors.js');
    const { say } = await import('../../src/core/redact.js');
    let failed = 0;
    const { odoo, seen } = await client(async (c) => {
      // Every read of holders fails, as after the last retry of a flaky network.
      if (
        c.method === 'search_read' &&
        !c.kwargs.limit &&
        c.kwargs.fields?.toString() === 'config_id,session_id'
      ) {
        const asked = (c.args[0] as unknown[][])[0]?.[2] as number[];
        if (asked.length <= 4) {
          failed++;
          throw new ProtocolError(say`the server answered garbage`, say`try again later`, {
            transient: false,
          });
        }
      }
    });
    const { records } = await exported(odoo, 'sales');
    expect(failed).toBeGreaterThan(0);
    expect(records).toEqual(reference);
    // Never the related model itself, which a POS user may not be allowed to read.
    expect(seen.some((c) => c.method === 'read')).toBe(false);
    // The same for a writer that names bare ids itself: from the failure on, pairs again.
    failed = 0;
    const bare = await exportedBare(odoo);
    expect(failed).toBeGreaterThan(0);
    expect(bare.records).toEqual(reference);
  }, 60_000);

  it('holders deleted before their names are read: names from the page, else from their own model', async () => {
    const reference = await plainSales();
    const deleted = new Set<number>();
    const creds = { db: 'demo', login: 'admin', secret: 'admin' };
    const { odoo, seen } = await client(async (c, inner) => {
      if (c.method !== 'search_read' || c.kwargs.limit || c.model !== 'pos.order' || deleted.size > 0) return;
      // The first read of holders: every sale of their sessions is deleted first (a sale is
      // deleted once cancelled), so no record of the page holds those sessions any more.
      const holders = (c.args[0] as unknown[][])[0]?.[2] as number[];
      const rows = (await inner.executeKw(
        creds,
        2,
        { model: 'pos.order', method: 'read', args: [holders, ['session_id']], kwargs: {} },
        { retry: false },
      )) as { session_id: [number, string] }[];
      const sessions = rows.map((r) => r.session_id[0]);
      const ids = (await inner.executeKw(
        creds,
        2,
        { model: 'pos.order', method: 'search', args: [[['session_id', 'in', sessions]]], kwargs: {} },
        { retry: false },
      )) as number[];
      const write = { model: 'pos.order', method: 'write', args: [ids, { state: 'cancel' }], kwargs: {} };
      await inner.executeKw(creds, 2, write, { retry: false });
      await inner.executeKw(
        creds,
        2,
        { model: 'pos.order', method: 'unlink', args: [ids], kwargs: {} },
        { retry: false },
      );
      for (const id of ids) deleted.add(id);
    });
    const { records } = await exported(odoo, 'sales');
    expect(deleted.size).toBeGreaterThan(0);
    // Every sale not deleted, as a plain read gives it; a deleted one (read before it was
    // deleted, or not at all) with the names its page would have carried.
    const byId = new Map(reference.map((r) => [r.id, r]));
    expect(records.filter((r) => !deleted.has(r.id))).toEqual(reference.filter((r) => !deleted.has(r.id)));
    const gone = records.filter((r) => deleted.has(r.id));
    expect(gone.length).toBeGreaterThan(0);
    for (const r of gone) expect(r).toEqual(byId.get(r.id));
    expect(seen.some((c) => c.method === 'read' && c.model === 'pos.session')).toBe(true);
  }, 60_000);
});
