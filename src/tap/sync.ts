// A tap run: per selected stream, its SCHEMA, then its records in (write_date, id) pages
// from the bookmark (less the overlap, as `posdata sync` reads), each page's RECORDs
// followed by a STATE that covers them; a STATE at the end. The pages are the sync's
// (OdooClient's time pages: they end where a second ends, or go through a crowded second by
// id), so a bookmark (T, n) covers every record before second T and those of T up to id n.
import { defaultSyncFields, type SyncResource } from '../catalog/resources.js';
import type { OdooClient } from '../core/client.js';
import { ProtocolError } from '../core/errors.js';
import { own, type Said, say } from '../core/redact.js';
import type { OdooRecord } from '../core/types.js';
import { writeDateWindow } from '../read/checkpoint.js';
import { namedPages } from '../read/names.js';
import { amountCheck } from '../records/normalize.js';
import { renamed } from '../sync/load.js';
import { KEY, REPLICATION_KEY } from './catalog.js';
import { RecordMaker, streamColumns, streamSchema } from './schema.js';
import { BookmarkKeeper, type TapState } from './state.js';

export interface TapStream {
  resource: SyncResource;
  /** Properties the catalog leaves out. */
  deselected: Set<string>;
}

export interface TapJob {
  client: OdooClient;
  streams: TapStream[];
  /** The state given (--state); its bookmarks move as the run goes. */
  state: TapState;
  /** Where a stream without a bookmark starts (Odoo's UTC text). */
  startDate?: string;
  pageSize: number;
  overlapSeconds: number;
  /** Writes messages (whole lines) to standard output. */
  write: (text: string) => Promise<void>;
  /** One line per stream done, on standard error. */
  log?: (line: Said) => void;
}

const ODOO_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const count = (n: number) => n.toLocaleString('en-US');

export async function runTap(job: TapJob): Promise<void> {
  const { client, state } = job;
  const stateLine = () => `${JSON.stringify({ type: 'STATE', value: state })}\n`;
  // Registers by their own name (read once): Odoo 16/17 label one "Shop (Cashier)" while a
  // session is open, which would make an unchanged record look changed.
  let registers: Promise<Map<number, string>> | undefined;
  const registerNames = () =>
    (registers ??= client
      .searchRead('pos.config', [], { fields: ['name'], context: { active_test: false } })
      .then((rs) => new Map(rs.map((c) => [c.id, String(c.name)]))));

  for (const { resource: r, deselected } of job.streams) {
    const defs = await client.fieldsGet(r.model);
    const wanted = defaultSyncFields(r, defs);
    if (!wanted.includes(REPLICATION_KEY)) wanted.push(REPLICATION_KEY);
    const columns = streamColumns(wanted, defs).filter((c) => !deselected.has(c.name));
    const maker = new RecordMaker(columns, defs);
    await job.write(
      `${JSON.stringify({
        type: 'SCHEMA',
        stream: r.name,
        schema: streamSchema(columns),
        key_properties: [KEY],
        bookmark_properties: [REPLICATION_KEY],
      })}\n`,
    );
    const fetch = [...new Set(columns.map((c) => c.field))].filter((f) => f !== KEY);
    if (!fetch.includes(REPLICATION_KEY)) fetch.push(REPLICATION_KEY);
    const keeper = new BookmarkKeeper(state.bookmarks[r.name], job.overlapSeconds);
    const window = writeDateWindow(keeper.since, job.overlapSeconds);
    if (keeper.since === undefined && job.startDate !== undefined)
      window.domain.unshift([REPLICATION_KEY, '>=', job.startDate]);
    const context = 'active' in defs ? { active_test: false } : undefined;
    const regFields = fetch.filter((f) => defs[f]?.type === 'many2one' && defs[f]?.relation === 'pos.config');
    const regs = regFields.length > 0 ? await registerNames() : undefined;
    const ownNames = regs && Object.fromEntries(regFields.map((f) => [f, regs]));
    const checkAmounts = amountCheck(
      r.model,
      fetch,
      defs,
      say`correct the record in Odoo; the tap stops before its page until then`,
    );
    const pages = namedPages(
      client,
      {
        model: r.model,
        domain: window.domain,
        fields: fetch,
        order: 'write_date, id',
        pageSize: job.pageSize,
        context,
      },
      fetch.filter((f) => defs[f]?.type === 'many2one'),
    );
    const head = `{"type":"RECORD","stream":${JSON.stringify(r.name)},"record":`;
    /** Each key once per run: a record changed while the run reads is sent by the next. */
    const sentNow = new Set<number>();
    let sent = 0;
    let unchanged = 0;
    for await (const records of pages) {
      checkAmounts(records);
      if (ownNames) renamed(records, ownNames);
      let out = '';
      const end = (records[records.length - 1] as OdooRecord).write_date;
      if (typeof end === 'string' && ODOO_TIME.test(end)) keeper.pageEnds(end);
      for (let i = 0; i < records.length; i++) {
        const rec = records[i] as OdooRecord;
        const wd = rec.write_date;
        if (typeof wd !== 'string' || !ODOO_TIME.test(wd) || !Number.isSafeInteger(rec.id))
          throw new ProtocolError(
            say`Odoo sent ${own(r.model)} ${String(rec.id)} without an integer id and a write_date (${String(wd)})`,
            say`posdata tap needs both on every record`,
          );
        if (sentNow.has(rec.id)) continue;
        const json = JSON.stringify(maker.record(rec));
        if (keeper.unchanged(rec.id, json)) {
          unchanged++;
          continue;
        }
        sentNow.add(rec.id);
        keeper.sending(rec.id, wd, json);
        out += `${head}${json}}\n`;
        sent++;
      }
      // The page ends where a second ends, or goes through a crowded second by id: what is
      // sent of its last second is up to the highest id of that second in it.
      const last = records[records.length - 1] as OdooRecord;
      const wd = last.write_date as string;
      let wid = last.id;
      for (let i = records.length - 2; i >= 0 && (records[i] as OdooRecord).write_date === wd; i--)
        wid = Math.max(wid, (records[i] as OdooRecord).id);
      keeper.advance(wd, wid);
      const bookmark = keeper.bookmark();
      if (bookmark) state.bookmarks[r.name] = bookmark;
      await job.write(out + stateLine());
    }
    const bm = state.bookmarks[r.name];
    job.log?.(
      say`${own(r.name)}: ${count(sent)} sent, ${count(unchanged)} unchanged since the state, bookmark ${bm ? bm.write_date : own('none')}`,
    );
  }
  await job.write(stateLine());
}
