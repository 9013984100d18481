import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventName } from '../../shared/ipc/channels.js';
import { liveRelay } from '../../electron/core/postgres/live.js';

/**
 * The live relay between team servers: a sync's running progress goes at most every 250 ms (the
 * newest report), its end at once and last; other events as they come.
 */
const running = (done: number) => ({ phase: 'consents', done, total: 10_000, state: 'running' });

describe('liveRelay', () => {
  let sent: { event: EventName; payload: unknown }[];
  const send = async (event: EventName, payload: unknown) => void sent.push({ event, payload });
  beforeEach(() => {
    sent = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('sends the newest running report at most 4 times a second, however many come', async () => {
    const relay = liveRelay(send, (e) => {
      throw e;
    });
    // 1,000 reports over 2 s (one every 2 ms).
    for (let i = 1; i <= 1000; i++) {
      relay.relay('sync:progress', running(i));
      await vi.advanceTimersByTimeAsync(2);
    }
    await relay.close();
    expect(sent.length).toBeGreaterThanOrEqual(7);
    expect(sent.length).toBeLessThanOrEqual(10);
    // In order, the last one the newest.
    const done = sent.map((s) => (s.payload as { done: number }).done);
    expect([...done].sort((a, b) => a - b)).toEqual(done);
    expect(done.at(-1)).toBe(1000);
  });

  it('sends the end of a sync at once, after what came before, and drops the running report it supersedes', async () => {
    const relay = liveRelay(send, (e) => {
      throw e;
    });
    relay.relay('sync:progress', running(1));
    await vi.advanceTimersByTimeAsync(0);
    relay.relay('sync:progress', running(2));
    relay.relay('sync:progress', { phase: 'consents', done: 3, total: 3, state: 'finished' });
    relay.relay('sync:progress', { phase: 'events', done: 0, total: null, state: 'failed', message: 'The team database restarted' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent.map((s) => (s.payload as { state: string }).state)).toEqual(['running', 'finished', 'failed']);
    await relay.close();
  });

  it('passes other events through as they come', async () => {
    const relay = liveRelay(send, (e) => {
      throw e;
    });
    for (let i = 0; i < 5; i++) relay.relay('cache:changed', { entity: 'consents', count: i });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(5);
    await relay.close();
  });

  it('a failed send is reported and does not stop the ones after', async () => {
    const errors: string[] = [];
    let fail = true;
    const relay = liveRelay(
      async (event, payload) => {
        if (fail) {
          fail = false;
          throw new Error('connection lost');
        }
        sent.push({ event, payload });
      },
      (e) => errors.push(e.message),
    );
    relay.relay('sync:progress', running(1));
    await vi.advanceTimersByTimeAsync(300);
    relay.relay('sync:progress', running(2));
    await vi.advanceTimersByTimeAsync(300);
    await relay.close();
    expect(errors).toEqual(['connection lost']);
    expect(sent.map((s) => (s.payload as { done: number }).done)).toEqual([2]);
  });
});
