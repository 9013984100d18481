import type { WebhookSummary } from '../../../shared/ipc/contract.js';
import type { Db } from './db.js';
import { dayOfInstant } from '../../../shared/time/zone.js';
import { BUILD_CHUNK, Interner, turn } from './read-index.js';
import { candidates, countPerConsent, Growing, groupByKey, stableOrderBy, STEP, summarise, TopK, type Failures } from './event-loops.js';

export { stableOrderBy };

/** A consent with webhook failures as the Webhook failures screen lists it, its latest failure in ms. */
export type ConsentFailures = Omit<WebhookSummary['byConsent'][number], 'lastAt'> & { last: number };

/**
 * Every cached event's time, type and consent, in memory, newest first (about 22 MB at 1,000,000
 * events), and for webhook failures the masked response they group under: the Events and Webhook
 * failures screens and the overview read windows, counts per type and per day, and failure groups
 * from here in a few milliseconds where SQL scans up to the whole table. Built in chunks
 * (read-index.ts decides when); event-query.ts answers from SQL while it is stale, with the same
 * semantics (a test compares the two).
 *
 * Order: `at` descending, then rowid descending — the order of the `events_by_time` index (on `at`,
 * which ends with the rowid), so SQL walks it without sorting.
 */
const NO_KEY = -1;
const NO_DETAIL = -1;

export interface EventIndexFilter {
  types?: readonly string[] | undefined;
  /** Milliseconds since the epoch: from inclusive, to exclusive. */
  fromMs?: number | undefined;
  toMs?: number | undefined;
}

/** The events' columns, newest first, in arrays that may be longer than the events: room to extend in place. */
interface Columns {
  rowids: Float64Array;
  at: Float64Array;
  type: Uint32Array;
  consent: Int32Array;
  /** For webhook failures, the code of their masked response (keys); else NO_KEY. */
  key: Int32Array;
}

const columnsOf = (capacity: number): Columns => ({
  rowids: new Float64Array(capacity),
  at: new Float64Array(capacity),
  type: new Uint32Array(capacity),
  consent: new Int32Array(capacity),
  key: new Int32Array(capacity),
});

/** What the codes stand for, kept for the next extension, which adds to them. */
interface Dictionaries {
  types: Interner<string>;
  consents: Interner<string>;
  keys: Interner<string>;
  /** The webhook failures' responses as sent (a sample of each group). */
  details: Interner<string>;
}

/**
 * Room an extension makes when the columns are full: a quarter more than the events. A sync adds a
 * page of events every second or so; merged in place, the columns are replaced once per quarter of
 * growth, not at every page (1,000,000 events are 28 MB of columns, and each replaced set waited for
 * a full garbage collection to be freed: the host's RSS rose by 100 MiB during a first sync).
 */
const ROOM = 1.25;

export class EventIndex {
  private readonly rowids: Float64Array;
  private readonly at: Float64Array;
  private readonly type: Uint32Array;
  private readonly consent: Int32Array;
  private readonly key: Int32Array;
  private readonly typeNames: string[];
  readonly consentIds: string[];
  readonly keyNames: string[];

  private constructor(
    readonly size: number,
    /** The largest rowid of the events at the version it was built for: an extension reads those after it. */
    private readonly upTo: number,
    private readonly cols: Columns,
    private readonly dict: Dictionaries,
    /** Per consent code, its data holder's name as the consent list has it (null: not cached, or none). */
    private readonly holderOf: (string | null)[],
    /** Per consent code, the consumer's e-mail (null: not cached, or none). */
    private readonly emailOf: (string | null)[],
    /**
     * The webhook failures: their positions ascending (newest first), each one's response
     * (NO_DETAIL: none), and copies of their key, consent, type and time side by side, so the
     * failure views walk 48,000 entries of small arrays instead of reaching into the 1,000,000-entry
     * ones (cold processor caches made that 25 ms).
     */
    private readonly failures: Failures,
  ) {
    ({ rowids: this.rowids, at: this.at, type: this.type, consent: this.consent, key: this.key } = cols);
    this.typeNames = dict.types.values;
    this.consentIds = dict.consents.values;
    this.keyNames = dict.keys.values;
  }

  /** The ordinals [a, b) of the failures whose positions lie in [lo, hi). */
  private failuresIn(lo: number, hi: number): [number, number] {
    const pos = this.failures.positions;
    const lowerBound = (value: number) => {
      let a = 0;
      let b = pos.length;
      while (a < b) {
        const mid = (a + b) >>> 1;
        if (pos[mid]! < value) a = mid + 1;
        else b = mid;
      }
      return a;
    };
    return [lowerBound(lo), lowerBound(hi)];
  }

  /**
   * Builds the index of the events up to rowid `upTo` (the largest at the version built for), or
   * extends `previous` with those added after it: the new rows are read and sorted, then merged into
   * the previous columns in place from their oldest end (a pass over them, ~10 ms at 1,000,000
   * events, against ~1.5 s to read them all again). `holdersChanged`: the consents changed since
   * `previous` was built, so their data holders and e-mails are read again (100,000 rows), not only
   * the new consents'.
   *
   * An extension changes the previous index's columns and dictionaries: the caller takes its result
   * or drops both (read-index.ts). Merging in place, it does not yield the thread, so a result comes
   * back whole or not at all.
   */
  static async build(
    db: Db,
    failureTypes: readonly string[],
    mask: (message: string | null) => string,
    usable: () => boolean,
    upTo: number,
    previous?: { index: EventIndex; holdersChanged: boolean },
  ): Promise<EventIndex | undefined> {
    const old = previous?.index;
    const from = old?.upTo ?? 0;
    // Read in table order (sequential pages), then order by time in memory: walking the index on
    // `at` would fetch every row's type and consent by a random lookup. No count first: counting
    // 1,000,000 rows is a scan of its own (350 ms with a cold disk). Sized at once from the rowids
    // (events are only ever added, as a rule: an update or a delete makes a new build, not an
    // extension): doubling from 64 Ki to 1 Mi events made and dropped 17 generations of six arrays,
    // up to twice the memory they end with.
    const expected = Math.max(0, upTo - from) + 1;
    const rowidsIn = new Growing((n) => new Float64Array(n), expected);
    const atIn = new Growing((n) => new Float64Array(n), expected);
    const typeIn = new Growing((n) => new Uint32Array(n), expected);
    const consentIn = new Growing((n) => new Int32Array(n), expected);
    const keyIn = new Growing((n) => new Int32Array(n), expected);
    const detailIn = new Growing((n) => new Int32Array(n), expected);
    const dict: Dictionaries = old?.dict ?? {
      types: new Interner(),
      consents: new Interner(),
      keys: new Interner(),
      details: new Interner(),
    };
    const failures = failureTypes.map((t) => `'${t.replaceAll("'", "''")}'`).join(', ') || "''";
    const chunk = db.prepare<[number, number, number], [number, number, string, string, string | null, number]>(
      `SELECT rowid, at, event_type, consent_id, CASE WHEN event_type IN (${failures}) THEN event_detail END, event_type IN (${failures})
       FROM events WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?`,
    );
    for (let last = from; ;) {
      const part = chunk.raw().all(last, upTo, BUILD_CHUNK);
      for (const [rowid, time, t, c, detail, failure] of part) {
        rowidsIn.push(rowid);
        atIn.push(time);
        typeIn.push(dict.types.code(t));
        consentIn.push(dict.consents.code(c));
        let kc = NO_KEY;
        let dc = NO_DETAIL;
        if (failure) {
          if (detail !== null) dc = dict.details.code(detail);
          kc = dict.keys.code(mask(detail));
        }
        keyIn.push(kc);
        detailIn.push(dc);
      }
      if (part.length < BUILD_CHUNK) break;
      last = part.at(-1)![0];
      await turn();
      if (!usable()) return undefined;
    }
    const pause = async () => {
      await turn();
      return usable();
    };
    // The new rows came in rowid order; a stable sort by time keeps that order among equal times:
    // (at, rowid) ascending, oldest first.
    const added = atIn.length;
    const order = await stableOrderBy(atIn.view(), pause);
    if (!order) return undefined;
    // Each consent's data holder, for collections per data holder (the compliance report), and each
    // consent's consumer e-mail, for the consents with failures: read from here, not from disk. The
    // previous index's, with the new consents', when the consents did not change.
    const ids = dict.consents.values;
    const reuse = old !== undefined && !previous!.holdersChanged;
    const holderOf = reuse ? old.holderOf : [];
    const emailOf = reuse ? old.emailOf : [];
    const known = holderOf.length;
    for (let c = known; c < ids.length; c++) {
      holderOf.push(null);
      emailOf.push(null);
    }
    const store = (id: string, name: string | null, email: string | null) => {
      const c = dict.consents.find(id);
      if (c !== undefined && c >= known) {
        holderOf[c] = name;
        emailOf[c] = email;
      }
    };
    // By their ids, when the index knows few consents beside the table (a first sync storing
    // consents before any event: each of its pages would have read every consent again), else a scan.
    const consentRows = db.prepare<[], number | null>('SELECT max(rowid) FROM consents').pluck().get() ?? 0;
    if (reuse || (ids.length - known) * 4 < consentRows) {
      const some = db.prepare<[string], [string, string | null, string | null]>(
        'SELECT consent_id, data_holder_name, consumer_email FROM consents WHERE consent_id IN (SELECT value FROM json_each(?))',
      );
      for (let i = known; i < ids.length; i += BUILD_CHUNK) {
        for (const [id, name, email] of some.raw().all(JSON.stringify(ids.slice(i, i + BUILD_CHUNK)))) store(id, name, email);
        if (i + BUILD_CHUNK < ids.length && !(await pause())) return undefined;
      }
    } else {
      const holders = db.prepare<[number, number], [number, string, string | null, string | null]>(
        'SELECT rowid, consent_id, data_holder_name, consumer_email FROM consents WHERE rowid > ? ORDER BY rowid LIMIT ?',
      );
      for (let last = 0; ;) {
        const part = holders.raw().all(last, BUILD_CHUNK);
        for (const [, id, name, email] of part) store(id, name, email);
        if (part.length < BUILD_CHUNK) break;
        last = part.at(-1)![0];
        if (!(await pause())) return undefined;
      }
    }
    if (!usable()) return undefined;
    // The columns: the previous ones when they have room (merged in place), else new ones with room
    // to grow, the previous events copied in first.
    const kept = old?.size ?? 0;
    const n = kept + added;
    const inPlace = old !== undefined && old.cols.at.length >= n;
    let cols: Columns;
    if (inPlace) cols = old.cols;
    else {
      cols = columnsOf(old ? Math.ceil(n * ROOM) : n);
      if (old) for (const k of ['rowids', 'at', 'type', 'consent', 'key'] as const) cols[k].set(old.cols[k].subarray(0, kept) as never);
    }
    const { rowids, at, type, consent, key } = cols;
    const [rowidsFrom, atFrom, typeFrom, consentFrom, keyFrom, detailFrom] = [
      rowidsIn.view(),
      atIn.view(),
      typeIn.view(),
      consentIn.view(),
      keyIn.view(),
      detailIn.view(),
    ];
    // Merged from the oldest end: position p takes the older of the previous events' oldest left
    // (a) and the new events' oldest left (order[b]). A new event has a larger rowid than any before
    // it, so at equal times the previous one is the older. p never passes below a: nothing is
    // overwritten before it is moved. The webhook failures' positions and responses are collected on
    // the way (oldest first, reversed at the end): the failure views walk these (about 5% of the
    // events) instead of every event.
    const oldDetail = old?.failures.detail;
    const failPos = new Growing((n) => new Int32Array(n), (old?.failures.positions.length ?? 0) + (added >> 3) + 1);
    const failDetail = new Growing((n) => new Int32Array(n), (old?.failures.positions.length ?? 0) + (added >> 3) + 1);
    for (let p = n - 1, a = kept - 1, b = 0, oldFailure = (oldDetail?.length ?? 0) - 1; p >= 0; p--) {
      // Into new columns (a build, or an extension out of room), the thread is yielded now and then
      // as elsewhere; in place, never: the previous index must not be left half merged.
      if (!inPlace && p % STEP === 0 && p < n - 1 && !(await pause())) return undefined;
      const src = b < added ? order[b]! : -1;
      if (a >= 0 && (src < 0 || at[a]! <= atFrom[src]!)) {
        if (p !== a) {
          rowids[p] = rowids[a]!;
          at[p] = at[a]!;
          type[p] = type[a]!;
          consent[p] = consent[a]!;
          key[p] = key[a]!;
        }
        if (key[p] !== NO_KEY) {
          failPos.push(p);
          failDetail.push(oldDetail![oldFailure--]!);
        }
        a--;
      } else {
        rowids[p] = rowidsFrom[src]!;
        at[p] = atFrom[src]!;
        type[p] = typeFrom[src]!;
        consent[p] = consentFrom[src]!;
        key[p] = keyFrom[src]!;
        if (key[p] !== NO_KEY) {
          failPos.push(p);
          failDetail.push(detailFrom[src]!);
        }
        b++;
      }
    }
    const positions = failPos.view().slice().reverse();
    return new EventIndex(n, upTo, cols, dict, holderOf, emailOf, {
      positions,
      detail: failDetail.view().slice().reverse(),
      key: Int32Array.from(positions, (p) => key[p]!),
      consent: Int32Array.from(positions, (p) => consent[p]!),
      type: Uint32Array.from(positions, (p) => type[p]!),
      at: Float64Array.from(positions, (p) => at[p]!),
      detailNames: dict.details.values,
    });
  }

  /** Positions [lo, hi) of the events in the time range (the array is newest first). */
  range(fromMs: number | undefined, toMs: number | undefined): [number, number] {
    // First position with at < toMs, and first with at < fromMs.
    const firstBelow = (limit: number) => {
      let lo = 0;
      let hi = this.size;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.at[mid]! < limit) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    };
    return [toMs === undefined ? 0 : firstBelow(toMs), fromMs === undefined ? this.size : firstBelow(fromMs)];
  }

  /** A table of the type codes the filter wants (all when it names none), or null when none can match. */
  private wanted(types: readonly string[] | undefined): Uint8Array | null {
    const want = new Uint8Array(this.typeNames.length);
    if (!types?.length) return want.fill(1);
    let any = false;
    types.forEach((t) => {
      const c = this.typeNames.indexOf(t);
      if (c >= 0) {
        want[c] = 1;
        any = true;
      }
    });
    return any ? want : null;
  }

  /** Positions of the window [offset, offset + limit), newest first. */
  window(filter: EventIndexFilter, offset: number, limit: number): number[] {
    const want = this.wanted(filter.types);
    const out: number[] = [];
    if (!want) return out;
    const [lo, hi] = this.range(filter.fromMs, filter.toMs);
    let skip = offset;
    for (let p = lo; p < hi && out.length < limit; p++) {
      if (!want[this.type[p]!]) continue;
      if (skip > 0) skip--;
      else out.push(p);
    }
    return out;
  }

  rowidAt(p: number): number {
    return this.rowids[p]!;
  }

  /** What the list shows of the event at position p that the index holds (the rest is on disk). */
  shownAt(p: number): { consentId: string; eventType: string; at: number; consumerEmail: string | null; dataHolderName: string | null } {
    const c = this.consent[p]!;
    return {
      consentId: this.consentIds[c]!,
      eventType: this.typeNames[this.type[p]!]!,
      at: this.at[p]!,
      consumerEmail: this.emailOf[c] ?? null,
      dataHolderName: this.holderOf[c] ?? null,
    };
  }

  /** Counts per type in the time range (the types filter is for the caller: chips count every type). */
  typeCounts(filter: EventIndexFilter): Map<string, number> {
    const counts = new Float64Array(this.typeNames.length);
    const [lo, hi] = this.range(filter.fromMs, filter.toMs);
    for (let p = lo; p < hi; p++) counts[this.type[p]!]!++;
    const out = new Map<string, number>();
    counts.forEach((n, c) => {
      if (n > 0) out.set(this.typeNames[c]!, n);
    });
    return out;
  }

  /** Counts per calendar day of `zone` (the machine's when absent) and type, newest day first, at most `days` days. */
  days(filter: EventIndexFilter, days: number, zone?: string): { day: string; counts: Record<string, number>; total: number }[] {
    const want = this.wanted(filter.types);
    if (!want) return [];
    const [lo, hi] = this.range(filter.fromMs, filter.toMs);
    const out: { day: string; counts: Record<string, number>; total: number }[] = [];
    let dayStart = Infinity;
    let current: { day: string; counts: Record<string, number>; total: number } | undefined;
    for (let p = lo; p < hi; p++) {
      if (!want[this.type[p]!]) continue;
      const t = this.at[p]!;
      if (t < dayStart) {
        if (out.length >= days) break;
        // The midnight starting this event's day in the zone (daylight saving as its rules say).
        const { day, start } = dayOfInstant(t, zone ?? null);
        dayStart = start;
        current = { day, counts: {}, total: 0 };
        out.push(current);
      }
      const name = this.typeNames[this.type[p]!]!;
      current!.counts[name] = (current!.counts[name] ?? 0) + 1;
      current!.total++;
    }
    return out;
  }

  /**
   * Webhook failures in the range grouped by masked response (oldest first within the range, as the
   * SQL reads them): count, consents, first and last time, types, and the latest one's response.
   */
  failureGroups(filter: EventIndexFilter): {
    key: string;
    count: number;
    consents: number;
    first: number;
    last: number;
    sample: string | null;
    types: string[];
  }[] {
    const [a, end] = this.failuresIn(...this.range(filter.fromMs, filter.toMs));
    const b = Math.max(a, end); // an empty range may come back inverted
    const { detail, detailNames } = this.failures;
    const f = this.failures;
    // Each group's failures side by side, so one stamp per consent and per type counts the distinct
    // ones of a group: no Set per group (48,000 failures at 1M events).
    const { keys, sizes, byGroup } = groupByKey(f.key, a, b, this.keyNames.length);
    const consentStamp = this.scratch().stamp;
    const typeStamp = new Int32Array(this.typeNames.length);
    const out = [];
    for (let g = 0, from = 0; g < keys.length; from += sizes[g]!, g++) {
      const s = summarise(f, byGroup, from, from + sizes[g]!, consentStamp, this.nextStamp(), typeStamp, g + 1);
      out.push({
        key: this.keyNames[keys[g]!]!,
        count: sizes[g]!,
        consents: s.consents,
        first: s.first,
        last: s.last,
        sample: detail[s.latest] === NO_DETAIL ? null : detailNames[detail[s.latest]!]!,
        types: s.types.map((t) => this.typeNames[t]!).sort(),
      });
    }
    return out;
  }

  /** Events of one type in the range per data holder name (null: the consent is not cached). */
  perHolder(type: string, filter: EventIndexFilter): Map<string | null, number> {
    const out = new Map<string | null, number>();
    const code = this.typeNames.indexOf(type);
    if (code < 0) return out;
    const [lo, hi] = this.range(filter.fromMs, filter.toMs);
    const perConsent = new Uint32Array(this.consentIds.length);
    for (let p = lo; p < hi; p++) if (this.type[p] === code) perConsent[this.consent[p]!]!++;
    perConsent.forEach((n, c) => {
      if (n > 0) out.set(this.holderOf[c]!, (out.get(this.holderOf[c]!) ?? 0) + n);
    });
    return out;
  }

  /** Failures per consent in the range, in typed arrays indexed by consent code. */
  private perConsent(filter: EventIndexFilter, maxRetriesType: string) {
    const [a, b] = this.failuresIn(...this.range(filter.fromMs, filter.toMs));
    const maxCode = this.typeNames.indexOf(maxRetriesType);
    // Shared arrays, all zero between calls (failuresByConsent clears what it used).
    const { failures, maxRetries, last } = this.scratch();
    const codes = countPerConsent(this.failures, a, b, maxCode, failures, maxRetries, last);
    return { failures, maxRetries, last, codes };
  }

  /** How many consents have a webhook failure in the range. */
  /** The consents with at least one webhook failure in the range, each once (the consent list's filter by failures). */
  consentIdsWithFailures(filter: EventIndexFilter): string[] {
    const [a, b] = this.failuresIn(...this.range(filter.fromMs, filter.toMs));
    const seen = this.scratch().stamp;
    const stamp = this.nextStamp();
    const out: string[] = [];
    for (let i = a; i < b; i++) {
      const c = this.failures.consent[i]!;
      if (seen[c] !== stamp) {
        seen[c] = stamp;
        out.push(this.consentIds[c]!);
      }
    }
    return out;
  }

  consentsWithFailures(filter: EventIndexFilter): number {
    const [a, b] = this.failuresIn(...this.range(filter.fromMs, filter.toMs));
    const seen = this.scratch().stamp;
    const stamp = this.nextStamp();
    let n = 0;
    for (let i = a; i < b; i++) {
      const c = this.failures.consent[i]!;
      if (seen[c] !== stamp) {
        seen[c] = stamp;
        n++;
      }
    }
    return n;
  }

  /**
   * The first `limit` consents with failures in the range, those that reached the retry maximum
   * first, then by failures, then the latest failure, then consent id: a bounded selection (a heap
   * of `limit`), not a sort of every consent.
   */
  failuresByConsent(filter: EventIndexFilter, maxRetriesType: string, limit: number): ConsentFailures[] {
    const { failures, maxRetries, last, codes } = this.perConsent(filter, maxRetriesType);
    const ids = this.consentIds;
    // Negative: a comes first in the answer.
    const before = (a: number, b: number) =>
      Number(maxRetries[b]! > 0) - Number(maxRetries[a]! > 0) ||
      failures[b]! - failures[a]! ||
      last[b]! - last[a]! ||
      (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0);
    const top = new TopK(limit, before);
    for (const c of candidates(codes, failures, maxRetries, limit)) top.offer(c);
    const out = top.sorted().map((c) => ({
      consentId: ids[c]!,
      consumerEmail: this.emailOf[c]!,
      dataHolderName: this.holderOf[c]!,
      failures: failures[c]!,
      maxRetries: maxRetries[c]!,
      last: last[c]!,
    }));
    // Cleared for the next view: whole arrays natively when many consents were touched.
    if (codes.length > failures.length >> 4) {
      failures.fill(0);
      maxRetries.fill(0);
      last.fill(0);
    } else for (const c of codes) failures[c] = maxRetries[c] = last[c] = 0;
    return out;
  }

  /**
   * Per-consent arrays the failure views share (each view runs to its end before another starts):
   * 2 MB at 100,000 consents, allocated once instead of at every call.
   */
  private shared: { stamp: Int32Array; lastStamp: number; failures: Uint32Array; maxRetries: Uint32Array; last: Float64Array } | undefined;
  private scratch() {
    const n = this.consentIds.length;
    return (this.shared ??= {
      stamp: new Int32Array(n),
      lastStamp: 0,
      failures: new Uint32Array(n),
      maxRetries: new Uint32Array(n),
      last: new Float64Array(n),
    });
  }

  /** A stamp no entry of the shared stamp array holds yet. */
  private nextStamp(): number {
    const s = this.scratch();
    if (s.lastStamp === 0x7fffffff) {
      s.stamp.fill(0);
      s.lastStamp = 0;
    }
    return ++s.lastStamp;
  }
}
