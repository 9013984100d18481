import { createHash } from 'node:crypto';
import type { Consent, UseCase } from '../../../shared/schemas/consent.js';
import type { ConsentStore, ReferenceStore } from '../consents/port.js';
import type { UpsertCounts } from '../sync/sync-store.js';
import type { PgDb, Tx } from './db.js';

/**
 * Consents, their versions, use cases and data holders (part of schema version 1). A consent's
 * payload is kept whole (jsonb); the columns lists filter and sort on are generated from it.
 */
const col = (name: string, expr: string, type = 'text') => `${name} ${type} GENERATED ALWAYS AS (${expr}) STORED`;

export const CONSENTS_SCHEMA = `
CREATE TABLE consents (
  consent_id   text PRIMARY KEY,
  payload      jsonb NOT NULL,
  payload_hash text NOT NULL,
  synced_at    text NOT NULL,
  ${col('status', "payload->>'status'")},
  ${col('consumer_email', "payload->>'consumerEmail'")},
  ${col('data_holder_name', "payload->>'dataHolderName'")},
  ${col('data_holder_brand_id', "payload->>'dataHolderBrandId'")},
  ${col('use_case_id', "payload->'useCase'->>'id'")},
  ${col('use_case_name', "payload->'useCase'->>'name'")},
  ${col('created', "payload->>'created'")},
  ${col('sharing_end_date', "payload->>'sharingEndDate'")},
  ${col('revoked', "payload->>'revoked'")},
  ${col('version', "(payload->>'version')::integer", 'integer')},
  ${col('cdr_arrangement_id', "payload->>'cdrArrangementId'")},
  ${col('consumer_id', "payload->>'consumerId'")},
  ${col('consumer_mobile', "payload->>'consumerMobileNumber'")},
  ${col('external_id', "payload->>'externalId'")},
  ${col('post_usage_action', "payload->>'postUsageAction'")}
);
CREATE INDEX consents_by_created ON consents (created, consent_id);
CREATE TABLE consent_versions (
  consent_id text NOT NULL,
  version    integer,
  hash       text NOT NULL,
  payload    jsonb NOT NULL,
  seen_at    text NOT NULL,
  PRIMARY KEY (consent_id, hash)
);
CREATE TABLE use_cases (
  id        text PRIMARY KEY,
  payload   jsonb NOT NULL,
  combined  jsonb,
  synced_at text NOT NULL
);
CREATE TABLE data_holders (
  data_holder_brand_id text PRIMARY KEY,
  brand_name           text,
  logo_uri             text,
  synced_at            text NOT NULL
);
`;

export function pgConsentStore(_db: PgDb): ConsentStore {
  return new Proxy({}, { get: () => () => Promise.reject(new Error('not yet')) }) as ConsentStore;
}

export function pgReferenceStore(_db: PgDb): ReferenceStore {
  return new Proxy({}, { get: () => () => Promise.reject(new Error('not yet')) }) as ReferenceStore;
}

/**
 * Stores a page of consents as a sync does, in one statement: new ones inserted, changed ones
 * updated and given a new version, unchanged ones left as they were (their synced_at too, as in
 * the SQLite adapter). The last of several copies of one consent in a page wins.
 */
export async function storeConsents(tx: Tx, consents: readonly Consent[], syncedAt: string): Promise<UpsertCounts> {
  const byId = new Map<string, { id: string; hash: string; version: number | null; payload: Consent }>();
  for (const c of consents)
    byId.set(c.consentId, {
      id: c.consentId,
      hash: createHash('sha1').update(JSON.stringify(c)).digest('hex'),
      version: c.version ?? null,
      payload: c,
    });
  if (!byId.size) return { new: 0, changed: 0, unchanged: consents.length };
  const written = await tx.query<{ inserted: boolean }>(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id text, hash text, version integer, payload jsonb)
     ), written AS (
       INSERT INTO consents (consent_id, payload, payload_hash, synced_at)
       SELECT id, payload, hash, $2 FROM input
       ON CONFLICT (consent_id) DO UPDATE SET payload = excluded.payload, payload_hash = excluded.payload_hash, synced_at = excluded.synced_at
       WHERE consents.payload_hash <> excluded.payload_hash
       RETURNING consent_id, xmax = 0 AS inserted
     ), versions AS (
       INSERT INTO consent_versions (consent_id, version, hash, payload, seen_at)
       SELECT id, version, hash, payload, $2 FROM input WHERE id IN (SELECT consent_id FROM written)
       ON CONFLICT (consent_id, hash) DO NOTHING
     )
     SELECT inserted FROM written`,
    [JSON.stringify([...byId.values()]), syncedAt],
  );
  const added = written.filter((r) => r.inserted).length;
  return { new: added, changed: written.length - added, unchanged: consents.length - written.length };
}

/** Replaces the use cases and data holders, as a sync does. */
export async function storeReference(
  tx: Tx,
  useCases: readonly UseCase[],
  holders: readonly { dataHolderBrandId: string; brandName?: string | null | undefined; logoUri?: string | null | undefined }[],
  at: string,
): Promise<void> {
  await storeUseCases(tx, useCases, at);
  await storeDataHolders(tx, holders, at);
}

/** Replaces the use cases (and their combined-scopes view, when the intermediary gave one). */
export async function storeUseCases(tx: Tx, useCases: readonly UseCase[], at: string, combined?: readonly UseCase[]): Promise<void> {
  const combinedById = new Map((combined ?? []).map((u) => [u.id, u]));
  await tx.query('DELETE FROM use_cases');
  await tx.query(
    `INSERT INTO use_cases (id, payload, combined, synced_at)
     SELECT x.id, x.payload, x.combined, $2 FROM jsonb_to_recordset($1::jsonb) AS x(id text, payload jsonb, combined jsonb)`,
    [JSON.stringify(useCases.map((u) => ({ id: u.id, payload: u, combined: combinedById.get(u.id) ?? null }))), at],
  );
}

/** Replaces the data holders. */
export async function storeDataHolders(
  tx: Tx,
  holders: readonly { dataHolderBrandId: string; brandName?: string | null | undefined; logoUri?: string | null | undefined }[],
  at: string,
): Promise<void> {
  await tx.query('DELETE FROM data_holders');
  await tx.query(
    `INSERT INTO data_holders (data_holder_brand_id, brand_name, logo_uri, synced_at)
     SELECT h->>'dataHolderBrandId', h->>'brandName', h->>'logoUri', $2 FROM jsonb_array_elements($1::jsonb) AS h`,
    [JSON.stringify(holders), at],
  );
}
