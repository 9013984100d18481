import { createHash } from 'node:crypto';
import type { ConsentEvent } from '../../../shared/schemas/consent.js';

/** An id for an event that came without one: its content, so the same event always gets the same id. */
export const contentId = (e: ConsentEvent) =>
  `content:${createHash('sha256')
    .update(JSON.stringify([e.consentId, e.eventType, e.timestamp, e.eventDetail ?? null]))
    .digest('hex')
    .slice(0, 32)}`;
