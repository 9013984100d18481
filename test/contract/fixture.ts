import type { Storage } from '../../electron/core/storage.js';
import type { DataKind } from '../../electron/core/api/data-client.js';
import type { Consent, ConsentEvent, UseCase } from '../../shared/schemas/consent.js';

/**
 * What a storage contract suite needs of an adapter: its ports, and a way to put in what a sync
 * would have stored (the sync writes through its engine, not through a port). Each adapter's test
 * file (sqlite.test.ts now; PostgreSQL's next) gives one, and runs every suite of ports/ on it.
 */
export interface StorageFixture {
  storage: Storage;
  load: {
    consents(consents: readonly Consent[], syncedAt: string): Promise<void>;
    events(events: readonly ConsentEvent[]): Promise<void>;
    reference(useCases: readonly UseCase[], holders: readonly { dataHolderBrandId: string; brandName: string }[]): Promise<void>;
    data(kind: DataKind, records: readonly Record<string, unknown>[], fetchedAt: string): Promise<void>;
  };
  /** Resolves once every read reflects every write (an adapter's read indexes have caught up). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export type OpenFixture = () => Promise<StorageFixture>;

/** Runs a test on a fresh, empty store, closed after. */
export function withStore(open: OpenFixture, test: (f: StorageFixture) => Promise<void>): () => Promise<void> {
  return async () => {
    const f = await open();
    try {
      await test(f);
    } finally {
      await f.close();
    }
  };
}

/** Collects an async iterable of windows into one array, checking no window is empty. */
export async function drain<T>(windows: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const w of windows) {
    if (w.length === 0) throw new Error('an empty window');
    all.push(...w);
  }
  return all;
}
