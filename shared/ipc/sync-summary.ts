/**
 * How many Data API records a sync stored, all kinds together (0 when it fetched none). Without
 * zod (the summary's `data` field: records stored per kind): the overview reads it before the
 * contract's schemas have loaded.
 */
export function dataRecordTotal(summary: { data?: Record<string, number> | undefined }): number {
  return Object.values(summary.data ?? {}).reduce((a, b) => a + b, 0);
}
