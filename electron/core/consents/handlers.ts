import type { Job } from '../../../shared/ipc/contract.js';
import type { CoreContext, HandlersOf, Reachability } from '../context.js';
import { exportConsentsToFile, type ConsentExportInput } from '../exports/consents-export.js';
import { writeEvidencePack } from '../exports/evidence-pack.js';
import { stamp } from '../exports/exporter.js';
import { safeFileName } from '../exports/files.js';
import { CoreError } from '../errors.js';
import type { ConsentActions } from './actions.js';
import { readConsentDetail } from './detail.js';

type ConsentChannels =
  | 'consents:list'
  | 'consents:count'
  | 'consents:options'
  | 'consents:ids'
  | 'consents:resolve'
  | 'consents:get'
  | 'consents:export'
  | 'evidence:export'
  | 'reference:list'
  | 'consents:create'
  | 'consents:revoke'
  | 'consents:update'
  | 'authorization:start'
  | 'authorization:decode'
  | 'authorization:complete';

/** The audit log's words for an export of consents: how many, what, which view. */
export function describeConsentExport(r: NonNullable<Job['result']>, input: ConsentExportInput): string {
  return `${r.rows ?? 0} consents exported as ${input.format.toUpperCase()} (${r.bytes ?? 0} bytes, sha256 ${r.sha256 ?? '?'}); filter ${JSON.stringify(input.filter)}; sort ${input.sort.field} ${input.sort.direction}`;
}

export interface ConsentsContext extends Pick<CoreContext, 'stores' | 'bus' | 'exports' | 'operator' | 'clock'> {
  actions: ConsentActions;
  intermediary: Reachability;
  /** What the evidence pack says about where it comes from. */
  about: { appVersion: string; profile: { id: string; name: string; environment: string } };
  /** Where the consumer is sent back after authorising, when the renderer names none. */
  redirectUri: string;
}

/**
 * The consents domain: the list and its filters, one consent's detail, exports and evidence packs
 * (read from the store), and the actions staff take on consents at the intermediary.
 */
export function consentHandlers(ctx: ConsentsContext): HandlersOf<ConsentChannels> {
  const { stores, actions } = ctx;
  const detail = (consentId: string) => readConsentDetail(stores, consentId);

  /** Runs an action; its outcome also tells whether the intermediary is reachable. */
  async function reportingReach<T>(run: () => Promise<T>): Promise<T> {
    try {
      const result = await run();
      ctx.intermediary.online = true;
      // What it stored was announced by the store (change-notices.ts).
      return result;
    } catch (error) {
      if (error instanceof CoreError && error.code === 'OFFLINE') ctx.intermediary.online = false;
      throw error;
    }
  }

  return {
    'consents:list': async ({ filter, sort, offset, limit, withCount }) => {
      const rows = await stores.consents.list({ filter, sort, offset, limit });
      return withCount ? { rows, count: await stores.consents.count(filter) } : { rows };
    },
    'consents:count': async ({ filter }) => stores.consents.count(filter),
    'consents:options': async () => stores.consents.options(),
    'consents:ids': async ({ filter, sort, limit }) => {
      const [ids, count] = await Promise.all([stores.consents.ids(filter, sort, limit), stores.consents.count(filter)]);
      return { ids, total: count.total };
    },
    'consents:resolve': async ({ consentIds }) => stores.consents.resolve(consentIds),
    'consents:get': async ({ consentId }) => detail(consentId),
    'consents:export': async (input) =>
      ctx.exports.start({
        kind: 'export-consents',
        title: `Export consents to ${input.format.toUpperCase()}`,
        name: `${safeFileName('consents', stamp(ctx.clock(), input.timeZone))}.${input.format}`,
        write: (path, job) =>
          exportConsentsToFile(stores.consents, input, path, {
            signal: job.signal,
            onProgress: (done, total) => job.progress({ done, total }),
          }),
        target: null,
        describe: (r) => describeConsentExport(r, input),
      }),
    'evidence:export': async ({ consentId, timeZone }) => {
      const found = await detail(consentId);
      const generatedAt = ctx.clock().toISOString();
      const name = `${safeFileName('evidence', consentId, stamp(new Date(generatedAt), timeZone))}.zip`;
      return ctx.exports.start({
        kind: 'evidence-pack',
        title: `Evidence pack of ${consentId}`,
        name,
        write: async (path) =>
          writeEvidencePack(
            {
              detail: found,
              complaints: [...(await stores.complaints.list({ consentId }, 0, 1000)).rows].reverse(),
              verification: await stores.audit.verify(),
              generatedAt,
              generatedBy: ctx.operator(),
              appVersion: ctx.about.appVersion,
              profile: ctx.about.profile,
              timeZone,
            },
            path,
          ),
        target: consentId,
        describe: (r) => `evidence pack ${name} (${r.bytes ?? 0} bytes, sha256 ${r.sha256 ?? '?'})`,
      });
    },
    'reference:list': async () => {
      const [useCases, combinedUseCases, dataHolders] = await Promise.all([
        stores.reference.useCases(),
        stores.reference.combinedUseCases(),
        stores.reference.dataHolders(),
      ]);
      return { useCases, combinedUseCases, dataHolders };
    },
    'consents:create': async (input) => reportingReach(() => actions.create(input)),
    'consents:revoke': async ({ consentId, reason }) => reportingReach(() => actions.revoke(consentId, reason)),
    'consents:update': async ({ consentId, change, reason }) => reportingReach(() => actions.update(consentId, change, reason)),
    'authorization:start': async ({ consentId, redirectUri, sharingEndDate }) =>
      reportingReach(() =>
        actions.startAuthorization(consentId, {
          redirectUri: redirectUri ?? ctx.redirectUri,
          ...(sharingEndDate ? { sharingEndDate } : {}),
        }),
      ),
    'authorization:decode': async ({ response, consentId }) => actions.decodeResponse(response, consentId),
    'authorization:complete': async ({ consentId, response }) => reportingReach(() => actions.completeAuthorization(consentId, response)),
  };
}
