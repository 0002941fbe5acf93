// Standard output as a sink, with backpressure. A closed pipe (`posdata sales | head`)
// is not an error: the run ends quietly with exit 0.
import type { Writable } from 'node:stream';
import type { Sink } from '../render/sink.js';

export class PipeClosed extends Error {
  constructor() {
    super('standard output was closed');
  }
}

export class StreamSink implements Sink {
  private closed = false;
  constructor(private readonly out: Writable = process.stdout) {
    out.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') this.closed = true;
    });
  }

  write(chunk: string | Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new PipeClosed());
    return new Promise((resolve, reject) => {
      const ok = this.out.write(chunk, (err) => {
        if (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED') {
            this.closed = true;
            reject(new PipeClosed());
          } else reject(err);
        }
      });
      if (ok) resolve();
      else this.out.once('drain', resolve);
    });
  }

  async commit(): Promise<void> {}
  async abort(): Promise<void> {}
}
