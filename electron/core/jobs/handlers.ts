import { CoreError } from '../../ipc/router.js';
import type { ConsentActions } from '../consents/actions.js';
import type { CoreContext, HandlersOf, Reachability } from '../context.js';
import { writeBulkResults } from '../exports/consents-export.js';
import { safeFileName } from '../exports/files.js';
import type { JobContext } from './jobs.js';

type JobChannels = 'jobs:list' | 'jobs:items' | 'jobs:export' | 'jobs:control' | 'bulk:revoke';

export interface JobsContext extends Pick<CoreContext, 'bus' | 'jobs' | 'exports'> {
  actions: ConsentActions;
  link: Reachability;
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
      onItem: () => {
        void report();
        ctx.bus.emit('cache:changed', { entity: 'consents', count: 1 });
      },
    });
    const counts = await report();
    if (counts.pending && !job.signal.aborted) {
      ctx.link.online = false;
      throw new Error(
        `The intermediary could not be reached: ${counts.pending} consents are still pending. Resume the job when it is back.`,
      );
    }
    return null;
  };
}

/** Bulk revocations a restart interrupted: listed as interrupted, resumable by the user. */
export async function registerInterruptedBulkJobs(ctx: JobsContext): Promise<void> {
  for (const jobId of await ctx.actions.pendingBulkJobs()) {
    const [job, counts] = await Promise.all([ctx.actions.bulkJob(jobId), ctx.actions.bulkCounts(jobId)]);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    ctx.jobs.registerInterrupted(
      {
        jobId,
        kind: 'bulk-revoke',
        title: bulkTitle(total),
        done: total - counts.pending,
        total,
        counts,
        startedAt: job!.created,
        message: 'Interrupted when the console stopped; resume to revoke the consents still pending.',
        perSecond: DEFAULT_RATE,
      },
      { total, perSecond: DEFAULT_RATE, pausable: true, run: bulkRevokeRun(ctx, jobId) },
    );
  }
}

/** The jobs domain: long work in the background (bulk revocations, exports, data syncs), listed, controlled, their results. */
export function jobHandlers(ctx: JobsContext): HandlersOf<JobChannels> {
  const { jobs, actions } = ctx;
  return {
    'jobs:list': async () => jobs.list(),
    'jobs:control': async ({ jobId, action, perSecond }) => jobs.control(jobId, action, perSecond),
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
      const jobId = await actions.createBulkRevoke(consentIds, reason);
      const total = (await actions.bulkCounts(jobId)).pending;
      jobs.start({
        jobId,
        kind: 'bulk-revoke',
        title: bulkTitle(total),
        total,
        perSecond: perSecond ?? DEFAULT_RATE,
        pausable: true,
        run: bulkRevokeRun(ctx, jobId),
      });
      return { jobId };
    },
  };
}
