import { EVENT_TYPES } from '../../shared/schemas/consent.js';
import type { ConsentCore } from './consents.js';
import { hashString, Rng } from './random.js';

/**
 * Seeded consent events. A consent's events follow its life: GRANTED, the e-mail to the consumer,
 * DATA_COLLECTION_COMPLETED, an EXTENDED, then REVOKED or EXPIRED; each lifecycle event is sent to
 * the recipient's webhook, with the outcomes the intermediary reports (sent; a client error with the
 * target's response; failures then success; failures up to WEBHOOK_MAX_RETRIES_REACHED). Only types
 * and times are computed here; full event objects are built for the page asked.
 */
export type EventType = (typeof EVENT_TYPES)[number];
export const EVENT_CODE: Record<EventType, number> = Object.fromEntries(EVENT_TYPES.map((t, i) => [t, i])) as Record<EventType, number>;

export interface SeededEvent {
  type: EventType;
  time: number;
  /** For WEBHOOK_SENDING_FAILED_CLIENT_ERROR: the target's response message. */
  detail: string | null;
}

const K_EVENTS = hashString('events');
const CLIENT_ERRORS = [
  '400 Bad Request: {"error":"unknown consentId"}',
  '401 Unauthorized: invalid webhook signature',
  '404 Not Found: no route for POST /cdr/webhook',
  '410 Gone: endpoint retired',
  '422 Unprocessable Entity: {"message":"eventType not supported"}',
] as const;

/** The view of a consent the event rules need: its core with API changes applied. */
export interface EventSource extends Pick<
  ConsentCore,
  'status' | 'created' | 'sharingEnd' | 'revoked' | 'extended' | 'firstDataCollection'
> {
  index: number;
  notifiesByEmail: boolean;
}

/**
 * Real targets put ids and times in their answers, so the same failure reads differently each time
 * (what the console's grouping masks). Derived from the event's time, so no draw of the seeded
 * random sequence is added and every other seeded value stays as it was.
 */
function withRequestId(message: string, time: number): string {
  if (!message.startsWith('400 ')) return message;
  const h = (hashString(`request:${time}`) >>> 0).toString(16).padStart(8, '0');
  return message.replace(
    '}',
    `,"requestId":"${h}-${h.slice(0, 4)}-4${h.slice(1, 4)}-8${h.slice(4, 7)}-${h}${h.slice(0, 4)}","at":"${new Date(time).toISOString()}"}`,
  );
}

export function seededEvents(seed: number, c: EventSource, now: number, perConsent: number | undefined): SeededEvent[] {
  const r = new Rng(seed, K_EVENTS, c.index);
  const out: SeededEvent[] = [];
  const webhook = (after: number) => {
    const roll = r.float();
    let t = after + r.int(200, 5_000);
    if (roll < 0.88) out.push({ type: 'WEBHOOK_SENT', time: t, detail: null });
    else if (roll < 0.94)
      out.push({ type: 'WEBHOOK_SENDING_FAILED_CLIENT_ERROR', time: t, detail: withRequestId(r.pick(CLIENT_ERRORS), t) });
    else if (roll < 0.98) {
      out.push({ type: 'WEBHOOK_SENDING_FAILED', time: t, detail: '503 Service Unavailable' });
      out.push({ type: 'WEBHOOK_SENT', time: t + 60_000, detail: null });
    } else {
      for (let k = 0; k < 3; k++)
        out.push({
          type: 'WEBHOOK_SENDING_FAILED',
          time: (t += 60_000 * 2 ** k),
          detail: k === 1 ? 'connect ETIMEDOUT' : '502 Bad Gateway',
        });
      out.push({ type: 'WEBHOOK_MAX_RETRIES_REACHED', time: t + 1_000, detail: null });
    }
  };
  const lifecycle = (type: EventType, time: number) => {
    if (time > now) return;
    out.push({ type, time, detail: null });
    webhook(time);
    if (c.notifiesByEmail && type !== 'DATA_COLLECTION_COMPLETED')
      out.push({ type: 'EMAIL_SENT', time: time + r.int(1_000, 60_000), detail: null });
  };

  if (c.status === 0) {
    if (c.notifiesByEmail) out.push({ type: 'EMAIL_SENT', time: c.created + 30_000, detail: null });
  } else {
    lifecycle('GRANTED', c.created + 20_000);
    if (c.firstDataCollection !== null) lifecycle('DATA_COLLECTION_COMPLETED', c.firstDataCollection);
    if (c.extended !== null) lifecycle('EXTENDED', c.extended);
    if (c.revoked !== null) lifecycle('REVOKED', c.revoked);
    else if (c.sharingEnd <= now) lifecycle('EXPIRED', c.sharingEnd);
  }
  // With a fixed count per consent: keep the first N in time; pad with periodic notification
  // e-mails (the intermediary's reminders) when the life has fewer events. Reminders that would
  // fall after the clock are spread evenly between the consent's last event and the clock (not
  // crammed into its last milliseconds: at 100,000 consents that made 58,000 e-mails in 10 ms).
  out.sort((a, b) => a.time - b.time);
  if (perConsent !== undefined) {
    if (out.length > perConsent) out.length = perConsent;
    const last = out.at(-1)?.time ?? c.created;
    let t = last + 30 * 86_400_000;
    while (out.length < perConsent && t < now) {
      out.push({ type: 'EMAIL_SENT', time: t, detail: null });
      t += 30 * 86_400_000;
    }
    const from = out.at(-1)?.time ?? last;
    const missing = perConsent - out.length;
    // Distinct instants (an event's id is made of its content), never after the clock.
    const evenly = now - from > missing + 1;
    for (let k = 1; k <= missing; k++) {
      const time = evenly ? from + Math.floor(((now - from) * k) / (missing + 1)) : now - (missing + 1 - k);
      out.push({ type: 'EMAIL_SENT', time, detail: null });
    }
    out.sort((a, b) => a.time - b.time);
  }
  return out;
}
