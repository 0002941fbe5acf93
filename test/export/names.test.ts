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
  const { Http, parseServerUrl } = await import('../../dist/core/http.js');
  const { JsonRpcTransport } = await import('../../dist/core/jsonrpc.js');
  const { OdooClient } = await import('../../dist/core/client.js');
  const http = new Http(parseServerUrl(sandbox.url), { timeoutMs: 60_000, rate: 0, retries: 2 });
  const inner = new JsonRpcTransport(http, 'demo');
  const transport = Object.create(inner) as typeof inner;
  const seen: Seen[] = [];
  transport.executeKw = async (creds, uid, model, method, args, kwargs, opts) => {
    const c = { model, method, args, kwargs };
    seen.push(c);
    await before?.(c, inner);
    return inner.executeKw(creds, uid, model, method, args, kwargs, opts);
  };
  const odoo = new OdooClient(transport, { db: 'demo', login: 'admin', secret: 'admin' }) as Client;
  return { odoo, seen };
}

async function exported(odoo: Client, resource: 'sales' | 'lines', pageSize = 1000) {
  const { RESOURCES } = await import('../../dist/query/resources.js');
  const { prepare, streamRows } = await import('../../dist/export/stream.js');
  const p = await prepare(odoo, RESOURCES[resource], { tz: 'UTC', sort: 'id' });
  const records: OdooRecord[] = [];
  for await (const page of streamRows(odoo, p, { pageSize, rows: false })) records.push(...page.records);
  return { records, fields: p.query.fetchFields, model: p.query.model };
}

/** The same fields by a plain search_read: many2one values as [id, name]. */
async function plain(odoo: Client, model: string, fields: string[]): Promise<OdooRecord[]> {
  return odoo.searchRead(model, [], { fields, order: 'id' });
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
  }, 60_000);

  it('lines: the order changes every few lines, so its name stays in the pages', async () => {
    const { odoo, seen } = await client();
    const { records, fields, model } = await exported(odoo, 'lines');
    const calls = [...seen];
    expect(records).toEqual(await plain(odoo, model, fields));
    expect(calls.some((c) => c.kwargs.load === '')).toBe(false);
    expect(calls.filter((c) => c.method === 'search_read' && !c.kwargs.limit)).toEqual([]);
  }, 60_000);

  it('holders deleted before their names are read: the names come from their own model', async () => {
    const reference = await (async () => {
      const { odoo } = await client();
      const { fields, model } = await exported(odoo, 'sales');
      return plain(odoo, model, fields);
    })();
    const deleted: number[] = [];
    const { odoo, seen } = await client(async (c, inner) => {
      if (c.method !== 'search_read' || c.kwargs.limit || deleted.length > 0) return;
      // The first read of holders: delete them first (a sale is deleted once cancelled).
      const ids = (c.args[0] as unknown[][])[0]?.[2] as number[];
      const creds = { db: 'demo', login: 'admin', secret: 'admin' };
      await inner.executeKw(creds, 2, 'pos.order', 'write', [ids, { state: 'cancel' }], {}, { retry: false });
      await inner.executeKw(creds, 2, 'pos.order', 'unlink', [ids], {}, { retry: false });
      deleted.push(...ids);
    });
    const { records } = await exported(odoo, 'sales');
    expect(deleted.length).toBeGreaterThan(0);
    // Each deleted holder was read before it was deleted: the export is the reference, with
    // the names the pages would have carried.
    expect(records).toEqual(reference);
    expect(seen.some((c) => c.method === 'read' && c.model === 'pos.session')).toBe(true);
  }, 60_000);
});
