import type { ActionJobsTable } from '../query/schema.js';
import type { BulkJob } from './port.js';

/** A bulk job's approval as both stores keep it (the columns of action_jobs, query/schema.ts). */
export type ApprovalColumns = Pick<ActionJobsTable, 'approval_requested_by' | 'approval_decision' | 'approval_by'>;

/** A job row with its approval columns, as the port's BulkJob. */
export function jobOfRow(r: Omit<BulkJob, 'approval'> & ApprovalColumns): BulkJob {
  return {
    reason: r.reason,
    created: r.created,
    operator: r.operator,
    approval: r.approval_requested_by
      ? {
          requestedBy: r.approval_requested_by,
          decision: r.approval_decision === 'approve' || r.approval_decision === 'reject' ? r.approval_decision : null,
          decidedBy: r.approval_by,
        }
      : null,
  };
}
