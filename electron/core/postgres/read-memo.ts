/**
 * Answers to the team store's aggregate reads (counts, facets, days, the webhook failures' groups,
 * the compliance report's counts), shared by every console of a server until the data changes. Twenty
 * consoles opening the webhook failures ask one question; PostgreSQL answers it once.
 *
 * The server invalidates the memo whenever its bus says something changed (a sync's commit, an
 * action, a retention run, or the same relayed from another server of the team: cache:changed), and
 * after every write made through the store. An answer older than `ttlMs` is asked again too, for a
 * change that reached the database without a notice (a lost relay, a command-line import): its
 * readers are given the answer they had meanwhile (no change was heard of), not made to wait.
 * A read that began before an invalidation is not kept: its answer may not hold the change.
 */
export interface ReadMemo {
  /** The answer to `key`: the one computed since the last change (or the one being computed), else `compute()`. */
  get<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /** Something changed: every answer is computed again. */
  invalidate(): void;
  /** How many changes were heard of so far: an answer computed at one generation holds until the next. */
  generation(): number;
}

export function readMemo(opts: { ttlMs?: number; max?: number; now?: () => number } = {}): ReadMemo {
  const ttlMs = opts.ttlMs ?? 10_000;
  const max = opts.max ?? 500;
  const now = opts.now ?? (() => performance.now());
  let generation = 0;
  const answers = new Map<string, { generation: number; at: number; answer: Promise<unknown>; refreshing?: boolean }>();
  return {
    get<T>(key: string, compute: () => Promise<T>): Promise<T> {
      const held = answers.get(key);
      if (held && held.generation === generation) {
        if (now() - held.at < ttlMs) return held.answer as Promise<T>;
        // Old, with no change heard of: asked again in the background; this reader has the last answer.
        if (!held.refreshing) {
          held.refreshing = true;
          const fresh = compute();
          fresh.then(
            () => {
              if (answers.get(key) === held && generation === held.generation)
                answers.set(key, { generation: held.generation, at: now(), answer: fresh });
            },
            () => {
              held.refreshing = false;
            },
          );
        }
        return held.answer as Promise<T>;
      }
      const started = generation;
      const answer = compute();
      if (answers.size >= max) answers.clear();
      const entry = { generation: started, at: now(), answer, refreshing: false };
      answers.set(key, entry);
      // A failure is not kept: the next reader asks again.
      answer.catch(() => {
        if (answers.get(key) === entry) answers.delete(key);
      });
      return answer;
    },
    invalidate() {
      generation++;
      answers.clear();
    },
    generation: () => generation,
  };
}

/** `store` with the named reads answered through `memo` (by name and arguments). */
export function memoized<S extends object, K extends keyof S>(store: S, names: readonly K[], memo: ReadMemo, prefix: string): S {
  const wrapped = { ...store };
  for (const name of names) {
    const read = store[name] as unknown as (...args: unknown[]) => Promise<unknown>;
    (wrapped as Record<K, unknown>)[name] = (...args: unknown[]) =>
      memo.get(`${prefix}.${String(name)}:${JSON.stringify(args)}`, () => read.apply(store, args));
  }
  return wrapped;
}
