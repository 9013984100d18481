import { visibleText } from '../text/visible.js';
import { WEBHOOK_FAILURES } from './webhooks.js';

/**
 * What is wrong with one consent, worst first, from its cached facts and events: the problems an
 * agent should see before its fields (issue 34: three failed deliveries and "retries exhausted"
 * were visible only under Timeline). Pure: the caller gives the clock and formats the dates.
 */
export type HealthLevel = 'danger' | 'warning';

export interface HealthProblem {
  kind: 'retries-exhausted' | 'deliveries-failed' | 'sharing-ends-soon' | 'never-collected' | 'past-sharing-end';
  level: HealthLevel;
  /** One line, in words. */
  title: string;
  /** What it rests on, and what to do. */
  detail: string;
  /** Where the evidence is: the consent's timeline, or its data. */
  see: 'timeline' | 'data' | null;
}

export interface HealthFacts {
  status?: string | null | undefined;
  sharingEndDate?: string | null | undefined;
  firstDataCollection?: string | null | undefined;
  created?: string | null | undefined;
}

export interface HealthEvent {
  eventType: string;
  timestamp: string;
  eventDetail: string | null;
}

const DAY = 86_400_000;
/** "Expiring soon": what the overview's needs-attention tiles count too. */
export const EXPIRING_WITHIN_DAYS = 30;
/** A consent granted longer ago than this with no data collected is worth a look. */
export const COLLECTION_GRACE_DAYS = 1;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function consentHealth(c: HealthFacts, events: readonly HealthEvent[], now: Date, date: (iso: string) => string): HealthProblem[] {
  const out: HealthProblem[] = [];
  const failures = events.filter((e) => (WEBHOOK_FAILURES as readonly string[]).includes(e.eventType));
  const exhausted = failures.filter((e) => e.eventType === 'WEBHOOK_MAX_RETRIES_REACHED');
  const newest = (xs: readonly HealthEvent[]) => xs.reduce((a, b) => (Date.parse(b.timestamp) > Date.parse(a.timestamp) ? b : a));
  if (exhausted.length) {
    const last = newest(exhausted);
    out.push({
      kind: 'retries-exhausted',
      level: 'danger',
      title: `Webhook retries exhausted ${plural(exhausted.length, 'time', 'times')}`,
      detail: `The intermediary stopped trying to deliver ${exhausted.length === 1 ? 'an event' : 'events'} to the recipient's webhook (the last on ${date(last.timestamp)}): the recipient never heard of ${exhausted.length === 1 ? 'it' : 'them'}.`,
      see: 'timeline',
    });
  }
  const failed = failures.filter((e) => e.eventType !== 'WEBHOOK_MAX_RETRIES_REACHED');
  if (failed.length) {
    const last = newest(failed);
    const sentAfter = events.some((e) => e.eventType === 'WEBHOOK_SENT' && Date.parse(e.timestamp) > Date.parse(last.timestamp));
    out.push({
      kind: 'deliveries-failed',
      level: exhausted.length || !sentAfter ? 'danger' : 'warning',
      title: `${plural(failed.length, 'failed webhook delivery', 'failed webhook deliveries')}`,
      detail: `The last on ${date(last.timestamp)}${last.eventDetail ? `: ${visibleText(last.eventDetail)}` : ''}. ${sentAfter ? 'A later delivery went through.' : 'No delivery has gone through since.'}`,
      see: 'timeline',
    });
  }
  if (c.status === 'ACTIVE' && c.sharingEndDate) {
    const left = Date.parse(c.sharingEndDate) - now.getTime();
    if (left <= 0)
      out.push({
        kind: 'past-sharing-end',
        level: 'warning',
        title: 'Sharing end date has passed, yet the consent is active in the cache',
        detail: `Sharing ended on ${date(c.sharingEndDate)}. Sync to read its status now: the intermediary may have expired it since.`,
        see: null,
      });
    else if (left <= EXPIRING_WITHIN_DAYS * DAY) {
      const days = Math.ceil(left / DAY);
      out.push({
        kind: 'sharing-ends-soon',
        level: 'warning',
        title: `Sharing ends in ${plural(days, 'day', 'days')}`,
        detail: `On ${date(c.sharingEndDate)}; the consumer can extend it before then.`,
        see: null,
      });
    }
  }
  if (c.status === 'ACTIVE' && !c.firstDataCollection && c.created && now.getTime() - Date.parse(c.created) > COLLECTION_GRACE_DAYS * DAY)
    out.push({
      kind: 'never-collected',
      level: 'warning',
      title: 'No data collected yet',
      detail: `Active since ${date(c.created)}, and no data has been collected under it.`,
      see: 'data',
    });
  return out.sort((a, b) => (a.level === b.level ? 0 : a.level === 'danger' ? -1 : 1));
}
