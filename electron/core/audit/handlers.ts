import { CoreError } from '../errors.js';
import type { CoreContext, HandlersOf } from '../context.js';
import { stamp } from '../exports/exporter.js';
import { safeFileName } from '../exports/files.js';
import { auditText, writeAuditExport } from '../exports/log-exports.js';

type AuditChannels =
  'audit:list' | 'audit:verify' | 'audit:checkpoint' | 'audit:export' | 'audit:query' | 'audit:options' | 'audit:exportFile';

/** The audit domain: the staff action log, its hash chain's verification, and its exports. */
export function auditHandlers(ctx: Pick<CoreContext, 'stores' | 'exports' | 'clock'>): HandlersOf<AuditChannels> {
  const audit = ctx.stores.audit;
  return {
    'audit:list': async ({ target, limit }) => audit.entries({ ...(target ? { target } : {}), limit }),
    'audit:verify': async ({ checkpoint }) => audit.verify(checkpoint ? { checkpoint } : {}),
    'audit:checkpoint': async () => {
      if (!audit.checkpoint)
        throw new CoreError(
          'INVALID_INPUT',
          "Checkpoints are a team server's: a solo console's log is anchored in its own data directory (its head anchor).",
        );
      try {
        return await audit.checkpoint();
      } catch (error) {
        if (error instanceof RangeError) throw new CoreError('INVALID_INPUT', error.message);
        throw error;
      }
    },
    'audit:export': async ({ format }) => {
      const all = await audit.entries();
      return { content: auditText(all, format, audit.keepsClient), entries: all.length };
    },
    'audit:query': async ({ filter, offset, limit }) => audit.query(filter, offset, limit),
    'audit:options': async () => audit.options(),
    'audit:exportFile': async ({ filter, format, timeZone }) =>
      ctx.exports.start({
        kind: 'export-audit',
        title: `Export the audit log to ${format.toUpperCase()}`,
        name: `${safeFileName('audit-log', stamp(ctx.clock(), timeZone))}.${format}`,
        write: async (path, job) => writeAuditExport(audit, await audit.verify(), filter, format, path, job.signal, timeZone),
        target: null,
        describe: (r) =>
          `${r.rows ?? 0} audit entries exported as ${format.toUpperCase()} (sha256 ${r.sha256 ?? '?'}); filter ${JSON.stringify(filter)}`,
      }),
  };
}
