import type { ConsentOptionsOutput } from '../../../shared/ipc/contract.js';

/**
 * The consents' facets counted the same way by both stores (the SQLite cache's index and the team
 * store's SQL results): the filter options with their counts, and the status facets' order.
 */

/**
 * The values each filter offers with how many consents have each, counted one consent at a time
 * (from the index, or from one pass over the table when it is stale), as the SQL would group them:
 * an id's name is its greatest, NULLs ignored; ids by name (NOCASE) then id, values in order.
 */
export class OptionCounts {
  private readonly holders = new Map<string, { count: number; name: string | null }>();
  private readonly useCases = new Map<string, { count: number; name: string | null }>();
  private readonly freqs = new Map<string, number>();
  private readonly actions = new Map<string, number>();

  /** One consent's values (the SQL path: a pass over the table). */
  add(
    holderId: string | null,
    holderName: string | null,
    useCaseId: string | null,
    useCaseName: string | null,
    freq: string | null,
    action: string | null,
  ): void {
    if (holderId !== null) this.named('holders', holderId, holderName, 1);
    if (useCaseId !== null) this.named('useCases', useCaseId, useCaseName, 1);
    if (freq !== null) this.value('freqs', freq, 1);
    if (action !== null) this.value('actions', action, 1);
  }

  /** `n` consents with this id, under this name (the greatest is kept, as SQL's max(): NULLs ignored). */
  named(kind: 'holders' | 'useCases', id: string, name: string | null, n: number): void {
    const by = this[kind];
    const entry = by.get(id);
    if (!entry) by.set(id, { count: n, name });
    else {
      entry.count += n;
      if (name !== null && (entry.name === null || name > entry.name)) entry.name = name;
    }
  }

  value(kind: 'freqs' | 'actions', value: string, n: number): void {
    this[kind].set(value, (this[kind].get(value) ?? 0) + n);
  }

  result(): ConsentOptionsOutput {
    const ids = (by: Map<string, { count: number; name: string | null }>) =>
      [...by]
        .map(([id, v]) => ({ id, name: v.name, count: v.count }))
        .sort((a, b) => compareNoCase(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const values = (by: Map<string, number>) =>
      [...by].map(([value, count]) => ({ value, count })).sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    return {
      dataHolders: ids(this.holders),
      useCases: ids(this.useCases),
      accessFrequencies: values(this.freqs),
      postUsageActions: values(this.actions),
    };
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
