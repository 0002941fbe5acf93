// Where rendered output goes. Renderers write strings; a sink owns stdout or a file.
export interface Sink {
  write(chunk: string): Promise<void>;
  /** The output is complete: flush it and make it visible. */
  commit(): Promise<void>;
  /** Something failed: leave no partial output behind. */
  abort(): Promise<void>;
}

/** Collects output in memory (tests, the HTTP service). */
export class MemorySink implements Sink {
  chunks: string[] = [];
  async write(chunk: string): Promise<void> {
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
