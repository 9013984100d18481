import type { AppStatus } from '../../../shared/ipc/contract.js';
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
  team?: { status(): Promise<{ servers: number; syncingOn: string | null }> } | undefined;
}

/** The app as a whole: what the status bar shows, and the embedded sandbox's simulated approval. */
export function appHandlers(ctx: AppContext): HandlersOf<'app:status' | 'sandbox:approve'> {
  return {
    'app:status': async () => ({
      ...ctx.about,
      lastSyncAt: await ctx.sync.lastSyncAt(),
      lastSyncError: ctx.sync.lastError,
      online: ctx.link.online,
      syncing: ctx.sync.syncing,
      consentCount: await ctx.stores.consents.total(),
      ...(ctx.team ? { team: await ctx.team.status() } : {}),
    }),
    'sandbox:approve': async ({ uri }) => {
      if (!ctx.sandboxUrl) throw new CoreError('FORBIDDEN', 'Simulated approval exists only in the embedded sandbox.');
      return { response: await approveInSandbox(ctx.sandboxUrl, uri) };
    },
  };
}
