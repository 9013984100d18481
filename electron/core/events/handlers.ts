import type { CoreContext, HandlersOf } from '../context.js';
import { stamp } from '../exports/exporter.js';
import { safeFileName } from '../exports/files.js';
import { writeEventsExport } from '../exports/log-exports.js';
import { WEBHOOK_FAILURES } from './port.js';

type EventChannels = 'events:list' | 'events:count' | 'events:days' | 'events:export' | 'events:failures' | 'webhooks:summary';

/** The events and webhooks domain: the event log across consents, its counts and days, and webhook failures grouped. */
export function eventHandlers(ctx: Pick<CoreContext, 'stores' | 'exports' | 'clock'>): HandlersOf<EventChannels> {
  const events = ctx.stores.events;
  return {
    'events:list': async ({ filter, offset, limit }) => ({ rows: await events.list({ filter, offset, limit }) }),
    'events:count': async ({ filter }) => events.count(filter),
    'events:days': async ({ filter, days, timeZone }) => events.days(filter, days, timeZone),
    'events:failures': async ({ page, pageSize }) => events.ofTypes(WEBHOOK_FAILURES, page, pageSize),
    'events:export': async ({ filter, format, timeZone }) =>
      ctx.exports.start({
        kind: 'export-events',
        title: `Export events to ${format.toUpperCase()}`,
        name: `${safeFileName('events', stamp(ctx.clock(), timeZone))}.${format}`,
        write: (path, job) => writeEventsExport(events, filter, format, path, job, timeZone),
        target: null,
        describe: (r) =>
          `${r.rows ?? 0} events exported as ${format.toUpperCase()} (sha256 ${r.sha256 ?? '?'}); filter ${JSON.stringify(filter)}`,
      }),
    'webhooks:summary': async ({ filter }) => {
      const [consentsAffected, byMessage, byConsent] = await Promise.all([
        events.consentsWithFailures(filter),
        events.failuresByMessage(filter, 500),
        events.failuresByConsent(filter, 500),
      ]);
      return { consentsAffected, byMessage, byConsent };
    },
  };
}
