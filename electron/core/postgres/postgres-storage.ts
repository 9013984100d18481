import { randomUUID } from 'node:crypto';
import type { AuditAnchorFile } from '../audit/audit-anchor.js';
import type { AuditEntry } from '../audit/port.js';
import { keyedLock } from '../consents/keyed-lock.js';
import type { ActionStore } from '../consents/port.js';
import type { Storage } from '../storage.js';
import { PgAuditAnchor } from './audit-anchor.js';
import { appendAudit, pgAuditStore } from './audit.js';
import { pgConsentStore, pgReferenceStore, storeConsents } from './consents.js';
import { pgDataStore } from './data.js';
import type { PgDb, Tx } from './db.js';
import { pgEventStore, storeEvents } from './events.js';
import { pgBulkJobStore } from './jobs.js';
import { pgReportStore } from './reports.js';
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
}

export function postgresStorage(db: PgDb, opts: PostgresStorageOptions = {}): PostgresStorage {
  const now = opts.now ?? (() => new Date());
  const anchor = opts.anchor ? new PgAuditAnchor(db, opts.anchor.file, opts.anchor.fresh, now) : undefined;
  void anchor?.update();
  /** An entry appended inside a transaction: the anchor follows once it has committed. */
  const audited = (tx: Tx, entry: AuditEntry) => {
    anchor?.schedule();
    return appendAudit(tx, entry, now);
  };
  const local = keyedLock();
  const actions: ActionStore = {
    // In this process first (one pool connection per key, not one per waiting request), then across
    // servers: a session advisory lock on the key's hash, held on one connection for the action.
    exclusive: (key, fn) =>
      local(key, async () => {
        const client = await db.pool.connect();
        try {
          await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [ACTION_LOCK_SPACE, key]);
          try {
            return await fn();
          } finally {
            await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [ACTION_LOCK_SPACE, key]);
          }
        } finally {
          client.release();
        }
      }),
    record: (change) =>
      db.tx(async (tx) => {
        if (change.consents?.length) await storeConsents(tx, change.consents, now().toISOString());
        if (change.events?.length) await storeEvents(tx, change.events);
        return audited(tx, change.audit);
      }),
  };
  return {
    db,
    consents: pgConsentStore(db),
    reference: pgReferenceStore(db),
    actions,
    bulk: pgBulkJobStore(db, opts.instanceId ?? randomUUID()),
    events: pgEventStore(db),
    data: pgDataStore(db, { now, audit: audited }),
    audit: pgAuditStore(db, now, anchor),
    reports: pgReportStore(db),
    syncState: pgSyncStateStore(db),
    flush: async () => anchor?.flush(),
  };
}
