import type { AuditEntry, AuditRecord } from '../audit/port.js';
import type { DataKind } from '../api/data-client.js';
import type { DataStore } from '../data/port.js';
import type { PgDb, Tx } from './db.js';

/** Data API records, product versions and the retention log (part of schema version 1). */
export const DATA_SCHEMA = `
CREATE TABLE data_records (
  kind       text NOT NULL,
  record_id  text NOT NULL,
  consent_id text,
  raw        jsonb NOT NULL,
  fetched_at timestamptz NOT NULL,
  PRIMARY KEY (kind, record_id)
);
CREATE TABLE retention_log (
  consent_id text NOT NULL,
  action     text NOT NULL,
  records    integer NOT NULL,
  kinds      text NOT NULL,
  reason     text NOT NULL,
  at         text NOT NULL
);
`;

export interface PgDataOptions {
  now: () => Date;
  /** Appends an audit entry inside the caller's transaction (retention audits each consent it treats). */
  audit: (tx: Tx, entry: AuditEntry) => Promise<AuditRecord>;
}

export function pgDataStore(_db: PgDb, _opts: PgDataOptions): DataStore {
  return new Proxy({}, { get: () => () => Promise.reject(new Error('not yet')) }) as DataStore;
}

/** Stores a page of Data API records of one kind as a sync does. */
export async function storeData(_tx: Tx, _kind: DataKind, _records: readonly Record<string, unknown>[], _fetchedAt: string): Promise<void> {
  throw new Error('not yet');
}
