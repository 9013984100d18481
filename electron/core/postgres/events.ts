import type { ConsentEvent } from '../../../shared/schemas/consent.js';
import type { EventStore } from '../events/port.js';
import type { PgDb, Tx } from './db.js';

/** The intermediary's consent events (part of schema version 1). */
export const EVENTS_SCHEMA = `
CREATE TABLE events (
  event_id   text PRIMARY KEY,
  consent_id text,
  payload    jsonb NOT NULL
);
`;

export function pgEventStore(_db: PgDb): EventStore {
  return new Proxy({}, { get: () => () => Promise.reject(new Error('not yet')) }) as EventStore;
}

/** Stores a page of events as a sync does (an event already stored is kept once). */
export async function storeEvents(_tx: Tx, _events: readonly ConsentEvent[]): Promise<void> {
  throw new Error('not yet');
}
