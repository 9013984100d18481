import { halfYearOf } from '../../../../shared/reports/rule94.js';
import type { CoreContext, HandlersOf } from '../../context.js';
import { CoreError } from '../../errors.js';
import { csvRows } from '../../exports/csv.js';
import { safeFileName } from '../../exports/files.js';
import { writeText } from '../../exports/log-exports.js';
import { rule94Html, rule94Rows } from './render.js';
import { reportView, type Rule94Service } from './service.js';
import type { Rule94Store } from './port.js';

type Rule94Channels =
  'biannual:list' | 'biannual:get' | 'biannual:prepare' | 'biannual:answer' | 'biannual:recount' | 'biannual:signOff' | 'biannual:export';

export interface Rule94Context extends Pick<CoreContext, 'exports' | 'clock' | 'operator'> {
  rule94: Rule94Store;
  service: Rule94Service;
  /** What an exported report says it was made with. */
  about: { profile: string; appVersion: string };
}

/** The rule 9.4 reports (issue 38): read by everyone; prepared, answered, counted again, signed off and exported by compliance. */
export function rule94Handlers(ctx: Rule94Context): HandlersOf<Rule94Channels> {
  const stored = async (period: string) => {
    const r = await ctx.rule94.get(period);
    if (!r)
      throw new CoreError('NOT_FOUND', `There is no rule 9.4 report for ${period} yet: it is made on the first day after the half-year.`);
    return r;
  };
  return {
    'biannual:list': async () => {
      const current = halfYearOf(ctx.clock());
      const reports = (await ctx.rule94.list()).map((r) => {
        const { figures: _f, answers: _a, ...rest } = reportView(r);
        return rest;
      });
      return { reports, current: { period: current.id, text: current.text, dueOn: current.dueOn } };
    },
    'biannual:get': async ({ period }) => reportView(await stored(period)),
    'biannual:prepare': async ({ period }) => reportView(await ctx.service.prepare(period, ctx.operator())),
    'biannual:answer': async ({ period, version, answers }) =>
      reportView(await ctx.service.answer(period, version, answers, ctx.operator())),
    'biannual:recount': async ({ period, version }) => reportView(await ctx.service.recount(period, version, ctx.operator())),
    'biannual:signOff': async ({ period, version }) => reportView(await ctx.service.signOff(period, version, ctx.operator())),
    'biannual:export': async ({ period, format }) => {
      const r = reportView(await stored(period));
      const meta = { ...ctx.about, exportedBy: ctx.operator(), exportedAt: ctx.clock().toISOString() };
      return ctx.exports.start({
        kind: 'export-rule94',
        title: `Rule 9.4 report ${r.text} (${format.toUpperCase()})`,
        name: `${safeFileName('cdr-rule-9.4-report', r.period, r.state === 'signed' ? 'signed' : 'draft')}.${format}`,
        write: async (path) => writeText(path, format === 'csv' ? csvRows(rule94Rows(r, meta)) : rule94Html(r, meta), r.figures.length),
        target: null,
        describe: (w) =>
          `rule 9.4 report ${r.text} (${r.state === 'signed' ? `signed, archived sha256 ${r.sha256}` : 'draft'}) exported as ${format.toUpperCase()} (file sha256 ${w.sha256 ?? '?'})`,
      });
    },
  };
}
