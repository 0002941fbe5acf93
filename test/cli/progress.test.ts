// The progress line while the rate limit holds requests back (issue 22, item 5): it says
// that it waits and for how long, not a rate and a time left gone stale.
import { describe, expect, it } from 'vitest';
import { type IO, testIO } from '../../src/cli/io.js';
import { Progress } from '../../src/cli/progress.js';
import { RateLimiter } from '../../src/core/ratelimit.js';

function terminal(): IO & { lines: string[] } {
  const lines: string[] = [];
  const io = testIO({ errTTY: true });
  io.err.progress = (l: string) => lines.push(l);
  return Object.assign(io, { lines });
}

describe('Progress and the rate limit', () => {
  it('shows the wait of a held request, counted down, then the counts again', () => {
    let now = 100_000;
    const io = terminal();
    const limiter = new RateLimiter(60, () => now);
    const p = new Progress(io, true, 'sales: ', () => now);
    p.watch(limiter);
    p.start(9000);
    for (let i = 0; i < 60; i++) limiter.reserve();
    now += 18_000;
    p.update(6000);
    expect(io.lines.at(-1)).toBe('sales: 6000 of 9000 records (66%), 333/s, 9s left');
    now += 1_000;
    limiter.reserve(); // the 61st request: sent when the first leaves the window
    expect(io.lines.at(-1)).toBe(
      'sales: 6000 of 9000 records (66%), waiting 41 s for the rate limit (--rate 60)',
    );
    now += 30_500;
    expect(p.line()).toBe('sales: 6000 of 9000 records (66%), waiting 11 s for the rate limit (--rate 60)');
    now += 11_000;
    expect(p.line()).toMatch(/^sales: 6000 of 9000 records \(66%\), \d+\/s, \d+s left$/);
    p.done();
    expect(io.lines.at(-1)).toBe('');
  });

  it('before the total is known, the wait alone', () => {
    const now = 0;
    const io = terminal();
    const limiter = new RateLimiter(1, () => now);
    const p = new Progress(io, true, '', () => now);
    p.watch(limiter);
    limiter.reserve();
    limiter.reserve();
    expect(io.lines.at(-1)).toBe('waiting 60 s for the rate limit (--rate 1)');
    p.done();
  });
});
