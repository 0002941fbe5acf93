// At most `perMinute` requests a minute (the spec recommends 60). Each HTTP attempt,
// retries included, takes a slot, so a retry storm stays polite too.
//
// A whole rate N allows N requests in any sliding 60-second window. A fractional rate
// (`--rate 0.5`) allows ⌊N⌋ (at least one) in any window of ⌊N⌋·60/N seconds: 0.5 is one
// request every 120 s, 1.5 one every 40 s, 2.5 two every 48 s; N a minute on average.

/** The smallest rate above 0: one request every 1000 minutes (a longer wait overflows a timer). */
export const MIN_RATE = 0.001;

/** Told of each request that must wait: when it will be sent (ms since the epoch, as `now`). */
export type WaitListener = (sendAt: number) => void;

export class RateLimiter {
  private readonly slots: number[] = [];
  private readonly listeners = new Set<WaitListener>();
  private reserved = 0;
  /** Requests allowed per window. */
  private readonly burst: number;
  private readonly windowMs: number;

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
    minuteMs = 60_000,
  ) {
    if (!(perMinute === 0 || perMinute >= MIN_RATE) || !Number.isFinite(perMinute))
      throw new RangeError(`rate ${perMinute} is not 0 or between ${MIN_RATE} and any finite number`);
    this.burst = Math.max(1, Math.floor(perMinute));
    this.windowMs = perMinute > 0 ? Math.round((minuteMs * this.burst) / perMinute) : minuteMs;
  }

  /** Reserves the next slot; returns how many ms the caller must wait before sending. */
  reserve(): number {
    this.reserved++;
    if (this.perMinute <= 0) return 0;
    const now = this.now();
    const at = this.nextFree(now);
    this.slots.push(at);
    if (this.slots.length > this.burst) this.slots.splice(0, this.slots.length - this.burst);
    if (at > now) for (const l of this.listeners) l(at);
    return at - now;
  }

  /** Calls `listener` for each request held back (progress says so); returns the unsubscribe. */
  onWait(listener: WaitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How many ms until a slot is free, without taking it (for a scheduler in front). */
  peek(): number {
    if (this.perMinute <= 0) return 0;
    const now = this.now();
    return this.nextFree(now) - now;
  }

  /** When the next slot is free: a burst's worth of slots per window. */
  private nextFree(now: number): number {
    if (this.slots.length < this.burst) return now;
    return Math.max(now, (this.slots[this.slots.length - this.burst] as number) + this.windowMs);
  }

  /** How many slots were handed out: one per request sent. */
  get count(): number {
    return this.reserved;
  }
}
