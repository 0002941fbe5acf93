// Standard output as a sink, with backpressure. A closed pipe (`posdata sales | head`)
// is not an error: the run ends quietly with exit 0. Every other write error is (a full
// disk behind `> file`, /dev/full): the run fails and a checkpoint does not advance.
import { fstatSync, readFileSync, readlinkSync, writeSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { UsageError } from '../core/errors.js';
import { say } from '../core/redact.js';
import { fileError } from './fserror.js';
import type { Sink } from './sink.js';

const CLOSED = Symbol.for('posdata.pipe-closed');

/** Standard output's reader went away (`posdata sales | head`): the run ends quietly, exit 0. */
export class PipeClosed extends Error {
  override name = 'PipeClosed';
  readonly [CLOSED] = true;
  constructor() {
    super('standard output was closed');
  }
}

/** A PipeClosed from any copy of this module (branded, as posdata's errors are). */
export function isPipeClosed(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { [CLOSED]?: unknown })[CLOSED] === true;
}

const HINT = say`free some space or write elsewhere (-o FILE)`;

/** Where fd `fd` of this process leads and its open flags (Linux's /proc), or undefined. */
function openedAs(fd: number): { path: string; flags: number } | undefined {
  try {
    const m = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
    return m
      ? { path: readlinkSync(`/proc/self/fd/${fd}`), flags: Number.parseInt(m[1] as string, 8) }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Standard output was closed when posdata started (`posdata sales >&-`, a parent that closed
 * it): Node reopens a closed descriptor 0-2 on /dev/null read-write, where `> /dev/null`
 * opens it write-only. Data written there would go nowhere with exit 0, so a run whose data
 * is standard output refuses it, while standard error (not /dev/null) can say so. Linux only
 * (/proc); a parent that discards output read-write (Node's stdio 'ignore', Python's
 * subprocess.DEVNULL, `1<>/dev/null`) looks the same and is refused as well.
 */
export function refuseClosedStdout(fd: number | undefined): void {
  if (fd !== 1) return;
  const out = openedAs(1);
  // O_ACCMODE 3, O_RDWR 2.
  if (out?.path !== '/dev/null' || (out.flags & 3) !== 2) return;
  if (openedAs(2)?.path === '/dev/null') return;
  throw new UsageError(
    say`standard output is closed (it is /dev/null opened read-write, as a closed one is reopened), so the data would go nowhere`,
    say`give the data a place: a pipe, a file (> FILE or -o FILE), or > /dev/null to discard it on purpose`,
  );
}

/** The process's standard output when it is a file or a device: written synchronously and whole. */
function fileDescriptor(fd: number | undefined): number | undefined {
  if (fd === undefined) return undefined;
  try {
    const st = fstatSync(fd);
    return st.isFile() || st.isCharacterDevice() || st.isBlockDevice() ? fd : undefined;
  } catch {
    return undefined;
  }
}

export class StreamSink implements Sink {
  private closed = false;
  private failure: Error | undefined;
  /**
   * Node writes a redirected stdout with one write(2) per chunk and drops what a short write
   * left over (the last bytes before a disk fills up): a file or device is written here,
   * until every byte is out or the error says why not.
   */
  private readonly fd: number | undefined;

  /** `fd`: the stream's file descriptor where it is the process's own (not a terminal). */
  constructor(
    private readonly out: Writable,
    fd?: number,
  ) {
    this.fd = fileDescriptor(fd);
    out.on('error', (err: NodeJS.ErrnoException) => this.failed(err));
  }

  private failed(err: NodeJS.ErrnoException): void {
    if (err.code === 'EPIPE') this.closed = true;
    else if (err.code !== 'ERR_STREAM_DESTROYED') this.failure ??= err;
  }

  /** Why writing stopped: the error itself, or a closed pipe. */
  private stopped(): Error | undefined {
    if (this.failure) return fileError('standard output', this.failure, HINT);
    if (this.closed) return new PipeClosed();
    return undefined;
  }

  write(chunk: string | Uint8Array): Promise<void> {
    const stop = this.stopped();
    if (stop) return Promise.reject(stop);
    if (this.fd !== undefined) {
      try {
        const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        for (let off = 0; off < buf.length; ) off += writeSync(this.fd, buf, off);
      } catch (err) {
        this.failed(err as NodeJS.ErrnoException);
        return Promise.reject(this.stopped() ?? err);
      }
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const ok = this.out.write(chunk, (err) => {
        if (!err) return;
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ERR_STREAM_DESTROYED' && !this.failure) this.closed = true;
        else this.failed(err as NodeJS.ErrnoException);
        reject(this.stopped() ?? err);
      });
      if (ok) resolve();
      else this.out.once('drain', resolve);
    });
  }

  /** Every byte written is out, or the error that stopped it is thrown. */
  async commit(): Promise<void> {
    if (this.fd === undefined && !this.out.destroyed) {
      await new Promise<void>((resolve) => this.out.write('', () => resolve()));
    }
    const stop = this.stopped();
    if (stop) throw stop;
  }

  async abort(): Promise<void> {}
}
