/**
 * The Events screen's type chips and the compliance report's data holders, said once for every
 * store (issue 37): the SQL of each engine and the in-memory index count, and these say what the
 * counts mean.
 */
export interface TypeCount {
  type: string;
  count: number;
}

/**
 * Counts of every type that matches the rest of the filter (most first, then by type, bytewise),
 * and how many events match the filter: those of the chosen types, or all when none is chosen.
 */
export function typeCounts(counts: Iterable<TypeCount>, chosen: readonly string[] | undefined): { total: number; types: TypeCount[] } {
  const types = [...counts].sort((a, b) => b.count - a.count || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
  const only = chosen?.length ? new Set(chosen) : undefined;
  return { total: types.filter((t) => !only || only.has(t.type)).reduce((n, t) => n + t.count, 0), types };
}

/** What the compliance report calls the data holder of an event whose consent the store does not hold. */
export const UNKNOWN_HOLDER = 'Unknown data holder';
