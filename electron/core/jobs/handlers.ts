import type { Job } from '../../../shared/ipc/contract.js';
import { CoreError } from '../errors.js';
import type { ConsentActions } from '../consents/actions.js';
import { currentCaller } from '../../ipc/request-context.js';
import type { BulkJob } from './port.js';
import type { CoreContext, HandlersOf, Reachability } from '../context.js';
import { writeBulkResults } from '../exports/consents-export.js';
import { safeFileName } from '../exports/files.js';
import type { JobContext } from './jobs.js';

type JobChannels = 'jobs:list' | 'jobs:items' | 'jobs:export' | 'jobs:control' | 'bulk:revoke' | 'bulk:decide';

export interface JobsContext extends Pick<CoreContext, 'bus' | 'jobs' | 'exports'> {
  actions: ConsentActions;
  intermediary: Reachability;
  /** Settings' bulkApprovalOver: a signed-in person's bulk revocation of more consents waits for a second person. */
  approvalOver?: () => number;
}

const bulkTitle = (n: number) => `Revoke ${n.toLocaleString('en-AU')} consent${n === 1 ? '' : 's'}`;
const DEFAULT_RATE = 5;

/** Runs a bulk revocation job (new, or resumed after a restart), reporting each item. */
function bulkRevokeRun(ctx: JobsContext, jobId: string) {
  return async (job: JobContext) => {
    const report = async () => {
      const counts = await ctx.actions.bulkCounts(jobId);
      job.progress({ counts, done: counts.revoked + counts['already-inactive'] + counts.failed });
      return counts;
    };
    await report();
    await ctx.actions.runBulkRevoke(jobId, {
      perSecond: () => job.perSecond ?? DEFAULT_RATE,
      signal: job.signal,
      whilePaused: () => job.whilePaused(),
      // Each revocation's consent, events and audit entry were announced by the store (change-notices.ts).
      onItem: () => void report(),
    });
    const counts = await report();
    if (counts.pending && !job.signal.aborted) {
      ctx.intermediary.online = false;
      throw new Error(
        `The intermediary could not be reached: ${counts.pending} consents are still pending. Resume the job when it is back.`,
      );
    }
    return null;
  };
}

/**
 * Bulk revocations of the store with consents still pending that no run of this process holds:
 * listed as interrupted, resumable by the user — unless another team server runs it now: then it is
 * returned as running there (not resumable here; its progress reaches this server's consoles). An
 * interrupted job that another server has since finished is listed as finished. At start, and again
 * for each jobs list: team servers start, finish and stop jobs meanwhile.
 */
export async function registerInterruptedBulkJobs(ctx: JobsContext): Promise<Job[]> {
  const pending = new Set(await ctx.actions.pendingBulkJobs());
  for (const listed of ctx.jobs.list())
    if (listed.kind === 'bulk-revoke' && listed.state === 'interrupted' && !pending.has(listed.jobId)) {
      const counts = await ctx.actions.bulkCounts(listed.jobId);
      ctx.jobs.endInterrupted(listed.jobId, { counts, done: listed.total ?? listed.done, message: 'Finished by another team server.' });
    }
  const elsewhere: Job[] = [];
  // Held for a second person's approval: listed for every console, run by none until approved.
  for (const jobId of await ctx.actions.bulkAwaitingApproval()) {
    const [job, counts] = await Promise.all([ctx.actions.bulkJob(jobId), ctx.actions.bulkCounts(jobId)]);
    if (job) elsewhere.push(awaitingJob(jobId, job, counts));
  }
  for (const jobId of pending) {
    const known = ctx.jobs.find(jobId);
    if (known && known.state !== 'interrupted') continue; // run here (or stopped here by the operator)
    const [job, counts, by] = await Promise.all([
      ctx.actions.bulkJob(jobId),
      ctx.actions.bulkCounts(jobId),
      ctx.actions.bulkHeldElsewhere(jobId),
    ]);
    if (!job) continue;
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const listed = { jobId, kind: 'bulk-revoke' as const, title: bulkTitle(total), done: total - counts.pending, total, counts };
    if (by) {
      elsewhere.push({
        ...listed,
        state: 'running',
        startedAt: job.created,
        finishedAt: null,
        message: `Running on ${by}: its progress shows here; pause or cancel it from that server.`,
        perSecond: known?.perSecond ?? DEFAULT_RATE,
        result: null,
      });
      continue;
    }
    ctx.jobs.registerInterrupted(
      {
        ...listed,
        startedAt: job.created,
        message: 'Interrupted when the console (or the team server running it) stopped; resume to revoke the consents still pending.',
        perSecond: DEFAULT_RATE,
      },
      { total, perSecond: DEFAULT_RATE, pausable: true, run: bulkRevokeRun(ctx, jobId) },
    );
  }
  return elsewhere;
}

/** A bulk revocation waiting for a second person's approval, as the jobs list shows it. */
function awaitingJob(jobId: string, job: BulkJob, counts: Record<string, number>): Job {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return {
    jobId,
    kind: 'bulk-revoke',
    title: bulkTitle(total),
    state: 'awaiting-approval',
    done: 0,
    total,
    counts,
    startedAt: job.created,
    finishedAt: null,
    message: `Asked by ${job.operator} (“${job.reason}”): waiting for a second person with the support or admin role to approve or reject it. Nothing is sent until then.`,
    perSecond: DEFAULT_RATE,
    result: null,
  };
}

/** The jobs domain: long work in the background (bulk revocations, exports, data syncs), listed, controlled, their results. */
export function jobHandlers(ctx: JobsContext): HandlersOf<JobChannels> {
  const { jobs, actions } = ctx;
  const start = async (jobId: string, perSecond: number) => {
    const total = (await actions.bulkCounts(jobId)).pending;
    jobs.start({ jobId, kind: 'bulk-revoke', title: bulkTitle(total), total, perSecond, pausable: true, run: bulkRevokeRun(ctx, jobId) });
  };
  return {
    'jobs:list': async () => {
      const elsewhere = new Map((await registerInterruptedBulkJobs(ctx)).map((j) => [j.jobId, j]));
      const here = jobs.list();
      return [...[...elsewhere.values()].filter((j) => !jobs.find(j.jobId)), ...here.map((j) => elsewhere.get(j.jobId) ?? j)].slice(0, 200);
    },
    'jobs:control': async ({ jobId, action, perSecond }) => {
      // A bulk job not running here may be running on another team server: that server controls it.
      const state = jobs.find(jobId)?.state;
      if ((state === undefined || state === 'interrupted') && (await actions.bulkJob(jobId))) {
        const by = await actions.bulkHeldElsewhere(jobId);
        if (by) throw new CoreError('BUSY', `This bulk revocation is running on ${by}: ${action} it from a console of that server.`);
      }
      return jobs.control(jobId, action, perSecond);
    },
    'jobs:items': async ({ jobId, offset, limit }) => {
      if (!(await actions.bulkJob(jobId))) throw new CoreError('NOT_FOUND', `Job ${jobId} has no items.`);
      return actions.bulkItemsWindow(jobId, offset, limit);
    },
    'jobs:export': async ({ jobId, format }) => {
      if (!(await actions.bulkJob(jobId))) throw new CoreError('NOT_FOUND', `Job ${jobId} has no results to export.`);
      return ctx.exports.start({
        kind: 'export-results',
        title: `Export results of ${jobs.get(jobId).title.toLowerCase()}`,
        name: `${safeFileName('bulk-revoke-results', jobId.slice(0, 8))}.${format}`,
        write: (path) => writeBulkResults(actions, jobId, format, path),
        target: null,
        describe: (r) => `results of bulk revocation ${jobId} exported as ${format.toUpperCase()} (${r.rows ?? 0} rows)`,
      });
    },
    'bulk:revoke': async ({ consentIds, reason, perSecond }) => {
      // A signed-in person's large revocation waits for a second person (issue 20): both names are audited.
      const caller = currentCaller();
      const over = ctx.approvalOver?.() ?? Infinity;
      if (caller && new Set(consentIds.map((c) => c.trim())).size > over) {
        const jobId = await actions.createBulkRevoke(consentIds, reason, caller.userId);
        const [job, counts] = await Promise.all([actions.bulkJob(jobId), actions.bulkCounts(jobId)]);
        ctx.bus.emit('jobs:progress', awaitingJob(jobId, job!, counts));
        return { jobId, awaitingApproval: true };
      }
      const jobId = await actions.createBulkRevoke(consentIds, reason);
      await start(jobId, perSecond ?? DEFAULT_RATE);
      return { jobId };
    },
    'bulk:decide': async ({ jobId, decision, reason }) => {
      const job = await actions.bulkJob(jobId);
      if (!job?.approval) throw new CoreError('NOT_FOUND', 'This bulk revocation does not wait for an approval.');
      const caller = currentCaller();
      if (!caller) throw new CoreError('FORBIDDEN', 'A bulk revocation is approved by a person signed in to the team server.');
      if (job.approval.requestedBy === caller.userId)
        throw new CoreError(
          'FORBIDDEN',
          'A second person approves a bulk revocation: you asked for this one. A colleague with the support or admin role approves or rejects it.',
        );
      const decided = () =>
        `This bulk revocation was already ${job.approval?.decision === 'reject' ? 'rejected' : 'approved'}${job.approval?.decidedBy ? ` by ${job.approval.decidedBy}` : ''}.`;
      if (job.approval.decision) throw new CoreError('INVALID_INPUT', decided());
      if (!(await actions.decideBulk(jobId, decision, reason ?? null))) {
        const now = await actions.bulkJob(jobId);
        throw new CoreError(
          'INVALID_INPUT',
          now?.approval
            ? `This bulk revocation was already decided${now.approval.decidedBy ? ` by ${now.approval.decidedBy}` : ''}.`
            : decided(),
        );
      }
      const counts = await actions.bulkCounts(jobId);
      if (decision === 'approve') await start(jobId, DEFAULT_RATE);
      else
        ctx.bus.emit('jobs:progress', {
          ...awaitingJob(jobId, job, counts),
          state: 'cancelled',
          finishedAt: new Date().toISOString(),
          message: `Rejected${reason ? ` (“${reason}”)` : ''}: nothing was sent.`,
        });
      return { jobId, decision };
    },
  };
}
