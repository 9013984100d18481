import { describe, expect, it } from 'vitest';
import { withStore, type OpenFixture } from '../fixture.js';

/** The sync domain's port: SyncStateStore. */
export function syncStateStoreSuite(open: OpenFixture) {
  describe('SyncStateStore', () => {
    it(
      'keeps values by key, the last one written',
      withStore(open, async ({ storage }) => {
        expect(await storage.syncState.get('sync.lastSummary')).toBeNull();
        await storage.syncState.set('sync.lastSummary', '{"a":1}');
        await storage.syncState.set('other', 'x');
        await storage.syncState.set('sync.lastSummary', '{"a":2}');
        expect(await storage.syncState.get('sync.lastSummary')).toBe('{"a":2}');
        expect(await storage.syncState.get('other')).toBe('x');
      }),
    );
  });
}
