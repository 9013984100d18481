import { describe, expect, it } from 'vitest';
import { drain, withStore, type OpenFixture } from '../fixture.js';
import { sampleWorld, SYNCED_AT, transaction } from '../world.js';

/** The data and products domain's port: DataStore. */
export function dataStoreSuite(open: OpenFixture) {
  const { consents } = sampleWorld();
  const kept = consents.find((c) => c.status === 'ACTIVE')!;
  const deleted = consents.find((c) => (c.status === 'REVOKED' || c.status === 'EXPIRED') && c.postUsageAction === 'DELETION')!;
  const words = ['Woolworths Sydney', 'Coles Express', 'Salary ACME', 'Woolworths Newtown'];
  const txs = (consentId: string, n: number) => Array.from({ length: n }, (_, i) => transaction(consentId, i, words[i % words.length]!));

  describe('DataStore', () => {
    it(
      'gives a consent’s records a window at a time, searched, and what it holds of each kind',
      withStore(open, async ({ storage, load }) => {
        await load.consents(consents, SYNCED_AT);
        await load.data('transactions', txs(kept.consentId, 45), '2026-11-01T01:00:00.000Z');
        const first = await storage.data.records({ consentId: kept.consentId, kind: 'transactions', offset: 0, limit: 10 });
        expect(first.total).toBe(45);
        expect(first.rows).toHaveLength(10);
        const all = await drain(storage.data.windows({ consentId: kept.consentId, kind: 'transactions' }));
        expect(all).toHaveLength(45);
        expect(all.slice(0, 10)).toEqual(first.rows);
        const found = await storage.data.records({
          consentId: kept.consentId,
          kind: 'transactions',
          filter: { search: 'woolworths' },
          offset: 0,
          limit: 100,
        });
        expect(found.total).toBe(txs(kept.consentId, 45).filter((t) => String(t.description).startsWith('Woolworths')).length);
        expect(await storage.data.collectionsFor(kept.consentId)).toEqual([
          { kind: 'transactions', count: 45, fetchedAt: '2026-11-01T01:00:00.000Z' },
        ]);
        const meta = await storage.data.meta(kept.consentId);
        expect(JSON.stringify(meta)).toContain('transactions');
        expect((await storage.data.list({ kind: 'transactions', consentId: kept.consentId, page: 1, pageSize: 20 })).total).toBe(45);
      }),
    );

    it(
      'applies retention: an ended consent’s data is deleted by its post-usage action, logged and audited; an active one’s is kept',
      withStore(open, async ({ storage, load }) => {
        await load.consents(consents, SYNCED_AT);
        await load.data('transactions', [...txs(kept.consentId, 5), ...txs(deleted.consentId, 7)], '2026-11-01T01:00:00.000Z');
        const results = await storage.data.applyRetention('retention (automatic)');
        expect(results).toContainEqual({ consentId: deleted.consentId, action: 'deleted', records: 7, kinds: ['transactions'] });
        expect(results.map((r) => r.consentId)).not.toContain(kept.consentId);
        expect((await storage.data.records({ consentId: deleted.consentId, kind: 'transactions', offset: 0, limit: 10 })).total).toBe(0);
        expect((await storage.data.records({ consentId: kept.consentId, kind: 'transactions', offset: 0, limit: 10 })).total).toBe(5);
        expect(await storage.data.retentionLog(deleted.consentId)).toEqual([
          expect.objectContaining({ consentId: deleted.consentId, action: 'deleted', records: 7, kinds: 'transactions' }),
        ]);
        expect(await storage.audit.entries({ target: deleted.consentId })).toEqual([
          expect.objectContaining({ operator: 'retention (automatic)', action: 'retention:deleted' }),
        ]);
        // Done once: the next pass finds nothing left to do.
        expect((await storage.data.applyRetention('retention (automatic)')).map((r) => r.consentId)).not.toContain(deleted.consentId);
      }),
    );
  });
}
