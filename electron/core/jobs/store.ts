import type { BulkItem } from '../../../shared/ipc/contract.js';
import type { Queries, QueryRunner } from '../query/query.js';
import { jobOfRow } from './job-row.js';
import type { BulkItemState, BulkJobStore, BulkStatus } from './port.js';

/**
 * A store's part of the bulk revocations that is the same on both engines, written once over the
 * typed query layer (query/query.ts): the job and its items, the second person's decision, each
 * item's outcome. What differs stays with each adapter: who runs a job (a team server holds it with
 * an advisory lock; one process writes a solo cache) and the fence before each DELETE
 * (`markSending`). The storage contract suites run it on both engines.
 */
export type BulkJobRecords = Omit<BulkJobStore, 'claim' | 'release' | 'heldElsewhere' | 'markSending'>;

/** Items per INSERT: 4 parameters each, far below either engine's limit (SQLite 32,766, PostgreSQL 65,535). */
const ITEMS_PER_INSERT = 2_000;

export function bulkJobRecords(db: QueryRunner): BulkJobRecords {
  const items = (q: Queries, jobId: string) =>
    q
      .selectFrom('action_job_items')
      .select(['seq', 'consent_id as consentId', 'status', 'detail'])
      .where('job_id', '=', jobId)
      .orderBy('seq');
  const bulkJob = (q: Queries) => q.selectFrom('action_jobs').where('kind', '=', 'bulk-revoke');

  return {
    async create({ jobId, created, operator, reason, consentIds, awaitingApprovalOf }) {
      const q = await db.queries();
      const inserts = [];
      for (let start = 0; start < consentIds.length; start += ITEMS_PER_INSERT)
        inserts.push(
          q
            .insertInto('action_job_items')
            .values(
              consentIds
                .slice(start, start + ITEMS_PER_INSERT)
                .map((id, i) => ({ job_id: jobId, seq: start + i + 1, consent_id: id, status: 'pending' })),
            ),
        );
      await db.batch([
        q.insertInto('action_jobs').values({
          job_id: jobId,
          kind: 'bulk-revoke',
          created,
          operator,
          reason,
          approval_requested_by: awaitingApprovalOf ?? null,
        }),
        ...inserts,
      ]);
    },

    async job(jobId) {
      const q = await db.queries();
      const [r] = await db.all(
        bulkJob(q)
          .select(['reason', 'created', 'operator', 'approval_requested_by', 'approval_decision', 'approval_by'])
          .where('job_id', '=', jobId),
      );
      return r && jobOfRow(r);
    },

    async awaitingApproval() {
      const q = await db.queries();
      const rows = await db.all(
        bulkJob(q)
          .select('job_id')
          .where('approval_requested_by', 'is not', null)
          .where('approval_decision', 'is', null)
          .orderBy('created')
          .orderBy('job_id'),
      );
      return rows.map((r) => r.job_id);
    },

    // One decision, whichever server is asked first: the UPDATE's condition decides. A rejected
    // job's pending items are settled as failed in the same transaction, by the decision just taken.
    async decide(jobId, decision, by, at) {
      const q = await db.queries();
      const [decided] = await db.batch([
        q
          .updateTable('action_jobs')
          .set({ approval_decision: decision, approval_by: by, approval_at: at })
          .where('job_id', '=', jobId)
          .where('approval_requested_by', 'is not', null)
          .where('approval_decision', 'is', null)
          .returning('job_id'),
        ...(decision === 'reject'
          ? [
              q
                .updateTable('action_job_items')
                .set({ status: 'failed', detail: `not approved: rejected by ${by}; nothing was sent` })
                .where('job_id', '=', jobId)
                .where('status', '=', 'pending')
                .where(({ exists, selectFrom }) =>
                  exists(
                    selectFrom('action_jobs')
                      .select('job_id')
                      .where('job_id', '=', jobId)
                      .where('approval_decision', '=', 'reject')
                      .where('approval_by', '=', by)
                      .where('approval_at', '=', at),
                  ),
                ),
            ]
          : []),
      ]);
      return decided!.length === 1;
    },

    async items(jobId) {
      const q = await db.queries();
      return (await db.all(items(q, jobId))) as BulkItem[];
    },

    async window(jobId, offset, limit) {
      const q = await db.queries();
      const [rows, [count]] = await Promise.all([
        db.all(items(q, jobId).limit(limit).offset(offset)),
        db.all(
          q
            .selectFrom('action_job_items')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('job_id', '=', jobId),
        ),
      ]);
      return { items: rows as BulkItem[], total: Number(count!.n) };
    },

    async counts(jobId) {
      const q = await db.queries();
      const counts: Record<BulkStatus, number> = { pending: 0, revoked: 0, 'already-inactive': 0, failed: 0 };
      const rows = await db.all(
        q
          .selectFrom('action_job_items')
          .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
          .where('job_id', '=', jobId)
          .groupBy('status'),
      );
      for (const r of rows) counts[r.status as BulkStatus] = Number(r.n);
      return counts;
    },

    async pendingJobs() {
      const q = await db.queries();
      const rows = await db.all(
        q
          .selectFrom('action_job_items as i')
          .innerJoin('action_jobs as j', 'j.job_id', 'i.job_id')
          .select('i.job_id')
          .distinct()
          .where('i.status', '=', 'pending')
          .where((eb) => eb.or([eb('j.approval_requested_by', 'is', null), eb('j.approval_decision', '=', 'approve')]))
          .orderBy('i.job_id'),
      );
      return rows.map((r) => r.job_id);
    },

    async item(jobId, seq) {
      const q = await db.queries();
      const [r] = await db.all(
        q
          .selectFrom('action_job_items')
          .select(['seq', 'consent_id as consentId', 'status', 'detail', 'sent_at as sentAt'])
          .where('job_id', '=', jobId)
          .where('seq', '=', seq),
      );
      return r as BulkItemState | undefined;
    },

    async setItem(jobId, seq, status, detail) {
      const q = await db.queries();
      await db.all(q.updateTable('action_job_items').set({ status, detail }).where('job_id', '=', jobId).where('seq', '=', seq));
    },
  };
}
