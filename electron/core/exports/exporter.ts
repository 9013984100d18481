import { zonedStamp } from '../../../shared/time/zone.js';
import type { Job } from '../../../shared/ipc/contract.js';
import type { AuditStore } from '../audit/port.js';
import type { JobContext, JobRegistry } from '../jobs/jobs.js';
import type { FileSink } from './files.js';

type JobResult = NonNullable<Job['result']>;

/** How an export is written and how the audit log describes it. */
export interface ExportSpec {
  kind: Exclude<Job['kind'], 'bulk-revoke' | 'data-sync'>;
  title: string;
  /** The file name offered to the user. */
  name: string;
  write: (path: string, ctx: JobContext) => Promise<JobResult>;
  /** The consent it is about, or null. */
  target: string | null;
  describe: (r: JobResult) => string;
}

export type ExportStarted = { jobId: string } | { cancelled: true };

/**
 * Every export the console writes: asks where it goes (the user may cancel), runs it as a job,
 * delivers it and audits it; a failed or cancelled export leaves no file behind.
 */
export interface Exporter {
  start(spec: ExportSpec): Promise<ExportStarted>;
}

export function createExporter(deps: { files: FileSink; jobs: JobRegistry; audit: AuditStore; operator: () => string }): Exporter {
  return {
    async start(spec) {
      const target = await deps.files.open(spec.name);
      if (!target) return { cancelled: true };
      const job = deps.jobs.start({
        kind: spec.kind,
        title: spec.title,
        run: async (ctx) => {
          try {
            const written = await spec.write(target.path, ctx);
            const delivered = await target.deliver();
            await deps.audit.append({
              operator: deps.operator(),
              action: spec.kind,
              target: spec.target,
              reason: null,
              result: spec.describe(written),
            });
            return { ...written, ...delivered };
          } catch (error) {
            target.discard();
            throw error;
          }
        },
      });
      return { jobId: job.jobId };
    },
  };
}

/**
 * A file name's time stamp: now, to the second, in the console's zone and naming it
 * ("2026-11-28T22:40:05 Australia/Sydney"); UTC without a name when the caller gave no zone (the
 * command line, and the files scripts named before issue 34).
 */
export const stamp = (now: Date = new Date(), timeZone?: string) => (timeZone ? zonedStamp(now, timeZone) : now.toISOString().slice(0, 19));
