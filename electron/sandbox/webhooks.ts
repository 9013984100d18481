import type { ConsentEvent } from '../../shared/schemas/consent.js';
import type { EventType } from './events.js';

/**
 * Webhook delivery: each lifecycle event caused through the API is POSTed (the event as JSON) to
 * the target. 2xx → WEBHOOK_SENT; 4xx → WEBHOOK_SENDING_FAILED_CLIENT_ERROR with the target's
 * response in eventDetail (not retried: the target refused it); 5xx or a network error →
 * WEBHOOK_SENDING_FAILED, retried with exponential backoff, then WEBHOOK_MAX_RETRIES_REACHED.
 */
export const WEBHOOK_LIFECYCLE: ReadonlySet<string> = new Set(['GRANTED', 'EXTENDED', 'REVOKED', 'EXPIRED']);

export interface WebhookOptions {
  target: () => string | undefined;
  record: (consentId: string, type: EventType, detail: string | null) => void;
  /** Delays before each retry; the default is 1 s, 2 s, 4 s. */
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
}

export class WebhookSender {
  private readonly inflight = new Set<Promise<void>>();
  constructor(private readonly opts: WebhookOptions) {}

  deliver(event: ConsentEvent): void {
    const url = this.opts.target();
    if (!url || !WEBHOOK_LIFECYCLE.has(event.eventType)) return;
    const task = this.attempt(url, event, 0).finally(() => this.inflight.delete(task));
    this.inflight.add(task);
  }

  private async attempt(url: string, event: ConsentEvent, attempt: number): Promise<void> {
    const delays = this.opts.retryDelaysMs ?? [1000, 2000, 4000];
    let failure: string;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'cdr-sandbox-webhook/1' },
        body: JSON.stringify(event),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
      const body = (await res.text()).slice(0, 500);
      if (res.ok) return this.opts.record(event.consentId, 'WEBHOOK_SENT', null);
      if (res.status >= 400 && res.status < 500) {
        return this.opts.record(
          event.consentId,
          'WEBHOOK_SENDING_FAILED_CLIENT_ERROR',
          `${res.status} ${res.statusText}${body ? `: ${body}` : ''}`,
        );
      }
      failure = `${res.status} ${res.statusText}`;
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      failure = cause?.code ?? (error as Error).message;
    }
    this.opts.record(event.consentId, 'WEBHOOK_SENDING_FAILED', failure);
    if (attempt >= delays.length)
      return this.opts.record(event.consentId, 'WEBHOOK_MAX_RETRIES_REACHED', `gave up after ${attempt + 1} attempts`);
    await new Promise((r) => setTimeout(r, delays[attempt]));
    return this.attempt(url, event, attempt + 1);
  }

  /** Resolves when every delivery in progress has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inflight.size) await Promise.all([...this.inflight]);
  }
}
