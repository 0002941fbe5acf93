// The tap's state: per stream, the bookmark (the write_date and id of the last record sent,
// as a sync's watermark) and what was sent within the overlap before it. A run re-reads the
// overlap (writes that commit late within a second, clocks apart), as `posdata sync` does;
// what it finds there unchanged, it already sent, and it does not send again. What it finds
// changed, or did not send before (a late commit), it sends.
import { createHash } from 'node:crypto';
import { SYNC_NAMES, type SyncName } from '../catalog/resources.js';
import { UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import { nextSecond } from '../read/first-read.js';
import { readDocument } from './config.js';
import { fromRfc3339, rfc3339 } from './schema.js';

/** A stream's bookmark as the STATE value carries it. */
export interface Bookmark {
  /** RFC 3339, UTC, whole seconds (absent while a first read is under way). */
  write_date?: string;
  id?: number;
  /**
   * A first read under way: every record written before the end of second `until` is read
   * in id order, and those up to `after_id` are sent. When it ends, the bookmark becomes
   * (`until`, the highest id of that second read).
   */
  full_read?: { until: string; after_id: number };
  /**
   * Every record written before this time (RFC 3339) had committed when the run read it: the
   * server's clock at the run's start less the overlap, at most the end of the bookmark's
   * second. The next run reads again from here, or from the bookmark less the overlap where
   * that is later; past the bookmark's second, from the bookmark itself, its second's records up
   * to its id done. Absent (a state of an older version, or written by hand): from the bookmark
   * less the overlap.
   */
  settled?: string;
  /**
   * [id, write_date (RFC 3339), digest] of the records sent since the second the next run reads
   * from (at most MAX_SENT, the newest).
   */
  sent: [number, string, string][];
  /**
   * The companies the stream was read for (ids, sorted). A run that reads a company more (a
   * user given a further company) reads the stream whole again: its bookmark is past that
   * company's earlier records. Absent in a state of an older version: taken as the run's.
   */
  companies?: number[];
}

/**
 * At most this many records in a bookmark's `sent` (about 47 bytes each) in the STATEs a run
 * writes as it goes: a bulk edit of 20,000 orders would otherwise put 20,000 digests in every
 * STATE of the run. Beyond it the oldest are left out, and a run resumed from such a STATE
 * sends them again (a duplicate, which Singer allows; never a loss). The run's last STATE
 * lists every record sent within the overlap: under a steady load the next run then sends
 * again only what changed, however many records the overlap holds.
 */
export const MAX_SENT = 1000;

export interface TapState {
  bookmarks: Partial<Record<SyncName, Bookmark>>;
}

const STATE_HINT = say`give the last STATE value the tap wrote (or leave out --state to read everything)`;

/**
 * A bookmark's time as a person or `meltano state set` writes it: RFC 3339 with any offset and
 * fractions (`2026-11-26T05:00:00+01:00`, `…00.250Z`), as the tap's own form, the UTC second
 * it falls in. Undefined when it is not RFC 3339.
 */
function utcSecond(s: string): string | undefined {
  if (fromRfc3339(s) !== undefined) return s;
  if (!/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(s)) return undefined;
  const t = Date.parse(s.replace(' ', 'T'));
  return Number.isFinite(t) ? `${new Date(t).toISOString().slice(0, 19)}Z` : undefined;
}

/**
 * Whether the date and time at the start of `s` (YYYY-MM-DD?HH:MM:SS) name a moment that
 * exists: Date.parse takes 2026-02-30 for 2 March, and Luxon refuses it further on, after the
 * tap has begun to write.
 */
function onTheCalendar(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})/.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
  return (
    t.getUTCFullYear() === y &&
    t.getUTCMonth() === mo - 1 &&
    t.getUTCDate() === d &&
    t.getUTCHours() === h &&
    t.getUTCMinutes() === mi &&
    t.getUTCSeconds() === se
  );
}

/** --state FILE: the last STATE value (also taken as a whole STATE message). */
export function readState(path: string): TapState {
  let doc = readDocument(path, 'state', STATE_HINT);
  if (doc.type === 'STATE' && typeof doc.value === 'object' && doc.value !== null)
    doc = doc.value as Record<string, unknown>;
  const bad = (what: string) => new UsageError(say`the state ${path} ${own(what)}`, STATE_HINT);
  const bookmarks: TapState['bookmarks'] = {};
  const given = doc.bookmarks;
  if (given === undefined || given === null) return { bookmarks };
  if (typeof given !== 'object' || Array.isArray(given)) throw bad('has bookmarks that are not an object');
  for (const [name, b] of Object.entries(given as Record<string, unknown>)) {
    // Another tap's or a later version's streams are kept as they are by no one: left out.
    if (!SYNC_NAMES.includes(name as SyncName)) continue;
    const bm = b as
      | (Partial<Bookmark> & { replication_key?: unknown; replication_key_value?: unknown })
      | null;
    const fr = bm?.full_read;
    // Besides the tap's own form, a bookmark written by hand or by the Meltano SDK's
    // convention ({replication_key: "write_date", replication_key_value: …}): a time alone
    // means every record of that second and after (id 0), re-read with the usual overlap.
    const givenTime =
      typeof bm?.write_date === 'string'
        ? bm.write_date
        : bm?.replication_key === 'write_date' && typeof bm.replication_key_value === 'string'
          ? bm.replication_key_value
          : undefined;
    // A time that is no moment (2026-02-30, 24:00:00) is refused by name, before anything is
    // written: read as another day, or as none, it would send a stream again or skip part of it.
    for (const [what, t] of [
      ['write_date', givenTime],
      ['full_read.until', typeof fr === 'object' && fr !== null ? fr.until : undefined],
    ] as const) {
      if (typeof t === 'string' && /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}/.test(t) && !onTheCalendar(t))
        throw new UsageError(
          say`the state ${path} has a bookmark for ${name} whose ${own(what)} '${t}' is not a time on the calendar`,
          say`correct it to a real day and time (YYYY-MM-DDTHH:MM:SSZ), or leave out --state to read everything`,
        );
    }
    const when = givenTime !== undefined ? utcSecond(givenTime) : undefined;
    const id = bm?.id ?? (when !== undefined && bm?.sent === undefined ? 0 : undefined);
    const incremental = when !== undefined && Number.isSafeInteger(id);
    const reading =
      typeof fr === 'object' &&
      fr !== null &&
      typeof fr.until === 'string' &&
      fromRfc3339(fr.until) !== undefined &&
      Number.isSafeInteger(fr.after_id);
    if (typeof bm !== 'object' || bm === null || incremental === reading)
      throw bad(
        `has a bookmark for ${name} without a write_date (YYYY-MM-DDTHH:MM:SSZ) and an id, or a full_read (until, after_id)`,
      );
    const sent = bm.sent ?? [];
    if (
      !Array.isArray(sent) ||
      !sent.every(
        (e) =>
          Array.isArray(e) &&
          e.length === 3 &&
          Number.isSafeInteger(e[0]) &&
          typeof e[1] === 'string' &&
          typeof e[2] === 'string',
      )
    )
      throw bad(`has a bookmark for ${name} whose sent list is not [id, write_date, digest] entries`);
    const settled = bm.settled;
    if (settled !== undefined && (typeof settled !== 'string' || fromRfc3339(settled) === undefined))
      throw bad(`has a bookmark for ${name} whose settled is not a time (YYYY-MM-DDTHH:MM:SSZ)`);
    const companies = bm.companies;
    if (companies !== undefined && !(Array.isArray(companies) && companies.every(Number.isSafeInteger)))
      throw bad(`has a bookmark for ${name} whose companies are not a list of ids`);
    const kept = { ...(settled !== undefined ? { settled } : {}), ...(companies ? { companies } : {}) };
    bookmarks[name as SyncName] = reading
      ? { full_read: { until: fr?.until as string, after_id: fr?.after_id as number }, ...kept, sent }
      : { write_date: when as string, id: id as number, ...kept, sent };
  }
  return { bookmarks };
}

/** A record's digest: what tells a record sent before from one changed since. */
export function digest(recordJson: string): string {
  return createHash('sha1').update(recordJson).digest('base64url').slice(0, 12);
}

/**
 * One stream's bookmark as it moves through a run: forward only, page by page, with what
 * was sent within the overlap before it.
 */
export class BookmarkKeeper {
  private at: { wd: string; id: number } | undefined;
  /**
   * By id: the write_date (Odoo's text) and what was last sent, within the overlap: its
   * digest, or the record's JSON until a digest is needed (most records leave the overlap
   * before a STATE would carry them, and are never digested).
   */
  private readonly sent = new Map<number, { wd: string; digest?: string; json?: string }>();

  /**
   * Odoo's UTC text before which every record had committed when this run read (undefined: no
   * such knowledge, the overlap alone decides).
   */
  private readonly settled: string | undefined;

  /**
   * The given bookmark when its whole second had settled: its second's records up to its id
   * were read there as they are for good (a later write moves their write_date on).
   */
  private readonly done: { wd: string; id: number } | undefined;

  /** The given bookmark's settled time (Odoo's text): what the run that wrote it knew. */
  private readonly givenSettled: string | undefined;

  /**
   * `settledNow`: the server's clock at the run's start less the overlap (Odoo's UTC text). A
   * first read resumed keeps the earlier run's time: its id pages before the STATE were read then.
   */
  constructor(
    from: Bookmark | undefined,
    private readonly overlapSeconds: number,
    settledNow?: string,
    /** The run's companies, which every bookmark it writes names. */
    private readonly companies?: number[],
  ) {
    let settled = settledNow;
    if (from) {
      if (from.write_date !== undefined && from.id !== undefined)
        this.at = { wd: fromRfc3339(from.write_date) as string, id: from.id };
      for (const [id, wd, d] of from.sent) this.sent.set(id, { wd: fromRfc3339(wd) ?? '', digest: d });
      const given = from.settled !== undefined ? fromRfc3339(from.settled) : undefined;
      this.givenSettled = given;
      if (this.at && given !== undefined && given > this.at.wd) this.done = this.at;
      if (from.full_read) {
        const before = from.settled !== undefined ? fromRfc3339(from.settled) : undefined;
        settled =
          before === undefined || settled === undefined ? undefined : before < settled ? before : settled;
      }
    }
    this.settled = settled;
  }

  /** Odoo's UTC text of the bookmark's second, where there is one. */
  get since(): string | undefined {
    return this.at?.wd;
  }

  /**
   * Where this run reads from (Odoo's text): the given bookmark less the overlap, or, where
   * later, the settled time the given STATE carries (at most the bookmark's second itself).
   * That STATE's, never this run's: what committed late after that run read is here to read.
   */
  get resumeFrom(): string | undefined {
    return this.at && this.floor(this.at.wd, this.givenSettled);
  }

  /**
   * Where a run reads again from a bookmark at second `wd` (Odoo's text) with settled time
   * `settled` (this run's by default): the bookmark less the overlap, or, where later, the
   * settled time (at most the bookmark's second itself): what was written before it was there
   * to read when it was read.
   */
  private floor(wd: string, settled = this.settled): string {
    const back = secondsBefore(wd, this.overlapSeconds);
    const s = this.settledFor(wd, settled);
    if (s === undefined) return back;
    if (s > wd) return wd;
    return s > back ? s : back;
  }

  /** The settled time for a bookmark at second `wd`: at most the end of that second. */
  private settledFor(wd: string, settled = this.settled): string | undefined {
    if (settled === undefined) return undefined;
    const end = nextSecond(wd);
    return settled < end ? settled : end;
  }

  /** The record (as its JSON) was sent before exactly as it is now. */
  unchanged(id: number, wd: string, json: string): boolean {
    if (this.done && wd === this.done.wd && id <= this.done.id) return true;
    const s = this.sent.get(id);
    if (s === undefined) return false;
    return (s.digest ?? digest(s.json as string)) === digest(json);
  }

  /** Records written before this (Odoo's text) leave the overlap at the next bookmark. */
  private cut = '';

  /** The page about to be sent ends in second `wd`: what lies an overlap before it is not kept. */
  pageEnds(wd: string): void {
    this.cut = this.floor(wd);
  }

  /** It is sent now: it is what the next run compares with (if it stays within the overlap). */
  sending(id: number, wd: string, json: string): void {
    if (wd < this.cut) return;
    this.sent.delete(id);
    this.sent.set(id, { wd, json });
  }

  /** The records up to (wd, id) are sent: the bookmark moves there, never back. */
  advance(wd: string, id: number): void {
    if (this.at && (this.at.wd > wd || (this.at.wd === wd && this.at.id >= id))) return;
    this.at = { wd, id };
  }

  /**
   * As the STATE value carries it; undefined while nothing was sent. `whole`: every record
   * sent within the overlap (the run's last STATE), else the newest MAX_SENT.
   */
  bookmark(whole = false): Bookmark | undefined {
    if (!this.at) return undefined;
    return {
      write_date: rfc3339(this.at.wd),
      id: this.at.id,
      ...this.settledAt(this.at.wd),
      sent: this.kept(this.at.wd, whole),
      ...(this.companies ? { companies: this.companies } : {}),
    };
  }

  /** A first read's bookmark: the records written before the end of `until` up to `afterId`. */
  fullRead(until: string, afterId: number): Bookmark {
    return {
      full_read: { until: rfc3339(until), after_id: afterId },
      ...this.settledAt(until),
      sent: this.kept(until),
      ...(this.companies ? { companies: this.companies } : {}),
    };
  }

  /**
   * The settled time as a bookmark at `wd` carries it: at most the end of its second (then
   * two runs over the same old data agree).
   */
  private settledAt(wd: string): { settled?: string } {
    const s = this.settledFor(wd);
    return s === undefined ? {} : { settled: rfc3339(s) };
  }

  /**
   * What was sent from the second a run reads again from (see floor), digested: all of it
   * (`all`, the run's last STATE), else the newest MAX_SENT; the rest is let go.
   */
  private kept(wd: string, all = false): Bookmark['sent'] {
    const cut = this.floor(wd);
    // Past the bookmark's second, its records are done by id: none of them is kept.
    const whole = (this.settledFor(wd) ?? '') > wd;
    const sent: Bookmark['sent'] = [];
    const order: { id: number; wd: string }[] = [];
    for (const [id, s] of this.sent) {
      if (s.wd < cut) {
        this.sent.delete(id);
        continue;
      }
      if (whole && s.wd === wd) continue;
      order.push({ id, wd: s.wd });
    }
    // The newest: they stay longest in the window the next run reads again.
    if (!all && order.length > MAX_SENT) {
      order.sort((a, b) => (a.wd < b.wd ? -1 : a.wd > b.wd ? 1 : a.id - b.id));
      order.splice(0, order.length - MAX_SENT);
    }
    for (const { id } of order) {
      const s = this.sent.get(id) as { wd: string; digest?: string; json?: string };
      if (s.digest === undefined) {
        s.digest = digest(s.json as string);
        s.json = undefined;
      }
      sent.push([id, rfc3339(s.wd), s.digest]);
    }
    return sent;
  }
}

/** Odoo's UTC text `seconds` before `odoo`. */
function secondsBefore(odoo: string, seconds: number): string {
  const ms = Date.parse(`${odoo.replace(' ', 'T')}Z`) - seconds * 1000;
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}
