import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CoreError } from '../errors.js';
import { anchorFileOf, AuditAnchorFile } from '../audit/audit-anchor.js';
import { loadProfiles, pickProfile } from '../config/profiles.js';
import type { Logger } from '../log.js';
import { createKeyFileCipher } from '../secrets/cipher.js';
import { secretNames, SecretVault } from '../secrets/vault.js';
import type { StoreOpener } from '../store-opener.js';
import type { SyncJob } from '../sync/sync-job.js';
import { workerSyncEngine } from '../worker/sync-engine.js';
import {
  cacheErrorOf,
  checkIntegrity,
  checkIntegrityInBackground,
  isCacheDamage,
  markOpen,
  moveCacheAside,
  openCache,
  storageProblem,
  type CacheError,
} from './database.js';
import { sqliteStorage, type SqliteStorage } from './sqlite-storage.js';

/** The cache file of a profile (one database per connection profile). */
export function cacheFileOf(dataDir: string, profileId: string): string {
  return join(dataDir, 'profiles', profileId, 'cache.sqlite');
}

/** Moves a profile's cache aside (kept, renamed) so the next start begins empty and re-syncs. */
export function resetCache(dataDir: string, profileId?: string): string | undefined {
  const profile = pickProfile(loadProfiles(dataDir), profileId);
  const file = cacheFileOf(dataDir, profile.id);
  return existsSync(file) ? moveCacheAside(file) : undefined;
}

/** The full integrity check of a profile's cache, on demand (`cli cache check`); undefined when there is no cache. */
export function checkCache(dataDir: string, profileId?: string): { file: string; problem: CacheError | null } | undefined {
  const profile = pickProfile(loadProfiles(dataDir), profileId);
  const file = cacheFileOf(dataDir, profile.id);
  if (!existsSync(file)) return undefined;
  const key = new SecretVault(dataDir, createKeyFileCipher(dataDir)).get(secretNames.cacheKey(profile.id));
  return { file, problem: checkIntegrity(file, key ?? undefined) };
}

export interface ProfileCache {
  storage: SqliteStorage;
  /** What the sync's worker needs to open the same cache. */
  syncTarget: Pick<SyncJob, 'file' | 'key'>;
  /** A failure a handler did not expect, read as damage of the cache (the router's guard). */
  mapError(error: unknown): CoreError | undefined;
  /** Whether a sync's failure was the cache's: damage, or a problem writing it (a full disk…). */
  storeFailure(error: unknown): { damage: true } | { problem: string } | undefined;
  close(): void;
}

/**
 * Opens a profile's encrypted SQLite cache as the core's storage: its key and its audit anchor's
 * key from the vault, the integrity check in the background when the last process did not close
 * it, and what damage found later means (`onDamage`: the console stops syncing and says so).
 */
export function openProfileCache(opts: {
  dataDir: string;
  profileId: string;
  vault: SecretVault;
  log: Logger;
  onDamage: (problem: CacheError) => void;
  /** Off: every read by SQL, no index built in the background (the command line's one read). */
  readIndexes?: boolean;
}): ProfileCache {
  const { vault, log } = opts;
  const file = cacheFileOf(opts.dataDir, opts.profileId);
  const key = vault.getOrCreate(secretNames.cacheKey(opts.profileId));
  // A new cache file, or a console that never anchored this cache's audit log: no anchor yet.
  const fresh = !existsSync(file);
  const anchorKeyExisted = vault.has(secretNames.auditAnchorKey(opts.profileId));
  const anchorKey = vault.getOrCreate(secretNames.auditAnchorKey(opts.profileId));
  const db = openCache(file, key);
  // The full integrity check never delays the start: it runs in the background, and only when the
  // last process that had the cache open ended without closing it.
  const openMark = markOpen(file);
  const damaged = (problem: CacheError) => {
    log.error('the cache is damaged', problem);
    opts.onDamage(problem);
  };
  const integrity = openMark.uncleanBefore ? checkIntegrityInBackground(file, key) : undefined;
  if (integrity) log.info('the cache was not closed last time: checking every page in the background');
  integrity?.result.then(
    (problem) => problem && damaged(problem),
    () => undefined,
  );
  const storage = sqliteStorage(db, {
    anchor: { file: new AuditAnchorFile(anchorFileOf(file), anchorKey), fresh: fresh || !anchorKeyExisted },
    onIndexError: (what, error) => log.error(`the ${what === 'consents' ? 'consent list' : 'events'} index could not be built`, error),
    onFirstLoadFinished: () => log.info('built the consent indexes an interrupted first sync left to build'),
    ...(opts.readIndexes === false ? { useIndexes: false } : {}),
  });
  return {
    storage,
    syncTarget: { file, key },
    // SQLite reports a page that fails SQLCipher's authentication when it reads it: whichever
    // handler met it, the answer is a CACHE error with the recovery path.
    mapError(error) {
      if (!isCacheDamage(error)) return undefined;
      const problem = cacheErrorOf(file, error, true);
      damaged(problem);
      return new CoreError('CACHE', problem.message);
    },
    storeFailure(error) {
      if (isCacheDamage(error)) return { damage: true };
      const problem = storageProblem(file, error);
      return problem ? { problem } : undefined;
    },
    close() {
      integrity?.stop();
      storage.close();
      db.close();
      openMark.release();
    },
  };
}

/** Solo mode's store: the profile's SQLite cache, synced by a worker thread with its own connection. */
export const sqliteStoreOpener: StoreOpener = async (ctx) => {
  const cache = openProfileCache({
    dataDir: ctx.dataDir,
    profileId: ctx.profile.id,
    vault: ctx.vault,
    log: ctx.log,
    onDamage: ctx.onDamage,
    ...(ctx.readIndexes === false ? { readIndexes: false } : {}),
  });
  return {
    storage: cache.storage,
    sqlite: cache.storage,
    engine: (target) => workerSyncEngine({ ...cache.syncTarget, ...target }),
    mapError: (error) => cache.mapError(error),
    storeFailure: (error) => cache.storeFailure(error),
    close: async () => cache.close(),
  };
};
