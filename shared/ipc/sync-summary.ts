import type { SyncSummary } from './contract/sync.js';

/**
 * How many Data API records a sync stored, all kinds together (0 when it fetched none). Without
 * zod (the summary's type only): the overview reads it before the contract's schemas have loaded.
 */
export function dataRecordTotal(summary: Pick<SyncSummary, 'data'>): number {
  return Object.values(summary.data ?? {}).reduce((a, b) => a + b, 0);
}
