/**
 * Overlaps fetching and writing: while the caller stores page N, page N+1 is already being
 * fetched. One page ahead at most, so memory stays bounded; errors surface in order.
 */
export async function* prefetch<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  let next = it.next();
  // An early failure must not become an unhandled rejection while the caller is busy.
  next.catch(() => undefined);
  for (;;) {
    const current = await next;
    if (current.done) return;
    next = it.next();
    next.catch(() => undefined);
    // Let the next request go out before the caller's (synchronous) writing starts.
    await yieldToEventLoop();
    yield current.value;
  }
}

/** Lets pending I/O run (a response arriving, a request going out) before more synchronous work. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Rate (items per second) and estimated seconds left, from the start time and progress so far. */
export function rateAndEta(
  done: number,
  total: number | null,
  startedMs: number,
  nowMs = Date.now(),
): { rate: number; etaSeconds: number | null } {
  const seconds = Math.max((nowMs - startedMs) / 1000, 0.001);
  const rate = done / seconds;
  return {
    rate: Math.round(rate * 10) / 10,
    etaSeconds: total !== null && rate > 0 ? Math.max(0, Math.round((total - done) / rate)) : null,
  };
}
