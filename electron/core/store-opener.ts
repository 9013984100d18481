import type { TeamDatabase, TeamStatus } from '../../shared/ipc/contract.js';
import type { CoreError } from './errors.js';
import type { SqliteStorage } from './cache/sqlite-storage.js';
import type { Profile } from './config/profiles.js';
import type { Logger } from './log.js';
import type { SecretVault } from './secrets/vault.js';
import type { Storage } from './storage.js';
import type { SyncEngine } from './sync/port.js';
import type { SyncJob } from './sync/sync-job.js';

/**
 * Where a core keeps what it syncs: the one choice the composition root makes about storage. Solo
 * mode opens the profile's encrypted SQLite cache (cache/profile-cache.ts, the default); a team
 * server opens the team's PostgreSQL store (postgres/team-store.ts). Above this, the core sees the
 * storage ports and a sync engine only.
 */
export interface OpenedStore {
  storage: Storage;
  /** The sync engine over this store, reaching the intermediary as given. */
  engine(target: Pick<SyncJob, 'tokens' | 'consentApiBaseUrl' | 'dataApiBaseUrl'>): SyncEngine;
  /** A failure a handler did not expect, read as damage of the store (the router's guard). */
  mapError(error: unknown): CoreError | undefined;
  /** Whether a sync's failure was the store's: damage, or a problem writing it (a full disk…, in words). */
  storeFailure(error: unknown): { damage: true } | { problem: string } | undefined;
  /**
   * A team store: how many servers serve the team, which other one syncs now, whether its database
   * is reachable (the status bar says); `watch` tells of the database going away and coming back.
   */
  team?: { status(): Promise<TeamStatus>; watch?(listener: (database: TeamDatabase) => void): () => void };
  /** The SQLite cache under the ports, in solo mode (tests, benchmarks and the command line read it). */
  sqlite?: SqliteStorage;
  close(): Promise<void>;
}

export interface StoreContext {
  dataDir: string;
  profile: Profile;
  vault: SecretVault;
  log: Logger;
  /** The store was found damaged: the console stops syncing and says why. */
  onDamage(problem: { message: string }): void;
  /**
   * Whether reads may build and use in-memory read indexes (a console's many reads); off for the
   * command line, whose one read SQL answers sooner than any index is built (default on).
   */
  readIndexes?: boolean;
}

export type StoreOpener = (ctx: StoreContext) => Promise<OpenedStore>;
