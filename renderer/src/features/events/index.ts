/** What other features use of the events screens: links into them, their view, their counts, and the webhook event types. */
export { useEventsCount, useEventsDays } from './queries.js';
export { eventFilterOf, eventsLink, useEventView, WEBHOOK_DELIVERIES, WEBHOOK_FAILURES, type EventView } from './view.js';
