// Progress on stderr for long exports: records so far of the total, rate, time left.
// Only on a terminal, never with --quiet, and only when the data does not go to that
// same terminal.
import type { IO } from './io.js';

export class Progress {
  readonly enabled: boolean;
  private total = 0;
  private started = 0;
  private last = 0;

  constructor(
    private readonly io: IO,
    dataNotOnTerminal: boolean,
    /** Names what is counted (`sales: `), where one run shows several in turn. */
    private readonly label = '',
  ) {
    this.enabled = io.stderrTTY && !io.quiet && dataNotOnTerminal;
  }

  start(total: number): void {
    this.total = total;
    this.started = Date.now();
  }

  update(count: number): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.last < 200) return;
    this.last = now;
    const secs = (now - this.started) / 1000;
    const rate = secs > 0 ? count / secs : 0;
    const left = rate > 0 && this.total > count ? Math.round((this.total - count) / rate) : 0;
    const pct = this.total > 0 ? Math.floor((count / this.total) * 100) : 100;
    this.io.progress(
      `${this.label}${count} of ${this.total} records (${pct}%), ${Math.round(rate)}/s, ${left}s left`,
    );
  }

  done(): void {
    if (this.enabled) this.io.progress('');
  }
}
