import type { BulkItem } from '../../../shared/ipc/contract.js';
import type { BulkJob, BulkJobStore, BulkStatus } from '../jobs/port.js';
import type { PgDb } from './db.js';

/**
 * Bulk revocations, item by item, in the team store: a job a restart interrupted resumes with
 * exactly the items still pending, whichever server picks it up (`claim` in jobs' runner marks
 * who holds it).
 */
export const JOBS_SCHEMA = `
CREATE TABLE action_jobs (
  job_id   text PRIMARY KEY,
  kind     text NOT NULL,
  created  text NOT NULL,
  operator text NOT NULL,
  reason   text NOT NULL,
  owner    text,
  owner_seen timestamptz
);
CREATE TABLE action_job_items (
  job_id     text NOT NULL REFERENCES action_jobs (job_id),
  seq        integer NOT NULL,
  consent_id text NOT NULL,
  status     text NOT NULL DEFAULT 'pending',
  detail     text,
  PRIMARY KEY (job_id, seq)
);
CREATE INDEX action_job_items_pending ON action_job_items (job_id) WHERE status = 'pending';
`;

const ITEMS = 'SELECT seq, consent_id AS "consentId", status, detail FROM action_job_items WHERE job_id = $1 ORDER BY seq';

/** A job's holder not heard from for this long is gone (killed): another server may take the job. */
export const JOB_CLAIM_STALE_MS = 30_000;

export function pgBulkJobStore(db: PgDb, owner: string): BulkJobStore {
  return {
    claim: async (jobId) =>
      (
        await db.query(
          `UPDATE action_jobs SET owner = $2, owner_seen = now()
           WHERE job_id = $1 AND (owner IS NULL OR owner = $2 OR owner_seen < now() - make_interval(secs => $3)) RETURNING 1`,
          [jobId, owner, JOB_CLAIM_STALE_MS / 1000],
        )
      ).length === 1,
    release: async (jobId) =>
      void (await db.query('UPDATE action_jobs SET owner = NULL, owner_seen = NULL WHERE job_id = $1 AND owner = $2', [jobId, owner])),
    create: ({ jobId, created, operator, reason, consentIds }) =>
      db.tx(async (tx) => {
        await tx.query('INSERT INTO action_jobs (job_id, kind, created, operator, reason) VALUES ($1, $2, $3, $4, $5)', [
          jobId,
          'bulk-revoke',
          created,
          operator,
          reason,
        ]);
        await tx.copy(
          'action_job_items',
          ['job_id', 'seq', 'consent_id'],
          consentIds.map((id, i) => [jobId, i + 1, id]),
        );
      }),
    job: (jobId) =>
      db.one<BulkJob>("SELECT reason, created, operator FROM action_jobs WHERE job_id = $1 AND kind = 'bulk-revoke'", [jobId]),
    items: (jobId) => db.query<BulkItem>(ITEMS, [jobId]),
    window: async (jobId, offset, limit) => ({
      items: await db.query<BulkItem>(`${ITEMS} LIMIT $2 OFFSET $3`, [jobId, limit, offset]),
      total: (await db.one<{ n: number }>('SELECT count(*) AS n FROM action_job_items WHERE job_id = $1', [jobId]))!.n,
    }),
    counts: async (jobId) => {
      const counts: Record<BulkStatus, number> = { pending: 0, revoked: 0, 'already-inactive': 0, failed: 0 };
      for (const r of await db.query<{ status: BulkStatus; n: number }>(
        'SELECT status, count(*) AS n FROM action_job_items WHERE job_id = $1 GROUP BY status',
        [jobId],
      ))
        counts[r.status] = r.n;
      return counts;
    },
    pendingJobs: async () =>
      (await db.query<{ job_id: string }>("SELECT DISTINCT job_id FROM action_job_items WHERE status = 'pending' ORDER BY job_id")).map(
        (r) => r.job_id,
      ),
    setItem: async (jobId, seq, status, detail) =>
      void (await db.query('UPDATE action_job_items SET status = $1, detail = $2 WHERE job_id = $3 AND seq = $4', [
        status,
        detail,
        jobId,
        seq,
      ])),
  };
}
