// The per-client sliding window and the token store, on a fake clock.
import { afterEach, describe, expect, it } from 'vitest';
import { Redactor } from '../../src/core/redact.js';
import { ClientLimiter } from '../../src/serve/limiter.js';
import { TokenStore } from '../../src/serve/tokens.js';

let now = 1_000_000;
const clock = () => now;
const closers: { close(): void }[] = [];
afterEach(() => {
  for (const c of closers.splice(0)) c.close();
});

describe('ClientLimiter', () => {
  it('allows quota requests in any 60 s window, refused ones take no slot', () => {
    const l = new ClientLimiter(3, 60_000, clock);
    closers.push(l);
    expect([l.take('a'), l.take('a'), l.take('a')].map((v) => [v.allowed, v.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    now += 10_000;
    const refused = l.take('a');
    expect(refused).toEqual({ allowed: false, remaining: 0, resetSeconds: 50 });
    expect(l.headers(refused)).toEqual({
      'RateLimit-Policy': '"per-client";q=3;w=60',
      RateLimit: '"per-client";r=0;t=50',
      'Retry-After': '50',
    });
    expect(l.take('b').allowed).toBe(true);
    now += 49_999;
    expect(l.take('a').allowed).toBe(false);
    now += 1; // the three requests of the first instant leave the window
    expect(l.take('a')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('quota 0 is no limit and sends no headers', () => {
    const l = new ClientLimiter(0, 60_000, clock);
    closers.push(l);
    for (let i = 0; i < 1000; i++) expect(l.take('a').allowed).toBe(true);
    expect(l.headers(l.take('a'))).toEqual({});
  });

  it('a dropped key starts afresh', () => {
    const l = new ClientLimiter(1, 60_000, clock);
    closers.push(l);
    expect(l.take('t').allowed).toBe(true);
    expect(l.take('t').allowed).toBe(false);
    l.drop('t');
    expect(l.take('t').allowed).toBe(true);
  });
});

describe('TokenStore', () => {
  const entry = { client: {} as never, uid: 2, login: 'admin', tz: null, mask: new Redactor() };

  it('issues distinct 43-character base64url tokens that expire after the ttl', () => {
    const s = new TokenStore(5_000, clock);
    closers.push(s);
    const a = s.issue(entry);
    const b = s.issue(entry);
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.expiresAt).toBe(now + 5_000);
    expect(s.get(a.token)?.uid).toBe(2);
    now += 4_999;
    expect(s.get(a.token)).toBeDefined();
    now += 1;
    expect(s.get(a.token)).toBeUndefined();
    expect(s.size).toBe(1);
    s.sweep();
    expect(s.size).toBe(0);
  });

  it('revokes one token, not the others', () => {
    const s = new TokenStore(60_000, clock);
    closers.push(s);
    const a = s.issue(entry);
    const b = s.issue(entry);
    expect(s.revoke(a.token)).toBe(true);
    expect(s.revoke(a.token)).toBe(false);
    expect(s.get(a.token)).toBeUndefined();
    expect(s.get(b.token)).toBeDefined();
    expect(s.get('2')).toBeUndefined();
  });
});
