import type { AppStatus, TeamStatus } from '../../../shared/ipc/contract.js';
import { CoreError } from '../../ipc/router.js';
import { approveInSandbox } from '../connection.js';
import type { CoreContext, HandlersOf, Reachability } from '../context.js';
import type { SyncService } from '../sync/service.js';

export interface AppContext extends Pick<CoreContext, 'stores'> {
  about: Pick<AppStatus, 'appVersion' | 'host' | 'profile' | 'keyStorage'>;
  sync: SyncService;
  link: Reachability;
  /** The embedded sandbox's address, when the profile is the embedded one. */
  sandboxUrl: string | undefined;
  /** A team server's team (store-opener.ts). */
  team?: { status(): Promise<TeamStatus> } | undefined;
}

/** The app as a whole: what the status bar shows, and the embedded sandbox's simulated approval. */
export function appHandlers(ctx: AppContext): HandlersOf<'app:status' | 'sandbox:approve'> {
  /** What the store said last: a team server whose database is away keeps showing it (the team status says why). */
  let known = { lastSyncAt: null as string | null, consentCount: 0 };
  const fromStore = async () => {
    try {
      known = { lastSyncAt: await ctx.sync.lastSyncAt(), consentCount: await ctx.stores.consents.total() };
    } catch (error) {
      if (!ctx.team) throw error;
    }
    return known;
  };
  return {
    'app:status': async () => {
      const team = ctx.team ? await ctx.team.status() : undefined;
      return {
        ...ctx.about,
        ...(team?.database?.state === 'unreachable' ? known : await fromStore()),
        lastSyncError: ctx.sync.lastError,
        online: ctx.link.online,
        syncing: ctx.sync.syncing,
        ...(team ? { team } : {}),
      };
    },
    'sandbox:approve': async ({ uri }) => {
      if (!ctx.sandboxUrl) throw new CoreError('FORBIDDEN', 'Simulated approval exists only in the embedded sandbox.');
      return { response: await approveInSandbox(ctx.sandboxUrl, uri) };
    },
  };
}
