import { useQueries } from '@tanstack/react-query';
import { useCallback, useState } from 'react';

/**
 * Rows of a long list, read from main a block at a time as they scroll into view: no unbounded
 * result set crosses IPC and the renderer holds only what is near the viewport (blocks already
 * read stay in the query cache for a while, so scrolling back is instant).
 */
export const BLOCK_SIZE = 100;

export interface WindowedRows<Row> {
  rowAt(index: number): Row | undefined;
  /** Tell it which rows are on screen (the table's virtualiser does). */
  setRange(start: number, end: number): void;
  /** Some visible block is being read. */
  fetching: boolean;
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
}): WindowedRows<Row> {
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
      staleTime: 30_000,
    })),
  });
  const loaded = new Map<number, Row[]>();
  results.forEach((r, i) => {
    if (r.data) loaded.set(blocks[i]!, r.data);
  });
  return {
    rowAt: (index) => loaded.get(Math.floor(index / BLOCK_SIZE))?.[index % BLOCK_SIZE],
    setRange,
    fetching: results.some((r) => r.isFetching),
    error: (results.find((r) => r.error)?.error as Error | undefined) ?? null,
  };
}
