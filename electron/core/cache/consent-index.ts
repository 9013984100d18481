import type {
  ConsentCountOutput,
  ConsentRow,
  ConsentFilter,
  ConsentOptionsOutput,
  ConsentSort,
  ConsentSortField,
} from '../../../shared/ipc/contract.js';
import { anywhereText } from '../../../shared/consents/search.js';
import { filterParts, type ConsentField } from '../consents/filter.js';
import type { Db } from './db.js';
import { byCountThenStatus, OptionCounts } from '../consents/option-counts.js';
import { Growing } from './event-loops.js';
import { Interner, turn } from './read-index.js';

/**
 * The consent list's filter columns of every cached consent, in memory, as small typed arrays
 * (about 6 MB at 100,000 consents), so that any filter, count with status facets, and window of
 * any sort is answered in a millisecond or two, cold or warm — SQL needs a table scan for most of
 * them. Built from the cache in chunks (consent-query.ts decides when it may be used; read-index.ts
 * when it is rebuilt). The semantics are exactly those of the SQL in consent-query.ts, which
 * answers while the index is stale; a test compares the two on many filters and sorts.
 *
 * Sort orders come from SQL itself (the same collations, NULLs last), read once per field on first
 * use and kept with the index; the newest-first order the list opens with is read with the index.
 *
 * Why over 500 lines: one data structure. The arrays, the sort orders and the window, count and
 * facet operations over them share invariants (codes, slices, NONE, the order of equal keys) that a
 * split would have to expose; the helpers that stand alone are at the end, and the facet counting
 * both stores share (OptionCounts) is in consents/option-counts.ts.
 */
const NONE = 0;

/** Values coded for the index, NULL as NONE. */
class Dictionary extends Interner<string | null> {
  constructor() {
    super([null]);
  }
}

/** One row of the build's read: rowid, id, the coded columns, then the three dates. */
type RawRow = [
  rowid: number,
  id: string,
  status: string | null,
  holder: string | null,
  holderName: string | null,
  useCase: string | null,
  useCaseName: string | null,
  freq: string | null,
  action: string | null,
  dm: number | null,
  firstCollection: string | null,
  created: string | null,
  sharingEnd: string | null,
  revoked: string | null,
  email: string | null,
  mobile: string | null,
  consumerId: string | null,
  externalId: string | null,
  arrangementId: string | null,
  version: number | null,
];

/**
 * The list's other columns, shown but not filtered on: kept so that a window of rows is answered
 * from memory too (about 40 MB more at 100,000 consents). Read from disk, a window of 100 rows took
 * about 100 random page reads: 10–27 ms with a cold disk.
 */
interface Shown {
  email: (string | null)[];
  mobile: (string | null)[];
  consumerId: (string | null)[];
  externalId: (string | null)[];
  arrangementId: (string | null)[];
  firstCollection: (string | null)[];
  version: (number | null)[];
}

/** A sort field's column as ORDER BY names it (with its collation), as consent-query.ts writes it. */
export type SortColumn = (field: ConsentSortField) => string;

/**
 * Sort fields whose column has an index on (column, consent_id): their order is read along the
 * index, a slice at a time, with no sort. The others are sorted by SQL once, on first use.
 */
export const INDEXED: ReadonlySet<ConsentSortField> = new Set([
  'created',
  'sharingEndDate',
  'revoked',
  'status',
  'consumerEmail',
  'dataHolderName',
  'useCaseName',
]);

/** Rows read per slice while building: a few milliseconds of the main thread each (20,000 took 80–240 ms at 100k). */
export const SLICE = 2_000;

/** Consents per chunk of the text searched anywhere (Haystack): 2^HAY_SHIFT. */
const HAY_SHIFT = 12;

type Order = { asc: Int32Array; nonNull: number };

/**
 * The first characters of the words in a consent's searched text, as the full-text index
 * (consents_fts: unicode61, tokenchars '@.-_|+', migrations.ts) splits it: a bit per letter a–z in
 * `letters`, per digit in `digits`. A one-character search ("b", the first keystroke of a word) is
 * the full-text query "b"*, every consent with a word starting with b: at 100,000 consents tens of
 * thousands of rowids, 5–20 ms of SQLite and of handing them over; the bits answer it in a pass over
 * typed arrays. Only for text in ASCII, where the tokenizer is simple (letters and digits, folded to
 * lower case, and those five marks make words; anything else splits them): text with any other
 * character leaves the search to SQL.
 */
class Firsts {
  letters = 0;
  digits = 0;
  /** Whether some text was not ASCII. */
  other = false;
  private readonly named = new Map<string, Firsts>();

  reset(): void {
    this.letters = 0;
    this.digits = 0;
    this.other = false;
  }

  add(text: string | null): void {
    if (text === null) return;
    let inWord = false;
    for (let k = 0; k < text.length; k++) {
      const c = text.charCodeAt(k);
      if (c > 127) {
        this.other = true;
        return;
      }
      const lower = c >= 65 && c <= 90 ? c + 32 : c;
      const letter = lower >= 97 && lower <= 122;
      const digit = c >= 48 && c <= 57;
      // @ . - _ | +
      const word = letter || digit || c === 64 || c === 46 || c === 45 || c === 95 || c === 124 || c === 43;
      if (word && !inWord) {
        if (letter) this.letters |= 1 << (lower - 97);
        else if (digit) this.digits |= 1 << (c - 48);
      }
      inWord = word;
    }
  }

  /** As add, for the few names many consents share (data holders, use cases): worked out once each. */
  addNamed(text: string | null): void {
    if (text === null) return;
    let bits = this.named.get(text);
    if (!bits) {
      bits = new Firsts();
      bits.add(text);
      this.named.set(text, bits);
    }
    this.letters |= bits.letters;
    this.digits |= bits.digits;
    this.other ||= bits.other;
  }
}

/** A search word the first-character bits answer: one letter or digit (the full-text query "x"*). */
export const oneCharacter = (term: string) => /^[a-z0-9]$/i.test(term);

/**
 * The identifying fields of every consent as the search looks in them anywhere (anywhereText), in
 * chunks of 2^shift consecutive positions: each chunk one string of its consents' texts, each
 * ended by a NUL. About 18 MB at 100,000 consents (a one-byte string per chunk, unless a text in
 * it is not Latin-1), built with the index.
 */
class Haystack {
  constructor(
    private readonly chunks: readonly { text: string; starts: Int32Array }[],
    private readonly shift: number,
  ) {}

  get chunkCount(): number {
    return this.chunks.length;
  }

  /**
   * Where a folded form occurs (Found). `from`: where a form this one holds occurs (`at`
   * characters into this one): this one can only start `at` before those places, so each is
   * checked there instead of the whole text searched again. Typing a word letter by letter, each
   * form is the last and one more character: that character is compared with the ones kept after
   * each place, read in order, not in the text (each place a random read of 18 MB at 100,000
   * consents). "example.com", in every consent: a scan of 18 MB at its third letter (100,000
   * places), then a compare of one byte per place and keystroke.
   */
  find(form: string, from?: { found: Found; form: string; at: number }): Found {
    // A NUL ends each consent's text: a form holding one would match across two consents.
    if (!form || form.includes('\0')) return new PlacesBuilder().done();
    if (!from) {
      const out = new PlacesBuilder();
      for (let c = 0; c < this.chunks.length; c++) this.scanChunk(form, c, out);
      return out.done();
    }
    const more = form.length - from.form.length;
    return from.at === 0 && from.found.used + more <= AHEAD ? extend(form, from.found, more, this.chunks) : this.narrow(form, from);
  }

  /** Adds the places of a form in one chunk (find's scan, a chunk at a time). */
  scanChunk(form: string, c: number, out: PlacesBuilder): void {
    const { text, starts } = this.chunks[c]!;
    let k = 0;
    for (let p = text.indexOf(form); p >= 0; p = text.indexOf(form, p + 1)) {
      while (starts[k + 1]! <= p) k++;
      out.add(c, p, (c << this.shift) + k, text, p + form.length);
    }
  }

  /** Checks each place in the text (the characters before and after the form held). */
  private narrow(form: string, { found, form: held, at }: { found: Found; form: string; at: number }): Found {
    const out = new PlacesBuilder(found.rows.length);
    const after = at + held.length;
    const { chunks, places, positions } = found.base;
    for (const row of found.rows) {
      const c = chunks[row]!;
      const { text } = this.chunks[c]!;
      // Before its consent's text: the NUL ending the one before, in no form, fails the compare.
      const p = places[row]! - at;
      if (p < 0) continue;
      const position = positions[row]!;
      let same = true;
      for (let j = 0; j < at && same; j++) same = text.charCodeAt(p + j) === form.charCodeAt(j);
      for (let j = after; j < form.length && same; j++) same = text.charCodeAt(p + j) === form.charCodeAt(j);
      if (same) out.add(c, p, position, text, p + form.length);
    }
    return out.done();
  }
}

/** Characters kept after each place a form occurs (Haystack.find). */
const AHEAD = 8;
/**
 * The places the recent forms may hold together (ConsentIndex.hold), 24 bytes each (24 MB at most):
 * a common pair of characters ("-4", in every id) is found ~300,000 times at 100,000 consents.
 */
const HELD_PLACES = 1_000_000;
/** In the characters kept: one that is not Latin-1 (or is ÿ), to be read in the text. */
const NOT_LATIN1 = 255;

/**
 * Where a form occurs in the Haystack. `base`: places found by reading the text, each with its
 * chunk, its offset in the chunk's text, the consent's position (ascending) and the AHEAD
 * characters after the form then read; `rows`: the base's places this form occurs at (all of them,
 * or those a longer form kept); `used`: how many of the characters kept this form has taken.
 */
type Found = {
  base: { chunks: Int32Array; places: Int32Array; positions: Int32Array; ahead: Uint8Array };
  rows: Int32Array;
  used: number;
};

/** The form held and `more` characters: compared with the characters kept after each place. */
function extend(form: string, found: Found, more: number, texts: readonly { text: string }[]): Found {
  const { base, rows, used } = found;
  const { ahead } = base;
  const kept = new Int32Array(rows.length);
  let n = 0;
  const tail = form.length - more;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    let same = true;
    for (let j = 0; j < more && same; j++) {
      const want = form.charCodeAt(tail + j);
      const have = ahead[row * AHEAD + used + j]!;
      // NOT_LATIN1: a character the bytes cannot hold; the text says.
      same = have === NOT_LATIN1 ? texts[base.chunks[row]!]!.text.charCodeAt(base.places[row]! + tail + j) === want : have === want;
    }
    if (same) kept[n++] = row;
  }
  return { base, rows: kept.slice(0, n), used: used + more };
}

/** A Found read from the text a place at a time, its arrays grown as needed. */
class PlacesBuilder {
  private n = 0;
  private chunks: Int32Array;
  private places: Int32Array;
  private positions: Int32Array;
  private ahead: Uint8Array;

  constructor(capacity = 1024) {
    this.chunks = new Int32Array(capacity);
    this.places = new Int32Array(capacity);
    this.positions = new Int32Array(capacity);
    this.ahead = new Uint8Array(capacity * AHEAD);
  }

  /** A place, with the AHEAD characters of `text` from `next` (read while the text is near in memory). */
  add(chunk: number, place: number, position: number, text: string, next: number): void {
    if (this.n === this.places.length) this.grow();
    const i = this.n++;
    this.chunks[i] = chunk;
    this.places[i] = place;
    this.positions[i] = position;
    for (let j = 0; j < AHEAD; j++) {
      const code = text.charCodeAt(next + j);
      // Past the end of the text: NaN, kept as 0 (a NUL, never in a form).
      this.ahead[i * AHEAD + j] = code < NOT_LATIN1 ? code : code >= NOT_LATIN1 ? NOT_LATIN1 : 0;
    }
  }

  private grow(): void {
    const size = this.places.length * 2;
    const grown = <T extends Int32Array | Uint8Array>(a: T, n: number): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    this.chunks = grown(this.chunks, size);
    this.places = grown(this.places, size);
    this.positions = grown(this.positions, size);
    this.ahead = grown(this.ahead, size * AHEAD);
  }

  done(): Found {
    const n = this.n;
    const rows = new Int32Array(n);
    for (let i = 0; i < n; i++) rows[i] = i;
    const base = {
      chunks: this.chunks.slice(0, n),
      places: this.places.slice(0, n),
      positions: this.positions.slice(0, n),
      ahead: this.ahead.slice(0, n * AHEAD),
    };
    return { base, rows, used: 0 };
  }
}

class HaystackBuilder {
  constructor(private readonly shift: number) {}
  private readonly chunks: { text: string; starts: Int32Array }[] = [];
  private parts: string[] = [];
  private starts: number[] = [];
  private at = 0;

  add(text: string): void {
    this.starts.push(this.at);
    this.parts.push(text, '\0');
    this.at += text.length + 1;
    if (this.starts.length === 1 << this.shift) this.flush();
  }

  private flush(): void {
    if (!this.starts.length) return;
    this.chunks.push({ text: this.parts.join(''), starts: Int32Array.from([...this.starts, this.at]) });
    this.parts = [];
    this.starts = [];
    this.at = 0;
  }

  done(): Haystack {
    this.flush();
    return new Haystack(this.chunks, this.shift);
  }
}

export class ConsentIndex {
  private constructor(
    private readonly db: Db,
    private readonly columnOf: SortColumn,
    readonly size: number,
    /** Ascending (the build reads in rowid order), so a rowid's position is a binary search. */
    private readonly rowids: Float64Array,
    readonly ids: string[],
    private readonly status: Uint32Array,
    private readonly holder: Uint32Array,
    private readonly holderName: Uint32Array,
    private readonly useCase: Uint32Array,
    private readonly useCaseName: Uint32Array,
    private readonly freq: Uint32Array,
    private readonly action: Uint32Array,
    /** 0 null, 1 false, 2 true. */
    private readonly dm: Uint8Array,
    private readonly collected: Uint8Array,
    private readonly created: (string | null)[],
    private readonly sharingEnd: (string | null)[],
    private readonly revoked: (string | null)[],
    private readonly dicts: Record<'status' | 'holder' | 'holderName' | 'useCase' | 'useCaseName' | 'freq' | 'action', Dictionary>,
    private readonly shown: Shown,
    /** The first characters of each consent's words (Firsts), or null when some text is not ASCII. */
    private readonly firsts: { letters: Uint32Array; digits: Uint16Array } | null,
    /** The identifying fields as the search looks in them anywhere (Haystack). */
    private readonly hay: Haystack,
  ) {}

  /**
   * Reads the cache a slice at a time, yielding the main thread between slices (the UI's reads go
   * first), then the newest-first order the list opens with. Undefined when the cache changed meanwhile.
   */
  static async build(
    db: Db,
    columnOf: SortColumn,
    stillCurrent: () => boolean,
    /**
     * Rows per slice (tests make it small, to cross many slice boundaries; the text searched
     * anywhere is then cut in chunks as small, so that finding a form ahead takes many steps).
     */
    slice = SLICE,
  ): Promise<ConsentIndex | undefined> {
    const rows = db
      .prepare<[number, number], RawRow>(
        `SELECT rowid, consent_id, status, data_holder_brand_id, data_holder_name, use_case_id, use_case_name,
           access_frequency, post_usage_action, direct_marketing, first_data_collection, created,
           sharing_end_date, revoked, consumer_email, consumer_mobile, consumer_id, external_id, cdr_arrangement_id, version
         FROM consents WHERE rowid > ? ORDER BY rowid LIMIT ?`,
      )
      .raw();
    const dicts = {
      status: new Dictionary(),
      holder: new Dictionary(),
      holderName: new Dictionary(),
      useCase: new Dictionary(),
      useCaseName: new Dictionary(),
      freq: new Dictionary(),
      action: new Dictionary(),
    };
    // The numbers straight into typed arrays sized at once for the consents there are (the largest
    // rowid, from the table's b-tree: consents are never deleted), not JavaScript arrays doubling as
    // they grow and copied at the end: at 100,000 consents those were ~25 MiB of intermediate
    // arrays that outlived the young generation and waited in the old one (the host's peak).
    const expected = (db.prepare<[], number | null>('SELECT max(rowid) FROM consents').pluck().get() ?? 0) + 1;
    const u32 = () => new Growing((n) => new Uint32Array(n), expected);
    const rowids = new Growing((n) => new Float64Array(n), expected);
    const ids: string[] = [];
    const status = u32();
    const holder = u32();
    const holderName = u32();
    const useCase = u32();
    const useCaseName = u32();
    const freq = u32();
    const action = u32();
    const dm = u32();
    const collected = u32();
    const created: (string | null)[] = [];
    const sharingEnd: (string | null)[] = [];
    const revoked: (string | null)[] = [];
    const shown: Shown = { email: [], mobile: [], consumerId: [], externalId: [], arrangementId: [], firstCollection: [], version: [] };
    // The searched columns (consents_fts): consent_id, cdr_arrangement_id, consumer_id, consumer_email,
    // consumer_mobile, external_id, data_holder_name, use_case_name.
    const hay = new HaystackBuilder(slice >= SLICE ? HAY_SHIFT : Math.max(2, Math.floor(Math.log2(slice))));
    const firsts = new Firsts();
    const letters = u32();
    const digits = u32();
    let ascii = true;
    for (let last = 0; ;) {
      const part = rows.all(last, slice);
      for (const r of part) {
        rowids.push(r[0]);
        ids.push(r[1]);
        status.push(dicts.status.code(r[2]));
        holder.push(dicts.holder.code(r[3]));
        holderName.push(dicts.holderName.code(r[4]));
        useCase.push(dicts.useCase.code(r[5]));
        useCaseName.push(dicts.useCaseName.code(r[6]));
        freq.push(dicts.freq.code(r[7]));
        action.push(dicts.action.code(r[8]));
        dm.push(r[9] === null ? 0 : r[9] ? 2 : 1);
        collected.push(r[10] !== null ? 1 : 0);
        created.push(r[11]);
        sharingEnd.push(r[12]);
        revoked.push(r[13]);
        shown.email.push(r[14]);
        shown.mobile.push(r[15]);
        shown.consumerId.push(r[16]);
        shown.externalId.push(r[17]);
        shown.arrangementId.push(r[18]);
        shown.firstCollection.push(r[10]);
        shown.version.push(r[19]);
        hay.add(anywhereText([r[1], r[18], r[16], r[14], r[15], r[17], r[4]]));
        if (ascii) {
          firsts.reset();
          firsts.add(r[1]);
          firsts.add(r[18]);
          firsts.add(r[16]);
          firsts.add(r[14]);
          firsts.add(r[15]);
          firsts.add(r[17]);
          firsts.addNamed(r[4]);
          firsts.addNamed(r[6]);
          if (firsts.other) ascii = false;
          letters.push(firsts.letters);
          digits.push(firsts.digits);
        }
      }
      if (part.length < slice) break;
      last = part.at(-1)![0];
      await turn();
      if (!stillCurrent()) return undefined;
    }
    const index = new ConsentIndex(
      db,
      columnOf,
      ids.length,
      rowids.view().slice(),
      ids,
      status.view().slice(),
      holder.view().slice(),
      holderName.view().slice(),
      useCase.view().slice(),
      useCaseName.view().slice(),
      freq.view().slice(),
      action.view().slice(),
      Uint8Array.from(dm.view()),
      Uint8Array.from(collected.view()),
      created,
      sharingEnd,
      revoked,
      dicts,
      shown,
      ascii ? { letters: letters.view().slice(), digits: Uint16Array.from(digits.view()) } : null,
      hay.done(),
    );
    // The list opens sorted by created, newest first: have that order ready.
    const order = await index.readOrder('created', stillCurrent, slice);
    if (!order) return undefined;
    index.orders.set('created', order);
    return index;
  }

  /** The recent folded forms (the words being typed) with where each occurs and, once asked, the consents holding it; a few kept. */
  private readonly holding = new Map<string, { found: Found; hits?: Uint8Array }>();
  /** A form being found ahead of need (foresee), a chunk of the text at a time. */
  private foreseen: { form: string; out: PlacesBuilder; next: number } | undefined;

  /**
   * The positions of the consents whose identifying fields hold, for every word, one of its folded
   * forms (shared/consents/search.ts): a byte per position, 1 for a match.
   */
  anywhereHits(words: readonly (readonly string[])[]): Uint8Array {
    let hits: Uint8Array | undefined;
    for (const forms of words) {
      const found = forms.length === 1 ? new Uint8Array(this.holdingOf(forms[0]!)) : new Uint8Array(this.size);
      if (forms.length > 1)
        for (const form of forms) {
          const holding = this.holdingOf(form);
          for (let i = 0; i < found.length; i++) found[i]! |= holding[i]!;
        }
      if (hits) for (let i = 0; i < hits.length; i++) hits[i]! &= found[i]!;
      else hits = found;
    }
    return hits ?? new Uint8Array(this.size);
  }

  /**
   * Begins finding a folded form in the background, a chunk of the text at a time between other
   * work (setImmediate): the two characters of a word being typed, which its third makes a word
   * searched anywhere. That keystroke then narrows the places found (Haystack.find) instead of
   * scanning the whole text (at 100,000 consents, 25–30 ms of the host's thread on two cores, the
   * slowest keystroke of a word). A search that needs it meanwhile finishes it at once.
   */
  foresee(form: string): void {
    if (!form || this.holding.has(form) || this.foreseen?.form === form) return;
    const job = { form, out: new PlacesBuilder(), next: 0 };
    this.foreseen = job;
    const step = () => {
      if (this.foreseen !== job) return;
      this.hay.scanChunk(form, job.next++, job.out);
      if (job.next < this.hay.chunkCount) setImmediate(step);
      else this.finishForeseen();
    };
    setImmediate(step);
  }

  private finishForeseen(): void {
    const job = this.foreseen;
    if (!job) return;
    this.foreseen = undefined;
    while (job.next < this.hay.chunkCount) this.hay.scanChunk(job.form, job.next++, job.out);
    this.hold(job.form, { found: job.out.done() });
  }

  /** Keeps a form's places: the 8 most recent forms, fewer when they hold more than HELD_PLACES places. */
  private hold(form: string, held: { found: Found; hits?: Uint8Array }): void {
    this.holding.delete(form);
    this.holding.set(form, held);
    let places = 0;
    for (const h of this.holding.values()) places += h.found.base.places.length + h.found.rows.length;
    for (const [oldest, h] of this.holding) {
      if (oldest === form || (this.holding.size <= 8 && places <= HELD_PLACES)) break;
      this.holding.delete(oldest);
      places -= h.found.base.places.length + h.found.rows.length;
    }
  }

  /**
   * The consents whose text holds a folded form. Typing a word letter by letter, each form holds
   * the one before: only the places where that one occurs are looked at again (the fewest, when
   * several recent forms are in it).
   */
  private holdingOf(form: string): Uint8Array {
    if (this.foreseen && form.includes(this.foreseen.form)) this.finishForeseen();
    const known = this.holding.get(form);
    const found = known?.found ?? this.hay.find(form, this.heldIn(form));
    if (known?.hits) return known.hits;
    const hits = new Uint8Array(this.size);
    const { positions } = found.base;
    for (const row of found.rows) hits[positions[row]!] = 1;
    this.hold(form, { found, hits });
    return hits;
  }

  /** The recent form in this one whose places are the fewest to look at (of as many, the longest: the fewest characters to compare). */
  private heldIn(form: string): { found: Found; form: string; at: number } | undefined {
    let from: { found: Found; form: string; at: number } | undefined;
    for (const [held, h] of this.holding) {
      const at = form.indexOf(held);
      if (at < 0) continue;
      const better =
        !from ||
        h.found.rows.length < from.found.rows.length ||
        (h.found.rows.length === from.found.rows.length && held.length > from.form.length);
      if (better) from = { found: h.found, form: held, at };
    }
    return from;
  }

  /** The position of a rowid, or -1 when the index does not hold it. */
  positionOf(rowid: number): number {
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.rowids[mid]!;
      if (at === rowid) return mid;
      if (at < rowid) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * The positions of the consents with a word starting with each of these characters (letters or
   * digits, oneCharacter): what the full-text query "b"* AND "7"* finds. Undefined when some of the
   * cache's text is not ASCII (Firsts): the full-text search answers then.
   */
  firstCharacterHits(chars: readonly string[]): Uint8Array | undefined {
    if (!this.firsts) return undefined;
    let letters = 0;
    let digits = 0;
    for (const ch of chars) {
      const c = ch.toLowerCase().charCodeAt(0);
      if (c >= 97 && c <= 122) letters |= 1 << (c - 97);
      else if (c >= 48 && c <= 57) digits |= 1 << (c - 48);
      else return undefined;
    }
    const hits = new Uint8Array(this.size);
    const l = this.firsts.letters;
    const d = this.firsts.digits;
    for (let i = 0; i < this.size; i++) if ((l[i]! & letters) === letters && (d[i]! & digits) === digits) hits[i] = 1;
    return hits;
  }

  /**
   * A test on one position for the filter (all parts ANDed), or null when nothing can match (a
   * value the cache has never seen). `matchRowids` is the full-text search's answer, when it has
   * one: the rowids it matched, or the positions (a byte per position, not 0 for a match).
   */
  matcher(
    filter: ConsentFilter,
    matchRowids: readonly number[] | Uint8Array | undefined,
    without?: 'statuses',
  ): ((i: number) => boolean) | null {
    const tests: ((i: number) => boolean)[] = [];
    const d = this.dicts;
    const shown = this.shown;
    // The fields kept coded (a value's code per position) and those kept as text.
    const coded: Partial<Record<ConsentField, [Dictionary, Uint32Array]>> = {
      status: [d.status, this.status],
      dataHolderBrandId: [d.holder, this.holder],
      dataHolderName: [d.holderName, this.holderName],
      useCaseId: [d.useCase, this.useCase],
      useCaseName: [d.useCaseName, this.useCaseName],
      accessFrequency: [d.freq, this.freq],
      postUsageAction: [d.action, this.action],
    };
    const text: Partial<Record<ConsentField, readonly (string | null)[]>> = {
      consentId: this.ids,
      consumerEmail: shown.email,
      consumerMobile: shown.mobile,
      consumerId: shown.consumerId,
      externalId: shown.externalId,
      cdrArrangementId: shown.arrangementId,
      created: this.created,
      sharingEndDate: this.sharingEnd,
      revoked: this.revoked,
      firstDataCollection: shown.firstCollection,
    };
    /** A field's value at a position, for the fields no faster test below knows. */
    const valueOf = (field: ConsentField): ((i: number) => unknown) => {
      const column = text[field];
      if (column) return (i) => column[i];
      return (i) => this.rowAt(i)[field];
    };
    // Each part of the filter (consents/filter.ts) as a test on a position, with the SQL's meaning:
    // text compared exactly, NULL matching nothing but "not set". The search's and the webhook
    // failures' parts come as `matchRowids` (the caller asks the full-text search and the events).
    for (const part of filterParts(filter, without)) {
      if (part.kind === 'in') {
        const dictAndColumn = coded[part.field];
        if (dictAndColumn) {
          const [dict, column] = dictAndColumn;
          const codes = new Set(part.values.map((v) => dict.find(v)).filter((c): c is number => c !== undefined));
          if (!codes.size) return null; // a value the cache has never seen
          const [only] = codes;
          tests.push(codes.size === 1 ? (i) => column[i] === only : (i) => codes.has(column[i]!));
        } else {
          // Not coded (nearly one value per consent): compared as text, a pass over the column.
          const values = new Set<unknown>(part.values);
          const value = valueOf(part.field);
          tests.push((i) => values.has(value(i)));
        }
      } else if (part.kind === 'is' || part.kind === 'present') {
        // The two the index keeps coded (directMarketing: 0 null, 1 false, 2 true; collected: 0 or 1), any other by value.
        const want = part.value;
        const value = valueOf(part.field);
        const dm = want ? 2 : 1;
        const collected = want ? 1 : 0;
        if (part.kind === 'is') tests.push(part.field === 'directMarketingAllowed' ? (i) => this.dm[i] === dm : (i) => value(i) === want);
        else
          tests.push(part.field === 'firstDataCollection' ? (i) => this.collected[i] === collected : (i) => (value(i) !== null) === want);
      } else if (part.kind === 'range') {
        // As the SQL: stored ISO 8601 UTC text compared with the bound in the same form.
        const { from, to } = part.range;
        const value = valueOf(part.field);
        const column = text[part.field] ?? Array.from({ length: this.size }, (_, i) => value(i) as string | null);
        if (from !== undefined) tests.push((i) => column[i] !== null && column[i]! >= from);
        if (to !== undefined) tests.push((i) => column[i] !== null && column[i]! < to);
      }
    }
    if (matchRowids) {
      const hits = matchRowids instanceof Uint8Array ? matchRowids : this.hitsOf(matchRowids);
      tests.push((i) => hits[i] !== 0);
    }
    if (tests.length === 0) return () => true;
    if (tests.length === 1) return tests[0]!;
    return (i) => {
      for (const t of tests) if (!t(i)) return false;
      return true;
    };
  }

  /** Each consent id's position, made on first use (a consent list filtered by ids from elsewhere: webhook failures). */
  private positionById: Map<string, number> | undefined;

  /** A byte per position, 1 for the consents with these ids (ids the index does not hold are left out). */
  hitsOfIds(ids: readonly string[]): Uint8Array {
    if (!this.positionById) {
      this.positionById = new Map();
      for (let i = 0; i < this.size; i++) this.positionById.set(this.ids[i]!, i);
    }
    const hits = new Uint8Array(this.size);
    for (const id of ids) {
      const i = this.positionById.get(id);
      if (i !== undefined) hits[i] = 1;
    }
    return hits;
  }

  /** The positions a full-text search matched, kept for the same answer (count and window of one keystroke). */
  private readonly hits = new WeakMap<readonly number[], Uint8Array>();

  hitsOf(matchRowids: readonly number[]): Uint8Array {
    let hits = this.hits.get(matchRowids);
    if (!hits) {
      hits = new Uint8Array(this.size);
      const at = this.positions();
      for (const rowid of matchRowids) {
        const i = at ? (rowid < at.length ? at[rowid]! : -1) : this.positionOf(rowid);
        if (i >= 0) hits[i] = 1;
      }
      this.hits.set(matchRowids, hits);
    }
    return hits;
  }

  /**
   * Each rowid's position, looked up directly (a search's matches are placed in one pass, not a
   * binary search each: 100,000 consents, a one-letter search, ~4 → ~0.5 ms). Built on first use,
   * when the rowids are dense enough (at most 4 per consent); else undefined (binary search).
   */
  private positionsByRowid: Int32Array | null | undefined;
  private positions(): Int32Array | undefined {
    if (this.positionsByRowid === undefined) {
      const max = this.size ? this.rowids[this.size - 1]! : 0;
      if (max > 4 * this.size + 1024) this.positionsByRowid = null;
      else {
        const at = new Int32Array(max + 1).fill(-1);
        for (let i = 0; i < this.size; i++) at[this.rowids[i]!] = i;
        this.positionsByRowid = at;
      }
    }
    return this.positionsByRowid ?? undefined;
  }

  count(filter: ConsentFilter, matchRowids: readonly number[] | Uint8Array | undefined): ConsentCountOutput {
    const test = this.matcher(filter, matchRowids, 'statuses');
    const byStatus = new Map<number, number>();
    if (test) for (let i = 0; i < this.size; i++) if (test(i)) byStatus.set(this.status[i]!, (byStatus.get(this.status[i]!) ?? 0) + 1);
    const statuses = [...byStatus].map(([code, n]) => ({ status: this.dicts.status.values[code] ?? null, count: n }));
    statuses.sort(byCountThenStatus);
    const chosen = filter.statuses?.length ? new Set(filter.statuses) : undefined;
    const total = statuses.filter((s) => !chosen || (s.status !== null && chosen.has(s.status))).reduce((sum, s) => sum + s.count, 0);
    return { total, statuses };
  }

  /** Positions of the window [offset, offset + limit) of the filtered list in the sort's order. */
  window(
    filter: ConsentFilter,
    matchRowids: readonly number[] | Uint8Array | undefined,
    sort: ConsentSort,
    offset: number,
    limit: number,
  ): number[] {
    const test = this.matcher(filter, matchRowids);
    const out: number[] = [];
    if (!test) return out;
    // A tiered search (consent-query.ts searchMatch) marks its first group 1 and the rest 2: the 1s
    // are listed first, then the 2s, each in the sort's order.
    const tiers = matchRowids instanceof Uint8Array && matchRowids.includes(2) ? (matchRowids.includes(1) ? [1, 2] : [2]) : [0];
    let skip = offset;
    for (const tier of tiers) {
      for (const i of this.walk(sort)) {
        if (!test(i) || (tier !== 0 && (matchRowids as Uint8Array)[i] !== tier)) continue;
        if (skip > 0) {
          skip--;
          continue;
        }
        out.push(i);
        if (out.length >= limit) return out;
      }
    }
    return out;
  }

  /** The list's row at a position, as the SQL reads it. */
  rowAt(i: number): ConsentRow {
    const d = this.dicts;
    const dm = this.dm[i]!;
    return {
      consentId: this.ids[i]!,
      status: d.status.values[this.status[i]!]!,
      consumerEmail: this.shown.email[i]!,
      consumerMobile: this.shown.mobile[i]!,
      consumerId: this.shown.consumerId[i]!,
      dataHolderName: d.holderName.values[this.holderName[i]!]!,
      dataHolderBrandId: d.holder.values[this.holder[i]!]!,
      useCaseId: d.useCase.values[this.useCase[i]!]!,
      useCaseName: d.useCaseName.values[this.useCaseName[i]!]!,
      accessFrequency: d.freq.values[this.freq[i]!]!,
      postUsageAction: d.action.values[this.action[i]!]!,
      directMarketingAllowed: dm === 0 ? null : dm === 2,
      externalId: this.shown.externalId[i]!,
      cdrArrangementId: this.shown.arrangementId[i]!,
      created: this.created[i]!,
      sharingEndDate: this.sharingEnd[i]!,
      revoked: this.revoked[i]!,
      firstDataCollection: this.shown.firstCollection[i]!,
      version: this.shown.version[i]!,
    };
  }

  options(): ConsentOptionsOutput {
    const counts = new OptionCounts();
    const d = this.dicts;
    // Counted by code in typed arrays (a pass over 100,000 rows in well under a millisecond), then
    // handed over once per distinct value.
    const named = (ids: Uint32Array, names: Uint32Array, idDict: Dictionary, nameDict: Dictionary, kind: 'holders' | 'useCases') => {
      const n = new Uint32Array(idDict.values.length);
      const best = new Uint32Array(idDict.values.length);
      for (let i = 0; i < this.size; i++) {
        const id = ids[i]!;
        if (id === NONE) continue;
        n[id]!++;
        const name = names[i]!;
        if (name !== NONE && name !== best[id] && (best[id] === NONE || nameDict.values[name]! > nameDict.values[best[id]!]!))
          best[id] = name;
      }
      n.forEach((count, id) => {
        if (count) counts.named(kind, idDict.values[id]!, nameDict.values[best[id]!]!, count);
      });
    };
    const values = (column: Uint32Array, dict: Dictionary, kind: 'freqs' | 'actions') => {
      const n = new Uint32Array(dict.values.length);
      for (let i = 0; i < this.size; i++) n[column[i]!]!++;
      n.forEach((count, code) => {
        if (code !== NONE && count) counts.value(kind, dict.values[code]!, count);
      });
    };
    named(this.holder, this.holderName, d.holder, d.holderName, 'holders');
    named(this.useCase, this.useCaseName, d.useCase, d.useCaseName, 'useCases');
    values(this.freq, d.freq, 'freqs');
    values(this.action, d.action, 'actions');
    return counts.result();
  }

  private readonly orders = new Map<ConsentSortField, Order>();

  /** Positions in ascending order of a field (NULLs last, then by consent id), read from SQL once. */
  order(field: ConsentSortField): Order {
    let o = this.orders.get(field);
    if (!o) {
      // At once: the user asked for this sort and waits for it either way.
      o = this.sortInMemory(field) ?? this.readOrderNow(field);
      this.orders.set(field, o);
    }
    return o;
  }

  /**
   * The order of a field with no SQL index, sorted here from the values the index holds: 15–75 ms
   * at 100,000 consents, where SQL's sort took 160–1,300 ms (a stall of every other read). (A field
   * with an index is read along it: 50–110 ms.) Undefined
   * when this could differ from SQL: a value of another type than the column's, or text with a
   * character beyond U+FFFF (JavaScript orders UTF-16 units, SQLite the UTF-8 bytes: they disagree
   * only there). NOCASE folds ASCII letters only, as SQLite does.
   */
  private sortInMemory(field: ConsentSortField): Order | undefined {
    const d = this.dicts;
    const shown = this.shown;
    const specs: Partial<Record<ConsentSortField, { key: (i: number) => string | number | null; kind: 'binary' | 'nocase' | 'number' }>> = {
      firstDataCollection: { key: (i) => shown.firstCollection[i]!, kind: 'binary' },
      consumerMobile: { key: (i) => shown.mobile[i]!, kind: 'binary' },
      consumerId: { key: (i) => shown.consumerId[i]!, kind: 'binary' },
      accessFrequency: { key: (i) => d.freq.values[this.freq[i]!]!, kind: 'binary' },
      postUsageAction: { key: (i) => d.action.values[this.action[i]!]!, kind: 'binary' },
      directMarketingAllowed: { key: (i) => (this.dm[i] === 0 ? null : this.dm[i]! - 1), kind: 'number' },
      externalId: { key: (i) => shown.externalId[i]!, kind: 'nocase' },
      cdrArrangementId: { key: (i) => shown.arrangementId[i]!, kind: 'binary' },
      consentId: { key: (i) => this.ids[i]!, kind: 'binary' },
      version: { key: (i) => shown.version[i]!, kind: 'number' },
    };
    const spec = specs[field];
    if (!spec || !this.idsComparable()) return undefined;
    const keys = new Array<string | number>(this.size);
    const present: number[] = [];
    const absent: number[] = [];
    for (let i = 0; i < this.size; i++) {
      const k = spec.key(i);
      if (k === null) {
        absent.push(i);
        continue;
      }
      if (spec.kind === 'number') {
        if (typeof k !== 'number') return undefined;
        keys[i] = k;
      } else {
        if (typeof k !== 'string' || SURROGATE.test(k)) return undefined;
        keys[i] = spec.kind === 'nocase' ? foldAscii(k) : k;
      }
      present.push(i);
    }
    const ids = this.ids;
    const byId = (a: number, b: number) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0);
    present.sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : byId(a, b)));
    absent.sort(byId);
    const asc = new Int32Array(this.size);
    asc.set(present);
    asc.set(absent, present.length);
    return { asc, nonNull: present.length };
  }

  private comparableIds: boolean | undefined;

  /** Whether JavaScript orders the consent ids (the tie-break) as SQLite does. */
  private idsComparable(): boolean {
    this.comparableIds ??= !this.ids.some((id) => SURROGATE.test(id));
    return this.comparableIds;
  }

  /** The order of a field in one go (SQL sorts a column that has no index). */
  private readOrderNow(field: ConsentSortField): Order {
    const column = this.columnOf(field);
    const bare = column.replace(/ COLLATE \w+$/, '');
    const present = this.db
      .prepare<[], number>(`SELECT rowid FROM consents WHERE ${bare} IS NOT NULL ORDER BY ${column}, consent_id`)
      .pluck()
      .all();
    const absent = this.db.prepare<[], number>(`SELECT rowid FROM consents WHERE ${bare} IS NULL ORDER BY consent_id`).pluck().all();
    const asc = new Int32Array(present.length + absent.length);
    let k = 0;
    for (const rowid of present) asc[k++] = this.positionOf(rowid);
    for (const rowid of absent) asc[k++] = this.positionOf(rowid);
    return { asc, nonNull: present.length };
  }

  /**
   * The order of an indexed field read along its index in slices (`ORDER BY x ASC NULLS LAST,
   * consent_id` is not the index's order, so SQL would sort: the values, then the NULLs, are two
   * walks of the index instead), yielding between slices. Undefined when the cache changed meanwhile.
   */
  private async readOrder(field: ConsentSortField, stillCurrent: () => boolean, slice: number): Promise<Order | undefined> {
    if (!INDEXED.has(field)) return this.readOrderNow(field);
    const column = this.columnOf(field);
    const bare = column.replace(/ COLLATE \w+$/, '');
    const firstValues = this.db.prepare<[number], [number, unknown, string]>(
      `SELECT rowid, ${bare}, consent_id FROM consents WHERE ${bare} IS NOT NULL ORDER BY ${column}, consent_id LIMIT ?`,
    );
    const nextValues = this.db.prepare<[unknown, string, number], [number, unknown, string]>(
      `SELECT rowid, ${bare}, consent_id FROM consents WHERE ${bare} IS NOT NULL AND (${column}, consent_id) > (?, ?)
       ORDER BY ${column}, consent_id LIMIT ?`,
    );
    const firstNulls = this.db.prepare<[number], [number, string]>(
      `SELECT rowid, consent_id FROM consents WHERE ${bare} IS NULL ORDER BY consent_id LIMIT ?`,
    );
    const nextNulls = this.db.prepare<[string, number], [number, string]>(
      `SELECT rowid, consent_id FROM consents WHERE ${bare} IS NULL AND consent_id > ? ORDER BY consent_id LIMIT ?`,
    );
    const asc = new Int32Array(this.size);
    let k = 0;
    const take = (rowid: number) => {
      if (k < asc.length) asc[k] = this.positionOf(rowid);
      k++;
    };
    for (let part = firstValues.raw().all(slice); ;) {
      for (const r of part) take(r[0]);
      if (part.length < slice) break;
      const [, value, id] = part.at(-1)!;
      await turn();
      if (!stillCurrent()) return undefined;
      part = nextValues.raw().all(value, id, slice);
    }
    const nonNull = k;
    for (let part = firstNulls.raw().all(slice); ;) {
      for (const r of part) take(r[0]);
      if (part.length < slice) break;
      const id = part.at(-1)![1];
      await turn();
      if (!stillCurrent()) return undefined;
      part = nextNulls.raw().all(id, slice);
    }
    // A different count means the cache changed between slices (stillCurrent would say so too).
    return k === this.size ? { asc, nonNull } : undefined;
  }

  /**
   * Positions in the sort's order. Descending reverses the non-NULL part and the NULL part each
   * (NULLs stay last, ties go by consent id descending), as `ORDER BY x DESC NULLS LAST, consent_id DESC`.
   */
  *walk(sort: ConsentSort): Generator<number> {
    const { asc, nonNull } = this.order(sort.field);
    if (sort.direction === 'asc') {
      for (let k = 0; k < asc.length; k++) if (asc[k]! >= 0) yield asc[k]!;
      return;
    }
    for (let k = nonNull - 1; k >= 0; k--) if (asc[k]! >= 0) yield asc[k]!;
    for (let k = asc.length - 1; k >= nonNull; k--) if (asc[k]! >= 0) yield asc[k]!;
  }
}

/** A UTF-16 surrogate: a character beyond U+FFFF, where JavaScript's string order and SQLite's differ. */
const SURROGATE = /[\uD800-\uDFFF]/;

/** SQLite's NOCASE folding: ASCII letters only. */
function foldAscii(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]/g, (c) => c.toLowerCase()) : text;
}
