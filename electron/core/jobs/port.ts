import type { BulkItem } from '../../../shared/ipc/contract.js';

/**
 * The jobs domain's storage port: bulk revocations, kept in the store item by item so that a job a
 * restart interrupted resumes with exactly the items still pending. (The job registry itself, what
 * runs now and its progress, lives in memory: jobs.ts.)
 */
export interface BulkJob {
  reason: string;
  created: string;
  operator: string;
  /**
   * A job held for a second person's approval (a team server): who asked (their user id), and the
   * decision once taken (by whom: the audit log's words). Null for a job that needed none.
   */
  approval?: { requestedBy: string; decision: 'approve' | 'reject' | null; decidedBy: string | null } | null;
}
export type BulkStatus = BulkItem['status'];
/**
 * An item as the run reads it: when an earlier run was about to send its DELETE (`sentAt`), the
 * request may have reached the intermediary before that run was killed.
 */
export interface BulkItemState extends BulkItem {
  sentAt: string | null;
}

export interface BulkJobStore {
  /** A new job; with `awaitingApprovalOf` (the asker's user id) it waits for a second person's decision. */
  create(job: Omit<BulkJob, 'approval'> & { jobId: string; consentIds: readonly string[]; awaitingApprovalOf?: string }): Promise<void>;
  /** Jobs waiting for a second person's approval, oldest first. */
  awaitingApproval(): Promise<string[]>;
  /**
   * Records the decision on a job awaiting approval: false, with nothing changed, when it is not
   * awaiting one (decided already, here or on another server). A rejected job's items are settled
   * as failed ("not approved"): nothing of it is ever sent.
   */
  decide(jobId: string, decision: 'approve' | 'reject', by: string, at: string): Promise<boolean>;
  job(jobId: string): Promise<BulkJob | undefined>;
  /** Every item of a job in order. */
  items(jobId: string): Promise<BulkItem[]>;
  /** A window of a job's items, and how many it has. */
  window(jobId: string, offset: number, limit: number): Promise<{ items: BulkItem[]; total: number }>;
  /** How many items of a job have each status. */
  counts(jobId: string): Promise<Record<BulkStatus, number>>;
  /** Jobs with items still pending (not those awaiting approval): what a restart offers to resume. */
  pendingJobs(): Promise<string[]>;
  setItem(jobId: string, seq: number, status: BulkStatus, detail: string | null): Promise<void>;
  /** One item as it is now (read under the consent's lock: another run may have settled it). */
  item(jobId: string, seq: number): Promise<BulkItemState | undefined>;
  /**
   * Records that the item's DELETE is about to be sent (before it is): a run killed after this
   * asks the intermediary on resume instead of sending it again. False, with nothing recorded,
   * when this process no longer holds the job (another team server took it over): send nothing.
   */
  markSending(jobId: string, seq: number, at: string): Promise<boolean>;
  /**
   * Takes the job for this process while it runs it: false when another process of the store (a
   * team server) holds it. Called again to say it is still running: false then when the hold was
   * lost (the run must stop at once). `release` gives it up. A store only one process writes to
   * always says yes.
   */
  claim(jobId: string): Promise<boolean>;
  release(jobId: string): Promise<void>;
  /** Who runs the job now when it is another process of the store (words for the jobs list); undefined when none does. */
  heldElsewhere(jobId: string): Promise<string | undefined>;
}
