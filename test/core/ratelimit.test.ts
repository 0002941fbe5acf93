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

  it('tells its listeners when a held request will be sent, and only then (issue 22)', () => {
    let now = 5_000;
    const rl = new RateLimiter(2, () => now);
    const told: number[] = [];
    const stop = rl.onWait((at) => told.push(at));
    rl.reserve();
    rl.reserve();
    expect(told).toEqual([]);
    now += 1_000;
    expect(rl.reserve()).toBe(59_000);
    expect(told).toEqual([65_000]);
    stop();
    rl.reserve();
    expect(told).toEqual([65_000]);
  });

  it('0 means no limit', () => {
    const rl = new RateLimiter(0);
    for (let i = 0; i < 100; i++) expect(rl.reserve()).toBe(0);
  });
});

describe('RateLimiter with a fractional rate (issue 18, case 18)', () => {
  it('0.5 a minute is one request every 120 s', () => {
    let now = 5_000_000;
    const rl = new RateLimiter(0.5, () => now);
    expect(rl.reserve()).toBe(0);
    expect(rl.reserve()).toBe(120_000);
    expect(rl.reserve()).toBe(240_000);
    now += 240_000;
    expect(rl.reserve()).toBe(120_000);
  });

  it('1.5 a minute is one request every 40 s, never NaN', () => {
    let now = 0;
    const rl = new RateLimiter(1.5, () => now);
    const waits = [rl.reserve(), rl.reserve(), rl.reserve()];
    expect(waits).toEqual([0, 40_000, 80_000]);
    now += 1000;
    for (let i = 0; i < 20; i++) expect(Number.isFinite(rl.reserve())).toBe(true);
  });

  it('2.5 a minute: two requests, then the next pair 48 s later (2.5 a minute on average)', () => {
    let now = 0;
    const rl = new RateLimiter(2.5, () => now);
    expect([rl.reserve(), rl.reserve(), rl.reserve(), rl.reserve()]).toEqual([0, 0, 48_000, 48_000]);
    now = 600_000;
    const sent: number[] = [];
    for (let i = 0; i < 50; i++) sent.push(now + rl.reserve());
    // 50 requests take 24 windows of 48 s after the first pair: 2.5 a minute.
    expect((sent[49] as number) - (sent[0] as number)).toBe(24 * 48_000);
  });

  it('refuses a rate too small to wait for', () => {
    expect(() => new RateLimiter(0.0001)).toThrow(RangeError);
  });
});

describe('RateLimiter.peek, the wait serve schedules by', () => {
  it('agrees with reserve at whole and fractional rates', () => {
    for (const rate of [3, 0.5, 1.5, 2.5]) {
      let now = 1_000_000;
      const rl = new RateLimiter(rate, () => now);
      for (let i = 0; i < 12; i++) {
        const peeked = rl.peek();
        expect(Number.isFinite(peeked), `rate ${rate}`).toBe(true);
        expect(rl.reserve(), `rate ${rate}, request ${i}`).toBe(peeked);
        now += peeked;
      }
    }
  });
});
