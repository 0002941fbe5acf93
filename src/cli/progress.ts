// Progress on stderr for long exports: records so far of the total, rate, time left.
// Only on a terminal, never with --quiet, and only when the data does not go to that
// same terminal. While the rate limit (--rate) holds a request back, the line says so and
// for how long, counted down each second, instead of a rate and a time left gone stale.
import type { RateLimiter } from '../core/ratelimit.js';
import type { IO } from './io.js';

export class Progress {
  readonly enabled: boolean;
  private total = 0;
  private started = 0;
  private last = 0;
  private count = 0;
  /** When the requests held back by the rate limit will be sent, soonest first. */
  private held: number[] = [];
  private perMinute = 0;
  private ticker: NodeJS.Timeout | undefined;
  private unwatch: (() => void) | undefined;

  constructor(
    private readonly io: IO,
    dataNotOnTerminal: boolean,
    /** Names what is counted (`sales: `), where one run shows several in turn. */
    private readonly label = '',
    private readonly now: () => number = Date.now,
  ) {
    this.enabled = io.err.isTTY && !io.quiet && dataNotOnTerminal;
  }

  /** Shows the waits of this limiter's requests, until done(). */
  watch(limiter: RateLimiter): void {
    if (!this.enabled) return;
    this.perMinute = limiter.perMinute;
    this.unwatch = limiter.onWait((sendAt) => {
      this.held.push(sendAt);
      this.held.sort((a, b) => a - b);
      this.show();
      // The wait counts down; the line would stand still while nothing arrives.
      this.ticker ??= setInterval(() => this.show(), 1000).unref();
    });
  }

  start(total: number): void {
    this.total = total;
    this.started = this.now();
  }

  update(count: number): void {
    if (!this.enabled) return;
    this.count = count;
    if (this.now() - this.last < 200) return;
    this.show();
  }

  /** The line: counts and, while a request waits for the rate limit, that wait. */
  line(): string {
    const now = this.now();
    this.held = this.held.filter((t) => t > now);
    const wait =
      this.held.length > 0
        ? `waiting ${Math.ceil((this.held[0] - now) / 1000)} s for the rate limit (--rate ${this.perMinute})`
        : undefined;
    if (!this.started) return `${this.label}${wait ?? ''}`;
    const count = this.count;
    const pct = this.total > 0 ? Math.floor((count / this.total) * 100) : 100;
    const head = `${this.label}${count} of ${this.total} records (${pct}%)`;
    if (wait) return `${head}, ${wait}`;
    const secs = (now - this.started) / 1000;
    const rate = secs > 0 ? count / secs : 0;
    const left = rate > 0 && this.total > count ? Math.round((this.total - count) / rate) : 0;
    return `${head}, ${Math.round(rate)}/s, ${left}s left`;
  }

  private show(): void {
    if (!this.enabled) return;
    this.last = this.now();
    const line = this.line();
    if (line !== '') this.io.err.progress(line);
    if (this.held.length === 0 && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  done(): void {
    this.unwatch?.();
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
    if (this.enabled) this.io.err.progress('');
  }
}
