import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useWindowedRows } from './useWindowedRows.js';

/**
 * What a WindowedTable of a long list needs besides its columns: the rows, read a block at a time
 * (see useWindowedRows), and the keyboard cursor. Spread `table` on the WindowedTable. The cursor
 * starts at the top again when `cursorKey` changes (a new filter or sort); without one it stays.
 */
export function useWindowedList<Row>(opts: {
  key: readonly unknown[];
  total: number | undefined;
  fetch(offset: number, limit: number): Promise<Row[]>;
  cursorKey?: unknown;
  /** See useWindowedRows: the previous view's rows stay until the new view's are read. */
  keepWhileReading?: boolean;
}) {
  const { prefetch, ...rows } = useWindowedRows<Row>(opts);
  const view = opts.cursorKey === undefined ? '' : JSON.stringify(opts.cursorKey);
  const [cursor, setCursor] = useState({ view, index: 0 });
  return {
    rows,
    prefetch,
    table: {
      total: opts.total ?? 0,
      rows,
      activeIndex: cursor.view === view ? cursor.index : 0,
      onActiveChange: (index: number) => setCursor({ view, index }),
    },
  };
}

/**
 * A long list read through one paged call whose answer carries the total (and, on some screens,
 * counts to filter by): its head — the first row's page, which says how many rows match and is
 * kept while the next view is counted — and the windowed list over the same call. Not `enabled`,
 * it reads nothing and counts 0 rows.
 */
export function usePagedList<Page extends { total: number; rows: readonly unknown[] }>(opts: {
  key: readonly unknown[];
  read(offset: number, limit: number): Promise<Page>;
  enabled?: boolean;
  cursorKey?: unknown;
}) {
  const enabled = opts.enabled ?? true;
  const head = useQuery({
    queryKey: [...opts.key, 'head'],
    queryFn: () => opts.read(0, 1),
    enabled,
    placeholderData: keepPreviousData,
  });
  const total = head.data?.total ?? 0;
  const list = useWindowedList<Page['rows'][number]>({
    key: opts.key,
    total: enabled ? total : 0,
    fetch: async (offset, limit) => [...(await opts.read(offset, limit)).rows],
    cursorKey: opts.cursorKey,
  });
  return { head, total, ...list };
}
