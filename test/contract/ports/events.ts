import { describe, expect, it } from 'vitest';
import { WEBHOOK_FAILURES } from '../../../electron/core/events/port.js';
import { dayOfInstant } from '../../../shared/time/zone.js';
import { drain, withStore, type OpenFixture } from '../fixture.js';
import { sampleWorld, SYNCED_AT } from '../world.js';

/** The events domain's port: EventStore. */
export function eventStoreSuite(open: OpenFixture) {
  const { consents, events } = sampleWorld();
  const failures = events.filter((e) => (WEBHOOK_FAILURES as readonly string[]).includes(e.eventType));
  const countOf = (type: string) => events.filter((e) => e.eventType === type).length;

  describe('EventStore', () => {
    it(
      'lists every event newest first, a window at a time, and counts them by type',
      withStore(open, async ({ storage, load, settled }) => {
        await load.consents(consents, SYNCED_AT);
        await load.events(events);
        await settled();
        expect(events.length).toBeGreaterThan(200);
        const counted = await storage.events.count({});
        expect(counted.total).toBe(events.length);
        for (const t of counted.types) expect(t.count).toBe(countOf(t.type));
        const all = await drain(storage.events.windows({}));
        expect(all).toHaveLength(events.length);
        for (let i = 1; i < all.length; i++) expect(all[i - 1]!.timestamp >= all[i]!.timestamp).toBe(true);
        expect(new Set(all.map((e) => e.eventId)).size).toBe(events.length);
        expect(await storage.events.list({ filter: {}, offset: 37, limit: 20 })).toEqual(all.slice(37, 57));
        const granted = await storage.events.list({ filter: { types: ['GRANTED'] }, offset: 0, limit: 500 });
        expect(granted).toHaveLength(countOf('GRANTED'));
        expect(granted.every((e) => e.eventType === 'GRANTED')).toBe(true);
        const c = consents[3]!;
        const row = granted.find((e) => e.consentId === c.consentId);
        if (row) expect(row.consumerEmail).toBe(c.consumerEmail ?? null);
      }),
    );

    it(
      'filters by time: from inclusive, to exclusive, and counts days',
      withStore(open, async ({ storage, load, settled }) => {
        await load.events(events);
        await settled();
        const times = events.map((e) => e.timestamp).sort();
        const from = times[Math.floor(times.length / 4)]!;
        const to = times[Math.floor((times.length * 3) / 4)]!;
        const inside = events.filter((e) => Date.parse(e.timestamp) >= Date.parse(from) && Date.parse(e.timestamp) < Date.parse(to));
        expect((await storage.events.count({ from, to })).total).toBe(inside.length);
        const days = await storage.events.days({ from, to }, 400);
        expect(days.reduce((n, d) => n + d.total, 0)).toBe(inside.length);
      }),
    );

    it(
      'counts days of the time zone asked for (the console’s), each event on its calendar day there',
      withStore(open, async ({ storage, load, settled }) => {
        await load.events(events);
        await settled();
        const shapes: string[] = [];
        for (const zone of ['Pacific/Auckland', 'America/Los_Angeles', 'Australia/Perth', undefined]) {
          const expected = new Map<string, number>();
          for (const e of events) {
            const { day } = dayOfInstant(Date.parse(e.timestamp), zone ?? null);
            expected.set(day, (expected.get(day) ?? 0) + 1);
          }
          const newest = [...expected].sort((a, b) => (a[0] < b[0] ? 1 : -1)).slice(0, 30);
          const days = await storage.events.days({}, 30, zone);
          expect(days.map((d) => [d.day, d.total])).toEqual(newest);
          shapes.push(JSON.stringify(newest));
        }
        // Auckland's days and Los Angeles's are not the same days: the zone did something.
        expect(shapes[0]).not.toBe(shapes[1]);
      }),
    );

    it(
      'gives one consent’s timeline, the failures by type, and the webhook failures grouped',
      withStore(open, async ({ storage, load, settled }) => {
        await load.consents(consents, SYNCED_AT);
        await load.events(events);
        await settled();
        const c = consents[5]!.consentId;
        const own = events.filter((e) => e.consentId === c);
        const timeline = await storage.events.forConsent(c, 500);
        expect(timeline.map((e) => e.eventType).sort()).toEqual(own.map((e) => e.eventType).sort());
        expect(failures.length).toBeGreaterThan(0);
        const page = await storage.events.ofTypes(WEBHOOK_FAILURES, 1, 10);
        expect(page.total).toBe(failures.length);
        expect(page.rows.length).toBe(Math.min(10, failures.length));
        expect(await storage.events.consentsWithFailures({})).toBe(new Set(failures.map((e) => e.consentId)).size);
        const byConsent = await storage.events.failuresByConsent({}, 500);
        expect(byConsent.reduce((n, g) => n + g.failures, 0)).toBe(failures.length);
        const byMessage = await storage.events.failuresByMessage({}, 500);
        expect(byMessage.reduce((n, g) => n + g.count, 0)).toBe(failures.length);
      }),
    );
  });
}
