import type { ConsentEvent } from '../../../shared/schemas/consent.js';
import type { EventStore } from '../events/port.js';
import { contentId } from '../sync/event-id.js';
import type { PgDb, Tx } from './db.js';

/** The intermediary's consent events (part of schema version 1). */
export const EVENTS_SCHEMA = `
CREATE TABLE events (
  event_id     text PRIMARY KEY,
  consent_id   text NOT NULL,
  event_type   text NOT NULL,
  at           timestamptz NOT NULL,
  event_detail text,
  payload      jsonb NOT NULL
);
CREATE INDEX events_by_consent ON events (consent_id, at);
CREATE INDEX events_by_type ON events (event_type, at);
CREATE INDEX events_by_time ON events (at);
`;

export function pgEventStore(_db: PgDb): EventStore {
  return new Proxy({}, { get: () => () => Promise.reject(new Error('not yet')) }) as EventStore;
}

/** Stores a page of events as a sync does (an event already stored is kept once). */
export async function storeEvents(
  tx: Tx,
  events: readonly ConsentEvent[],
  touched?: Set<string>,
): Promise<{ new: number; changed: number }> {
  const byId = new Map<string, { id: string; at: string; payload: ConsentEvent }>();
  for (const e of events) {
    const ms = Date.parse(e.timestamp);
    byId.set(e.eventId ?? contentId(e), {
      id: e.eventId ?? contentId(e),
      at: new Date(Number.isFinite(ms) ? ms : 0).toISOString(),
      payload: e,
    });
  }
  if (!byId.size) return { new: 0, changed: 0 };
  const written = await tx.query<{ consent_id: string; inserted: boolean }>(
    `INSERT INTO events (event_id, consent_id, event_type, at, event_detail, payload)
     SELECT id, payload->>'consentId', payload->>'eventType', at, payload->>'eventDetail', payload
     FROM jsonb_to_recordset($1::jsonb) AS x(id text, at timestamptz, payload jsonb)
     ON CONFLICT (event_id) DO UPDATE SET consent_id = excluded.consent_id, event_type = excluded.event_type, at = excluded.at,
       event_detail = excluded.event_detail, payload = excluded.payload
     WHERE events.payload <> excluded.payload
     RETURNING consent_id, xmax = 0 AS inserted`,
    [JSON.stringify([...byId.values()])],
  );
  for (const r of written) touched?.add(r.consent_id);
  const added = written.filter((r) => r.inserted).length;
  return { new: added, changed: written.length - added };
}
