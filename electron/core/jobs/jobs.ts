import { randomUUID } from 'node:crypto';
import type { Job } from '../../../shared/ipc/contract.js';
import { CoreError } from '../errors.js';

/**
 * Long work in main — bulk revocation, exports, evidence packs — runs as a job: the request that
 * starts it returns its id at once, progress and the result reach the UI as `jobs:progress` events,
 * and the user can pause, resume, cancel or (for rate-limited work) change its rate. No IPC request
 * ever waits for a whole job (the browser host's socket would time out first).
 */
export type JobKind = Job['kind'];

/** What a running job can read and report. */
export interface JobContext {
  readonly signal: AbortSignal;
  /** Items per second this job may send, as the user last set it. */
  readonly perSecond: number | null;
  /** Resolves at once, or when the user resumes a paused job (rejects when it is cancelled). */
  whilePaused(): Promise<void>;
  progress(update: Partial<Pick<Job, 'done' | 'total' | 'counts' | 'message'>>): void;
}

export interface JobSpec {
  kind: JobKind;
  title: string;
  total?: number | null;
  perSecond?: number | null;
  /** Whether it can be paused and resumed (work that goes item by item). */
  pausable?: boolean;
  /** Does the work; what it returns is the job's result. */
  run(ctx: JobContext): Promise<Job['result']>;
  /** An id to reuse (a job resumed after a restart keeps its id). */
  jobId?: string;
}

interface Entry {
  job: Job;
  controller: AbortController;
  pausable: boolean;
  resumeWaiters: (() => void)[];
  lastEmit: number;
  emitTimer: ReturnType<typeof setTimeout> | undefined;
}

/** At most this many progress events per second per job: a 10,000-item job must not flood the socket. */
const EMIT_EVERY_MS = 100;
/** Finished jobs kept for the jobs list. */
const KEEP_FINISHED = 50;

export class JobRegistry {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly emit: (job: Job) => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  list(): Job[] {
    return [...this.entries.values()].map((e) => e.job).reverse();
  }

  get(jobId: string): Job {
    const entry = this.entries.get(jobId);
    if (!entry) throw new CoreError('NOT_FOUND', `There is no job ${jobId} (jobs are kept until the console restarts).`);
    return entry.job;
  }

  /** The job, if it is listed here. */
  find(jobId: string): Job | undefined {
    return this.entries.get(jobId)?.job;
  }

  /** An interrupted job that another process (a team server) has since run to its end: no longer resumable. */
  endInterrupted(jobId: string, update: Partial<Pick<Job, 'done' | 'counts' | 'message'>>): void {
    const entry = this.entries.get(jobId);
    if (entry?.job.state !== 'interrupted') return;
    this.interruptedRuns.delete(jobId);
    entry.job = { ...entry.job, ...update, state: 'finished', finishedAt: this.now().toISOString() };
    this.emitNow(entry);
  }

  /**
   * A job that exists but does not run: one interrupted by a restart, that the user may resume.
   * `resume` is what runs when they do.
   */
  registerInterrupted(job: Omit<Job, 'state' | 'finishedAt' | 'result'>, resume: Omit<JobSpec, 'kind' | 'title'>): void {
    const entry: Entry = {
      job: { ...job, state: 'interrupted', finishedAt: null, result: null },
      controller: new AbortController(),
      pausable: true,
      resumeWaiters: [],
      lastEmit: 0,
      emitTimer: undefined,
    };
    this.entries.set(job.jobId, entry);
    this.interruptedRuns.set(job.jobId, { ...resume, kind: job.kind, title: job.title, jobId: job.jobId });
  }
  private readonly interruptedRuns = new Map<string, JobSpec>();

  start(spec: JobSpec): Job {
    const jobId = spec.jobId ?? randomUUID();
    const previous = this.entries.get(jobId)?.job;
    const entry: Entry = {
      job: {
        jobId,
        kind: spec.kind,
        title: spec.title,
        state: 'running',
        done: previous?.done ?? 0,
        total: spec.total ?? previous?.total ?? null,
        counts: previous?.counts ?? {},
        startedAt: previous?.startedAt ?? this.now().toISOString(),
        finishedAt: null,
        message: null,
        perSecond: spec.perSecond ?? previous?.perSecond ?? null,
        result: null,
      },
      controller: new AbortController(),
      pausable: spec.pausable ?? false,
      resumeWaiters: [],
      lastEmit: 0,
      emitTimer: undefined,
    };
    this.entries.delete(jobId); // re-inserted last: the newest job first in the list
    this.entries.set(jobId, entry);
    this.prune();
    const ctx: JobContext = {
      signal: entry.controller.signal,
      get perSecond() {
        return entry.job.perSecond;
      },
      whilePaused: () =>
        entry.job.state !== 'paused'
          ? Promise.resolve()
          : new Promise<void>((resolve, reject) => {
              entry.resumeWaiters.push(resolve);
              entry.controller.signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
            }),
      progress: (update) => {
        entry.job = { ...entry.job, ...update };
        this.emitSoon(entry);
      },
    };
    this.emitNow(entry);
    void spec.run(ctx).then(
      (result) => this.finish(entry, entry.controller.signal.aborted ? 'cancelled' : 'finished', result, null),
      (error: unknown) =>
        this.finish(
          entry,
          entry.controller.signal.aborted ? 'cancelled' : 'failed',
          null,
          entry.controller.signal.aborted ? 'Cancelled by the operator.' : (error as Error).message,
        ),
    );
    return entry.job;
  }

  control(jobId: string, action: 'pause' | 'resume' | 'cancel' | 'rate', perSecond?: number): Job {
    const entry = this.entries.get(jobId);
    if (!entry) throw new CoreError('NOT_FOUND', `There is no job ${jobId}.`);
    const { state } = entry.job;
    const ended = state === 'finished' || state === 'failed' || state === 'cancelled';
    switch (action) {
      case 'rate':
        if (perSecond === undefined) throw new CoreError('INVALID_INPUT', 'Give the new rate (items per second).');
        entry.job = { ...entry.job, perSecond };
        break;
      case 'pause':
        if (ended) throw new CoreError('INVALID_INPUT', `The job has ${state}; it cannot be paused.`);
        if (!entry.pausable) throw new CoreError('INVALID_INPUT', 'This job cannot be paused; cancel it instead.');
        if (state === 'running') entry.job = { ...entry.job, state: 'paused', message: 'Paused by the operator.' };
        break;
      case 'resume':
        if (state === 'interrupted') {
          const spec = this.interruptedRuns.get(jobId);
          this.interruptedRuns.delete(jobId);
          if (spec) return this.start({ ...spec, perSecond: perSecond ?? entry.job.perSecond });
        }
        if (state === 'paused') {
          entry.job = { ...entry.job, state: 'running', message: null };
          entry.resumeWaiters.splice(0).forEach((resume) => resume());
        }
        break;
      case 'cancel':
        if (ended) break;
        if (state === 'interrupted') {
          this.interruptedRuns.delete(jobId);
          entry.job = { ...entry.job, state: 'cancelled', finishedAt: this.now().toISOString(), message: 'Cancelled by the operator.' };
        } else {
          entry.controller.abort(new Error('cancelled by the operator'));
          entry.job = { ...entry.job, message: 'Cancelling…' };
        }
        break;
    }
    this.emitNow(entry);
    return entry.job;
  }

  private finish(entry: Entry, state: Job['state'], result: Job['result'], message: string | null): void {
    entry.job = { ...entry.job, state, result, finishedAt: this.now().toISOString(), message: message ?? entry.job.message };
    if (state === 'cancelled' && !message) entry.job.message = 'Cancelled by the operator.';
    this.emitNow(entry);
  }

  private emitSoon(entry: Entry): void {
    const wait = entry.lastEmit + EMIT_EVERY_MS - Date.now();
    if (wait <= 0) return this.emitNow(entry);
    entry.emitTimer ??= setTimeout(() => this.emitNow(entry), wait);
  }

  private emitNow(entry: Entry): void {
    if (entry.emitTimer) clearTimeout(entry.emitTimer);
    entry.emitTimer = undefined;
    entry.lastEmit = Date.now();
    this.emit(entry.job);
  }

  private prune(): void {
    const ended = [...this.entries.values()].filter((e) => ['finished', 'failed', 'cancelled'].includes(e.job.state));
    for (const e of ended.slice(0, Math.max(0, ended.length - KEEP_FINISHED))) this.entries.delete(e.job.jobId);
  }

  /** Cancels everything running (the console is closing). */
  async close(): Promise<void> {
    for (const e of this.entries.values()) {
      if (e.emitTimer) clearTimeout(e.emitTimer);
      e.controller.abort(new Error('closing'));
    }
  }
}

/** Waits `ms`, or less when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
