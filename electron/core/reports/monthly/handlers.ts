import type { MonthlyPackRow } from '../../../../shared/ipc/contract.js';
import type { CoreContext, HandlersOf } from '../../context.js';
import { writeText } from '../../exports/log-exports.js';
import { month } from '../../../../shared/reports/month.js';
import type { PackSummary } from './port.js';
import { type MonthlyPackService, packFileName } from './service.js';

export interface MonthlyPackContext extends Pick<CoreContext, 'stores' | 'exports' | 'operator'> {
  service: MonthlyPackService;
  /** Makes the last ended month's pack if it is due, as the console (outside the request that asked). */
  makeDue(): void;
}

/** The monthly compliance pack (issue 38): its schedule (compliance and admins), the packs made, each exported as made. */
export function monthlyPackHandlers(
  ctx: MonthlyPackContext,
): HandlersOf<'reports:monthlyPacks' | 'reports:scheduleMonthlyPack' | 'reports:exportMonthlyPack'> {
  return {
    'reports:monthlyPacks': async () => {
      const [schedule, packs] = await Promise.all([ctx.stores.monthly.schedule(), ctx.stores.monthly.list(120)]);
      return { schedule: schedule ?? null, packs: packs.map(rowOf) };
    },
    'reports:scheduleMonthlyPack': async ({ enabled, timeZone }) => {
      const schedule = await ctx.service.setSchedule(enabled, timeZone, ctx.operator());
      // Turned on after a month ended: that month's pack is made now (when the cache was synced since).
      if (schedule.enabled) ctx.makeDue();
      return schedule;
    },
    'reports:exportMonthlyPack': async ({ period, format }) => {
      const pack = await ctx.service.get(period);
      const m = month(pack.period, pack.timeZone)!;
      const text = format === 'html' ? pack.html : pack.csv;
      return ctx.exports.start({
        kind: 'export-report',
        title: `Compliance pack ${m.text} (${format.toUpperCase()})`,
        name: packFileName(pack.period, format),
        write: (path) => writeText(path, text, text.split('\n').length),
        target: null,
        describe: (r) =>
          `monthly compliance pack for ${m.text} (${pack.timeZone}) exported as ${format.toUpperCase()} (sha256 ${r.sha256 ?? '?'})`,
      });
    },
  };
}

function rowOf(p: PackSummary): MonthlyPackRow {
  return {
    period: p.period,
    text: month(p.period, p.timeZone)!.text,
    timeZone: p.timeZone,
    from: p.from,
    to: p.to,
    madeAt: p.madeAt,
    madeBy: p.madeBy,
    sha256: p.sha256,
    sent: p.sent,
  };
}
