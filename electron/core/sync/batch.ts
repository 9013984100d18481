/**
 * How the sync groups its writes into transactions (each engine's sync store: cache/batch-writer.ts
 * for SQLite, postgres/sync-store.ts): rows and age per transaction, and the helper that copies a
 * large SQLite WAL on another thread. Engine-neutral: sync/ imports no adapter.
 */
export interface BatchLimits {
  rows: number;
  ms: number;
  /** The WAL's size above which a commit has it copied into the database (CHECKPOINT_ABOVE_BYTES). */
  checkpointAboveBytes?: number;
}

export const DEFAULT_BATCH: BatchLimits = { rows: 25_000, ms: 1_000 };

/**
 * Copies the WAL into the database on a thread of its own (a PASSIVE checkpoint on its own
 * connection), so the thread that writes goes on writing meanwhile.
 */
export interface Checkpointer {
  /** Resolves when the checkpoint has run to its end. */
  checkpoint(): Promise<void>;
}
