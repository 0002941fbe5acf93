// Where rendered output goes. Renderers write text (or bytes: Parquet); a sink owns stdout
// or a file.
export interface Sink {
  write(chunk: string | Uint8Array): Promise<void>;
  /** The output is complete: flush it and make it visible. */
  commit(): Promise<void>;
  /** Something failed: leave no partial output behind. */
  abort(): Promise<void>;
}

/** Collects output in memory (tests, the HTTP service). */
export class MemorySink implements Sink {
  chunks: string[] = [];
  async write(chunk: string | Uint8Array): Promise<void> {
    if (typeof chunk !== 'string') throw new Error('MemorySink holds text, not bytes');
    this.chunks.push(chunk);
  }
  async commit(): Promise<void> {}
  async abort(): Promise<void> {
    this.chunks = [];
  }
  text(): string {
    return this.chunks.join('');
  }
}
