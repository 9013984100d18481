import { describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../../electron/core/audit/chain.js';
import { drain, withStore, type OpenFixture } from '../fixture.js';

/** The audit domain's port: AuditStore. */
export function auditStoreSuite(open: OpenFixture) {
  const entry = (i: number, action = 'revoke', operator = 'sam') => ({
    operator,
    action,
    target: `consent-${i % 3}`,
    reason: i % 2 ? `reason ${i}` : null,
    result: `result ${i}`,
  });

  describe('AuditStore', () => {
    it(
      'appends entries as a hash chain that verifies',
      withStore(open, async ({ storage }) => {
        expect(await storage.audit.verify()).toEqual({ ok: true, entries: 0 });
        const written = [];
        for (let i = 1; i <= 5; i++) written.push(await storage.audit.append(entry(i)));
        expect(written.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
        expect(written[0]!.prevHash).toBe(GENESIS_HASH);
        for (let i = 1; i < written.length; i++) expect(written[i]!.prevHash).toBe(written[i - 1]!.hash);
        expect(await storage.audit.entries()).toEqual(written);
        expect(await storage.audit.entries({ target: 'consent-1' })).toEqual(written.filter((e) => e.target === 'consent-1'));
        expect(await storage.audit.entries({ limit: 2 })).toEqual(written.slice(0, 2));
        expect(await storage.audit.verify()).toEqual({ ok: true, entries: 5 });
      }),
    );

    it(
      'keeps text as written, well-formed: a lone surrogate cannot break the chain',
      withStore(open, async ({ storage }) => {
        await storage.audit.append({ ...entry(1), reason: 'broken \ud800 text', result: '=1+1' });
        expect((await storage.audit.entries())[0]).toMatchObject({ reason: 'broken \ufffd text', result: '=1+1' });
        expect(await storage.audit.verify()).toEqual({ ok: true, entries: 1 });
      }),
    );

    it(
      'filters a window newest first with its total, lists its operators and actions, and streams a filter oldest first',
      withStore(open, async ({ storage }) => {
        for (let i = 1; i <= 30; i++) await storage.audit.append(entry(i, i % 3 ? 'revoke' : 'update', i % 2 ? 'sam' : 'alex'));
        const page = await storage.audit.query({ action: 'update' }, 2, 3);
        expect(page.total).toBe(10);
        expect(page.rows.map((r) => r.seq)).toEqual([24, 21, 18]);
        expect(await storage.audit.options()).toEqual({ operators: ['alex', 'sam'], actions: ['revoke', 'update'] });
        const streamed = await drain(storage.audit.windows({ operator: 'alex' }));
        expect(streamed.map((r) => r.seq)).toEqual(Array.from({ length: 15 }, (_, i) => (i + 1) * 2));
      }),
    );
  });
}
