import { describe, expect, it } from 'vitest';
import { consentHealth, type HealthEvent } from '../../shared/consents/health.js';

/** A consent's problems in words (the first tab of the consent), from its facts and events. */
const now = new Date('2026-11-28T00:00:00.000Z');
const date = (iso: string) => iso.slice(0, 10);
const day = 86_400_000;
const at = (days: number) => new Date(now.getTime() + days * day).toISOString();
const ev = (eventType: string, days: number, eventDetail: string | null = null): HealthEvent => ({
  eventType,
  timestamp: at(days),
  eventDetail,
});
const healthy = { status: 'ACTIVE', sharingEndDate: at(200), firstDataCollection: at(-20), created: at(-30) };

describe('consent health', () => {
  it('finds nothing wrong with a consent whose deliveries went through, with data, far from its end', () => {
    expect(consentHealth(healthy, [ev('GRANTED', -30), ev('WEBHOOK_SENT', -30)], now, date)).toEqual([]);
  });

  it('names failed deliveries, and whether one went through since', () => {
    const recovered = consentHealth(
      healthy,
      [ev('WEBHOOK_SENDING_FAILED', -3, '503 Service Unavailable'), ev('WEBHOOK_SENT', -2)],
      now,
      date,
    );
    expect(recovered).toEqual([
      expect.objectContaining({
        kind: 'deliveries-failed',
        level: 'warning',
        title: '1 failed webhook delivery',
        detail: `The last on ${date(at(-3))}: 503 Service Unavailable. A later delivery went through.`,
      }),
    ]);
    const stuck = consentHealth(
      healthy,
      [ev('WEBHOOK_SENT', -5), ev('WEBHOOK_SENDING_FAILED_CLIENT_ERROR', -1, '410 Gone\u202E')],
      now,
      date,
    );
    expect(stuck[0]).toMatchObject({
      level: 'danger',
      detail: expect.stringMatching(/410 Gone⟦U\+202E⟧\. No delivery has gone through since\.$/),
    });
  });

  it('puts exhausted retries first, then the other problems: sharing ending soon, or passed, and no data collected', () => {
    const problems = consentHealth(
      { status: 'ACTIVE', sharingEndDate: at(10.5), firstDataCollection: null, created: at(-3) },
      [ev('WEBHOOK_SENDING_FAILED', -2), ev('WEBHOOK_MAX_RETRIES_REACHED', -2), ev('WEBHOOK_MAX_RETRIES_REACHED', -1)],
      now,
      date,
    );
    expect(problems.map((p) => [p.kind, p.level, p.title])).toEqual([
      ['retries-exhausted', 'danger', 'Webhook retries exhausted 2 times'],
      ['deliveries-failed', 'danger', '1 failed webhook delivery'],
      ['sharing-ends-soon', 'warning', 'Sharing ends in 11 days'],
      ['never-collected', 'warning', 'No data collected yet'],
    ]);
    expect(consentHealth({ ...healthy, sharingEndDate: at(-1) }, [], now, date).map((p) => p.kind)).toEqual(['past-sharing-end']);
    // Granted within the last day: too soon to expect data. Not active: nothing due.
    expect(consentHealth({ ...healthy, firstDataCollection: null, created: at(-0.5) }, [], now, date)).toEqual([]);
    expect(consentHealth({ ...healthy, status: 'REVOKED', sharingEndDate: at(3), firstDataCollection: null }, [], now, date)).toEqual([]);
  });
});
