import type { EventFilter } from '../../../../shared/ipc/contract.js';
import { useUrlView } from '../../ui/url.js';

export { WEBHOOK_DELIVERIES, WEBHOOK_FAILURES } from '../../../../shared/consents/webhooks.js';

/**
 * The view of the Events and Webhook failures screens, in the URL: types, consent, and a time
 * window as UTC instants (so a number on the overview and the list it links to count exactly the
 * same window).
 */
export interface EventView {
  types: string[];
  consentId: string;
  from: string | undefined;
  to: string | undefined;
}

const instant = (v: string | null) => (v && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : undefined);

export function eventViewOf(p: URLSearchParams): EventView {
  return {
    types: (p.get('type') ?? '').split(',').filter(Boolean),
    consentId: p.get('consent') ?? '',
    from: instant(p.get('from')),
    to: instant(p.get('to')),
  };
}

export function eventParams(v: Partial<EventView>): URLSearchParams {
  const p = new URLSearchParams();
  if (v.types?.length) p.set('type', v.types.join(','));
  if (v.consentId) p.set('consent', v.consentId);
  if (v.from) p.set('from', v.from);
  if (v.to) p.set('to', v.to);
  return p;
}

export function eventFilterOf(v: EventView): EventFilter {
  return {
    ...(v.types.length ? { types: v.types } : {}),
    ...(v.consentId.trim() ? { consentId: v.consentId.trim() } : {}),
    ...(v.from ? { from: v.from } : {}),
    ...(v.to ? { to: v.to } : {}),
  };
}

/** A link to the Events (or Webhook failures) screen with this view; `range` names a preset period (1, 7, 30, 90 days). */
export function eventsLink(path: '/events' | '/webhook-failures', v: Partial<EventView>, range?: string): string {
  const params = eventParams(v);
  if (range) params.set('range', range);
  const p = params.toString();
  return `${path}${p ? `?${p}` : ''}`;
}

export function useEventView() {
  return useUrlView(eventViewOf, eventParams);
}
