// -o FILE is atomic: the data goes to a temporary file beside FILE, is flushed to disk,
// and replaces FILE only after the last record. On failure or interrupt FILE is untouched
// and the temporary file is removed (synchronously too, from signal handlers).
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { alive, sweepDir, untouchedFor } from '../core/leftovers.js';
import { say } from '../core/redact.js';
import { fileError, isFsError, writeError } from './fserror.js';
import { pendingTemps } from './pending.js';
import type { Sink } from './sink.js';
import { resolveTarget } from './target.js';

// Readers of a lock or a temporary file ask it here, beside HOST.
export { alive } from '../core/leftovers.js';
export { removePendingTemps } from './pending.js';
export { resolveTarget, sameFile } from './target.js';

const pending = pendingTemps;
/** Bytes written between two flushes to disk started in the background. */
const SYNC_EVERY = 4 << 20;
/** Text gathered before a write. */
const POOL_BYTES = 1 << 20;

/** This machine, in temporary names: a pid says whether its run is alive only here. */
export const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 6);
const SUFFIX = '.posdata-tmp';
/** A temporary file untouched this long belongs to no live run, wherever it ran. */
const STALE_MS = 24 * 3600 * 1000;

/** `.FILE.<pid>-<host>-<random>.posdata-tmp` beside FILE: whose it is, for the sweep. */
export function tempPathFor(target: string): string {
  return join(
    dirname(target),
    `.${basename(target)}.${process.pid}-${HOST}-${randomBytes(4).toString('hex')}${SUFFIX}`,
  );
}

/** The owner of a temporary file's name (`.FILE.<pid>-<host>-<random>.posdata-tmp`). */
const OWNER = /^\..+\.(\d+)-([0-9a-f]{6})-[0-9a-f]{8}\.posdata-tmp$/;

/**
 * Removes the temporary files beside FILE that runs killed with SIGKILL (or a power cut) left
 * behind: those of a process of this machine that is gone, and any untouched for a day.
 * Another live run's file is never touched. Any file's of the folder, not FILE's alone: a
 * name made of the run's window (-o 'sales-{to}.csv') is another each run, and the temporary
 * file of a killed run would wait for a run of its window, which never comes.
 */
export function sweepStaleTemps(target: string): void {
  sweepDir(dirname(target), (name, path) => {
    const owner = OWNER.exec(name);
    if (owner === null) return false;
    const dead = owner[2] === HOST && !alive(Number(owner[1]));
    return dead || untouchedFor(path, STALE_MS);
  });
}

/**
 * The replacement keeps what the operator set on the file it replaces, as `sed -i` and
 * editors do: its permission bits (a 0600 or 0640 export does not come back 0644 by the
 * umask), and its owner and group where this process may set them (root; a user of the
 * group), the group alone where only that is permitted.
 */
async function keepAccess(fh: FileHandle, target: string): Promise<void> {
  let st: Stats;
  try {
    st = statSync(target);
  } catch {
    return; // gone meanwhile: the new file is as created
  }
  await fh.chmod(st.mode & 0o777);
  if (st.uid === process.getuid?.() && st.gid === process.getgid?.()) return;
  await fh.chown(st.uid, st.gid).catch(() => fh.chown(-1, st.gid).catch(() => undefined));
}

export class AtomicFileSink implements Sink {
  private fh: FileHandle | undefined;
  private readonly tmp: string;
  // Text is encoded into one buffer, reused from write to write, and written when it is full:
  // a Buffer per page held until a flush outlived the young generation, and its memory then
  // waited for a full collection (up to 9 MB of them in a 500k export).
  private readonly pool = Buffer.allocUnsafe(POOL_BYTES);
  private used = 0;
  /** Bytes written since the last flush to disk was started. */
  private unsynced = 0;
  /** A flush to disk running while the export goes on. */
  private syncing: Promise<void> | undefined;

  /** Whether the target was there before: an abort leaves it as it was, or writes none. */
  private readonly existed: boolean;

  private constructor(readonly target: string) {
    this.tmp = tempPathFor(target);
    this.existed = existsSync(target);
  }

  static async create(path: string, mode = 0o644): Promise<AtomicFileSink> {
    const target = resolveTarget(path);
    sweepStaleTemps(target);
    const s = new AtomicFileSink(target);
    try {
      pending.set(s.tmp, { existed: s.existed });
      // Made here, synchronously: a signal's handler removes what is pending, and an open still
      // in flight on the thread pool would create the file after the handler looked (a SIGTERM
      // right after the first request left it behind). Reopened without creating it.
      closeSync(openSync(s.tmp, 'wx', mode));
      s.fh = await open(s.tmp, 'r+');
      if (s.existed) await keepAccess(s.fh, target);
    } catch (err) {
      pending.delete(s.tmp);
      throw writeError(path, err, say`choose another path for -o`);
    }
    return s;
  }

  /** The writes in the order given: one at a time, since they share the buffer. */
  private last: Promise<void> = Promise.resolve();

  write(chunk: string | Uint8Array): Promise<void> {
    const next = this.last.then(() => this.writeNow(chunk));
    this.last = next.catch(() => undefined);
    return next;
  }

  private async writeNow(chunk: string | Uint8Array): Promise<void> {
    try {
      if (typeof chunk === 'string') {
        const bytes = Buffer.byteLength(chunk, 'utf8');
        if (bytes > this.pool.length - this.used) await this.flush();
        if (bytes <= this.pool.length) {
          this.used += this.pool.write(chunk, this.used, 'utf8');
          return;
        }
        await this.put(Buffer.from(chunk, 'utf8'));
      } else {
        await this.flush();
        await this.put(chunk);
      }
    } catch (err) {
      this.failed(err);
    }
  }

  /** Bytes written whole: a short write (the disk filling up) is written on, and says why it cannot. */
  private async put(data: Uint8Array): Promise<void> {
    if (!this.fh) return;
    for (let off = 0; off < data.length; ) off += (await this.fh.write(data, off)).bytesWritten;
    this.unsynced += data.length;
    // The disk catches up while the export runs, so that the fsync before the rename has
    // only the last few MiB left (20 MB took 9-13 ms at the end of a 200k export).
    if (this.unsynced >= SYNC_EVERY && !this.syncing) {
      this.unsynced = 0;
      // A failure shows again at commit's own fsync.
      this.syncing = this.fh
        .datasync()
        .catch(() => undefined)
        .then(() => {
          this.syncing = undefined;
        });
    }
  }

  /** A full disk or a read-only place is one line and exit 2, not an internal error. */
  private failed(err: unknown): never {
    if (isFsError(err))
      throw fileError(
        this.target,
        err,
        this.existed
          ? say`free some space or choose another place for -o; the old file is as it was`
          : say`free some space or choose another place for -o; no file was written`,
      );
    throw err;
  }

  /** What the buffer holds, written (the buffer is free again once this settles). */
  private async flush(): Promise<void> {
    if (this.used === 0) return;
    const data = this.pool.subarray(0, this.used);
    this.used = 0;
    await this.put(data);
  }

  async commit(): Promise<void> {
    if (!this.fh) return;
    await this.last;
    try {
      await this.flush();
      await this.syncing;
      await this.fh.sync();
      await this.fh.close();
      this.fh = undefined;
      await rename(this.tmp, this.target);
    } catch (err) {
      this.failed(err);
    }
    pending.delete(this.tmp);
  }

  async abort(): Promise<void> {
    this.used = 0;
    const fh = this.fh;
    this.fh = undefined;
    await fh?.close().catch(() => undefined);
    await unlink(this.tmp).catch(() => undefined);
    pending.delete(this.tmp);
  }
}

/** A small file written and flushed beside its target, waiting to replace it. */
export interface Staged {
  /** Replaces the target (a rename); on failure the temporary file is removed. */
  commit(): void;
  /** Removes the temporary file; the target stays as it was. */
  discard(): void;
}

function removeTemp(tmp: string): void {
  try {
    unlinkSync(tmp);
  } catch {
    /* never created, or gone */
  }
  pending.delete(tmp);
}

/**
 * Writes `data` to a temporary file beside `target` and flushes it to disk, so that what
 * can fail (a full disk, a read-only place) fails before anything else is replaced.
 */
export function stageFileSync(target: string, data: string, mode = 0o600): Staged {
  sweepStaleTemps(target);
  const tmp = tempPathFor(target);
  pending.set(tmp, {});
  try {
    const fd = openSync(tmp, 'wx', mode);
    try {
      // A short write (the disk filling up) is followed by one that says why.
      const buf = Buffer.from(data, 'utf8');
      for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    removeTemp(tmp);
    throw err;
  }
  return {
    commit() {
      try {
        renameSync(tmp, target);
        pending.delete(tmp);
      } catch (err) {
        removeTemp(tmp);
        throw err;
      }
    },
    discard() {
      removeTemp(tmp);
    },
  };
}
