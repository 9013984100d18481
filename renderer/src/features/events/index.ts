/** What other features use of the events screens: links into them, their view, and the webhook event types. */
export { eventFilterOf, eventsLink, useEventView, WEBHOOK_DELIVERIES, WEBHOOK_FAILURES, type EventView } from './view.js';
