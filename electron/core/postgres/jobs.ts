import type pg from 'pg';
import type { BulkItemState, BulkJobStore } from '../jobs/port.js';
import { bulkJobRecords } from '../jobs/store.js';
import type { QueryRunner } from '../query/query.js';
import type { PgDb } from './db.js';

/**
 * Bulk revocations, item by item, in the team store: a job a restart interrupted resumes with
 * exactly the items still pending, whichever server picks it up. The job's records are the same on
 * both engines (jobs/store.ts); what is the team store's own is here: who runs a job.
 *
 * The server running a job holds a session advisory lock on it, on a connection of its own, for
 * as long as it runs (as the syncing server holds the sync lock): a server killed mid-job loses it
 * with its connection, so another may resume the job at once; `owner` says which server holds it
 * (the jobs list, and the fence before each DELETE) and `owner_seen` when it was last heard from.
 * A holder not heard from for JOB_CLAIM_STALE_MS (hung, or cut off while its connection lingers)
 * has that connection ended by the server that takes the job over.
 */

/** A job's holder not heard from for this long is gone (hung, or cut off): another server may take the job. */
export const JOB_CLAIM_STALE_MS = 30_000;

/** The first key of the two-key advisory locks of bulk jobs ("cdrj"); the second is the job id's hash. */
const JOB_LOCK_SPACE = 0x6364726a;

/** The job's lock as pg_locks shows it, in this database. */
const JOB_LOCK = `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1::oid AND objid = hashtext($2)::oid
  AND objsubid = 2 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

export function pgBulkJobStore(db: PgDb, runner: QueryRunner, owner: string): BulkJobStore {
  /**
   * The jobs this server runs: each one's lock connection, given back (ended) as soon as it breaks;
   * the hold stays listed, lost, until the run's next renewal hears of it.
   */
  interface Hold {
    client: pg.PoolClient;
    /** Still checked out from the pool. */
    active: boolean;
    lost: Error | undefined;
    onError(error: Error): void;
  }
  const held = new Map<string, Hold>();
  /** Gives the lock's connection back, ended: its lock goes with it. */
  const end = (hold: Hold, error: Error) => {
    if (!hold.active) return;
    hold.active = false;
    hold.client.release(error); // its error listener stays, for the errors of its end
  };
  const tryLock = async (client: pg.PoolClient, jobId: string) =>
    (await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [JOB_LOCK_SPACE, jobId])).rows[0]!.ok;
  return {
    ...bulkJobRecords(runner),
    claim: async (jobId) => {
      const holding = held.get(jobId);
      if (holding) {
        const hold = holding;
        // Still running: heard from again, on the lock's own connection (a lost connection means a lost lock).
        const renewed =
          !hold.lost &&
          (await hold.client
            .query('UPDATE action_jobs SET owner_seen = now() WHERE job_id = $1 AND owner = $2', [jobId, owner])
            .then((r) => r.rowCount === 1)
            .catch(() => false));
        if (!renewed) {
          held.delete(jobId);
          end(hold, hold.lost ?? new Error('the bulk job was taken over by another team server'));
        }
        return renewed;
      }
      const client = await db.pool.connect();
      // A connection that breaks must not bring the process down: it is ended, and the next renewal says the hold is lost.
      const hold: Hold = {
        client,
        active: false,
        lost: undefined,
        onError: (error) => {
          hold.lost ??= error;
          end(hold, error);
        },
      };
      client.on('error', hold.onError);
      try {
        let ok = await tryLock(client, jobId);
        if (!ok) {
          // Held: by a server heard from lately (refused), or by one gone quiet, whose connection is ended.
          const ended = await client.query(
            `SELECT pg_terminate_backend(l.pid, 5000) FROM (${JOB_LOCK}) l, action_jobs j
             WHERE j.job_id = $2 AND j.owner_seen < now() - make_interval(secs => $3)`,
            [JOB_LOCK_SPACE, jobId, JOB_CLAIM_STALE_MS / 1000],
          );
          if (ended.rowCount) ok = await tryLock(client, jobId);
        }
        if (ok) await client.query('UPDATE action_jobs SET owner = $2, owner_seen = now() WHERE job_id = $1', [jobId, owner]);
        if (!ok) {
          client.off('error', hold.onError);
          client.release();
          return false;
        }
      } catch (error) {
        client.release(error as Error);
        throw error;
      }
      if (hold.lost) {
        client.release(hold.lost);
        return false;
      }
      hold.active = true;
      held.set(jobId, hold);
      return true;
    },
    release: async (jobId) => {
      await db.query('UPDATE action_jobs SET owner = NULL, owner_seen = NULL WHERE job_id = $1 AND owner = $2', [jobId, owner]);
      const hold = held.get(jobId);
      if (!hold) return;
      held.delete(jobId);
      if (!hold.active) return;
      const unlocked = await hold.client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [JOB_LOCK_SPACE, jobId]).then(
        () => undefined,
        (e: Error) => e,
      );
      if (unlocked ?? hold.lost) return end(hold, (unlocked ?? hold.lost)!);
      hold.active = false;
      hold.client.off('error', hold.onError);
      hold.client.release();
    },
    heldElsewhere: async (jobId) => {
      if (held.get(jobId)?.active) return undefined;
      const holder = await db.one<{ owner: string | null; host: string | null; pid: number | null }>(
        `SELECT j.owner, i.host, i.pid FROM action_jobs j LEFT JOIN team_instances i ON i.instance_id = j.owner
         WHERE j.job_id = $2 AND EXISTS (${JOB_LOCK})`,
        [JOB_LOCK_SPACE, jobId],
      );
      if (!holder) return undefined;
      return holder.host ? `the team server on ${holder.host} (process ${holder.pid})` : 'another team server';
    },
    item: (jobId, seq) =>
      db.one<BulkItemState>(
        'SELECT seq, consent_id AS "consentId", status, detail, sent_at AS "sentAt" FROM action_job_items WHERE job_id = $1 AND seq = $2',
        [jobId, seq],
      ),
    // Fenced: only while this server holds the job (one that took it over has set itself as owner).
    markSending: async (jobId, seq, at) =>
      (
        await db.query(
          `UPDATE action_job_items i SET sent_at = $3 FROM action_jobs j
           WHERE i.job_id = $1 AND i.seq = $2 AND j.job_id = i.job_id AND j.owner = $4 RETURNING 1`,
          [jobId, seq, at, owner],
        )
      ).length === 1,
  };
}
