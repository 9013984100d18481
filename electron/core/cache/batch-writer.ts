import { statSync } from 'node:fs';
import type { BatchLimits, Checkpointer } from '../sync/batch.js';
import type { Db } from './db.js';

/**
 * The WAL is copied into the database when it passes this size, not at SQLite's default of every
 * 4 MB: a page the sync rewrites in many transactions is then copied (and synced to disk) once per
 * 128 MB instead of once per commit. The writer connection turns automatic checkpoints off.
 */
export const CHECKPOINT_ABOVE_BYTES = 128 * 2 ** 20;

/**
 * The sync's writes, grouped into few large transactions: a transaction stays open across pages
 * and commits when it holds `rows` rows or is `ms` old (so what is stored shows up at least that
 * often), and at the end. Each page writes its resume cursor with its rows, so whatever was
 * committed is a consistent prefix to continue from.
 *
 * A page that fails half-written rolls the open transaction back; an error between pages (the
 * intermediary failed, the operator cancelled) keeps every whole page written so far (`commit`).
 * The transaction spans awaits: the connection must be one only the sync writes with while it runs
 * (its own connection on the worker thread, or a test's).
 */
export class BatchWriter<E extends string> {
  private open = false;
  private rows = 0;
  private startedMs = 0;
  private changed = new Map<E, number>();
  /** The checkpoint on the helper thread: none, under way, or finished (what was written since is left). */
  private background: 'none' | Promise<void> | 'done' = 'none';

  constructor(
    private readonly db: Db,
    private readonly limits: BatchLimits,
    private readonly onCommit: (entity: E, count: number) => void,
    private checkpointer?: Checkpointer,
  ) {}

  /**
   * Runs `write` in the open transaction; `rows` written, of which `changed` new or changed.
   * `pageEnd` false: more of the same page follows, so the transaction must not commit yet.
   */
  write<T>(entity: E, write: () => { result: T; rows: number; changed: number }, pageEnd = true): T {
    this.begin();
    let done: { result: T; rows: number; changed: number };
    try {
      done = write();
    } catch (error) {
      this.rollback();
      throw error;
    }
    return this.account(entity, done, pageEnd);
  }

  /** `write` for a step that is asynchronous (the sync store's steps: sync-store.ts). */
  async writeAsync<T>(entity: E, write: () => Promise<{ result: T; rows: number; changed: number }>, pageEnd = true): Promise<T> {
    this.begin();
    let done: { result: T; rows: number; changed: number };
    try {
      done = await write();
    } catch (error) {
      this.rollback();
      throw error;
    }
    return this.account(entity, done, pageEnd);
  }

  private begin(): void {
    if (!this.open) {
      this.db.exec('BEGIN IMMEDIATE');
      this.open = true;
      this.startedMs = Date.now();
    }
  }

  private account<T>(entity: E, done: { result: T; rows: number; changed: number }, pageEnd: boolean): T {
    this.rows += done.rows;
    this.changed.set(entity, (this.changed.get(entity) ?? 0) + done.changed);
    if (pageEnd && (this.rows >= this.limits.rows || Date.now() - this.startedMs >= this.limits.ms)) this.commit();
    return done.result;
  }

  commit(): void {
    if (!this.open) return;
    // SQLite already rolled the transaction back itself (a full disk, an I/O error): nothing to commit.
    if (!this.db.inTransaction) return this.rollback();
    try {
      this.db.exec('COMMIT');
    } catch (error) {
      this.rollback();
      throw error;
    }
    if (walBytes(this.db) > (this.limits.checkpointAboveBytes ?? CHECKPOINT_ABOVE_BYTES)) this.checkpoint();
    this.open = false;
    this.rows = 0;
    const changed = this.changed;
    this.changed = new Map();
    for (const [entity, count] of changed) if (count > 0) this.onCommit(entity, count);
  }

  /**
   * A large WAL copied into the database. With a helper thread, the copy runs there while this
   * thread writes on; once it has finished, the next commit copies here only what was written
   * since, so the copy reaches the WAL's end and the next transaction starts the WAL again from its
   * beginning. Without one (or when it failed), the copy runs here.
   */
  private checkpoint(): void {
    if (!this.checkpointer || this.background === 'done') {
      this.db.pragma('wal_checkpoint(PASSIVE)');
      this.background = 'none';
    } else if (this.background === 'none') {
      const running = this.checkpointer.checkpoint().then(
        () => {
          if (this.background === running) this.background = 'done';
        },
        () => {
          // The helper failed (it could not open the cache): copy on this thread from now on.
          this.checkpointer = undefined;
          if (this.background === running) this.background = 'none';
        },
      );
      this.background = running;
    }
  }

  /** The last commit, then the WAL copied into the database (readers are not blocked). */
  async finish(): Promise<void> {
    this.commit();
    if (this.background instanceof Promise) await this.background;
    this.background = 'none';
    if (walBytes(this.db) > 0) this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  rollback(): void {
    if (this.open && this.db.inTransaction) this.db.exec('ROLLBACK');
    this.open = false;
    this.rows = 0;
    this.changed = new Map();
  }
}

function walBytes(db: Db): number {
  if (db.memory) return 0;
  try {
    return statSync(`${db.name}-wal`).size;
  } catch {
    return 0;
  }
}
