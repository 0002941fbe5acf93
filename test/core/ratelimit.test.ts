import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/core/ratelimit.js';

describe('RateLimiter', () => {
  it('lets N requests through in any 60-second window, then spaces them', () => {
    let now = 1_000_000;
    const rl = new RateLimiter(3, () => now);
    expect([rl.reserve(), rl.reserve(), rl.reserve()]).toEqual([0, 0, 0]);
    expect(rl.reserve()).toBe(60_000);
    now += 10_000;
    expect(rl.reserve()).toBe(50_000);
    expect(rl.count).toBe(5);
  });

  it('never puts more than N slots in any window', () => {
    let now = 0;
    const rl = new RateLimiter(5, () => now);
    const sent: number[] = [];
    for (let i = 0; i < 40; i++) {
      sent.push(now + rl.reserve());
      now += Math.floor(Math.random() * 7000);
    }
    for (const t of sent) expect(sent.filter((s) => s >= t && s < t + 60_000).length).toBeLessThanOrEqual(5);
  });

  it('0 means no limit', () => {
    const rl = new RateLimiter(0);
    for (let i = 0; i < 100; i++) expect(rl.reserve()).toBe(0);
  });
});
