import { addressKey } from '../core/people/address.js';

export { addressKey };

/**
 * A sliding-window rate limiter per key (a client address, a user name): at most `limit` events
 * in any `windowMs`. Memory is bounded: each key keeps at most `limit` timestamps, and beyond
 * `maxKeys` keys the least recently used ones are forgotten (an attacker who cycles through more
 * keys than that only resets keys nobody used lately, never memory).
 *
 * Typical use against guessing (a token, a password): `check(key)` before verifying, so a limited
 * client learns nothing, not even whether its guess was right; `take(key)` on each failure;
 * `reset(key)` on success if a success should clear the count.
 */
export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiterOptions {
  /** Events allowed per key in any window. */
  limit: number;
  windowMs: number;
  /** Keys remembered at most (default 10,000). */
  maxKeys?: number;
  /** The clock, in ms (tests pass one). */
  now?: () => number;
}

export class RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly maxKeys: number;
  private readonly now: () => number;
  /** Key → times of its events within the window, oldest first; Map order is least recently used first. */
  private readonly events = new Map<string, number[]>();

  constructor(opts: RateLimiterOptions) {
    if (!Number.isSafeInteger(opts.limit) || opts.limit < 1) throw new RangeError('limit must be an integer ≥ 1');
    if (!(opts.windowMs > 0)) throw new RangeError('windowMs must be > 0');
    this.limit = opts.limit;
    this.windowMs = opts.windowMs;
    this.maxKeys = opts.maxKeys ?? 10_000;
    if (!Number.isSafeInteger(this.maxKeys) || this.maxKeys < 1) throw new RangeError('maxKeys must be an integer ≥ 1');
    this.now = opts.now ?? Date.now;
  }

  /** Whether one more event for `key` would be allowed now, without counting one. */
  check(key: string): RateDecision {
    return this.decide(this.recent(key), this.now());
  }

  /** Counts one event for `key` if it is allowed; a refused one is not counted. */
  take(key: string): RateDecision {
    const now = this.now();
    const times = this.recent(key, now);
    const decision = this.decide(times, now);
    if (!decision.ok) return decision;
    times.push(now);
    // Most recently used last; the first keys are the ones forgotten beyond maxKeys.
    this.events.delete(key);
    this.events.set(key, times);
    for (const old of this.events.keys()) {
      if (this.events.size <= this.maxKeys) break;
      this.events.delete(old);
    }
    return decision;
  }

  /** Forgets `key`'s events (e.g. after a successful sign-in). */
  reset(key: string): void {
    this.events.delete(key);
  }

  /** Keys remembered now. */
  get size(): number {
    return this.events.size;
  }

  /** `key`'s events within the window (dropping older ones; a key left with none is forgotten). */
  private recent(key: string, now = this.now()): number[] {
    const times = this.events.get(key);
    if (!times) return [];
    const since = now - this.windowMs;
    let drop = 0;
    while (drop < times.length && times[drop]! <= since) drop++;
    if (drop > 0) times.splice(0, drop);
    if (times.length === 0) this.events.delete(key);
    return times;
  }

  private decide(times: number[], now: number): RateDecision {
    if (times.length < this.limit) return { ok: true };
    // Allowed again once the oldest event that counts leaves the window.
    const waitMs = times[times.length - this.limit]! + this.windowMs - now;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }
}

/** Sign-in attempts allowed per client address (its /64 for IPv6) and per user name, a minute. */
export const SIGN_IN_ATTEMPTS = { perAddress: 30, perUser: 10, windowMs: 60_000 };

/**
 * The limits the team server puts on its sign-in endpoints (sign-in.ts's AttemptLimiter): per client
 * address, keyed by addressKey, and per user name. They come on top of the account lockout (five
 * wrong passwords in a row): they slow guessing across many names, or from many tabs.
 */
export function signInLimits(opts: { now?: () => number } = {}): {
  perAddress: { take(key: string): RateDecision };
  perUser: { take(key: string): RateDecision };
} {
  const clock = opts.now ? { now: opts.now } : {};
  const byAddress = new RateLimiter({ limit: SIGN_IN_ATTEMPTS.perAddress, windowMs: SIGN_IN_ATTEMPTS.windowMs, ...clock });
  const byUser = new RateLimiter({ limit: SIGN_IN_ATTEMPTS.perUser, windowMs: SIGN_IN_ATTEMPTS.windowMs, ...clock });
  return { perAddress: { take: (address) => byAddress.take(addressKey(address)) }, perUser: byUser };
}
