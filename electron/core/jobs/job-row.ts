import type { BulkJob } from './port.js';

/** A bulk job's approval as both stores keep it (snake_case columns of action_jobs). */
export interface ApprovalColumns {
  approval_requested_by: string | null;
  approval_decision: string | null;
  approval_by: string | null;
}

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
