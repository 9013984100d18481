import { hostname, userInfo } from 'node:os';
import { randomUUID } from 'node:crypto';
import { CoreError } from '../errors.js';
import type { StoreOpener } from '../store-opener.js';
import type { SyncEngine } from '../sync/port.js';
import { runSync, type SyncJob } from '../sync/sync-job.js';
import { isConnectionLoss, type DatabaseHealth, type PgDb } from './db.js';
import { postgresStorage, type PostgresStorageOptions } from './postgres-storage.js';
import type { ReadMemo } from './read-memo.js';
import { pgSyncStore } from './sync-store.js';

/**
 * The team server's store: the team's PostgreSQL behind the storage ports, one sync at a time
 * across every server on the database, and the servers' registry (who is connected, who syncs).
 */

/** The session-level advisory lock the syncing server holds ("cdr-sync"): released when its connection ends, killed or not. */
export const SYNC_LOCK = 0x63647379;
/** A server not seen for this long is gone (killed, or its host lost). */
export const INSTANCE_GONE_MS = 30_000;

export interface TeamInstance {
  id: string;
  host: string;
  pid: number;
  account: string;
}

export function thisInstance(): TeamInstance {
  let account = 'unknown';
  try {
    account = userInfo().username;
  } catch {
    // No account name (a container without one): the pid and host still tell the servers apart.
  }
  return { id: randomUUID(), host: hostname(), pid: process.pid, account };
}

export const describeInstance = (i: { host: string; pid: number }) => `the team server on ${i.host} (process ${i.pid})`;

/** Registers this server and refreshes its `seen` time until stopped. */
export async function registerInstance(
  db: PgDb,
  me: TeamInstance,
  url: string | null,
  everyMs = 5_000,
): Promise<{ stop(): Promise<void> }> {
  // The same statement registers and refreshes: a beat after the database came back (restarted, or
  // restored without this row) registers the server again.
  const beat = () =>
    db.query(
      `INSERT INTO team_instances (instance_id, host, pid, account, url, started, seen) VALUES ($1, $2, $3, $4, $5, now(), now())
       ON CONFLICT (instance_id) DO UPDATE SET seen = now(), url = excluded.url`,
      [me.id, me.host, me.pid, me.account, url],
    );
  await beat();
  // One beat at a time: while the database is away, a beat waiting for a connection is not joined by more.
  let beating: Promise<void> | undefined;
  const timer = setInterval(() => {
    beating ??= beat()
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => (beating = undefined));
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      // A beat still on its way would register this server again after it left.
      await beating;
      await db.query('DELETE FROM team_instances WHERE instance_id = $1', [me.id]).catch(() => undefined);
    },
  };
}

export interface InstanceRow {
  instanceId: string;
  host: string;
  pid: number;
  account: string;
  url: string | null;
  started: string;
  seen: string;
  syncing: boolean;
}

/** The servers seen lately, oldest first. */
export async function liveInstances(db: Pick<PgDb, 'query'>): Promise<InstanceRow[]> {
  return db.query<InstanceRow>(
    `SELECT instance_id AS "instanceId", host, pid, account, url, started, seen, syncing FROM team_instances
     WHERE seen > now() - make_interval(secs => $1) ORDER BY started, instance_id`,
    [INSTANCE_GONE_MS / 1000],
  );
}

/**
 * A sync stopped because its connection to the team database ended (the server restarted or went
 * away): the sync lock went with it, so the sync stops rather than write without it. What it
 * committed is kept (sync_state holds its progress): the next sync, here at the next tick or on
 * another server, resumes from there.
 */
export class SyncInterrupted extends Error {
  readonly code = 'SYNC_INTERRUPTED';
  constructor(cause: unknown) {
    super(
      `${restarted(cause) ? 'The team database restarted during the sync' : 'The connection to the team database was lost during the sync'} (${(cause as Error)?.message ?? String(cause)}); what was stored is kept, and the sync resumes from there at the next scheduled sync (or Sync now) once the database is back.`,
      { cause },
    );
    this.name = 'SyncInterrupted';
  }
}

const restarted = (e: unknown) => ['57P01', '57P02', '57P03'].includes(String((e as { code?: unknown } | null)?.code ?? ''));

/**
 * The sync engine of a team server: the sync runs in this process, writing to the team store
 * through its own connection, and only while this server holds the sync lock; another server's
 * request is refused with who syncs (that server's progress reaches every console). The lock's
 * connection ending (the database restarted) stops the sync: SyncInterrupted.
 */
export function pgSyncEngine(
  db: PgDb,
  base: Pick<SyncJob, 'tokens' | 'consentApiBaseUrl' | 'dataApiBaseUrl'>,
  me: TeamInstance,
): SyncEngine {
  const running = new Set<Promise<unknown>>();
  return {
    run(request, onMessage) {
      const controller = new AbortController();
      const result = (async () => {
        const lock = await db.pool.connect();
        let held = false;
        /** Why the lock's connection ended while held, if it did. */
        let lost: Error | undefined;
        const onLockError = (e: Error) => {
          if (lost || !held) return;
          lost = e;
          controller.abort(new SyncInterrupted(e));
        };
        const onLockEnd = () => onLockError(Object.assign(new Error('Connection terminated unexpectedly'), { code: '08006' }));
        lock.on('error', onLockError);
        lock.on('end', onLockEnd);
        try {
          held = (await lock.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [SYNC_LOCK])).rows[0]!.ok;
          if (!held) {
            const other = (await liveInstances(db)).find((i) => i.syncing && i.instanceId !== me.id);
            throw new CoreError(
              'BUSY',
              `A sync is already running on ${other ? describeInstance(other) : 'another team server'}; its progress shows here.`,
            );
          }
          // Holding the lock, this server is the only one syncing: a server killed mid-sync left its flag set.
          await db.query('UPDATE team_instances SET syncing = (instance_id = $1) WHERE syncing OR instance_id = $1', [me.id]);
          const store = pgSyncStore(db, { onCommit: (entity, count) => onMessage({ type: 'stored', entity, count }) });
          try {
            return await runSync({ ...base, ...request }, store, {
              signal: controller.signal,
              onProgress: (progress) => onMessage({ type: 'progress', progress }),
              onStored: (entity, count) => onMessage({ type: 'stored', entity, count }),
            });
          } catch (error) {
            // The lock went with its connection, or the sync's own connection broke: both mean the
            // database went away under the sync. Said once, in words; the cause is kept.
            if (lost) throw new SyncInterrupted(lost);
            if (isConnectionLoss(error)) throw new SyncInterrupted(error);
            throw error;
          } finally {
            store.close();
            await db.query('UPDATE team_instances SET syncing = false WHERE instance_id = $1', [me.id]).catch(() => undefined);
          }
        } finally {
          lock.removeListener('error', onLockError);
          lock.removeListener('end', onLockEnd);
          // A lock whose connection ended is gone with it; the broken connection is dropped, not pooled.
          if (held && !lost) await lock.query('SELECT pg_advisory_unlock($1)', [SYNC_LOCK]).catch((e: Error) => void (lost = e));
          lock.release(lost);
        }
      })();
      running.add(result);
      void result.catch(() => undefined).finally(() => running.delete(result));
      return { result, cancel: (reason) => controller.abort(new Error(reason)) };
    },
    async close() {
      await Promise.allSettled([...running]);
    },
  };
}

/** What a PostgreSQL error means to the console, in words, when it is about reaching or writing the store. */
export function teamStoreProblem(error: unknown): string | undefined {
  if (error instanceof SyncInterrupted) return error.message;
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  if (isConnectionLoss(error))
    return `The team database cannot be reached (${(error as Error).message}). What was stored is kept; the sync continues from there once it is back.`;
  if (code === '53100')
    return 'The team database’s disk is full: nothing more could be stored. Free some space; the sync continues from there.';
  return undefined;
}

/** The team store as the core's store (store-opener.ts); the pool belongs to the server, which closes it. */
export function teamStoreOpener(
  db: PgDb,
  me: TeamInstance,
  anchor?: PostgresStorageOptions['anchor'],
  memo?: ReadMemo,
  auditKeys?: PostgresStorageOptions['auditKeys'],
): StoreOpener {
  return async () => {
    const storage = postgresStorage(db, {
      instanceId: me.id,
      ...(anchor ? { anchor } : {}),
      ...(memo ? { memo } : {}),
      ...(auditKeys ? { auditKeys } : {}),
    });
    // The anchor checked against the table before serving (a break found now is recorded in it).
    await storage.flush();
    let known = { servers: 1, syncingOn: null as string | null };
    return {
      storage,
      team: {
        async status() {
          // While the database is away, the servers last seen (the status says it is away, and since when).
          if (db.health.state === 'ok') {
            try {
              const servers = await liveInstances(db);
              const other = servers.find((i) => i.syncing && i.instanceId !== me.id);
              known = { servers: servers.length, syncingOn: other ? describeInstance(other) : null };
            } catch (error) {
              if (!isConnectionLoss(error)) throw error;
            }
          }
          return { ...known, database: { ...db.health } };
        },
        watch: (listener: (database: DatabaseHealth) => void) => db.watchHealth(listener),
      },
      engine: (target) => pgSyncEngine(db, target, me),
      mapError: () => undefined,
      storeFailure: (error) => {
        const problem = teamStoreProblem(error);
        return problem ? { problem } : undefined;
      },
      close: () => storage.flush(),
    };
  };
}
