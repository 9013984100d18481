import type { SyncSummary } from '../../shared/ipc/contract.js';

/** A sync summary of a run that found nothing, for test doubles of `sync:start`. */
export function emptySyncSummary(): SyncSummary {
  return {
    startedAt: '2026-11-01T00:00:00.000Z',
    finishedAt: '2026-11-01T00:00:01.000Z',
    consents: { fetched: 0, new: 0, changed: 0, unchanged: 0 },
    events: { fetched: 0, new: 0 },
    useCases: 0,
    dataHolders: 0,
    failures: [],
    resumed: false,
  };
}
