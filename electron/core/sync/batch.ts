import { statSync } from 'node:fs';
import type { Db } from '../cache/database.js';

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
export interface BatchLimits {
  rows: number;
  ms: number;
}

export const DEFAULT_BATCH: BatchLimits = { rows: 25_000, ms: 1_000 };

/**
 * The WAL is copied into the database when it passes this size, not at SQLite's default of every
 * 4 MB: a page the sync rewrites in many transactions is then copied (and synced to disk) once per
 * 128 MB instead of once per commit. The writer connection turns automatic checkpoints off.
 */
export const CHECKPOINT_ABOVE_BYTES = 128 * 2 ** 20;

export class BatchWriter<E extends string> {
  private open = false;
  private rows = 0;
  private startedMs = 0;
  private changed = new Map<E, number>();

  constructor(
    private readonly db: Db,
    private readonly limits: BatchLimits,
    private readonly onCommit: (entity: E, count: number) => void,
  ) {}

  /**
   * Runs `write` in the open transaction; `rows` written, of which `changed` new or changed.
   * `pageEnd` false: more of the same page follows, so the transaction must not commit yet.
   */
  write<T>(entity: E, write: () => { result: T; rows: number; changed: number }, pageEnd = true): T {
    if (!this.open) {
      this.db.exec('BEGIN IMMEDIATE');
      this.open = true;
      this.startedMs = Date.now();
    }
    let done: { result: T; rows: number; changed: number };
    try {
      done = write();
    } catch (error) {
      this.rollback();
      throw error;
    }
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
    if (walBytes(this.db) > CHECKPOINT_ABOVE_BYTES) this.db.pragma('wal_checkpoint(PASSIVE)');
    this.open = false;
    this.rows = 0;
    const changed = this.changed;
    this.changed = new Map();
    for (const [entity, count] of changed) if (count > 0) this.onCommit(entity, count);
  }

  /** The last commit, then the WAL copied into the database (readers are not blocked). */
  finish(): void {
    this.commit();
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
