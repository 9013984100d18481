import { describe, expect, it } from 'vitest';
import { memoized, readMemo } from '../../electron/core/postgres/read-memo.js';

/** The team server's shared answers: asked once until something changes, never an answer older than the change. */
describe('readMemo', () => {
  const counter = () => {
    let asked = 0;
    let value = 1;
    return {
      read: async (x: number) => {
        asked++;
        await new Promise((r) => setTimeout(r, 5));
        return x * value;
      },
      asked: () => asked,
      change: (v: number) => (value = v),
    };
  };

  it('answers twenty readers of the same question with one read, and different questions apart', async () => {
    const memo = readMemo();
    const c = counter();
    const store = memoized({ count: c.read }, ['count'], memo, 'test');
    const answers = await Promise.all(Array.from({ length: 20 }, () => store.count(2)));
    expect(answers).toEqual(Array(20).fill(2));
    expect(c.asked()).toBe(1);
    expect(await store.count(3)).toBe(3);
    expect(c.asked()).toBe(2);
  });

  it('asks again after a change, and never keeps an answer read across one', async () => {
    const memo = readMemo();
    const c = counter();
    const store = memoized({ count: c.read }, ['count'], memo, 'test');
    expect(await store.count(2)).toBe(2);
    c.change(10);
    memo.invalidate();
    expect(await store.count(2)).toBe(20);
    // A read under way when the data changes: its answer goes to its reader, and is not kept.
    memo.invalidate();
    const during = store.count(2);
    expect(c.asked()).toBe(3);
    memo.invalidate();
    await during;
    expect(await store.count(2)).toBe(20);
    expect(c.asked()).toBe(4);
  });

  it('asks again once an answer is older than its time to live, and after a failure', async () => {
    let t = 0;
    const memo = readMemo({ ttlMs: 1000, now: () => t });
    const c = counter();
    const store = memoized({ count: c.read }, ['count'], memo, 'test');
    await store.count(1);
    t = 999;
    await store.count(1);
    expect(c.asked()).toBe(1);
    // Older than its time to live, no change heard of: asked again behind the reader, who has the last answer at once.
    c.change(7);
    t = 1000;
    expect(await store.count(1)).toBe(1);
    expect(c.asked()).toBe(2);
    await new Promise((r) => setTimeout(r, 20));
    expect(await store.count(1)).toBe(7);
    expect(c.asked()).toBe(2);
    let fail = true;
    const flaky = memoized(
      {
        read: async () => {
          if (fail) throw new Error('the database went away');
          return 'fine';
        },
      },
      ['read'],
      memo,
      'flaky',
    );
    await expect(flaky.read()).rejects.toThrow('the database went away');
    fail = false;
    expect(await flaky.read()).toBe('fine');
  });

  it('leaves the reads it was not told to share alone', async () => {
    const memo = readMemo();
    const c = counter();
    const store = memoized({ count: c.read, list: c.read }, ['count'], memo, 'test');
    await store.list(1);
    await store.list(1);
    expect(c.asked()).toBe(2);
  });
});
