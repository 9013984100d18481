import { describe, expect, it } from 'vitest';
import { openCache, type Db } from '../../electron/core/cache/database.js';
import { ConsentsRepo } from '../../electron/core/cache/consents-repo.js';
import { EventsRepo } from '../../electron/core/cache/events-repo.js';
import { WEBHOOK_FAILURES } from '../../electron/core/cache/event-query.js';
import { QUICK_OFFSET, quickInSql } from '../../electron/core/cache/consent-query.js';
import { sqliteStorage } from '../../electron/core/cache/sqlite-storage.js';
import { contentId } from '../../electron/core/sync/consent-sync.js';
import { createConsentGenerator } from '../../electron/sandbox/consents.js';
import type { Consent, ConsentEvent } from '../../shared/schemas/consent.js';

/**
 * Issue 21: after a first sync, the console's reads went to SQL while the read indexes were built,
 * and the build, yielding to each waiting read between its chunks, advanced one chunk per SQL scan
 * (minutes at 100,000 consents). Reads through the ports that SQL answers with a scan now wait for
 * a build under way and are answered from memory; reads SQL answers at once pass between the
 * build's chunks; while the cache is changing (a sync writing) nothing waits.
 *
 * More consents and events than a build's slice (2,000) and chunk (5,000): the builds yield.
 */
const gen = createConsentGenerator(11, 6_000);
const consents: Consent[] = Array.from({ length: 6_000 }, (_, i) => gen.at(i));
const types = ['DATA_COLLECTION_COMPLETED', 'WEBHOOK_SENT', ...WEBHOOK_FAILURES] as const;
const events = Array.from(
  { length: 12_000 },
  (_, i): ConsentEvent =>
    ({
      eventId: `event-${i}`,
      eventType: types[i % types.length]!,
      timestamp: new Date(Date.parse('2026-11-01T00:00:00Z') + i * 60_000).toISOString(),
      consentId: consents[i % consents.length]!.consentId,
    }) as ConsentEvent,
);

function filled(): Db {
  const db = openCache(':memory:');
  new ConsentsRepo(db).upsertPage(consents, '2026-11-20T00:00:00.000Z');
  new EventsRepo(db).upsertPage(events, contentId);
  return db;
}

const newest = { field: 'created', direction: 'desc' } as const;

describe('reads while the read indexes are being built', () => {
  it('wait for the build and are answered from memory, not by SQL', async () => {
    const storage = sqliteStorage(filled());
    try {
      expect(storage.sqlite.query.indexed()).toBe(false);
      expect(storage.sqlite.eventQuery.indexed()).toBe(false);
      // The first read of the list that SQL answers with a scan (a filter) starts the build and waits
      // for it (before: SQL answered, the build started later).
      const holder = consents[0]!.dataHolderBrandId!;
      const expected = consents.filter((c) => c.dataHolderBrandId === holder).length;
      expect((await storage.consents.count({ dataHolderBrandIds: [holder] })).total).toBe(expected);
      expect(storage.sqlite.query.indexed()).toBe(true);
      const byConsent = await storage.events.failuresByConsent({ types: [...WEBHOOK_FAILURES] }, 10);
      expect(byConsent).toHaveLength(10);
      expect(storage.sqlite.eventQuery.indexed()).toBe(true);
    } finally {
      storage.close();
    }
  });

  it('let reads that SQL answers at once (a consent, its events) pass between the build’s chunks', async () => {
    const storage = sqliteStorage(filled());
    try {
      let listed = false;
      const list = storage.consents.list({ filter: {}, sort: newest, offset: 3_000, limit: 100 }).then((rows) => {
        listed = true;
        return rows;
      });
      let failures = false;
      const summary = storage.events.failuresByMessage({ types: [...WEBHOOK_FAILURES] }, 10).then(() => (failures = true));
      const id = consents[42]!.consentId;
      expect((await storage.consents.get(id))?.consentId).toBe(id);
      expect(await storage.events.list({ filter: { consentId: id }, offset: 0, limit: 10 })).toHaveLength(2);
      // Answered while the list and the failures still wait for their indexes.
      expect(listed).toBe(false);
      expect(failures).toBe(false);
      expect(await list).toHaveLength(100);
      await summary;
      expect(storage.sqlite.query.indexed()).toBe(true);
      expect(storage.sqlite.eventQuery.indexed()).toBe(true);
    } finally {
      storage.close();
    }
  });

  it('do not wait for the list as it opens, nor its count: SQL reads them along an index at once', async () => {
    const storage = sqliteStorage(filled());
    try {
      const count = await storage.consents.count({ statuses: ['ACTIVE'] });
      expect(count.total).toBe(consents.filter((c) => c.status === 'ACTIVE').length);
      const rows = await storage.consents.list({ filter: {}, sort: newest, offset: 0, limit: 50 });
      // Answered from SQL while the build has only begun…
      expect(storage.sqlite.query.indexed()).toBe(false);
      const newestFirst = [...consents].sort((a, b) =>
        a.created === b.created ? (a.consentId < b.consentId ? 1 : -1) : (a.created ?? '') < (b.created ?? '') ? 1 : -1,
      );
      expect(rows.map((r) => r.consentId)).toEqual(newestFirst.slice(0, 50).map((c) => c.consentId));
      // …the build carries on for the reads that need it, and then answers the same rows.
      await storage.indexesReady();
      expect(storage.sqlite.query.indexed()).toBe(true);
      expect((await storage.consents.list({ filter: {}, sort: newest, offset: 0, limit: 50 })).map((r) => r.consentId)).toEqual(
        rows.map((r) => r.consentId),
      );
      // Deeper in the list, or filtered: the read waits for the index as before (quickInSql).
      expect(quickInSql({ filter: {}, sort: newest, offset: 0 })).toBe(true);
      expect(quickInSql({ filter: {}, sort: newest, offset: QUICK_OFFSET + 1 })).toBe(false);
      expect(quickInSql({ filter: { search: 'jane' }, sort: newest, offset: 0 })).toBe(false);
      expect(quickInSql({ filter: {}, sort: { field: 'consumerMobile', direction: 'asc' }, offset: 0 })).toBe(false);
      expect(quickInSql({ filter: { statuses: ['ACTIVE'] } })).toBe(true);
      expect(quickInSql({ filter: { statuses: ['ACTIVE'] }, sort: newest, offset: 0 })).toBe(false);
      expect(quickInSql({ filter: { useCaseIds: ['x'] } })).toBe(false);
    } finally {
      storage.close();
    }
  });

  it('do not wait while the cache is changing: SQL answers at once, the index follows once it is still', async () => {
    const db = filled();
    const storage = sqliteStorage(db);
    // A read SQL answers with a scan (a filter): it would wait for a build that could start.
    const written = { ...gen.at(5), consentId: 'written-a-moment-ago' } as Consent;
    const filter = { dataHolderBrandIds: [written.dataHolderBrandId!] };
    const before = consents.filter((c) => c.dataHolderBrandId === written.dataHolderBrandId).length;
    try {
      expect((await storage.consents.count(filter)).total).toBe(before);
      expect(storage.sqlite.query.indexed()).toBe(true);
      // A write (as a sync's commit): the index is stale, and a build waits for the cache to be still.
      new ConsentsRepo(db).upsertPage([written], '2026-11-21T00:00:00.000Z');
      expect((await storage.consents.count(filter)).total).toBe(before + 1);
      expect(storage.sqlite.query.indexed()).toBe(false);
      await storage.indexesReady();
      expect(storage.sqlite.query.indexed()).toBe(true);
      expect((await storage.consents.count(filter)).total).toBe(before + 1);
      expect((await storage.consents.count({})).total).toBe(consents.length + 1);
    } finally {
      storage.close();
    }
  });
});
