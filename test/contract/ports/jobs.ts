import { describe, expect, it } from 'vitest';
import { withStore, type OpenFixture } from '../fixture.js';

/** The jobs domain's port: BulkJobStore. */
export function bulkJobStoreSuite(open: OpenFixture) {
  describe('BulkJobStore', () => {
    it(
      'keeps a bulk revocation item by item, in order, and what became of each',
      withStore(open, async ({ storage }) => {
        const ids = Array.from({ length: 12 }, (_, i) => `consent-${String(i).padStart(2, '0')}`);
        expect(await storage.bulk.job('job-1')).toBeUndefined();
        await storage.bulk.create({
          jobId: 'job-1',
          created: '2026-11-01T00:00:00.000Z',
          operator: 'sam',
          reason: 'fraud',
          consentIds: ids,
        });
        expect(await storage.bulk.job('job-1')).toEqual({ created: '2026-11-01T00:00:00.000Z', operator: 'sam', reason: 'fraud' });
        const items = await storage.bulk.items('job-1');
        expect(items.map((i) => [i.seq, i.consentId, i.status, i.detail])).toEqual(ids.map((id, i) => [i + 1, id, 'pending', null]));
        expect(await storage.bulk.counts('job-1')).toEqual({ pending: 12, revoked: 0, 'already-inactive': 0, failed: 0 });
        expect(await storage.bulk.pendingJobs()).toEqual(['job-1']);
        await storage.bulk.setItem('job-1', 1, 'revoked', null);
        await storage.bulk.setItem('job-1', 2, 'failed', 'refused (404)');
        await storage.bulk.setItem('job-1', 3, 'already-inactive', null);
        expect(await storage.bulk.counts('job-1')).toEqual({ pending: 9, revoked: 1, 'already-inactive': 1, failed: 1 });
        const { items: window, total } = await storage.bulk.window('job-1', 1, 3);
        expect(total).toBe(12);
        expect(window.map((i) => [i.seq, i.status, i.detail])).toEqual([
          [2, 'failed', 'refused (404)'],
          [3, 'already-inactive', null],
          [4, 'pending', null],
        ]);
        for (let seq = 4; seq <= 12; seq++) await storage.bulk.setItem('job-1', seq, 'revoked', null);
        expect(await storage.bulk.pendingJobs()).toEqual([]);
      }),
    );
  });
}
