import { describe, expect, it } from 'vitest';
import type { ConsentClient } from '../../../electron/core/api/consent-client.js';
import { ConsentActions } from '../../../electron/core/consents/actions.js';
import type { Consent } from '../../../shared/schemas/consent.js';
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
        expect(await storage.bulk.job('job-1')).toEqual({
          created: '2026-11-01T00:00:00.000Z',
          operator: 'sam',
          reason: 'fraud',
          approval: null,
        });
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

    it(
      'holds a job for a second person: not resumable until approved, decided once, a rejected one settled as not approved',
      withStore(open, async ({ storage }) => {
        const job = (jobId: string) =>
          storage.bulk.create({
            jobId,
            created: '2026-11-01T00:00:00.000Z',
            operator: 'sam (Sam Support)',
            reason: 'incident 12',
            consentIds: ['c1', 'c2', 'c3'],
            awaitingApprovalOf: 'u_sam',
          });
        await job('job-a');
        await job('job-r');
        expect(await storage.bulk.job('job-a')).toMatchObject({ approval: { requestedBy: 'u_sam', decision: null, decidedBy: null } });
        expect(await storage.bulk.awaitingApproval()).toEqual(['job-a', 'job-r']);
        expect(await storage.bulk.pendingJobs()).toEqual([]);
        expect(await storage.bulk.decide('job-a', 'approve', 'sue (Sue Second)', '2026-11-01T00:01:00.000Z')).toBe(true);
        expect(await storage.bulk.decide('job-a', 'reject', 'ada (Ada Admin)', '2026-11-01T00:02:00.000Z')).toBe(false);
        expect(await storage.bulk.job('job-a')).toMatchObject({ approval: { decision: 'approve', decidedBy: 'sue (Sue Second)' } });
        expect(await storage.bulk.pendingJobs()).toEqual(['job-a']);
        expect(await storage.bulk.decide('job-r', 'reject', 'ada (Ada Admin)', '2026-11-01T00:02:00.000Z')).toBe(true);
        expect(await storage.bulk.awaitingApproval()).toEqual([]);
        expect((await storage.bulk.items('job-r')).map((i) => [i.status, i.detail])).toEqual(
          Array.from({ length: 3 }, () => ['failed', 'not approved: rejected by ada (Ada Admin); nothing was sent']),
        );
        expect(await storage.bulk.pendingJobs()).toEqual(['job-a']);
        expect(await storage.bulk.decide('job-none', 'approve', 'x', '2026-11-01T00:00:00.000Z')).toBe(false);
      }),
    );

    it(
      'keeps the largest job the console makes (10,000 consents) whole and in order',
      withStore(open, async ({ storage }) => {
        const ids = Array.from({ length: 10_000 }, (_, i) => `consent-${String(i).padStart(5, '0')}`);
        await storage.bulk.create({
          jobId: 'job-big',
          created: '2026-11-01T00:00:00.000Z',
          operator: 'sam',
          reason: 'incident',
          consentIds: ids,
        });
        const items = await storage.bulk.items('job-big');
        expect(items.map((i) => i.consentId)).toEqual(ids);
        expect(items.map((i) => i.seq)).toEqual(ids.map((_, i) => i + 1));
        expect(await storage.bulk.counts('job-big')).toEqual({ pending: 10_000, revoked: 0, 'already-inactive': 0, failed: 0 });
        const { items: last, total } = await storage.bulk.window('job-big', 9_998, 5);
        expect([total, last.map((i) => i.consentId)]).toEqual([10_000, ['consent-09998', 'consent-09999']]);
      }),
    );

    it(
      'records an item’s intent before its DELETE; a resumed run asks the intermediary first and never sends one twice',
      withStore(open, async ({ storage }) => {
        // An intermediary of four ACTIVE consents that counts the DELETEs it gets.
        const status = new Map(['c1', 'c2', 'c3', 'c4'].map((id) => [id, 'ACTIVE']));
        const deletes: string[] = [];
        const consent = (id: string) => ({ consentId: id, status: status.get(id) }) as Consent;
        const client = {
          getConsent: async (id: string) => consent(id),
          revokeConsent: async (id: string) => {
            deletes.push(id);
            status.set(id, 'REVOKED');
            return 'revoked' as const;
          },
        } as unknown as ConsentClient;
        const deps = { client, store: storage.actions, bulk: storage.bulk, audit: storage.audit, refreshEvents: false };
        const actions = new ConsentActions({ ...deps, operator: () => ({ account: 'sam', displayName: null }) });
        const jobId = await actions.createBulkRevoke(['c1', 'c2', 'c3', 'c4'], 'incident 19');
        expect(await storage.bulk.item(jobId, 1)).toEqual({ seq: 1, consentId: 'c1', status: 'pending', detail: null, sentAt: null });
        // An earlier run, killed: c1's DELETE reached the intermediary, nothing of it recorded; c2's was
        // recorded (audited) but not its item; c3's intent was recorded, its DELETE never sent.
        expect(await storage.bulk.claim(jobId)).toBe(true);
        for (const seq of [1, 2, 3]) expect(await storage.bulk.markSending(jobId, seq, '2026-11-01T00:00:00.000Z')).toBe(true);
        await storage.bulk.release(jobId);
        status.set('c1', 'REVOKED');
        status.set('c2', 'REVOKED');
        await storage.actions.record({
          audit: { operator: 'sam', action: 'revoke', target: 'c2', reason: 'incident 19', result: 'revoked' },
        });

        const items = await actions.runBulkRevoke(jobId, { perSecond: 1000 });
        expect(items.map((i) => [i.consentId, i.status, i.detail])).toEqual([
          ['c1', 'revoked', 'confirmed after an interruption: the intermediary showed it REVOKED'],
          ['c2', 'revoked', null],
          ['c3', 'revoked', null],
          ['c4', 'revoked', null],
        ]);
        expect(deletes).toEqual(['c3', 'c4']);
        expect((await storage.bulk.item(jobId, 4))?.sentAt).toMatch(/^\d{4}-/);
        const revocations = (await storage.audit.entries()).filter((e) => e.action === 'revoke' && e.result === 'revoked');
        expect(revocations.map((e) => [e.target, e.reason])).toEqual([
          ['c2', 'incident 19'],
          ['c1', 'incident 19 (confirmed after an interruption: the intermediary showed it REVOKED)'],
          ['c3', 'incident 19'],
          ['c4', 'incident 19'],
        ]);
        expect(await storage.audit.verify()).toMatchObject({ ok: true });
      }),
    );
  });
}
