// A tap run: per selected stream, its SCHEMA, then its records in (write_date, id) pages
// from the bookmark (less the overlap, as `posdata sync` reads), each page's RECORDs
// followed by a STATE that covers them; a STATE at the end. The pages are the sync's
// (OdooClient's time pages: they end where a second ends, or go through a crowded second by
// id), so a bookmark (T, n) covers every record before second T and those of T up to id n.
// A stream without a bookmark is read whole in id order first (the export's fast pages), up
// to the newest write_date found when it starts; its STATE then says how far by id.
import type { SyncName, SyncResource } from '../catalog/resources.js';
import type { OdooClient } from '../core/client.js';
import { ProtocolError } from '../core/errors.js';
import { own, type Said, say } from '../core/redact.js';
import type { Domain, OdooRecord } from '../core/types.js';
import { writeDateWindow } from '../read/checkpoint.js';
import { currencyCodes } from '../read/companies.js';
import {
  clockLimit,
  clockSecond,
  firstReadDomain,
  highestIdOf,
  markBefore,
  newestWriteDate,
  ODOO_TIME,
} from '../read/first-read.js';
import { namedPages } from '../read/names.js';
import { ownNames } from '../read/own-names.js';
import { amountCheck } from '../records/normalize.js';
import { renamed } from '../sync/load.js';
import { KEY, REPLICATION_KEY } from './catalog.js';
import { fromRfc3339, RecordMaker, streamSchema, tapColumns, tapFields } from './schema.js';
import { type Bookmark, BookmarkKeeper, type TapState } from './state.js';

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
  /** The run's companies (ids, sorted), where Odoo lists them. */
  companies?: number[];
  /** Where a stream without a bookmark starts (Odoo's UTC text). */
  startDate?: string;
  pageSize: number;
  overlapSeconds: number;
  /** Writes messages (whole lines) to standard output. */
  write: (text: string) => Promise<void>;
  /** One line per stream done, on standard error. */
  log?: (line: Said) => void;
  /** One line on standard error (a record dated ahead of the server's clock), even when quiet. */
  warn?: (line: Said) => void;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The server's clock less the overlap (Odoo's UTC text), by the latest reply's Date header and
 * never later than this machine's clock: what was written before it had committed by now (the
 * overlap's own premise), so a read from here on sees it.
 */
function settledNow(client: OdooClient, overlapSeconds: number): string {
  const there = client.transport.serverDate;
  const now = there !== undefined && there < Date.now() ? there : Date.now();
  return new Date(now - overlapSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The stream's bookmark, or none where the run reads a company the bookmark was not read
 * for (a user given a further company): that company's records before the bookmark would
 * never be sent, so the stream is read whole again (a duplicate of what was sent, which
 * Singer allows), and the run says so.
 */
function bookmarkFor(job: TapJob, name: SyncName): Bookmark | undefined {
  const given = job.state.bookmarks[name];
  const had = given?.companies;
  const added = had && job.companies ? job.companies.filter((id) => !had.includes(id)) : [];
  if (added.length === 0) return given;
  job.warn?.(
    say`${own(name)}: this user now reads compan${own(added.length > 1 ? 'ies' : 'y')} ${own(added.join(', '))}, which the state's bookmark was not read for; the stream is sent whole again so that ${own(added.length > 1 ? 'their' : 'its')} earlier records come too`,
  );
  return undefined;
}

export async function runTap(job: TapJob): Promise<void> {
  const { client, state } = job;
  const stateLine = () => `${JSON.stringify({ type: 'STATE', value: state })}\n`;
  let currencies: Promise<Map<number, string>> | undefined;
  /** The streams read, for the last STATE: each lists every record sent within its overlap. */
  const read: [SyncName, BookmarkKeeper][] = [];
  for (const { resource: r, deselected } of job.streams) {
    const defs = await client.fieldsGet(r.model);
    const wanted = tapFields(r, defs);
    // Each company's currency code, read once for the run where a stream sends `currency`.
    if (!deselected.has('currency')) currencies ??= currencyCodes(client);
    const currencyOf = deselected.has('currency') ? undefined : await currencies;
    const columns = tapColumns(wanted, defs, currencyOf).filter((c) => !deselected.has(c.name));
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
    const given = bookmarkFor(job, r.name);
    const keeper = new BookmarkKeeper(
      given,
      job.overlapSeconds,
      settledNow(client, job.overlapSeconds),
      job.companies,
    );
    // A stream without a bookmark is read whole in id order (the fast pages: no sort by
    // write_date on the server), up to the end of this second; a first read cut short goes
    // on after its last id, up to the same second. Then the bookmark is that second.
    const firstRead =
      keeper.since === undefined
        ? {
            until: given?.full_read ? (fromRfc3339(given.full_read.until) as string) : undefined,
            afterId: given?.full_read?.after_id ?? 0,
          }
        : undefined;
    const context = 'active' in defs ? { active_test: false } : undefined;
    let domain: Domain;
    if (firstRead) {
      const from: Domain = job.startDate !== undefined ? [[REPLICATION_KEY, '>=', job.startDate]] : [];
      if (firstRead.until === undefined) {
        // Up to the newest write there is now: what the data says, not the clock, so two
        // runs over the same data write the same STATEs.
        const wd = await newestWriteDate(client, r.model, from, context);
        if (wd === undefined) {
          job.log?.(say`${own(r.name)}: nothing to send`);
          continue;
        }
        // Never beyond the server's clock: a record dated ahead of it is read when the
        // clock gets there (as the incremental windows, which end now, would read it).
        const limit = clockLimit(client);
        const clock = clockSecond(client);
        if (wd > limit)
          job.warn?.(
            say`${own(r.name)}: ${own(r.model)} has a record with write_date ${wd} UTC, ahead of the server's clock (${own(limit)} UTC with a margin); the bookmark stays at ${own(clock)} UTC and records dated after it are sent when the clock gets there`,
          );
        firstRead.until = wd > clock ? clock : wd;
      }
      domain = firstReadDomain({ until: firstRead.until, afterId: firstRead.afterId }, from);
      keeper.pageEnds(firstRead.until);
    } else {
      domain = writeDateWindow(keeper.resumeFrom, 0).domain;
    }
    const regFields = fetch.filter((f) => defs[f]?.type === 'many2one' && defs[f]?.relation === 'pos.config');
    const regs = regFields.length > 0 ? await ownNames(client, 'pos.config') : undefined;
    const registerNames = regs && Object.fromEntries(regFields.map((f) => [f, regs]));
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
        domain,
        fields: fetch,
        order: firstRead ? 'id' : 'write_date, id',
        pageSize: job.pageSize,
        context,
      },
      fetch.filter((f) => defs[f]?.type === 'many2one'),
    );
    const head = `{"type":"RECORD","stream":${JSON.stringify(r.name)},"record":`;
    /**
     * Each key once per run: a record changed while the run reads is sent by the next. (A
     * first read's id pages bring each id once, in ascending order, as the client checks.)
     */
    const sentNow = new Set<number>();
    let sent = 0;
    let unchanged = 0;
    /** The highest id read of a first read's last second. */
    let lastOfUntil = 0;
    let warned = false;
    let paged = false;
    for await (const records of pages) {
      paged = true;
      checkAmounts(records);
      if (registerNames) renamed(records, registerNames);
      let out = '';
      // Where the bookmark may move: not past a record dated ahead of the server's clock.
      const limit = firstRead ? '' : clockLimit(client);
      const { mark: to, ahead } = firstRead ? {} : markBefore(records, limit);
      if (ahead && !warned) {
        warned = true;
        const kept = to?.wd ?? keeper.since;
        job.warn?.(
          say`${own(r.name)}: ${own(r.model)} ${String(ahead.id)} has write_date ${String(ahead.write_date)} UTC, ahead of the server's clock (${own(limit)} UTC with a margin); the bookmark stays at ${own(kept ?? 'its place')}${own(kept ? ' UTC' : '')} so that the next run still reads what changes meanwhile`,
        );
      }
      if (to) keeper.pageEnds(to.wd);
      for (let i = 0; i < records.length; i++) {
        const rec = records[i] as OdooRecord;
        const wd = rec.write_date;
        if (typeof wd !== 'string' || !ODOO_TIME.test(wd) || !Number.isSafeInteger(rec.id))
          throw new ProtocolError(
            say`Odoo sent ${own(r.model)} ${String(rec.id)} without an integer id and a write_date (${String(wd)})`,
            say`posdata tap needs both on every record`,
          );
        if (!firstRead && sentNow.has(rec.id)) continue;
        const json = maker.json(rec);
        if (keeper.unchanged(rec.id, wd, json)) {
          unchanged++;
          continue;
        }
        if (!firstRead) sentNow.add(rec.id);
        keeper.sending(rec.id, wd, json);
        out += `${head}${json}}\n`;
        sent++;
      }
      const last = records[records.length - 1] as OdooRecord;
      if (firstRead) {
        const until = firstRead.until as string;
        lastOfUntil = Math.max(lastOfUntil, highestIdOf(records, until));
        state.bookmarks[r.name] = keeper.fullRead(until, last.id);
      } else {
        // The page ends where a second ends, or goes through a crowded second by id: what
        // is sent of its last second is up to the highest id of that second in it.
        if (to) keeper.advance(to.wd, to.id);
        const bookmark = keeper.bookmark();
        if (bookmark) state.bookmarks[r.name] = bookmark;
      }
      await job.write(out + stateLine());
    }
    if (firstRead) {
      // The first read is whole: on from its second, as any bookmark.
      keeper.advance(firstRead.until as string, lastOfUntil);
      state.bookmarks[r.name] = keeper.bookmark();
    }
    if (paged) read.push([r.name, keeper]);
    const bm = state.bookmarks[r.name];
    job.log?.(
      say`${own(r.name)}: ${count(sent)} sent, ${count(unchanged)} unchanged since the state, bookmark ${bm?.write_date ?? own('none')}`,
    );
  }
  // The STATEs along the way list at most MAX_SENT records a stream (their size stays
  // bounded however many pages follow); the last lists all, so that the next run sends
  // again only what changed.
  for (const [name, keeper] of read) {
    const whole = keeper.bookmark(true);
    if (whole && state.bookmarks[name]?.write_date !== undefined) state.bookmarks[name] = whole;
  }
  await job.write(stateLine());
}
