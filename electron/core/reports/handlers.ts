import type { CoreContext, HandlersOf } from '../context.js';
import { csvRows } from '../exports/csv.js';
import { safeFileName } from '../exports/files.js';
import { writeText } from '../exports/log-exports.js';
import { complianceCsvRows, complianceHtml, complianceReport } from './compliance.js';

export interface ReportsContext extends Pick<CoreContext, 'stores' | 'exports' | 'clock' | 'operator'> {
  /** What the HTML report says it was made with. */
  about: { profile: string; appVersion: string };
}

/** The reports domain: the compliance report of a period, on screen and as a file. */
export function reportHandlers(ctx: ReportsContext): HandlersOf<'reports:compliance' | 'reports:export'> {
  return {
    'reports:compliance': async (period) => complianceReport(ctx.stores.reports, period, ctx.clock()),
    'reports:export': async ({ from, to, format }) => {
      const report = await complianceReport(ctx.stores.reports, { from, to }, ctx.clock());
      return ctx.exports.start({
        kind: 'export-report',
        title: `Compliance report ${from.slice(0, 10)} – ${to.slice(0, 10)} (${format.toUpperCase()})`,
        name: `${safeFileName('cdr-compliance-report', from.slice(0, 10), to.slice(0, 10))}.${format}`,
        write: async (path) =>
          writeText(
            path,
            format === 'csv'
              ? csvRows(complianceCsvRows(report))
              : complianceHtml(report, { profile: ctx.about.profile, operator: ctx.operator(), appVersion: ctx.about.appVersion }),
            report.counts.length,
          ),
        target: null,
        describe: (r) => `compliance report ${from} – ${to} exported as ${format.toUpperCase()} (sha256 ${r.sha256 ?? '?'})`,
      });
    },
  };
}
