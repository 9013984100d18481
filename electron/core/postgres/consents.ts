import type { Consent, UseCase } from '../../../shared/schemas/consent.js';
import type { ConsentStore, ReferenceStore } from '../consents/port.js';
import type { PgDb, Tx } from './db.js';

/** Consents, their versions, use cases and data holders (part of schema version 1). */
export const CONSENTS_SCHEMA = `
CREATE TABLE consents (
  consent_id text PRIMARY KEY,
  payload    jsonb NOT NULL,
  synced_at  timestamptz NOT NULL
);
`;

export function pgConsentStore(_db: PgDb): ConsentStore {
  return new Proxy({}, { get: () => () => Promise.reject(new Error('not yet')) }) as ConsentStore;
}

export function pgReferenceStore(_db: PgDb): ReferenceStore {
  return new Proxy({}, { get: () => () => Promise.reject(new Error('not yet')) }) as ReferenceStore;
}

/** Stores a page of consents as a sync does (a new version for each that changed). */
export async function storeConsents(_tx: Tx, _consents: readonly Consent[], _syncedAt: string): Promise<void> {
  throw new Error('not yet');
}

/** Replaces the use cases and data holders, as a sync does. */
export async function storeReference(
  _tx: Tx,
  _useCases: readonly UseCase[],
  _holders: readonly { dataHolderBrandId: string; brandName: string; logoUri?: string | null }[],
  _at: string,
): Promise<void> {
  throw new Error('not yet');
}
