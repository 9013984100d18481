import type {
  ConsentCountOutput,
  ConsentFilter,
  ConsentOptionsOutput,
  ConsentSort,
  ConsentSortField,
} from '../../../shared/ipc/contract.js';
import type { Db } from './database.js';
import { BUILD_CHUNK, turn } from './read-index.js';

/**
 * The consent list's filter columns of every cached consent, in memory, as small typed arrays
 * (about 6 MB at 100,000 consents), so that any filter, count with status facets, and window of
 * any sort is answered in a millisecond or two, cold or warm — SQL needs a table scan for most of
 * them. Built from the cache in chunks (consent-query.ts decides when it may be used; read-index.ts
 * when it is rebuilt). The semantics are exactly those of the SQL in consent-query.ts, which
 * answers while the index is stale; a test compares the two on many filters and sorts.
 *
 * Sort orders come from SQL itself (the same ORDER BY, so collations and NULLs agree), read once
 * per field on first use and kept with the index.
 */
const NONE = 0;

class Dictionary {
  readonly values: (string | null)[] = [null];
  private readonly codes = new Map<string, number>();
  code(value: string | null): number {
    if (value === null) return NONE;
    let c = this.codes.get(value);
    if (c === undefined) {
      c = this.values.length;
      this.values.push(value);
      this.codes.set(value, c);
    }
    return c;
  }
  find(value: string): number | undefined {
    return this.codes.get(value);
  }
}

interface RawRow {
  rowid: number;
  id: string;
  status: string | null;
  holder: string | null;
  holderName: string | null;
  useCase: string | null;
  useCaseName: string | null;
  freq: string | null;
  action: string | null;
  dm: number | null;
  collected: number;
  created: string | null;
  sharingEnd: string | null;
  revoked: string | null;
}

/** The ORDER BY of each sort, as consent-query.ts writes it. */
export type SortSql = (sort: ConsentSort) => string;

export class ConsentIndex {
  private constructor(
    private readonly db: Db,
    private readonly orderOf: SortSql,
    readonly size: number,
    private readonly rowids: Float64Array,
    readonly ids: string[],
    private readonly positionOf: Map<number, number>,
    private readonly status: Uint16Array,
    private readonly holder: Uint32Array,
    private readonly holderName: Uint32Array,
    private readonly useCase: Uint32Array,
    private readonly useCaseName: Uint32Array,
    private readonly freq: Uint16Array,
    private readonly action: Uint16Array,
    /** 0 null, 1 false, 2 true. */
    private readonly dm: Uint8Array,
    private readonly collected: Uint8Array,
    private readonly created: (string | null)[],
    private readonly sharingEnd: (string | null)[],
    private readonly revoked: (string | null)[],
    private readonly dicts: Record<'status' | 'holder' | 'holderName' | 'useCase' | 'useCaseName' | 'freq' | 'action', Dictionary>,
  ) {}

  /** Reads the cache a chunk at a time; undefined when the cache changed meanwhile. */
  static async build(db: Db, orderOf: SortSql, stillCurrent: () => boolean): Promise<ConsentIndex | undefined> {
    const chunk = db.prepare<[number], RawRow>(
      `SELECT rowid, consent_id AS id, status, data_holder_brand_id AS holder, data_holder_name AS holderName,
         use_case_id AS useCase, use_case_name AS useCaseName, access_frequency AS freq, post_usage_action AS action,
         direct_marketing AS dm, first_data_collection IS NOT NULL AS collected, created, sharing_end_date AS sharingEnd, revoked
       FROM consents WHERE rowid > ? ORDER BY rowid LIMIT ${BUILD_CHUNK}`,
    );
    const rows: RawRow[] = [];
    for (let last = 0; ;) {
      const part = chunk.all(last);
      if (!part.length) break;
      for (const r of part) rows.push(r);
      last = part.at(-1)!.rowid;
      if (part.length < BUILD_CHUNK) break;
      await turn();
      if (!stillCurrent()) return undefined;
    }
    const n = rows.length;
    const dicts = {
      status: new Dictionary(),
      holder: new Dictionary(),
      holderName: new Dictionary(),
      useCase: new Dictionary(),
      useCaseName: new Dictionary(),
      freq: new Dictionary(),
      action: new Dictionary(),
    };
    const rowids = new Float64Array(n);
    const ids = new Array<string>(n);
    const positionOf = new Map<number, number>();
    const status = new Uint16Array(n);
    const holder = new Uint32Array(n);
    const holderName = new Uint32Array(n);
    const useCase = new Uint32Array(n);
    const useCaseName = new Uint32Array(n);
    const freq = new Uint16Array(n);
    const action = new Uint16Array(n);
    const dm = new Uint8Array(n);
    const collected = new Uint8Array(n);
    const created = new Array<string | null>(n);
    const sharingEnd = new Array<string | null>(n);
    const revoked = new Array<string | null>(n);
    rows.forEach((r, i) => {
      rowids[i] = r.rowid;
      ids[i] = r.id;
      positionOf.set(r.rowid, i);
      status[i] = dicts.status.code(r.status);
      holder[i] = dicts.holder.code(r.holder);
      holderName[i] = dicts.holderName.code(r.holderName);
      useCase[i] = dicts.useCase.code(r.useCase);
      useCaseName[i] = dicts.useCaseName.code(r.useCaseName);
      freq[i] = dicts.freq.code(r.freq);
      action[i] = dicts.action.code(r.action);
      dm[i] = r.dm === null ? 0 : r.dm ? 2 : 1;
      collected[i] = r.collected ? 1 : 0;
      created[i] = r.created;
      sharingEnd[i] = r.sharingEnd;
      revoked[i] = r.revoked;
    });
    const index = new ConsentIndex(
      db,
      orderOf,
      n,
      rowids,
      ids,
      positionOf,
      status,
      holder,
      holderName,
      useCase,
      useCaseName,
      freq,
      action,
      dm,
      collected,
      created,
      sharingEnd,
      revoked,
      dicts,
    );
    // The list opens sorted by created, newest first: have that order ready.
    index.order('created');
    return index;
  }

  /**
   * A test on one position for the filter (all parts ANDed), or null when nothing can match (a
   * value the cache has never seen). `matchRowids` is the full-text search's answer, when it has one.
   */
  matcher(filter: ConsentFilter, matchRowids: readonly number[] | undefined, without?: 'statuses'): ((i: number) => boolean) | null {
    const tests: ((i: number) => boolean)[] = [];
    const anyOf = (values: readonly string[] | undefined, dict: Dictionary, column: ArrayLike<number>): boolean => {
      if (!values?.length) return true;
      const codes = new Set(values.map((v) => dict.find(v)).filter((c): c is number => c !== undefined));
      if (!codes.size) return false;
      if (codes.size === 1) {
        const [only] = codes;
        tests.push((i) => column[i] === only);
      } else tests.push((i) => codes.has(column[i]!));
      return true;
    };
    if (without !== 'statuses' && !anyOf(filter.statuses, this.dicts.status, this.status)) return null;
    if (!anyOf(filter.dataHolderBrandIds, this.dicts.holder, this.holder)) return null;
    if (!anyOf(filter.useCaseIds, this.dicts.useCase, this.useCase)) return null;
    if (!anyOf(filter.accessFrequencies, this.dicts.freq, this.freq)) return null;
    if (!anyOf(filter.postUsageActions, this.dicts.action, this.action)) return null;
    if (filter.directMarketing !== undefined) {
      const want = filter.directMarketing ? 2 : 1;
      tests.push((i) => this.dm[i] === want);
    }
    if (filter.collected !== undefined) {
      const want = filter.collected ? 1 : 0;
      tests.push((i) => this.collected[i] === want);
    }
    const range = (column: (string | null)[], r: { from?: string | undefined; to?: string | undefined } | undefined) => {
      // As the SQL: stored ISO 8601 UTC text compared with the bound in the same form; NULL never matches.
      const from = r?.from ? new Date(r.from).toISOString() : undefined;
      const to = r?.to ? new Date(r.to).toISOString() : undefined;
      if (from !== undefined) tests.push((i) => column[i] !== null && column[i]! >= from);
      if (to !== undefined) tests.push((i) => column[i] !== null && column[i]! < to);
    };
    range(this.created, filter.created);
    range(this.sharingEnd, filter.sharingEnd);
    range(this.revoked, filter.revoked);
    if (matchRowids) {
      const hits = new Uint8Array(this.size);
      for (const rowid of matchRowids) {
        const i = this.positionOf.get(rowid);
        if (i !== undefined) hits[i] = 1;
      }
      tests.push((i) => hits[i] === 1);
    }
    if (tests.length === 0) return () => true;
    if (tests.length === 1) return tests[0]!;
    return (i) => {
      for (const t of tests) if (!t(i)) return false;
      return true;
    };
  }

  count(filter: ConsentFilter, matchRowids: readonly number[] | undefined): ConsentCountOutput {
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
  window(filter: ConsentFilter, matchRowids: readonly number[] | undefined, sort: ConsentSort, offset: number, limit: number): number[] {
    const test = this.matcher(filter, matchRowids);
    const out: number[] = [];
    if (!test) return out;
    let skip = offset;
    for (const i of this.walk(sort)) {
      if (!test(i)) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      out.push(i);
      if (out.length >= limit) break;
    }
    return out;
  }

  rowidAt(i: number): number {
    return this.rowids[i]!;
  }

  options(): ConsentOptionsOutput {
    const counted = (ids: Uint32Array, names: Uint32Array, idDict: Dictionary, nameDict: Dictionary) => {
      const by = new Map<number, { count: number; name: string | null }>();
      for (let i = 0; i < this.size; i++) {
        const id = ids[i]!;
        if (id === NONE) continue;
        const name = nameDict.values[names[i]!] ?? null;
        const entry = by.get(id);
        if (!entry) by.set(id, { count: 1, name });
        else {
          entry.count++;
          // As SQL's max(): the greatest name, NULLs ignored.
          if (name !== null && (entry.name === null || name > entry.name)) entry.name = name;
        }
      }
      return [...by]
        .map(([id, v]) => ({ id: idDict.values[id]!, name: v.name, count: v.count }))
        .sort((a, b) => compareNoCase(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    };
    const values = (column: Uint16Array, dict: Dictionary) => {
      const by = new Map<number, number>();
      for (let i = 0; i < this.size; i++) if (column[i] !== NONE) by.set(column[i]!, (by.get(column[i]!) ?? 0) + 1);
      return [...by]
        .map(([code, count]) => ({ value: dict.values[code]!, count }))
        .sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    };
    return {
      dataHolders: counted(this.holder, this.holderName, this.dicts.holder, this.dicts.holderName),
      useCases: counted(this.useCase, this.useCaseName, this.dicts.useCase, this.dicts.useCaseName),
      accessFrequencies: values(this.freq, this.dicts.freq),
      postUsageActions: values(this.action, this.dicts.action),
    };
  }

  private readonly orders = new Map<ConsentSortField, { asc: Int32Array; nonNull: number }>();

  /** Positions in ascending order of a field (NULLs last, then by consent id), read from SQL once. */
  order(field: ConsentSortField): { asc: Int32Array; nonNull: number } {
    let o = this.orders.get(field);
    if (!o) {
      const sql = this.orderOf({ field, direction: 'asc' });
      const column = sql.replace(/^ORDER BY /, '').split(' ASC NULLS LAST')[0]!;
      const rows = this.db.prepare<[], [number, number]>(`SELECT rowid, ${column} IS NOT NULL FROM consents ${sql}`).raw().all();
      const asc = new Int32Array(rows.length);
      let nonNull = 0;
      rows.forEach(([rowid, present], k) => {
        asc[k] = this.positionOf.get(rowid) ?? -1;
        if (present) nonNull++;
      });
      o = { asc, nonNull };
      this.orders.set(field, o);
    }
    return o;
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

/** SQLite's NOCASE: ASCII letters folded, everything else compared as is; NULL first. */
export function compareNoCase(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  const fa = a.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const fb = b.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

/** Status facets: most first, then by status (NULL last), the same in SQL and here. */
export function byCountThenStatus(a: { status: string | null; count: number }, b: { status: string | null; count: number }): number {
  if (a.count !== b.count) return b.count - a.count;
  if (a.status === b.status) return 0;
  if (a.status === null) return 1;
  if (b.status === null) return -1;
  return a.status < b.status ? -1 : 1;
}
