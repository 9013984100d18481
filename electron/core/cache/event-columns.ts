import { isoMillis } from '../events/instant.js';
import type { Columns } from './payload-codec.js';

/** An event as the API sent it (the shared schema's fields, and any others it had). */
export type EventPayload = Record<string, unknown> & {
  eventId?: string | undefined;
  eventType: string;
  eventDetail?: string | null | undefined;
  timestamp: string;
  consentId: string;
};

/**
 * The columns of an event row, and the values the payload encoding can leave out because the
 * columns hold them exactly. The time is kept as milliseconds; a timestamp that is not in the
 * canonical form (another zone, more digits) stays in the encoded payload as sent.
 */
export function eventColumns(eventId: string, e: EventPayload) {
  const ms = isoMillis(e.timestamp);
  const at = Number.isFinite(ms) ? ms : 0;
  const eventDetail = e.eventDetail ?? null;
  const covered: Columns = { eventId, eventType: e.eventType, eventDetail, consentId: e.consentId, timestamp: new Date(at).toISOString() };
  return { eventId, consentId: e.consentId, eventType: e.eventType, at, eventDetail, payload: e, covered };
}

/** The same values, from a stored row, for decoding its payload. */
export function coveredOf(row: {
  event_id: string;
  consent_id: string;
  event_type: string;
  at: number;
  event_detail: string | null;
}): Columns {
  return {
    eventId: row.event_id,
    eventType: row.event_type,
    eventDetail: row.event_detail,
    consentId: row.consent_id,
    timestamp: new Date(row.at).toISOString(),
  };
}
