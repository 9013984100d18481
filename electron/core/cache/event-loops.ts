/** The webhook failures of the events index: positions newest first, and what each failure is. */
export interface Failures {
  positions: Int32Array;
  detail: Int32Array;
  detailNames: string[];
  key: Int32Array;
  consent: Int32Array;
  type: Uint32Array;
  at: Float64Array;
}

/*
 * The events index's loops (event-index.ts): the failure views', the radix sort, the growing
 * arrays of the build. The failure views' loops are each in a function of its own: V8 compiles a
 * long loop while it runs (on-stack replacement), and a loop alone in its function leaves no code
 * after it that has never run, where the compiled code would be thrown away again. At 1M events
 * the grouping's second call took 3.6 ms with its loops inline, 1.0 ms like this (0.7 once warm).
 */

/**
 * Failures a..b grouped by key: groups numbered as first met, oldest first (positions run newest
 * first), and each group's failures side by side in their order (a counting sort).
 */
export function groupByKey(key: Int32Array, a: number, b: number, keyCount: number) {
  const groupOfKey = new Int32Array(keyCount).fill(-1);
  const keys: number[] = [];
  const sizes: number[] = [];
  const groupAt = new Int32Array(b - a);
  for (let i = b - 1; i >= a; i--) {
    const k = key[i]!;
    let g = groupOfKey[k]!;
    if (g < 0) {
      g = groupOfKey[k] = keys.length;
      keys.push(k);
      sizes.push(0);
    }
    groupAt[i - a] = g;
    sizes[g]!++;
  }
  return { keys, sizes, byGroup: inGroupOrder(groupAt, a, sizes) };
}

/** The failures' indexes ordered by group, in their order within each group. */
function inGroupOrder(groupAt: Int32Array, a: number, sizes: number[]): Int32Array {
  const next = new Int32Array(sizes.length);
  for (let g = 1; g < sizes.length; g++) next[g] = next[g - 1]! + sizes[g - 1]!;
  const byGroup = new Int32Array(groupAt.length);
  for (let j = groupAt.length - 1; j >= 0; j--) byGroup[next[groupAt[j]!]!++] = j + a;
  return byGroup;
}

/**
 * One group's failures (byGroup[from..to]): distinct consents (by a stamp per consent), first and
 * last time, the one stored last among the latest (the sample, as in SQL), and the type codes met.
 */
export function summarise(
  f: Failures,
  byGroup: Int32Array,
  from: number,
  to: number,
  consentStamp: Int32Array,
  stamp: number,
  typeStamp: Int32Array,
  typeMark: number,
) {
  let consents = 0;
  const types: number[] = [];
  let first = Infinity;
  let last = -Infinity;
  let latest = -1;
  for (let j = from; j < to; j++) {
    const i = byGroup[j]!;
    const c = f.consent[i]!;
    if (consentStamp[c] !== stamp) {
      consentStamp[c] = stamp;
      consents++;
    }
    const type = f.type[i]!;
    if (typeStamp[type] !== typeMark) {
      typeStamp[type] = typeMark;
      types.push(type);
    }
    const t = f.at[i]!;
    if (t < first) first = t;
    if (t >= last) {
      last = t;
      latest = i;
    }
  }
  return { consents, first, last, latest, types };
}

/** Failures a..b per consent (count, those of type maxCode, latest time); the consents met, newest first. */
export function countPerConsent(
  f: Failures,
  a: number,
  b: number,
  maxCode: number,
  failures: Uint32Array,
  maxRetries: Uint32Array,
  last: Float64Array,
): number[] {
  const codes: number[] = [];
  for (let i = a; i < b; i++) {
    const c = f.consent[i]!;
    // Newest first: the first failure met is the consent's latest.
    if (failures[c] === 0) {
      codes.push(c);
      last[c] = f.at[i]!;
    }
    failures[c]!++;
    if (f.type[i] === maxCode) maxRetries[c]!++;
  }
  return codes;
}

/**
 * The consents that can be among the first `limit` by failures (those that reached the maximum
 * first, then by failures): buckets by those two keys (one bucket above CAPPED failures) find the
 * lowest bucket the answer reaches, and every consent below it has `limit` ahead of it. At 100,000
 * consents, 30,000 of them with failures, some hundreds are left for the full order.
 */
export function candidates(codes: number[], failures: Uint32Array, maxRetries: Uint32Array, limit: number): number[] {
  const CAPPED = 1024;
  const counts = new Uint32Array(2 * (CAPPED + 1));
  const bucket = new Uint16Array(codes.length);
  for (let j = 0; j < codes.length; j++) {
    const c = codes[j]!;
    const b = (maxRetries[c]! > 0 ? CAPPED + 1 : 0) + Math.min(failures[c]!, CAPPED);
    bucket[j] = b;
    counts[b]!++;
  }
  let lowest = counts.length - 1;
  for (let taken = counts[lowest]!; taken < limit && lowest > 0;) taken += counts[--lowest]!;
  const out: number[] = [];
  for (let j = 0; j < codes.length; j++) if (bucket[j]! >= lowest) out.push(codes[j]!);
  return out;
}

/** The first k items by an order (`before(a, b) < 0`: a first), kept in a heap whose root is the last of them. */
export class TopK {
  private readonly heap: number[] = [];
  constructor(
    private readonly k: number,
    private readonly before: (a: number, b: number) => number,
  ) {}

  offer(item: number): void {
    const h = this.heap;
    if (h.length < this.k) {
      h.push(item);
      let i = h.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (this.before(h[parent]!, h[i]!) >= 0) break;
        [h[parent], h[i]] = [h[i]!, h[parent]!];
        i = parent;
      }
      return;
    }
    if (this.k === 0 || this.before(item, h[0]!) >= 0) return;
    h[0] = item;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && this.before(h[l]!, h[worst]!) > 0) worst = l;
      if (r < h.length && this.before(h[r]!, h[worst]!) > 0) worst = r;
      if (worst === i) break;
      [h[worst], h[i]] = [h[i]!, h[worst]!];
      i = worst;
    }
  }

  sorted(): number[] {
    return [...this.heap].sort(this.before);
  }
}

/**
 * The positions of `keys` (whole numbers, milliseconds) in ascending order, equal keys in their
 * original order: a least-significant-digit radix sort, a few linear passes (tens of milliseconds
 * for a million keys, where a comparison sort takes half a second).
 */
export async function stableOrderBy(
  keys: Float64Array,
  /** Between steps: yields the thread; false abandons the sort. */
  pause: () => Promise<boolean> = async () => true,
  step = STEP,
): Promise<Uint32Array | undefined> {
  const n = keys.length;
  let order = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  if (n < 2) return order;
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < n; k++) {
    const v = keys[k]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const BITS = 16;
  const RADIX = 2 ** BITS;
  let next = new Uint32Array(n);
  const counts = new Uint32Array(RADIX);
  for (let shift = 1; (max - min) / shift >= 1; shift *= RADIX) {
    counts.fill(0);
    for (let k = 0; k < n; k++) counts[Math.floor((keys[order[k]!]! - min) / shift) % RADIX]!++;
    if (!(await pause())) return undefined;
    let sum = 0;
    for (let d = 0; d < RADIX; d++) {
      const c = counts[d]!;
      counts[d] = sum;
      sum += c;
    }
    // In steps, with a pause between them; the order within the pass is the same, so it stays stable.
    for (let from = 0; from < n; from += step) {
      const to = Math.min(n, from + step);
      for (let k = from; k < to; k++) {
        const src = order[k]!;
        next[counts[Math.floor((keys[src]! - min) / shift) % RADIX]!++] = src;
      }
      if (!(await pause())) return undefined;
    }
    [order, next] = [next, order];
  }
  return order;
}

/** Elements per step of the in-memory passes over every event (a few milliseconds each). */
export const STEP = 100_000;

/** A typed array that grows as rows are read (the build does not count them first). */
export class Growing<A extends Float64Array | Int32Array | Uint32Array> {
  private array: A;
  length = 0;
  /** `capacity`: how many values are expected (the array doubles past it). */
  constructor(
    private readonly make: (n: number) => A,
    capacity = 1 << 16,
  ) {
    this.array = make(Math.max(1, capacity));
  }
  push(value: number): void {
    if (this.length === this.array.length) {
      const bigger = this.make(this.array.length * 2);
      bigger.set(this.array);
      this.array = bigger;
    }
    this.array[this.length++] = value;
  }
  /** The values pushed (a view: valid until the next push). */
  view(): A {
    return this.array.subarray(0, this.length) as A;
  }
}
