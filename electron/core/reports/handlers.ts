import type { CoreContext, HandlersOf } from '../context.js';
import { csvRows } from '../exports/csv.js';
import { safeFileName } from '../exports/files.js';
import { writeText } from '../exports/log-exports.js';
import { complianceCsvRows, complianceHtml, complianceReport } from './compliance.js';
import { localPeriod, zoneOf } from './period.js';

export interface ReportsContext extends Pick<CoreContext, 'stores' | 'exports' | 'clock' | 'operator'> {
  /** What the HTML report says it was made with. */
  about: { profile: string; appVersion: string };
}

/** The reports domain: the compliance report of a period, on screen and as a file. */
export function reportHandlers(ctx: ReportsContext): HandlersOf<'reports:compliance' | 'reports:export'> {
  return {
    'reports:compliance': async (period) => complianceReport(ctx.stores.reports, period, ctx.clock()),
    'reports:export': async ({ from, to, format, timeZone }) => {
      const report = await complianceReport(ctx.stores.reports, { from, to }, ctx.clock());
      // The period as the person chose it: their calendar days, in their zone (issue 34).
      const period = localPeriod(report.from, report.to, zoneOf(timeZone));
      return ctx.exports.start({
        kind: 'export-report',
        title: `Compliance report ${period.text} (${format.toUpperCase()})`,
        name: `${safeFileName('cdr-compliance-report', period.firstDay, period.lastDay)}.${format}`,
        write: async (path) =>
          writeText(
            path,
            format === 'csv'
              ? csvRows(complianceCsvRows(report, period))
              : complianceHtml(report, period, { profile: ctx.about.profile, operator: ctx.operator(), appVersion: ctx.about.appVersion }),
            report.counts.length,
          ),
        target: null,
        describe: (r) =>
          `compliance report ${period.text} (${period.timeZone}; ${report.from} – ${report.to} UTC) exported as ${format.toUpperCase()} (sha256 ${r.sha256 ?? '?'})`,
      });
    },
  };
}
