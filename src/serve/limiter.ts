// The per-client rate limit of `posdata serve`: at most `quota` requests in any sliding
// 60-second window per key (a token; the caller's address for login). Refused requests do
// not take a slot, so a client that backs off as told gets through after Retry-After.
// Headers follow the IETF draft (draft-ietf-httpapi-ratelimit-headers-08 and later):
// `RateLimit-Policy: "per-client";q=60;w=60` and `RateLimit: "per-client";r=59;t=60`.

export interface Verdict {
  allowed: boolean;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Seconds until a slot frees (the window's oldest request leaves it). */
  resetSeconds: number;
}

const POLICY = 'per-client';

export class ClientLimiter {
  private readonly log = new Map<string, number[]>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly quota: number,
    readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), windowMs).unref();
  }

  take(key: string): Verdict {
    // --client-rate 0: no limit, as --rate 0 is for the calls to Odoo.
    if (this.quota <= 0) return { allowed: true, remaining: 0, resetSeconds: 0 };
    const now = this.now();
    const since = now - this.windowMs;
    let times = this.log.get(key);
    if (!times) {
      times = [];
      this.log.set(key, times);
    }
    while (times.length > 0 && times[0] <= since) times.shift();
    const allowed = times.length < this.quota;
    if (allowed) times.push(now);
    const oldest = times[0] ?? now;
    return {
      allowed,
      remaining: Math.max(0, this.quota - times.length),
      resetSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)),
    };
  }

  /** Forgets a key (a revoked token). */
  drop(key: string): void {
    this.log.delete(key);
  }

  headers(v: Verdict): Record<string, string> {
    if (this.quota <= 0) return {};
    const h: Record<string, string> = {
      'RateLimit-Policy': `"${POLICY}";q=${this.quota};w=${Math.round(this.windowMs / 1000)}`,
      RateLimit: `"${POLICY}";r=${v.remaining};t=${v.resetSeconds}`,
    };
    if (!v.allowed) h['Retry-After'] = String(v.resetSeconds);
    return h;
  }

  close(): void {
    clearInterval(this.sweeper);
    this.log.clear();
  }

  private sweep(): void {
    const since = this.now() - this.windowMs;
    for (const [k, times] of this.log) if ((times[times.length - 1] ?? 0) <= since) this.log.delete(k);
  }
}
