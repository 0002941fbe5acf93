// At most `perMinute` requests in any sliding 60-second window (the spec recommends 60).
// Each HTTP attempt, retries included, takes a slot, so a retry storm stays polite too.

export class RateLimiter {
  private readonly slots: number[] = [];
  private reserved = 0;

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
    private readonly windowMs = 60_000,
  ) {}

  /** Reserves the next slot; returns how many ms the caller must wait before sending. */
  reserve(): number {
    this.reserved++;
    if (this.perMinute <= 0) return 0;
    const now = this.now();
    let at = now;
    if (this.slots.length >= this.perMinute) {
      at = Math.max(now, this.slots[this.slots.length - this.perMinute] + this.windowMs);
    }
    this.slots.push(at);
    if (this.slots.length > this.perMinute) this.slots.splice(0, this.slots.length - this.perMinute);
    return at - now;
  }

  /** How many ms until a slot is free, without taking it (for a scheduler in front). */
  peek(): number {
    if (this.perMinute <= 0 || this.slots.length < this.perMinute) return 0;
    return Math.max(0, this.slots[this.slots.length - this.perMinute] + this.windowMs - this.now());
  }

  /** How many slots were handed out: one per request sent. */
  get count(): number {
    return this.reserved;
  }
}
