// Incremental exports: what was created or changed since the last successful run, by
// Odoo's write_date and id. The window end is fixed when the run starts; the next run
// starts `overlap` seconds before it (clock skew between posdata and Odoo, writes that
// commit late within the same second), so consumers deduplicate by id. The file advances
// only after the output is complete.
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { own, type Said, say } from '../core/redact.js';
import type { Domain, OdooRecord } from '../core/types.js';
import { DateTime } from '../query/luxon.js';
import { alive, HOST, type Staged, stageFileSync } from '../sink/atomic.js';
import { fileError, writeError } from '../sink/fserror.js';
import type { Window } from './window.js';

export interface Checkpoint {
  version: 1;
  resource: string;
  model: string;
  server: string;
  /** Hash of the filters, so one checkpoint file serves one query. */
  query: string;
  /** Records with write_date up to the end of this second (UTC, Odoo format) were exported. */
  windowEnd: string;
  overlapSeconds: number;
  lastRunAt: string;
  lastCount: number;
  /**
   * The companies read (their ids, sorted): a run over others would carry on from this
   * window and never read the added companies' earlier records. Absent in a checkpoint of an
   * older posdata, or where Odoo does not list the companies.
   */
  companies?: number[];
}

const FMT = 'yyyy-MM-dd HH:mm:ss';

export function queryHash(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

/**
 * The checkpoint's `server` ("URL|database") without any `user:password@` in the URL:
 * older versions stored the URL as typed, password included.
 */
export function withoutUserinfo(server: string): string {
  return server.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#|]*@/i, '$1');
}

export function loadCheckpoint(path: string): Checkpoint | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(
      say`cannot read checkpoint ${path}: ${(err as Error).message}`,
      say`check the path and its permissions`,
    );
  }
  try {
    const cp = JSON.parse(text) as Checkpoint;
    if (cp.version !== 1 || typeof cp.windowEnd !== 'string') throw new Error('bad shape');
    if (!DateTime.fromFormat(cp.windowEnd, FMT, { zone: 'UTC' }).isValid) throw new Error('bad window end');
    if (typeof cp.server === 'string') cp.server = withoutUserinfo(cp.server);
    if (
      cp.companies !== undefined &&
      !(Array.isArray(cp.companies) && cp.companies.every(Number.isSafeInteger))
    )
      throw new Error('bad companies');
    return cp;
  } catch {
    throw new UsageError(say`checkpoint ${path} is damaged`, say`remove it or run with --full to rebuild it`);
  }
}

/**
 * The checkpoint's new state, written and flushed beside it but not yet in place: the run
 * stages it before replacing -o, then commits both, so a checkpoint that cannot be written
 * (a full disk, a read-only place) leaves the export and the checkpoint as they were.
 */
export function stageCheckpoint(path: string, cp: Checkpoint): Staged {
  const hint = say`free some space or make its folder writable; the export was not replaced`;
  let staged: Staged;
  try {
    staged = stageFileSync(path, `${JSON.stringify(cp, null, 2)}\n`, 0o600);
  } catch (err) {
    throw fileError(say`the checkpoint ${path}`, err, hint);
  }
  return {
    commit() {
      try {
        staged.commit();
      } catch (err) {
        // The export is in place; the next run exports this window again (no loss).
        throw fileError(
          say`the checkpoint ${path}`,
          err,
          say`the export was written; the next run repeats it`,
        );
      }
    },
    discard: () => staged.discard(),
  };
}

/**
 * One checkpointed run's bookkeeping, in one place: the checkpoint it goes on from, its
 * window, the records it wrote (each once, even one that moved while it was read), and the
 * checkpoint after it, staged before -o is replaced. With --limit the export may stop inside
 * the window: the checkpoint then moves on only to the last record written (write_date
 * order), and the next run goes on from there.
 */
export class CheckpointRun {
  private readonly seen = new Set<number>();
  private received = 0;
  private lastWritten: string | undefined;

  constructor(
    /** --checkpoint as given, and as the file it really is. */
    readonly file: { file: string; path: string },
    /** What the file said (undefined on a first or --full run). */
    readonly previous: Checkpoint | undefined,
    readonly window: Window,
    private readonly next: Pick<
      Checkpoint,
      'resource' | 'model' | 'server' | 'query' | 'overlapSeconds' | 'companies'
    > & {
      limit: number | undefined;
    },
  ) {}

  /** Which records of a page this run writes (false: written already in this run). */
  keep(records: readonly OdooRecord[]): boolean[] {
    this.received += records.length;
    const keep = records.map((r) => {
      if (this.seen.has(r.id)) return false;
      this.seen.add(r.id);
      return true;
    });
    for (let i = records.length - 1; i >= 0; i--) {
      if (!keep[i]) continue;
      this.lastWritten = records[i]?.write_date as string | undefined;
      break;
    }
    return keep;
  }

  /** The checkpoint after `count` records written, staged beside the file; `warn` is told when --limit held it back. */
  stage(count: number, warn: (line: Said) => void): Staged {
    const { previous, lastWritten } = this;
    const limit = this.next.limit;
    let windowEnd = this.window.windowEnd;
    if (limit !== undefined && this.received >= limit && lastWritten) {
      // Everything up to the previous window end was exported by earlier runs.
      windowEnd = previous && previous.windowEnd > lastWritten ? previous.windowEnd : lastWritten;
      if (previous && lastWritten <= previous.windowEnd)
        warn(
          say`posdata: warning: --limit ${own(String(limit))} ended within the overlap of the last run, so the checkpoint did not move on; raise --limit`,
        );
    }
    return stageCheckpoint(this.file.path, {
      version: 1,
      resource: this.next.resource,
      model: this.next.model,
      server: this.next.server,
      query: this.next.query,
      windowEnd,
      overlapSeconds: this.next.overlapSeconds,
      lastRunAt: new Date().toISOString(),
      lastCount: count,
      ...(this.next.companies ? { companies: this.next.companies } : {}),
    });
  }
}

/**
 * The write_date window of this run. A window that would start after it ends (a checkpoint
 * whose end lies further in the future than the overlap) is refused: it would export
 * nothing and then move the checkpoint back to now, over the changes in between.
 */
export function windowFor(
  cp: Checkpoint | undefined,
  overlapSeconds: number,
  now: Date = new Date(),
  path = 'file',
): Window {
  return writeDateWindow(cp?.windowEnd, overlapSeconds, now, `checkpoint ${path}`);
}

/**
 * Records written up to now, from `overlapSeconds` before `since` (UTC, Odoo format) when
 * there is one: the window of a checkpoint export, and of `posdata sync` from its watermark.
 * `refuseFuture` names the checkpoint whose window end may not lie ahead of now (a sync's
 * watermark is a record's own write_date, so it is never refused: it only waits for the clock).
 */
export function writeDateWindow(
  since: string | undefined,
  overlapSeconds: number,
  now: Date = new Date(),
  refuseFuture?: string,
): Window {
  const end = DateTime.fromJSDate(now, { zone: 'UTC' }).startOf('second');
  const windowEnd = end.toFormat(FMT);
  // The whole second the run starts in: Odoo keeps write_date to the microsecond, so
  // `<= 'T'` would leave out what was written in second T before the run began (until the
  // next run's overlap). What is written later in that second comes now and again next time.
  const domain: Domain = [['write_date', '<', end.plus({ seconds: 1 }).toFormat(FMT)]];
  if (since !== undefined) {
    const from = DateTime.fromFormat(since, FMT, { zone: 'UTC' }).minus({ seconds: overlapSeconds });
    if (!from.isValid || from.year < 1)
      throw new UsageError(
        say`--overlap ${overlapSeconds} reaches back before year 1`,
        say`give it in seconds, e.g. 300`,
      );
    if (refuseFuture !== undefined && from > end)
      throw new UsageError(
        say`${refuseFuture} lies in the future (window end ${since} UTC, now ${windowEnd} by the server)`,
        say`check the clocks, then remove it or run with --full to rebuild it`,
      );
    domain.unshift(['write_date', '>=', from.toFormat(FMT)]);
  }
  return { domain, windowEnd };
}

/**
 * A run that goes on from a checkpoint exports only the changes since the last one: replacing
 * a file that holds an earlier run's rows would leave those rows in no file (a cron retry in
 * the same hour, a manual run). Such a run never replaces -o; a first or --full run, which
 * exports everything, may.
 */
export function refuseReplace(path: string, shown: string, checkpoint: string, noun: string): void {
  if (!existsSync(path)) return;
  const example = join(dirname(shown), `${noun}-{to}${extname(shown)}`);
  throw new UsageError(
    say`-o ${shown} already exists, and a run that goes on from checkpoint ${checkpoint} does not replace it (the rows it holds would be in no file); nothing was exported`,
    say`name each run's file by its window, e.g. -o '${example}', or move ${shown} away first`,
  );
}

/** The lock's holder refreshes its time this often; a lock older than STALE_LOCK_MS is dead. */
const HEARTBEAT_MS = 30_000;
const STALE_LOCK_MS = 4 * HEARTBEAT_MS;

interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

/**
 * One run at a time per checkpoint: two cron runs on one file would both start from the
 * same window end and the slower one would move it back. `FILE.lock` holds the pid and the
 * machine; a second run exits at once with one line (exit 2) rather than queue up behind a
 * run that may take longer than the cron interval. A lock whose process is gone (kill -9,
 * a power cut) is taken over: at once on the same machine, after two minutes without the
 * holder's heartbeat from another. Released by the function it returns, or at exit
 * (interrupts included).
 */
export function lockCheckpoint(path: string): () => void {
  const lock = `${path}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(lock, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
        throw (err as NodeJS.ErrnoException).code === 'ENOENT'
          ? writeError(path, err, say`choose another path for --checkpoint`)
          : fileError(say`the checkpoint lock ${lock}`, err, say`make the checkpoint folder writable`);
      const holder = readLock(lock);
      if (holder === 'gone') continue;
      if (holder === 'stale') {
        try {
          unlinkSync(lock);
        } catch {
          /* another run took it over first */
        }
        continue;
      }
      throw new UsageError(
        say`checkpoint ${path} is in use by another posdata run (pid ${holder.pid}${holder.host === HOST ? '' : own(' on another machine')}, since ${holder.since})`,
        say`let it finish, and run less often if runs overlap; if no posdata is running, remove ${lock}`,
      );
    }
    try {
      const me: LockHolder = { pid: process.pid, host: HOST, since: new Date().toISOString() };
      writeSync(fd, JSON.stringify(me));
    } catch (err) {
      // A full disk: better to stop now than after the export.
      unlinkSync(lock);
      throw fileError(say`the checkpoint lock ${lock}`, err, say`free some space where the checkpoint is`);
    } finally {
      closeSync(fd);
    }
    const beat = setInterval(() => {
      try {
        const now = new Date();
        utimesSync(lock, now, now);
      } catch {
        /* removed under us: the run goes on, the next one is not blocked */
      }
    }, HEARTBEAT_MS);
    beat.unref();
    const release = (): void => {
      process.off('exit', release);
      clearInterval(beat);
      try {
        unlinkSync(lock);
      } catch {
        /* already removed (interrupt) */
      }
    };
    process.once('exit', release);
    return release;
  }
  throw new UsageError(say`checkpoint ${path} is in use by another posdata run`, say`try again in a moment`);
}

/** The lock's holder; 'stale' when its process is gone, 'gone' when the lock went meanwhile. */
function readLock(lock: string): LockHolder | 'stale' | 'gone' {
  let text: string;
  let age: number;
  try {
    age = Date.now() - statSync(lock).mtimeMs;
    text = readFileSync(lock, 'utf8');
  } catch {
    return 'gone';
  }
  if (age > STALE_LOCK_MS) return 'stale';
  let holder: LockHolder;
  try {
    holder = JSON.parse(text) as LockHolder;
    if (!Number.isSafeInteger(holder.pid)) throw new Error('no pid');
  } catch {
    // Half written by a run killed between creating and writing it, or being written now.
    return age > 5000 ? 'stale' : { pid: 0, host: HOST, since: 'just now' };
  }
  if (holder.host === HOST && !alive(holder.pid)) return 'stale';
  return holder;
}
