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
}
export type BulkStatus = BulkItem['status'];

export interface BulkJobStore {
  create(job: BulkJob & { jobId: string; consentIds: readonly string[] }): Promise<void>;
  job(jobId: string): Promise<BulkJob | undefined>;
  /** Every item of a job in order. */
  items(jobId: string): Promise<BulkItem[]>;
  /** A window of a job's items, and how many it has. */
  window(jobId: string, offset: number, limit: number): Promise<{ items: BulkItem[]; total: number }>;
  /** How many items of a job have each status. */
  counts(jobId: string): Promise<Record<BulkStatus, number>>;
  /** Jobs with items still pending: what a restart offers to resume. */
  pendingJobs(): Promise<string[]>;
  setItem(jobId: string, seq: number, status: BulkStatus, detail: string | null): Promise<void>;
  /**
   * Takes the job for this process while it runs it: false when another process of the store (a
   * team server) holds it and was heard from lately. Called again to say it is still running;
   * `release` gives it up. A store only one process writes to always says yes.
   */
  claim(jobId: string): Promise<boolean>;
  release(jobId: string): Promise<void>;
}
