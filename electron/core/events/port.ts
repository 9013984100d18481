import type { ChannelOutput, DayCounts, EventFilter, EventListRow, WebhookSummary } from '../../../shared/ipc/contract.js';

/**
 * The events domain's storage port: the intermediary's consent events across consents, for the
 * Events and Webhook failures screens, the overview, the consent timeline and the reports.
 * Asynchronous and free of the engine: the SQLite adapter answers from in-memory read indexes when
 * they are fresh, and from SQL otherwise; callers cannot tell.
 */
/** The webhook delivery failures the intermediary reports as events (shared/consents/webhooks.ts). */
export { WEBHOOK_FAILURES } from '../../../shared/consents/webhooks.js';

export type EventRow = ChannelOutput<'events:failures'>['rows'][number];

/** Events per window of an export (`EventStore.windows`), on both engines. */
export const EVENT_WINDOW = 1000;

export interface EventStore {
  /** A window of a filtered list, newest first. */
  list(input: { filter: EventFilter; offset: number; limit: number }): Promise<EventListRow[]>;
  count(filter: EventFilter): Promise<{ total: number; types: { type: string; count: number }[] }>;
  /**
   * Counts per day and type, the last `days` days up to the newest event: calendar days of
   * `timeZone` (the console's), or of the serving process's zone when absent.
   */
  days(filter: EventFilter, days: number, timeZone?: string): Promise<DayCounts[]>;
  /** The events of some types, a page at a time, newest first. */
  ofTypes(types: readonly string[], page: number, pageSize: number): Promise<ChannelOutput<'events:failures'>>;
  /** One consent's events, newest first, up to `limit` (the consent's timeline). */
  forConsent(consentId: string, limit: number): Promise<EventRow[]>;
  /** Webhook failures grouped by what the target answered (the first `limit` groups). */
  failuresByMessage(filter: EventFilter, limit: number): Promise<WebhookSummary['byMessage']>;
  /** Webhook failures grouped by consent, worst first. */
  failuresByConsent(filter: EventFilter, limit: number): Promise<WebhookSummary['byConsent']>;
  /** How many consents had at least one webhook failure in the filter. */
  consentsWithFailures(filter: EventFilter): Promise<number>;
  /** Data collections completed in [from, to) per data holder, most first. */
  collectionsByHolder(from: string, to: string): Promise<{ dataHolderName: string; count: number }[]>;
  /** Every event of a filter, newest first, a window at a time (exports). */
  windows(filter: EventFilter): AsyncIterable<EventListRow[]>;
}
