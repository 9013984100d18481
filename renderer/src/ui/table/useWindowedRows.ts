import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { BLOCK_SIZE } from './block-size.js';

/**
 * Rows of a long list, read from main a block at a time as they scroll into view: no unbounded
 * result set crosses IPC and the renderer holds only what is near the viewport (blocks already
 * read stay in the query cache for a while, so scrolling back is instant).
 */
export { BLOCK_SIZE };
/** How long a block read stays fresh in the query cache. */
const BLOCK_STALE_MS = 30_000;

export interface WindowedRows<Row> {
  rowAt(index: number): Row | undefined;
  /** Tell it which rows are on screen (the table's virtualiser does). */
  setRange(start: number, end: number): void;
  /** Some visible block is being read. */
  fetching: boolean;
  /**
   * The rows shown are the previous view's, kept while this view's are read (`keepWhileReading`):
   * the table says it is busy (aria-busy) until they are replaced.
   */
  stale?: boolean;
  error: Error | null;
}

export function useWindowedRows<Row>(opts: {
  /** Identifies the list: filter and sort. A new key reads new blocks. */
  key: readonly unknown[];
  /**
   * How many rows the list has; undefined while it is being counted. The blocks on screen are read
   * meanwhile, beside the count rather than after it (at start, the first rows come no later than
   * the count).
   */
  total: number | undefined;
  fetch(offset: number, limit: number): Promise<Row[]>;
  /**
   * When the key changes (a search, a filter), keep showing the previous key's rows of the same
   * blocks until the new ones are read (marked `stale`), rather than a skeleton in each row: one
   * redraw of the rows per keystroke of a search, not two.
   */
  keepWhileReading?: boolean;
}): WindowedRows<Row> & {
  /**
   * Starts reading the blocks on screen for another key (the list about to be shown), before the
   * screen renders it: a search box calls it from its change handler. Resolves when they are read
   * (or failed: the list's own reads then say so).
   */
  prefetch(key: readonly unknown[], fetch: (offset: number, limit: number) => Promise<Row[]>): Promise<void>;
} {
  const queryClient = useQueryClient();
  const [range, setRangeState] = useState({ start: 0, end: 60 });
  const setRange = useCallback(
    (start: number, end: number) =>
      setRangeState((r) =>
        Math.floor(r.start / BLOCK_SIZE) === Math.floor(start / BLOCK_SIZE) &&
        Math.floor(r.end / BLOCK_SIZE) === Math.floor(end / BLOCK_SIZE)
          ? r
          : { start, end },
      ),
    [],
  );
  const lastBlock = opts.total === undefined ? Infinity : Math.max(0, Math.ceil(opts.total / BLOCK_SIZE) - 1);
  const first = Math.min(Math.floor(range.start / BLOCK_SIZE), lastBlock);
  const last = Math.min(Math.floor(range.end / BLOCK_SIZE), lastBlock);
  const blocks: number[] = [];
  for (let b = first; b <= last && opts.total !== 0; b++) blocks.push(b);
  const results = useQueries({
    queries: blocks.map((b) => ({
      queryKey: [...opts.key, 'block', b],
      queryFn: () => opts.fetch(b * BLOCK_SIZE, BLOCK_SIZE),
      staleTime: BLOCK_STALE_MS,
    })),
  });
  const loaded = new Map<number, Row[]>();
  results.forEach((r, i) => {
    if (r.data) loaded.set(blocks[i]!, r.data);
  });
  // The last rows shown whole (no block missing), by key: what a new key shows in its blocks'
  // places until they are read. Only the same block's rows (never another block's, scrolling).
  const keyHash = JSON.stringify(opts.key);
  const shown = useRef<{ key: string; loaded: Map<number, Row[]> } | undefined>(undefined);
  let stale = false;
  /* eslint-disable react-hooks/refs -- a cache of what was drawn, read and written while drawing; no effect depends on it */
  if (opts.keepWhileReading) {
    const kept = shown.current;
    if (kept && kept.key !== keyHash)
      results.forEach((r, i) => {
        const b = blocks[i]!;
        const previous = kept.loaded.get(b);
        if (!r.data && !r.error && previous) {
          loaded.set(b, previous);
          stale = true;
        }
      });
    if (!stale && results.every((r) => r.data)) shown.current = { key: keyHash, loaded };
  }
  /* eslint-enable react-hooks/refs */
  const prefetch = async (key: readonly unknown[], fetch: (offset: number, limit: number) => Promise<Row[]>) => {
    await Promise.all(
      (blocks.length ? blocks : [0]).map((b) =>
        queryClient.prefetchQuery({
          queryKey: [...key, 'block', b],
          queryFn: () => fetch(b * BLOCK_SIZE, BLOCK_SIZE),
          staleTime: BLOCK_STALE_MS,
        }),
      ),
    );
  };
  return {
    rowAt: (index) => loaded.get(Math.floor(index / BLOCK_SIZE))?.[index % BLOCK_SIZE],
    setRange,
    fetching: results.some((r) => r.isFetching),
    stale,
    error: (results.find((r) => r.error)?.error as Error | undefined) ?? null,
    prefetch,
  };
}
