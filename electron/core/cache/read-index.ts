import type { Db } from './db.js';

/**
 * What the in-memory read indexes (consent-index.ts, event-index.ts) share: knowing whether the
 * rows they hold changed since they were built (TablesVersion), and building them again in the
 * background, a chunk at a time, so the main thread never stalls for long — or, for the events,
 * extending them with the rows added (Growth).
 *
 * An index is only an accelerator. While it is stale (a sync in its process committed, an action
 * wrote through this connection) the queries answer from SQL as before: an answer is never
 * older than the cache. Once the cache has been still for a moment the index is built again and
 * answers in a millisecond or two whatever the filter (SQL needs a table scan for most filters:
 * hundreds of milliseconds at 100,000 consents, seconds at 1,000,000 events).
 *
 * A build yields the thread between chunks of a few milliseconds each, so it starts as soon as an
 * index is wanted, even while the UI is reading: a read waits for one chunk at most. (Builds once
 * waited for a pause in the UI's reads, when a chunk could take 80–240 ms; the first searches
 * typed at start then all went to SQL.)
 */
/** Every commit's: the data browser's transaction index (transaction-index.ts) checks a signature of its consent's records when it changes. */
export class CacheVersion implements Version {
  private readonly changes;
  /** Prepared once: db.pragma() prepares its statement again at every call, and every read asks (a keystroke's, several times). */
  private readonly dataVersion;

  constructor(db: Db) {
    this.changes = db.prepare<[], number>('SELECT total_changes()').pluck();
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /** Changes with every commit: another connection's (data_version) or this one's (total_changes). */
  now(): string {
    return `${String(this.dataVersion.get())}:${String(this.changes.get())}`;
  }
}

/** What a read index compares to know whether it still matches the cache. */
export interface Version {
  now(): string;
}

/** The tables whose rows the read indexes hold, each with a mark its triggers bump (migration 16). */
export type IndexedTable = 'consents' | 'events';

/**
 * Changes only when the named tables' rows do: a new row (the table's largest rowid grows; a b-tree
 * seek) or an update or delete (the table's mark, bumped by its triggers; a consent's only when a
 * column the consent index holds changed). Every other write — an alert checked, a report made, an
 * audit entry, the sync's own state — leaves the indexes standing: with CacheVersion, any of them
 * threw both away, and a first sync's end (its summary, then the alert checks and the reports they
 * make) rebuilt them two and three times over while the console read (issue 40: the host's peak).
 */
export class TablesVersion implements Version {
  private readonly stmt;

  constructor(db: Db, tables: readonly IndexedTable[]) {
    const part = (t: IndexedTable) =>
      `(SELECT n FROM read_index_marks WHERE name = '${t}') || '.' || coalesce((SELECT max(rowid) FROM ${t}), 0)`;
    this.stmt = db.prepare<[], string>(`SELECT ${tables.map(part).join(" || ':' || ")}`).pluck();
  }

  now(): string {
    return this.stmt.get()!;
  }

  /** Each table's mark and largest rowid in a version this class wrote. */
  static parse(version: string): { mark: string; max: number }[] {
    return version.split(':').map((part) => {
      const [mark = '', max = '0'] = part.split('.');
      return { mark, max: Number(max) };
    });
  }
}

/** Whether an index built at one version can be brought to another by adding rows (Rebuilder's `growth`). */
export interface Growth {
  onlyAdded(was: string, now: string): boolean;
}

/**
 * For an index over a table whose rows are only ever added, as a rule (events): from `was` to `now`
 * that table gained rows and none changed or went (its mark is the same, its largest rowid no
 * smaller). `table`: its place in the TablesVersion's list. The other tables may have changed: an
 * extension reads again what it holds of them.
 */
export const addedTo = (table: number): Growth => ({
  onlyAdded(was, now) {
    const a = TablesVersion.parse(was)[table];
    const b = TablesVersion.parse(now)[table];
    return a !== undefined && b !== undefined && a.mark === b.mark && b.max >= a.max;
  },
});

/** While a table is growing (a sync writing events), how often an index follows it: an extension is a pass over the index. */
export const EXTEND_EVERY_MS = 1_000;

/** What a build is given: the version it builds for, and the index to extend when only rows were added since it. */
export interface BuildFrom<T> {
  version: string;
  previous?: { value: T; version: string } | undefined;
}

/** Events read per chunk while building: about 10 ms of the main thread each (20,000 took 45–130 ms). */
export const BUILD_CHUNK = 5_000;
/** How long the cache must stay unchanged before an index is rebuilt (a sync commits every second or so). */
export const SETTLE_MS = 400;
/** The longest wait for stillness, after builds one after another were overtaken by new writes (a long sync). */
export const MAX_SETTLE_MS = 3_200;

export const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Distinct values numbered in the order first met (`values[code]`), so an index stores small codes. */
export class Interner<T> {
  private readonly codes = new Map<T, number>();

  /** `values`: numbered before any other, in order (the consent index puts null at 0). */
  constructor(readonly values: T[] = []) {
    values.forEach((v, i) => this.codes.set(v, i));
  }

  code(value: T): number {
    let c = this.codes.get(value);
    if (c === undefined) {
      c = this.values.length;
      this.values.push(value);
      this.codes.set(value, c);
    }
    return c;
  }

  find(value: T): number | undefined {
    return this.codes.get(value);
  }
}

/** What a query over an in-memory read index is opened with (consent-query.ts, event-query.ts). */
export interface ReadIndexOptions {
  onIndexError?: (error: unknown) => void;
  /** The cache's other indexes' (read-index.ts): one build at a time. */
  lane?: BuildLane;
  /** false: SQL only (tests and benchmarks compare the two). */
  useIndex?: boolean;
}

/**
 * The read indexes of one cache, built one at a time. Built at once (a sync had just ended, and the
 * console read the consents and the events together), their building heaps added up: V8's heap
 * went from ~135 to ~270 MiB in a second, and the host's RSS past 500 MiB (issue 40). One after the
 * other, each is built in about the time it took when they shared the thread. (An extension of the
 * events' index takes no turn: it is short and allocates little.)
 */
export class BuildLane {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(build: () => Promise<T>): Promise<T> {
    const next = this.tail.then(build, build);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

/**
 * Keeps one index fresh: `current()` answers it only when it was built from the cache as it is now,
 * and starts a rebuild (after the cache settles) when it is not.
 */
export class Rebuilder<T> {
  private index: { value: T; version: string } | undefined;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private keeping: NodeJS.Timeout | undefined;
  private closed = false;
  /** Whether a build is wanted at all: none until the first query (command-line reads stay lean). */
  private wanted = false;
  /** The cache's version as last seen, and since when: a build waits until it has been still. */
  private seen: { version: string; since: number } | undefined;
  /**
   * How long it must have been still: doubles each time a build is overtaken by a write (during a
   * full sync, every build would be, and the main thread would do little else), back to SETTLE_MS
   * once one completes.
   */
  private settle = SETTLE_MS;

  constructor(
    private readonly version: Version,
    /**
     * Builds the index from the cache (or extends `from.previous`); returns undefined once `usable()`
     * is false (the cache changed in a way the build cannot follow). An extension may change the
     * previous index in place: a result not taken drops it, and the next build starts afresh.
     */
    private readonly build: (usable: () => boolean, from: BuildFrom<T>) => Promise<T | undefined>,
    private readonly onError: (error: unknown) => void = () => undefined,
    /** Shared with the cache's other indexes: one build at a time. */
    private readonly lane: BuildLane = new BuildLane(),
    /**
     * When rows are only added (the events), an index is extended rather than built again, at once
     * rather than once the cache is still: during a sync it follows the sync, and is current a moment
     * after the sync ends (issue 40). A build may then also finish on a cache that only grew meanwhile:
     * it holds what was there at its version, and the next extension adds the rest.
     */
    private readonly growth?: Growth,
  ) {}

  /** The index, if it matches the cache as it is now; otherwise undefined (and a rebuild is scheduled). */
  current(): T | undefined {
    this.wanted = true;
    const now = this.version.now();
    if (this.index && this.index.version === now) return this.index.value;
    this.schedule(0);
    return undefined;
  }

  /**
   * Asks for the index, to be built in `delayMs` unless a read needs it sooner (`built`), or a build
   * is already under way or scheduled. After a read that needed none: the build's slices would
   * otherwise come between the host's answers while a console opens (its scripts, its first reads).
   */
  soon(delayMs: number): void {
    this.wanted = true;
    if (this.index && this.index.version === this.version.now()) return;
    this.schedule(delayMs);
  }

  /**
   * The index if it matches the cache as it is now, without asking for one (no build is started or
   * scheduled): for reads SQL answers at once anyway (the status bar's total).
   */
  ifCurrent(): T | undefined {
    if (!this.index) return undefined;
    return this.index.version === this.version.now() ? this.index.value : undefined;
  }

  /**
   * Before a read that SQL answers with a scan: waits for the build under way, or for one that can
   * start now (the cache has been still long enough), rather than letting SQL answer meanwhile. An
   * SQL scan holds the one thread for hundreds of milliseconds at 100,000 consents, seconds at
   * 1,000,000 events, and a build yields between chunks to whatever read is waiting: after a first
   * sync, with every read going to SQL, the build advanced one chunk per scan and took minutes (a
   * console unusable meanwhile; issue 21). Waiting, the build takes the few seconds it needs while
   * reads that SQL answers at once (one consent, its events) still pass between its chunks.
   *
   * Returns at once when the index is current, or when no build can start yet (the cache changed a
   * moment ago: a sync is writing): SQL answers then. A build overtaken by a write ends at its next
   * chunk, and so does the wait.
   */
  async built(): Promise<void> {
    this.wanted = true;
    if (this.closed || this.current() !== undefined) return;
    if (!this.running) {
      // current() has scheduled the build on a timer: start it now if the cache is still (start()
      // schedules it again otherwise).
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.start();
    }
    if (this.running) await this.running;
  }

  /** Resolves once an index matching the cache exists (the benchmark waits for it; tests too). */
  async ready(): Promise<void> {
    this.wanted = true;
    for (let i = 0; i < 200 && !this.closed; i++) {
      if (this.current() !== undefined) return;
      if (this.running) await this.running;
      else await new Promise((r) => setTimeout(r, SETTLE_MS + 50));
    }
  }

  /**
   * Keeps the index current from now on, without a read asking: looks every `everyMs` whether the
   * cache changed, and builds or extends it as a read would have (a console's host, so that the
   * events' index follows a sync as it writes; issue 40).
   */
  keepCurrent(everyMs = EXTEND_EVERY_MS): void {
    this.soon(0);
    if (this.keeping || this.closed) return;
    this.keeping = setInterval(() => {
      try {
        this.soon(0);
      } catch (error) {
        this.onError(error); // the connection closed under the timer
      }
    }, everyMs);
    this.keeping.unref?.();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.keeping) clearInterval(this.keeping);
  }

  private schedule(delay: number): void {
    if (this.closed || !this.wanted || this.running || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.start();
    }, delay);
    this.timer.unref?.();
  }

  private start(): void {
    if (this.closed || this.running) return;
    let before: string;
    try {
      before = this.version.now();
    } catch (error) {
      // The connection closed under a pending timer (a test, a profile switch): nothing to build.
      this.onError(error);
      return;
    }
    if (this.index?.version === before) return;
    const previous = this.index && this.growth?.onlyAdded(this.index.version, before) ? this.index : undefined;
    if (!previous) {
      // The first version seen counts as settled (the console just opened: build at once); after a
      // change, wait until the cache has been still for a moment.
      const nowMs = Date.now();
      if (!this.seen) this.seen = { version: before, since: -Infinity };
      else if (this.seen.version !== before) this.seen = { version: before, since: nowMs };
      const still = nowMs - this.seen.since;
      if (still < this.settle) return this.schedule(this.settle - still);
    }
    const now = () => {
      try {
        return this.closed ? undefined : this.version.now();
      } catch {
        return undefined; // the connection closed
      }
    };
    // Whether the cache is as it was at `before`, or (with growth) only gained rows since.
    const usable = () => {
      const v = now();
      return v !== undefined && (v === before || (this.growth?.onlyAdded(before, v) ?? false));
    };
    // Waiting its turn, the cache may change: then no build (the next is scheduled below). An
    // extension does not wait: it allocates little, and a read after a sync waits for it.
    const build = () => (usable() ? this.build(usable, { version: before, previous }) : Promise.resolve(undefined));
    this.running = (previous ? build() : this.lane.run(build))
      .then((value) => {
        if (value !== undefined && usable()) {
          this.index = { value, version: before };
          this.settle = SETTLE_MS;
        } else if (value !== undefined && previous && this.index === previous) this.index = undefined; // extended in place, then not taken
      })
      .catch((error: unknown) => {
        if (previous && this.index === previous) this.index = undefined; // it may be half extended
        this.onError(error);
      })
      .finally(() => {
        this.running = undefined;
        const v = now();
        if (v === undefined || v === this.index?.version) return;
        // Rows were added meanwhile (a sync writing events): follow them in a moment.
        if (this.index && this.growth?.onlyAdded(this.index.version, v)) return this.schedule(EXTEND_EVERY_MS);
        // Changed while building (a sync is writing): try again once it has been still a while.
        this.settle = Math.min(this.settle * 2, MAX_SETTLE_MS);
        this.schedule(this.settle);
      });
  }
}
