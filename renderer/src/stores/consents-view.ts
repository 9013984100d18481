import { create } from 'zustand';
import type { ConsentSortField, SortDirection } from '../../../shared/ipc/contract.js';

/** UI state of the consent list: which page, how many rows, which order. Data lives in the query cache. */
export interface ConsentsViewState {
  page: number;
  pageSize: number;
  sort: { field: ConsentSortField; direction: SortDirection };
  setPage(page: number): void;
  setPageSize(pageSize: number): void;
  /** Clicking the sorted column flips the direction; another column starts with its natural order. */
  toggleSort(field: ConsentSortField): void;
}

export const PAGE_SIZES = [50, 100, 250, 500] as const;
const DATE_FIELDS: ReadonlySet<ConsentSortField> = new Set(['created', 'sharingEndDate']);

export const useConsentsView = create<ConsentsViewState>()((set) => ({
  page: 1,
  pageSize: 100,
  sort: { field: 'created', direction: 'desc' },
  setPage: (page) => set({ page }),
  setPageSize: (pageSize) => set({ pageSize, page: 1 }),
  toggleSort: (field) =>
    set((s) => ({
      page: 1,
      sort:
        s.sort.field === field
          ? { field, direction: s.sort.direction === 'asc' ? 'desc' : 'asc' }
          : { field, direction: DATE_FIELDS.has(field) ? 'desc' : 'asc' },
    })),
}));
