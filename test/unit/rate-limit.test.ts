import { describe, expect, it } from 'vitest';
import { addressKey, RateLimiter, SIGN_IN_ATTEMPTS, signInLimits } from '../../electron/host/rate-limit.js';

function limiter(limit: number, windowMs: number, maxKeys?: number) {
  let now = 1_000_000;
  const l = new RateLimiter({ limit, windowMs, ...(maxKeys ? { maxKeys } : {}), now: () => now });
  return { l, advance: (ms: number) => (now += ms) };
}

describe('RateLimiter', () => {
  it('allows `limit` events per key in a window, then refuses with the seconds until the next one', () => {
    const { l, advance } = limiter(3, 60_000);
    expect([l.take('a'), l.take('a'), l.take('a')]).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(l.take('a')).toEqual({ ok: false, retryAfterSeconds: 60 });
    advance(20_500);
    expect(l.take('a')).toEqual({ ok: false, retryAfterSeconds: 40 });
    expect(l.check('a')).toEqual({ ok: false, retryAfterSeconds: 40 });
  });

  it('slides: an event leaves the window windowMs after it, not at a fixed boundary', () => {
    const { l, advance } = limiter(2, 10_000);
    l.take('a');
    advance(6_000);
    l.take('a');
    advance(3_999);
    expect(l.take('a').ok).toBe(false);
    advance(1);
    expect(l.take('a').ok).toBe(true); // the first left the window
    expect(l.take('a')).toEqual({ ok: false, retryAfterSeconds: 6 });
  });

  it('does not count refused events, nor checks', () => {
    const { l, advance } = limiter(1, 1_000);
    l.take('a');
    for (let i = 0; i < 50; i++) expect(l.take('a').ok).toBe(false);
    for (let i = 0; i < 50; i++) l.check('b');
    advance(1_000);
    expect(l.take('a').ok).toBe(true);
    expect(l.take('b').ok).toBe(true);
  });

  it('keeps keys apart, and forgets one on reset', () => {
    const { l } = limiter(1, 60_000);
    expect(l.take('10.0.0.1').ok).toBe(true);
    expect(l.take('10.0.0.1').ok).toBe(false);
    expect(l.take('10.0.0.2').ok).toBe(true);
    l.reset('10.0.0.1');
    expect(l.take('10.0.0.1').ok).toBe(true);
  });

  it('bounds its memory: beyond maxKeys the least recently used keys are forgotten, and expired keys go', () => {
    const { l, advance } = limiter(1, 60_000, 100);
    l.take('busy');
    for (let i = 0; i < 1_000; i++) {
      l.take(`k${i}`);
      if (i % 50 === 0) l.take('busy'); // refused: using a key does not keep it
      expect(l.size).toBeLessThanOrEqual(100);
    }
    expect(l.size).toBe(100);
    expect(l.check('k999').ok).toBe(false); // recent keys are still limited
    expect(l.check('k0').ok).toBe(true); // the oldest were forgotten
    advance(60_000);
    for (const key of ['busy', ...Array.from({ length: 1_000 }, (_, i) => `k${i}`)]) l.check(key);
    expect(l.size).toBe(0);
  });

  it('refuses nonsense settings', () => {
    expect(() => new RateLimiter({ limit: 0, windowMs: 1 })).toThrow(RangeError);
    expect(() => new RateLimiter({ limit: 1, windowMs: 0 })).toThrow(RangeError);
    expect(() => new RateLimiter({ limit: 1, windowMs: 1, maxKeys: 0 })).toThrow(RangeError);
  });
});

describe('addressKey', () => {
  it('is the address for IPv4 (also when mapped in IPv6), the /64 network for IPv6', () => {
    expect(addressKey('192.168.1.20')).toBe('192.168.1.20');
    expect(addressKey('::ffff:192.168.1.20')).toBe('192.168.1.20');
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::7')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('signInLimits', () => {
  it('limits per client address (one /64 for IPv6) and per user name, separately', () => {
    const limits = signInLimits({ now: () => 0 });
    for (let i = 0; i < SIGN_IN_ATTEMPTS.perAddress; i++) expect(limits.perAddress.take(`2001:db8:1:2::${i + 1}`).ok).toBe(true);
    expect(limits.perAddress.take('2001:db8:1:2:ffff::1')).toEqual({ ok: false, retryAfterSeconds: 60 });
    expect(limits.perAddress.take('2001:db8:1:3::1').ok).toBe(true);
    for (let i = 0; i < SIGN_IN_ATTEMPTS.perUser; i++) expect(limits.perUser.take('vera').ok).toBe(true);
    expect(limits.perUser.take('vera').ok).toBe(false);
    expect(limits.perUser.take('sam').ok).toBe(true);
  });
});
