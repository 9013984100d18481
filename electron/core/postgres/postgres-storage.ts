import { complaintStore } from '../complaints/store.js';
import { alertStore } from '../alerts/store.js';
import { rule94Store } from '../reports/rule94/store.js';
import { monthlyPackStore } from '../reports/monthly/store.js';
import { pgQueryRunner } from './query-runner.js';
import { randomUUID } from 'node:crypto';
import type { AuditAnchorFile } from '../audit/audit-anchor.js';
import type { AuditEntry } from '../audit/port.js';
import { keyedLock } from '../consents/keyed-lock.js';
import type { ActionStore } from '../consents/port.js';
import type { DataStore } from '../data/port.js';
import type { Storage } from '../storage.js';
import { PgAuditAnchor } from './audit-anchor.js';
import { appendAudit, personOfRequest, pgAuditStore, type TeamAuditKeys } from './audit.js';
import { currentClient } from '../../ipc/request-context.js';
import { pgConsentStore, pgReferenceStore, storeConsents } from './consents.js';
import { pgDataStore } from './data.js';
import type { PgDb, Tx } from './db.js';
import { pgEventStore, storeEvents } from './events.js';
import { pgBulkJobStore } from './jobs.js';
import { reportStore } from '../reports/store.js';
import { memoized, type ReadMemo } from './read-memo.js';
import { pgSyncStateStore } from './sync-state.js';

/**
 * The PostgreSQL adapter: every storage port of the core (storage.ts) over one pool to the team
 * store. The same contract suites as the SQLite adapter hold it to the same behaviour
 * (test/contract/). Atomic work is one transaction on one client: an action's change with its
 * audit entry, a retention step with its audit entry.
 */
/** The first key of the two-key advisory locks of actions ("cdra"); the second is the action key's hash. */
const ACTION_LOCK_SPACE = 0x63647261;

export interface PostgresStorage extends Storage {
  db: PgDb;
  /** The audit anchor moved to the newest entry if an append is waiting for it (before closing). */
  flush(): Promise<void>;
}

export interface PostgresStorageOptions {
  now?: () => Date;
  /** This server, as the holder of the bulk jobs it runs (a random id by default). */
  instanceId?: string;
  /** The audit chain's head anchor, a signed file outside the database; none in tests that do not check it. */
  anchor?: { file: AuditAnchorFile; fresh: boolean };
  /**
   * Aggregate reads shared until the data changes (read-memo.ts): a team server passes one and
   * invalidates it on every change it hears of. None: every read asks the database.
   */
  memo?: ReadMemo;
  /** The team's audit keys (a team server's, from its vault): entries MACed and checked, checkpoints signed. */
  auditKeys?: TeamAuditKeys;
}

export function postgresStorage(db: PgDb, opts: PostgresStorageOptions = {}): PostgresStorage {
  const now = opts.now ?? (() => new Date());
  const anchor = opts.anchor ? new PgAuditAnchor(db, opts.anchor.file, opts.anchor.fresh, now) : undefined;
  void anchor?.update();
  /** An entry appended inside a transaction (the anchor follows once the caller's transaction has committed). */
  const audited = (tx: Tx, entry: AuditEntry) => appendAudit(tx, entry, now, currentClient(), personOfRequest(), opts.auditKeys?.mac);
  const local = keyedLock();
  /** Holders of action locks at once: each holds a pool connection and needs another for its work. */
  const lockSlots = semaphore(4);
  const actions: ActionStore = {
    // In this process first (one pool connection per key, not one per waiting request), then across
    // servers: a session advisory lock on the key's hash, held on one connection for the action.
    exclusive: (key, fn) =>
      local(key, () =>
        lockSlots(async () => {
          const client = await db.pool.connect();
          let broken: Error | undefined;
          try {
            await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [ACTION_LOCK_SPACE, key]);
            try {
              return await fn();
            } finally {
              // A failed unlock must not hide what the action did: the connection is dropped instead (its locks go with it).
              await client
                .query('SELECT pg_advisory_unlock($1, hashtext($2))', [ACTION_LOCK_SPACE, key])
                .catch((e: Error) => void (broken = e));
            }
          } finally {
            client.release(broken);
          }
        }),
      ),
    record: async (change) => {
      const record = await db.tx(async (tx) => {
        if (change.consents?.length) await storeConsents(tx, change.consents, now().toISOString());
        if (change.events?.length) await storeEvents(tx, change.events);
        return audited(tx, change.audit);
      });
      memo?.invalidate();
      anchor?.schedule();
      return record;
    },
  };
  const memo = opts.memo;
  const shared = <S extends object, K extends keyof S>(store: S, names: readonly K[], prefix: string): S =>
    memo ? memoized(store, names, memo, prefix) : store;
  const audit = pgAuditStore(db, now, anchor, opts.auditKeys);
  // The stores written once over the typed query layer (query/query.ts).
  const runner = pgQueryRunner(db, audited, () => {
    memo?.invalidate();
    anchor?.schedule();
  });
  return {
    db,
    consents: shared(pgConsentStore(db), ['count', 'options', 'total'], 'consents'),
    reference: pgReferenceStore(db),
    actions,
    bulk: pgBulkJobStore(db, runner, opts.instanceId ?? randomUUID()),
    events: shared(
      pgEventStore(db, memo ? { memo } : {}),
      ['count', 'days', 'failuresByMessage', 'failuresByConsent', 'consentsWithFailures', 'collectionsByHolder'],
      'events',
    ),
    data: withAnchorAfterRetention(pgDataStore(db, runner, { now, audit: audited }), anchor, () => memo?.invalidate()),
    audit: memo
      ? {
          ...audit,
          append: async (entry) => {
            const record = await audit.append(entry);
            memo.invalidate();
            return record;
          },
        }
      : audit,
    reports: shared(reportStore(runner), ['eventsByType', 'audited', 'staffActions', 'retention', 'collectionsByHolder'], 'reports'),
    syncState: pgSyncStateStore(db),
    complaints: complaintStore(runner),
    alerts: alertStore(runner),
    rule94: rule94Store(runner),
    monthly: monthlyPackStore(runner),
    flush: async () => anchor?.flush(),
  };
}

/** Retention audits each consent it treats: the anchor follows once the run has committed (and shared answers are asked again). */
function withAnchorAfterRetention(data: DataStore, anchor: PgAuditAnchor | undefined, changed: () => void): DataStore {
  return {
    ...data,
    applyRetention: async (operator) => {
      const done = await data.applyRetention(operator);
      if (done.length) {
        changed();
        anchor?.schedule();
      }
      return done;
    },
  };
}

/** At most `n` at once; the others wait their turn. */
function semaphore(n: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let free = n;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}
