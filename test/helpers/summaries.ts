import { emptySyncSummary as empty } from '../../electron/core/sync/consent-sync.js';
import type { SyncSummary } from '../../shared/ipc/contract.js';

/** A sync summary of a run that found nothing, for test doubles of `sync:start`. */
export function emptySyncSummary(): SyncSummary {
  return { ...empty('2026-11-01T00:00:00.000Z'), finishedAt: '2026-11-01T00:00:01.000Z' };
}
