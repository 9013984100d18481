import { ApiError } from './errors.js';

/**
 * Retries of the API calls and the token request: the policy, jittered exponential backoff, a
 * Retry-After header read, and the error of a call that gave up. Apart from http.ts so the token
 * source uses them without importing the HTTP layer that imports it.
 */
export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After honoured; a longer one fails at once as RateLimited. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 300, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };

/** One retry about to happen: which call, why, and how long it waits first. */
export interface RetryInfo {
  endpoint: string;
  /** The attempt that failed (0 = the first). */
  attempt: number;
  reason: string;
  waitMs: number;
}

export const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    });
  });

/** Jittered exponential backoff: between half and all of min(max, base × 2^attempt). */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** The same error with the number of attempts said, for a call that gave up after its retries. */
export function gaveUp(error: ApiError, attempts: number): ApiError {
  if (attempts <= 1) return error;
  return new ApiError(error.kind, `${error.message} (gave up after ${attempts} attempts)`, {
    endpoint: error.endpoint,
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(error.requestId !== undefined ? { requestId: error.requestId } : {}),
    ...(error.path !== undefined ? { path: error.path } : {}),
    details: error.details,
    cause: error.cause ?? error,
  });
}

export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
