import { describe, expect, it } from 'vitest';
import { withStore, type OpenFixture } from '../fixture.js';
import { sampleWorld, SYNCED_AT } from '../world.js';

/** The reports domain's port: ReportStore. */
export function reportStoreSuite(open: OpenFixture) {
  const { consents, events } = sampleWorld();
  const times = events.map((e) => e.timestamp).sort();
  const from = times[Math.floor(times.length / 3)]!;
  const to = times[times.length - 1]!;
  const inPeriod = events.filter((e) => Date.parse(e.timestamp) >= Date.parse(from) && Date.parse(e.timestamp) < Date.parse(to));

  describe('ReportStore', () => {
    it(
      'counts events by type, staff actions and data collections in a period [from, to)',
      withStore(open, async ({ storage, load, settled }) => {
        await load.consents(consents, SYNCED_AT);
        await load.events(events);
        await settled();
        const types = ['GRANTED', 'REVOKED', 'EXPIRED', 'NEVER_SEEN'];
        const counts = await storage.reports.eventsByType(from, to, types);
        for (const t of types) expect(counts.get(t)).toBe(inPeriod.filter((e) => e.eventType === t).length);
        const collections = await storage.reports.collectionsByHolder(from, to);
        expect(collections.reduce((n, c) => n + c.count, 0)).toBe(
          inPeriod.filter((e) => e.eventType === 'DATA_COLLECTION_COMPLETED').length,
        );
        for (let i = 1; i < collections.length; i++) expect(collections[i - 1]!.count >= collections[i]!.count).toBe(true);

        const now = new Date().toISOString();
        const later = new Date(Date.now() + 60_000).toISOString();
        await storage.audit.append({ operator: 'sam', action: 'revoke', target: 'a', reason: 'r', result: 'revoked' });
        await storage.audit.append({
          operator: 'sam',
          action: 'revoke',
          target: 'b',
          reason: 'r',
          result: 'already inactive at the data holder',
        });
        await storage.audit.append({ operator: 'sam', action: 'revoke', target: 'c', reason: 'r', result: 'failed: offline' });
        // A failure in any letter case is a failure (both engines fold ASCII letters alike).
        await storage.audit.append({ operator: 'sam', action: 'revoke', target: 'c', reason: 'r', result: 'FAILED: refused (403)' });
        const start = new Date(Date.parse(now) - 60_000).toISOString();
        expect(await storage.reports.audited('revoke', start, later, 'revoked')).toBe(1);
        expect(await storage.reports.audited('revoke', start, later)).toBe(2);
        expect(await storage.reports.audited('revoke', later, later)).toBe(0);
        expect(await storage.reports.retention(start, later)).toEqual([]);

        // Per member of staff: every person's revocations that revoked and updates that did not fail.
        await storage.audit.append({ operator: 'vera (Vera V)', action: 'update', target: 'a', reason: null, result: 'updated' });
        await storage.audit.append({ operator: 'vera (Vera V)', action: 'update', target: 'a', reason: null, result: 'failed: offline' });
        await storage.audit.append({ operator: 'vera (Vera V)', action: 'revoke', target: 'd', reason: 'r', result: 'revoked' });
        await storage.audit.append({ operator: 'vera (Vera V)', action: 'revoke', target: 'e', reason: 'r', result: 'revoked' });
        await storage.audit.append({ operator: 'ola', action: 'export', target: null, reason: null, result: 'ok' });
        expect(await storage.reports.staffActions(start, later)).toEqual([
          { operator: 'vera (Vera V)', withdrawn: 2, amended: 1 },
          { operator: 'sam', withdrawn: 1, amended: 0 },
        ]);
        expect(await storage.reports.staffActions(later, later)).toEqual([]);
      }),
    );
  });
}
