import type { SyncProgress, SyncSummary } from '../../../shared/ipc/contract.js';

/**
 * The sync domain's ports. A sync is run by an engine that fetches from the intermediary and
 * writes to the store (today: a worker thread with its own SQLite connection); the domain only
 * starts it, hears from it and can cancel it. The sync state (when the last sync finished, its
 * summary) is kept in the store.
 */
/** What a sync reports it stored, for the consoles' live refresh. */
export type StoredEntity = 'consents' | 'events' | 'reference' | 'data';

export interface SyncStateStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
}

export type SyncMessage =
  | { type: 'progress'; progress: SyncProgress }
  | { type: 'stored'; entity: StoredEntity; count: number }
  | { type: 'warning'; message: string };

export interface SyncRequest {
  full?: boolean;
  /** Fetch Data API records too. */
  data?: boolean;
  /** Only these consents' data (a data sync of chosen consents). */
  consentIds?: string[];
}

export interface SyncRun {
  result: Promise<SyncSummary>;
  cancel(reason: string): void;
}

export interface SyncEngine {
  run(request: SyncRequest, onMessage: (m: SyncMessage) => void): SyncRun;
  close(): Promise<void>;
}
