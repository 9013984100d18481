import type { Consent, ConsentEvent, UseCase } from '../../../shared/schemas/consent.js';
import type { DataKind } from '../api/data-client.js';
import type { HistoryBasis } from '../data/history.js';

/**
 * What a sync needs of the store it writes to, whatever the engine (SQLite's cache on the worker
 * thread, PostgreSQL's team store): a few reads to decide what to fetch, and writes grouped in
 * batches. A batch is one transaction that stays open across pages and commits when it is large or
 * old enough (and at the end); each page writes its resume cursor with its rows, so whatever was
 * committed is a consistent prefix to continue from after a crash or a kill.
 */
export interface UpsertCounts {
  new: number;
  changed: number;
  unchanged: number;
}

/** The writes of one step of a batch (they run inside its open transaction). */
export interface SyncWrites {
  /** A page of consents: new ones stored, changed ones stored as a new version, unchanged ones left. */
  consents(page: readonly Consent[], syncedAt: string): Promise<UpsertCounts>;
  /** A page of events, once each; the consents of new or changed events are added to `touched`. */
  events(page: readonly ConsentEvent[], touched?: Set<string>): Promise<{ new: number; changed: number }>;
  /** A page of Data API records of one kind; how many were stored. */
  data(kind: DataKind, records: readonly Record<string, unknown>[], fetchedAt: string): Promise<number>;
  setState(key: string, value: string): Promise<void>;
  deleteState(key: string): Promise<void>;
  /** A first load's deferred work done (its indexes built): see SyncStore.beginFirstLoad. */
  finishFirstLoad(): Promise<void>;
}

export type SyncEntity = 'consents' | 'events' | 'data';

export interface SyncStore {
  state(key: string): Promise<string | null>;
  consentCount(): Promise<number>;
  /** The newest consent creation time stored (where new consents are looked for). */
  newestCreated(): Promise<string | null>;
  /** The newest event time stored (ISO 8601, UTC): where an incremental sync starts. */
  newestEvent(): Promise<string | null>;
  /**
   * Per use case, its earliest ACTIVE consent's creation and the use case's
   * `historicalCollectionPeriodInDays` (null when the store does not know it): what a data sync's
   * bounds are made from (data/history.ts). Only the given consents, when given.
   */
  historyBases(consentIds?: readonly string[]): Promise<HistoryBasis[]>;
  /**
   * Into an empty store an engine may load faster by deferring work (secondary indexes) to the
   * end: true when it did (or a killed load had), and `finishFirstLoad` must follow.
   */
  beginFirstLoad(): Promise<boolean>;
  /** The deferred work of a first load, in a transaction of its own (outside any batch). */
  finishFirstLoad(): Promise<void>;
  replaceUseCases(useCases: readonly UseCase[], syncedAt: string, combined?: readonly UseCase[]): Promise<void>;
  replaceDataHolders(
    holders: readonly { dataHolderBrandId: string; brandName?: string | null | undefined }[],
    syncedAt: string,
  ): Promise<void>;
  /**
   * Runs one step in the open batch (opening one if none is): `rows` written, `changed` of them new
   * or changed. `pageEnd` false: more of the same page follows, so the batch must not commit yet. A
   * step that throws rolls the open batch back.
   */
  write<T>(
    entity: SyncEntity,
    step: (w: SyncWrites) => Promise<{ result: T; rows: number; changed: number }>,
    pageEnd?: boolean,
  ): Promise<T>;
  /** Commits the open batch (whole pages written so far are kept). */
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** The last commit, and whatever the engine does after a load (SQLite: the WAL copied back). */
  finish(): Promise<void>;
}
