import { create } from 'zustand';
import type { Job } from '../../../../shared/ipc/contract.js';

/**
 * Jobs running in main (bulk revocations, exports, evidence packs), as their progress events
 * arrive. One store for the whole console: the status bar's jobs indicator, each job's dialog and
 * the jobs drawer all read it.
 */
export interface JobsState {
  jobs: Record<string, Job>;
  /** Downloads already handed to the browser (a one-time link must not be opened twice). */
  delivered: Record<string, true>;
  put(job: Job): void;
  putAll(jobs: Job[]): void;
  markDelivered(jobId: string): void;
}

export const useJobsStore = create<JobsState>()((set) => ({
  jobs: {},
  delivered: {},
  put: (job) => set((s) => ({ jobs: { ...s.jobs, [job.jobId]: job } })),
  putAll: (jobs) => set((s) => ({ jobs: { ...s.jobs, ...Object.fromEntries(jobs.map((j) => [j.jobId, j])) } })),
  markDelivered: (jobId) => set((s) => ({ delivered: { ...s.delivered, [jobId]: true } })),
}));

export const useJob = (jobId: string | null | undefined) => useJobsStore((s) => (jobId ? s.jobs[jobId] : undefined));

export const isEnded = (job: Job | undefined) => !!job && ['finished', 'failed', 'cancelled'].includes(job.state);

/** Hands a finished export to the user: the browser host's one-time download link, followed once. */
export function deliverDownload(job: Job): boolean {
  const download = job.result?.download;
  const { delivered, markDelivered } = useJobsStore.getState();
  if (!download || delivered[job.jobId]) return false;
  markDelivered(job.jobId);
  const a = document.createElement('a');
  a.href = download.url;
  a.download = download.name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  return true;
}
