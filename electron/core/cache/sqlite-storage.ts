import type { EventFilter } from '../../../shared/ipc/contract.js';
import type { AuditEntry, AuditRecord, AuditStore } from '../audit/port.js';
import type { ActionChange, ActionStore, ConsentStore, ReferenceStore } from '../consents/port.js';
import { dataBrowse } from '../data/browse.js';
import type { DataStore, RecordsInput } from '../data/port.js';
import { EVENT_WINDOW, type EventStore } from '../events/port.js';
import { eventReads } from '../events/reads.js';
import type { BulkJobStore } from '../jobs/port.js';
import { bulkJobRecords } from '../jobs/store.js';
import { reportStore } from '../reports/store.js';
import { pages, type QueryRunner } from '../query/query.js';
import { DATA_WINDOW } from '../data/views.js';
import type { ReportStore } from '../reports/port.js';
import type { Storage } from '../storage.js';
import type { SyncStateStore } from '../sync/port.js';
import { keyedLock } from '../consents/keyed-lock.js';
import { consentReads } from '../consents/reads.js';
import { contentId } from '../sync/consent-sync.js';
import { AuditLog, type AuditAnchorOptions } from './audit-log.js';
import { auditReads } from '../audit/reads.js';
import { ConsentQuery } from './consent-query.js';
import { ConsentsRepo, SyncStateRepo } from './consents-repo.js';
import { DataQuery } from './data-query.js';
import { DataRepo } from './data-repo.js';
import type { Db } from './db.js';
import { EventQuery } from './event-query.js';
import { EventsRepo, ReferenceRepo } from './events-repo.js';
import { applyRetention } from './retention.js';
import { BuildLane } from './read-index.js';
import { sqliteQueryRunner } from './query-runner.js';
import { complaintStore } from '../complaints/store.js';
import { alertStore } from '../alerts/store.js';
import { rule94Store } from '../reports/rule94/store.js';
import { monthlyPackStore } from '../reports/monthly/store.js';

/**
 * The SQLite adapter: every storage port of the core (storage.ts) over one better-sqlite3
 * connection to the encrypted cache. SQL, rowids and `data_version` stay in cache/: the read
 * indexes (consent-index.ts, event-index.ts) live here, behind ConsentQuery and EventQuery, and
 * follow the cache through SQLite's data_version (read-index.ts); callers of the ports only see
 * answers.
 *
 * better-sqlite3 is synchronous: each port method does its work at once and returns a settled
 * promise, so a method's transaction never spans an await. (The reads of the consent list and the
 * events may first wait for their index being built, read-index.ts; then they read at once.) Atomic work that the domains need
 * (an action's change with its audit entry, a retention step with its audit entry) is one method
 * of a port, done in one transaction here.
 */
export interface SqliteStorage extends Storage {
  /** Resolves once the in-memory read indexes (consent list, events) match the cache. */
  indexesReady(): Promise<void>;
  /**
   * Has the read indexes built now and kept current, without a read asking (a console's host: during
   * a sync the events' index then follows it, and is current a moment after it ends).
   */
  keepIndexesCurrent(): void;
  /** Drops the pages the connection holds in memory (the benchmark's cold reads; memory pressure). */
  releaseMemory(): void;
  /** Writes the audit head anchor if an append is waiting for it, stops the indexes (before the connection closes). */
  close(): void;
  /** The synchronous classes under the ports, for the command line and tests that read the cache directly. */
  sqlite: {
    consents: ConsentsRepo;
    query: ConsentQuery;
    events: EventsRepo;
    eventQuery: EventQuery;
    data: DataRepo;
    /** The data browser's reads (its transactions index: the benchmark waits for it). */
    dataQuery: DataQuery;
    audit: AuditLog;
  };
}

export interface SqliteStorageOptions {
  /** The audit log's head anchor (a signed file outside the cache); none in tests that do not check it. */
  anchor?: AuditAnchorOptions;
  now?: () => Date;
  onIndexError?: (what: 'consents' | 'events' | 'transactions', error: unknown) => void;
  /** Read indexes off: every read by SQL (tests comparing the two paths). */
  useIndexes?: boolean;
  /** Told when a first load that was killed had left the consents' secondary indexes to build, and they were built. */
  onFirstLoadFinished?: () => void;
}

export function sqliteStorage(db: Db, opts: SqliteStorageOptions = {}): SqliteStorage {
  const now = opts.now ?? (() => new Date());
  const consentsRepo = new ConsentsRepo(db);
  // A first load that was killed left the consents' secondary indexes to build: before any read or sync.
  if (consentsRepo.finishFirstLoad()) opts.onFirstLoadFinished?.();
  // The consents' and the events' indexes are built one at a time (read-index.ts).
  const lane = new BuildLane();
  const query = new ConsentQuery(db, {
    onIndexError: (e) => opts.onIndexError?.('consents', e),
    lane,
    // The events' index knows which consents' deliveries failed when: asked first (made below, used later).
    failedConsentIds: (period) => eventQuery.failedConsentIds(period),
    ...(opts.useIndexes === false ? { useIndex: false } : {}),
  });
  const eventsRepo = new EventsRepo(db);
  const eventQuery = new EventQuery(db, {
    onIndexError: (e) => opts.onIndexError?.('events', e),
    lane,
    ...(opts.useIndexes === false ? { useIndex: false } : {}),
  });
  const reference = new ReferenceRepo(db);
  const dataRepo = new DataRepo(db);
  const dataQuery = new DataQuery(db, {
    onIndexError: (e) => opts.onIndexError?.('transactions', e),
    ...(opts.useIndexes === false ? { useIndex: false } : {}),
  });
  const audit = new AuditLog(db, now, opts.anchor);
  const state = new SyncStateRepo(db);
  // The stores written once over the typed query layer (query/query.ts).
  const runner = sqliteQueryRunner(db, audit);

  const consents: ConsentStore = {
    ...consentReads(runner),
    total: async () => query.total(),
    // Reads that SQL answers with a scan wait for the list's index while it is being built (settled).
    // Not the list as it opens, nor its count: SQL reads them along an index at once (quickInSql).
    list: async (input) => (await query.settled(input), query.list(input)),
    count: async (filter) => (await query.settled({ filter }), query.count(filter)),
    options: async () => (await query.settled(), query.options()),
    ids: async (filter, sort, limit) => (await query.settled(), query.ids(filter, sort, limit)),
    get: async (id) => consentsRepo.get(id),
    versions: async (id, limit) => consentsRepo.versions(id).slice(-limit),
  };

  const referenceStore: ReferenceStore = {
    useCases: async () => reference.useCases(),
    combinedUseCases: async () => reference.combinedUseCases(),
    useCase: async (id) => reference.useCase(id),
    dataHolders: async () => reference.dataHolders(),
    dataHolder: async (id) => reference.dataHolder(id),
  };

  const actions: ActionStore = {
    exclusive: keyedLock(),
    record: async (change: ActionChange) =>
      db.transaction((): AuditRecord => {
        if (change.consents?.length) consentsRepo.upsertPage(change.consents, now().toISOString());
        if (change.events?.length) eventsRepo.upsertPage(change.events, contentId);
        return audit.append(change.audit);
      })(),
  };

  const bulk: BulkJobStore = {
    ...bulkJobRecords(runner),
    // One process writes a profile's cache: the job is always this process's to run.
    claim: async () => true,
    release: async () => undefined,
    heldElsewhere: async () => undefined,
    markSending: async (jobId, seq, at) => {
      db.prepare('UPDATE action_job_items SET sent_at = ? WHERE job_id = ? AND seq = ?').run(at, jobId, seq);
      return true;
    },
  };

  // The reads written once for both engines (events/reads.ts), where the events index is not current.
  const eventSql = eventReads(runner);
  const events: EventStore = {
    // As the consents': reads that SQL answers with a scan wait for the events index while it is being built.
    list: async (input) => (await eventQuery.settled(input.filter), eventQuery.list(input)),
    count: async (filter) => (await eventQuery.settled(filter), eventQuery.count(filter) ?? eventSql.count(filter)),
    days: async (filter, days, timeZone) => (await eventQuery.settled(filter), eventQuery.days(filter, days, timeZone)),
    ofTypes: eventSql.ofTypes,
    forConsent: eventSql.forConsent,
    failuresByMessage: async (filter, limit) => (await eventQuery.settled(filter), eventQuery.failuresByMessage(filter).slice(0, limit)),
    failuresByConsent: async (filter, limit) => (
      await eventQuery.settled(filter),
      eventQuery.failuresByConsent(filter, limit) ?? eventSql.failuresByConsent(filter, limit)
    ),
    consentsWithFailures: async (filter) => (
      await eventQuery.settled(filter),
      eventQuery.consentsWithFailures(filter) ?? eventSql.consentsWithFailures(filter)
    ),
    collectionsByHolder: async (from, to) => (
      await eventQuery.settled(),
      eventQuery.collectionsByHolder(from, to) ?? eventSql.collectionsByHolder(from, to)
    ),
    windows: (filter: EventFilter) => pages((offset) => eventQuery.list({ filter, offset, limit: EVENT_WINDOW }), EVENT_WINDOW),
  };

  const data: DataStore = {
    ...dataBrowse(runner),
    list: async (o) => dataRepo.list(o),
    meta: async (id) => {
      await dataQuery.settle(id);
      return dataQuery.meta(id);
    },
    records: async (input) => {
      if (input.kind === 'transactions') await dataQuery.settle(input.consentId);
      return dataQuery.records(input);
    },
    windows: (input: RecordsInput) => pages((offset) => dataQuery.records({ ...input, offset, limit: DATA_WINDOW }).rows, DATA_WINDOW),
    applyRetention: async (operator) => applyRetention(db, audit, now, operator),
  };

  const auditStore: AuditStore = {
    append: async (entry: AuditEntry) => db.transaction(() => audit.append(entry))(),
    entries: async (o) => audit.entries(o),
    verify: async () => audit.verify(),
    ...auditReads(runner),
  };

  const reports = sqliteReportStore(eventQuery, runner);

  const syncState: SyncStateStore = {
    get: async (key) => state.get(key),
    set: async (key, value) => state.set(key, value),
  };

  return {
    consents,
    reference: referenceStore,
    actions,
    bulk,
    events,
    data,
    audit: auditStore,
    reports,
    syncState,
    complaints: complaintStore(runner),
    alerts: alertStore(runner),
    rule94: rule94Store(runner),
    monthly: monthlyPackStore(runner),
    indexesReady: () => Promise.all([query.ready(), eventQuery.ready()]).then(() => undefined),
    keepIndexesCurrent: () => {
      query.keepCurrent();
      eventQuery.keepCurrent();
    },
    releaseMemory: () => void db.pragma('shrink_memory'),
    close() {
      audit.flushAnchor();
      query.close();
      eventQuery.close();
      dataQuery.close();
    },
    sqlite: { consents: consentsRepo, query, events: eventsRepo, eventQuery, data: dataRepo, dataQuery, audit },
  };
}

/** The compliance report's counts (reports/store.ts), the events' from the events index while it is current. */
export function sqliteReportStore(eventQuery: EventQuery, runner: QueryRunner): ReportStore {
  const counts = reportStore(runner);
  return {
    ...counts,
    eventsByType: async (from, to, types) => {
      await eventQuery.settled();
      const counted = eventQuery.count({ from, to });
      if (!counted) return counts.eventsByType(from, to, types);
      const all = new Map(counted.types.map((t) => [t.type, t.count]));
      return new Map(types.map((t) => [t, all.get(t) ?? 0]));
    },
    collectionsByHolder: async (from, to) => (
      await eventQuery.settled(),
      eventQuery.collectionsByHolder(from, to) ?? counts.collectionsByHolder(from, to)
    ),
  };
}
