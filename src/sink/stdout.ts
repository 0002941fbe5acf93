// Standard output as a sink, with backpressure. A closed pipe (`posdata sales | head`)
// is not an error: the run ends quietly with exit 0. Every other write error is (a full
// disk behind `> file`, /dev/full): the run fails and a checkpoint does not advance.
import { fstatSync, writeSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { say } from '../core/redact.js';
import { fileError } from './fserror.js';
import type { Sink } from './sink.js';

const CLOSED = Symbol.for('posdata.pipe-closed');

/** Standard output's reader went away (`posdata sales | head`): the run ends quietly, exit 0. */
export class PipeClosed extends Error {
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
